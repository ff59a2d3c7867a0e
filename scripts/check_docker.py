#!/usr/bin/env python3
"""CI check of the Docker image's and compose.yaml's promises, without a container engine (none runs in CI).

hadolint lints the Dockerfile's style; this checks what it cannot know: the image starts the bot with
the command the README names (the same program ./run starts), from a pinned python:3.11.x-slim, runs as a
user without privileges, keeps the database on a volume that the README's `docker run` mounts whatever
.env.example (given as --env-file) says, has a HEALTHCHECK and a STOPSIGNAL, and copies files that exist.
compose.yaml is parsed (PyYAML) and checked against the compose specification's shape (top-level keys,
service keys, depends_on conditions, health checks, declared volumes) and against the bot: PostgreSQL 15 with
a pg_isready health check on a named volume, two bot processes as shards 0 and 1 of 2 on that database,
started once it is healthy, and every variable it sets one that skatbot/config.py reads.

    python scripts/check_docker.py [ROOT]      exit 0 when all holds, 1 with the problems listed
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

START_COMMAND = re.compile(r"start\s+command\s+is\s+`([^`]+)`")
DOCKER_RUN = re.compile(r"^docker run .*$", re.MULTILINE)


@dataclass
class Image:
    """What a Dockerfile says about the image it builds (the last stage)."""

    cmd: list[str] | None = None
    cmd_is_exec_form: bool = False
    user: str | None = None
    volumes: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    copied: list[str] = field(default_factory=list)
    base: str = ""
    workdir: str = "/"
    healthcheck: str | None = None
    stopsignal: str | None = None


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined and comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        word, _, rest = line.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def parse(text: str) -> Image:
    image = Image()
    for word, rest in instructions(text):
        if word == "FROM":
            image = Image(base=rest.split()[0])  # only the final stage is the image
        elif word == "WORKDIR":
            image.workdir = rest
        elif word == "HEALTHCHECK":
            image.healthcheck = rest
        elif word == "STOPSIGNAL":
            image.stopsignal = rest
        elif word == "CMD":
            try:
                parsed = json.loads(rest)
                image.cmd, image.cmd_is_exec_form = [str(part) for part in parsed], isinstance(parsed, list)
            except json.JSONDecodeError:
                image.cmd, image.cmd_is_exec_form = shlex.split(rest), False
        elif word == "USER":
            image.user = rest
        elif word == "VOLUME":
            image.volumes += json.loads(rest) if rest.startswith("[") else rest.split()
        elif word == "ENV":
            for pair in shlex.split(rest):
                key, _, value = pair.partition("=")
                image.env[key] = value
        elif word == "COPY" and "--from=" not in rest:  # files from another stage are not the project's
            parts = [part for part in shlex.split(rest) if not part.startswith("--")]
            image.copied += parts[:-1]
    return image


def problems(root: Path) -> list[str]:
    """Everything that does not hold, as sentences saying what to fix."""
    found: list[str] = []
    image = parse((root / "Dockerfile").read_text())
    readme = (root / "README.md").read_text()
    if image.cmd is None:
        return ["the Dockerfile has no CMD: the image would not start the bot"]
    if not image.cmd_is_exec_form:
        found.append("CMD must be in exec form, CMD [\"python\", \"bot.py\"], so signals reach the bot")
    named = START_COMMAND.findall(readme)
    if not named:
        found.append("the README does not name the image's start command (\"start command is `...`\")")
    elif any(shlex.split(command) != image.cmd for command in named):
        found.append(f"the README's start command {named} is not the image's CMD {' '.join(image.cmd)!r}")
    script = next((part for part in image.cmd if part.endswith(".py")), None)
    run_script = (root / "run").read_text() if (root / "run").exists() else ""
    exec_lines = [line for line in run_script.splitlines() if line.strip().startswith("exec ")]
    if script is None or not exec_lines or exec_lines[-1].split()[-1] != script:
        found.append(f"./run and the image must start the same program (image: {script}, ./run: {exec_lines})")
    user = (image.user or "root").split(":")[0]
    if user in ("root", "0"):
        found.append("the image must run as a user without privileges (USER, not root)")
    env_example = env_assignments((root / ".env.example").read_text()) if (root / ".env.example").exists() else {}
    database = image_database(image, env_example)
    folder = next((volume for volume in image.volumes if database.startswith(volume.rstrip("/") + "/")), "")
    if not folder:
        found.append(f"the database ({database}) must live on a VOLUME (volumes: {image.volumes}), also with "
                     f".env.example as the --env-file; {database} is outside the volume")
    found += image_problems(image, env_example, root)
    runs = DOCKER_RUN.findall(readme)
    if not runs or not all(re.search(rf"-v \S+:{re.escape(folder)}(\s|$)", run) for run in runs if folder):
        found.append(f"every `docker run` in the README must mount a volume at {folder or 'the database folder'}")
    for source in image.copied:
        if not (root / source).exists():
            found.append(f"COPY {source}: no such file in the project")
    if (root / "compose.yaml").exists():
        compose = load_compose(root / "compose.yaml")
        found += compose_problems(compose, settings_read(root / "skatbot" / "config.py"))
        if not re.search(r"^docker compose up -d\s*(#.*)?$", readme, re.MULTILINE):
            found.append("the README must show how to start compose.yaml: `docker compose up -d`")
        if not re.search(r"docker run [^\n]*--network \S+[^\n]*skatbot\.storage copy", readme):
            found.append("the README must show how to move an SQLite volume into compose's PostgreSQL with "
                         "`docker run ... --network ... python -m skatbot.storage copy ...`")
        found += recipe_problems(readme, compose)
        found += anonymous_volume_problems(compose, image)
    else:
        found.append("compose.yaml is missing (PostgreSQL 15 and two shard processes)")
    return found


PINNED_BASE = re.compile(r"^python:3\.11\.\d+-slim(-\w+)?(@sha256:[0-9a-f]{64})?$")
DEFAULT_DATABASE = "skatbot.sqlite3"


def env_assignments(text: str) -> dict[str, str]:
    """The variables an env file sets (as `docker run --env-file` reads it: KEY=VALUE lines, # comments)."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = re.match(r"^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def image_database(image: Image, env_file: dict[str, str]) -> str:
    """Where the bot in the image keeps its SQLite file when started with `env_file` as --env-file (which
    overrides the image's ENV; an empty value means the default, as skatbot/config.py reads it)."""
    def value(name: str) -> str:
        return env_file.get(name, image.env.get(name, "")).strip()

    raw = value("SKATBOT_DATABASE") or DEFAULT_DATABASE
    path = PurePosixPath(raw)
    if not path.is_absolute():
        path = PurePosixPath(value("SKATBOT_DATA_DIR") or image.workdir) / path
    return str(path)


def image_problems(image: Image, env_example: dict[str, str], root: Path) -> list[str]:
    """The base image, the health check, the stop signal, and .env.example not overriding the image's settings."""
    found: list[str] = []
    if not PINNED_BASE.match(image.base):
        found.append(f"the base image must be pinned to a release, python:3.11.N-slim, not {image.base!r}")
    if image.healthcheck is None or "skatbot.healthcheck" not in image.healthcheck:
        found.append("the image needs a HEALTHCHECK that runs python -m skatbot.healthcheck (/healthz)")
    elif not image.env.get("SKATBOT_METRICS_PORT"):
        found.append("the HEALTHCHECK asks /healthz, so the image must set SKATBOT_METRICS_PORT")
    if image.stopsignal not in ("SIGTERM", "SIGINT"):
        found.append("the image needs a STOPSIGNAL the bot stops cleanly on (SIGTERM)")
    settings = settings_read(root / "skatbot" / "config.py")
    for name in sorted(set(image.env) & set(env_example) & settings):
        found.append(f".env.example sets {name}, which overrides the image's {name}={image.env[name]} when "
                     "passed as --env-file: leave it out (a comment)")
    return found


def settings_read(config: Path) -> set[str]:
    """The environment variables the bot reads: skatbot/config.py's *_VAR names."""
    if not config.exists():
        return set()
    return set(re.findall(r'^\w+_VAR = "([A-Z_]+)"', config.read_text(), re.MULTILINE))


# --- compose.yaml ---------------------------------------------------------------------------------------------

TOP_LEVEL = {"version", "name", "services", "networks", "volumes", "configs", "secrets", "include", "models"}
SERVICE_KEYS = {
    "build", "image", "command", "entrypoint", "environment", "env_file", "depends_on", "healthcheck", "restart",
    "volumes", "ports", "expose", "networks", "stop_grace_period", "stop_signal", "user", "working_dir", "labels",
    "logging", "deploy", "container_name", "hostname", "init", "profiles", "secrets", "configs", "ulimits", "tmpfs",
    "extra_hosts", "read_only", "cap_add", "cap_drop", "security_opt", "shm_size", "platform", "pull_policy",
    "mem_limit", "cpus", "sysctls", "develop", "scale", "attach", "annotations"}
RESTART = re.compile(r"^(no|always|unless-stopped|on-failure(:\d+)?)$")
NAME = re.compile(r"^[a-zA-Z0-9._-]+$")
CONDITIONS = {"service_started", "service_healthy", "service_completed_successfully"}
DURATION = re.compile(r"^(\d+(\.\d+)?(us|ms|s|m|h))+$")
PG_ISREADY_TCP = re.compile(r"pg_isready\b.*(-h|--host)[ =]?(127\.0\.0\.1|localhost|::1)\b")
HEALTH_KEYS = {"test", "interval", "timeout", "retries", "start_period", "start_interval", "disable"}


def load_compose(path: Path) -> dict[str, Any]:
    document = yaml.safe_load(path.read_text())  # merge keys (<<: *bot) are resolved here, as compose does
    return document if isinstance(document, dict) else {}


def bot_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services that run the bot: built from this project."""
    services = compose.get("services") or {}
    return {name: service for name, service in services.items() if isinstance(service, dict) and "build" in service}


def _environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict(str(item).partition("=")[::2] for item in env)
    return {str(key): "" if value is None else str(value) for key, value in env.items()}


def shape_problems(compose: dict[str, Any]) -> list[str]:
    """Where the file leaves the compose specification's shape (the part this project uses)."""
    found = [f"compose.yaml: unknown top-level key {key!r}" for key in compose
             if key not in TOP_LEVEL and not str(key).startswith("x-")]
    services = compose.get("services")
    if not isinstance(services, dict) or not services:
        return [*found, "compose.yaml: no services"]
    declared = set((compose.get("volumes") or {}).keys())
    found += [f"compose.yaml: {kind} name {name!r} has characters compose does not allow" for kind, names in
              (("service", services), ("volume", declared)) for name in names if not NAME.match(str(name))]
    for name, service in services.items():
        where = f"compose.yaml: service {name}"
        if not isinstance(service, dict):
            found.append(f"{where} is not a mapping")
            continue
        found += [f"{where}: unknown key {key!r}" for key in service if key not in SERVICE_KEYS]
        if "image" not in service and "build" not in service:
            found.append(f"{where} needs an image or a build")
        if "restart" in service and not RESTART.match(str(service["restart"])):
            found.append(f"{where}: restart {service['restart']!r} is not a restart policy")
        depends = service.get("depends_on") or {}
        for other, spec in (depends.items() if isinstance(depends, dict) else ((d, {}) for d in depends)):
            if other not in services:
                found.append(f"{where} depends on {other!r}, which is no service")
            if isinstance(depends, dict) and not isinstance(spec, dict):
                found.append(f"{where}: depends_on {other} must be a mapping with a condition")
                continue
            condition = spec.get("condition") if isinstance(depends, dict) else "service_started"
            if condition not in CONDITIONS:
                found.append(f"{where}: depends_on condition {condition!r} is not one of {sorted(CONDITIONS)}")
        check = service.get("healthcheck")
        if check is not None:
            found += [f"{where}: healthcheck key {key!r} is unknown" for key in check if key not in HEALTH_KEYS]
            test = check.get("test")
            if not (isinstance(test, str) or (isinstance(test, list) and test and test[0] in ("CMD", "CMD-SHELL", "NONE"))):
                found.append(f"{where}: healthcheck test must be a string or a list starting CMD, CMD-SHELL or NONE")
            found += [f"{where}: healthcheck {key} {check[key]!r} is not a duration" for key in
                      ("interval", "timeout", "start_period") if key in check and not DURATION.match(str(check[key]))]
        for volume in service.get("volumes") or []:
            source = str(volume).split(":")[0]
            if ":" in str(volume) and not source.startswith(("/", ".", "~", "$")) and source not in declared:
                found.append(f"{where}: volume {source!r} is not declared under the top-level volumes")
    return found


def compose_problems(compose: dict[str, Any], settings: set[str]) -> list[str]:
    """The shape, then what the bot needs: PostgreSQL 15, healthy first, shards 0 and 1 of 2 on it."""
    found = shape_problems(compose)
    services = compose.get("services") or {}
    databases = {name: s for name, s in services.items()
                 if isinstance(s, dict) and str(s.get("image", "")).startswith("postgres:")}
    if len(databases) != 1:
        return [*found, "compose.yaml needs one PostgreSQL service (image postgres:15)"]
    [(db_name, db)] = databases.items()
    if not str(db["image"]).startswith("postgres:15"):
        found.append(f"compose.yaml: the database must be PostgreSQL 15 (image postgres:15), not {db['image']}")
    test = (db.get("healthcheck") or {}).get("test", "")
    command = " ".join(test[1:]) if isinstance(test, list) else str(test)
    if "pg_isready" not in command:
        found.append(f"compose.yaml: {db_name} needs a healthcheck that runs pg_isready")
    elif not PG_ISREADY_TCP.search(command):
        found.append(f"compose.yaml: {db_name}'s pg_isready must ask over TCP (-h 127.0.0.1): on a new volume the "
                     "image first runs a temporary server on the Unix socket only, which a socket check takes for "
                     "ready, and the bots would start against a database about to restart")
    if not any(str(v).endswith(":/var/lib/postgresql/data") and not str(v).startswith(("/", "."))
               for v in db.get("volumes") or []):
        found.append(f"compose.yaml: {db_name} must keep /var/lib/postgresql/data on a named volume")
    bots = bot_services(compose)
    environments = {name: _environment(service) for name, service in bots.items()}
    for name, env in environments.items():
        found += [f"compose.yaml: {name} sets {key}, which is not a setting the bot reads (skatbot/config.py)"
                  for key in env if key.startswith(("SKATBOT_", "DISCORD_")) and key not in settings]
        condition = ((bots[name].get("depends_on") or {}).get(db_name) or {}) if isinstance(
            bots[name].get("depends_on"), dict) else {}
        if condition.get("condition") != "service_healthy":
            found.append(f"compose.yaml: {name} must start after {db_name} is healthy (condition: service_healthy)")
        url = env.get("SKATBOT_DATABASE_URL", "")
        if not re.match(rf"^postgres(ql)?://[^@/]+@{re.escape(db_name)}(:5432)?/", url):
            found.append(f"compose.yaml: {name} must use the {db_name} service in SKATBOT_DATABASE_URL, not {url!r}")
    shards = sorted((env.get("SKATBOT_SHARD_COUNT", ""), env.get("SKATBOT_SHARD_IDS", "")) for env in environments.values())
    if shards != [("2", "0"), ("2", "1")]:
        found.append(f"compose.yaml: the bots must run shards 0 and 1 of 2 (SKATBOT_SHARD_COUNT, SKATBOT_SHARD_IDS), "
                     f"not {shards}")
    if len({env.get("SKATBOT_DATABASE_URL") for env in environments.values()}) > 1:
        found.append("compose.yaml: both bots must share one SKATBOT_DATABASE_URL")
    return found


def anonymous_volume_problems(compose: dict[str, Any], image: Image) -> list[str]:
    """A bot service that mounts nothing at the image's VOLUME gets a new anonymous volume with each container,
    and `docker compose down` (without -v) leaves the old ones behind: every down and up added two."""
    found: list[str] = []
    for name, service in bot_services(compose).items():
        mounted = {str(entry).split(":")[0] for entry in service.get("tmpfs") or []}
        for volume in service.get("volumes") or []:
            target = volume.get("target") if isinstance(volume, dict) else str(volume).split(":")[1:2]
            mounted.update([target] if isinstance(target, str) else target or [])
        found += [f"compose.yaml: {name} mounts nothing at the image's volume {path} (a tmpfs or a named volume): "
                  "each container gets an anonymous volume there, which `docker compose down` leaves behind"
                  for path in image.volumes if path.rstrip("/") not in {m.rstrip("/") for m in mounted}]
    return found


def recipe_problems(readme: str, compose: dict[str, Any]) -> list[str]:
    """The README's move of an SQLite volume into compose's PostgreSQL, as a daemon runs it: the database must be
    healthy before the copy (`up -d` returns once the container started, while a new volume's database is still
    being created: the copy then fails with "connection refused"), on the network compose names."""
    found: list[str] = []
    lines = readme.splitlines()
    copy = next((n for n, line in enumerate(lines) if re.search(r"skatbot\.storage copy", line)
                 and line.startswith("docker run")), None)
    if copy is None:
        return found
    databases = [name for name, s in (compose.get("services") or {}).items()
                 if isinstance(s, dict) and str(s.get("image", "")).startswith("postgres:")]
    before = lines[max(0, copy - 5):copy]
    starts = [line for line in before if re.match(r"^docker compose up\b", line)
              and any(re.search(rf"\s{re.escape(db)}(\s|$)", line) for db in databases)]
    if not starts or not all(re.search(r"\s--wait(\s|$)", line) for line in starts):
        found.append("the README's copy into compose's PostgreSQL must start the database with "
                     "`docker compose up -d --wait db` (healthy before the copy), not " + repr(starts))
    network = re.search(r"--network (\S+)", lines[copy])
    expected = f"{compose.get('name', '')}_default"
    if network and network.group(1) != expected:
        found.append(f"the README's copy runs on the network {network.group(1)}, but compose.yaml's is {expected}")
    return found


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    found = problems(root)
    for problem in found:
        print(f"check_docker: {problem}", file=sys.stderr)
    if not found:
        print("check_docker: the image starts the README's command, as a user without privileges, from a pinned "
              "base, with the database on a volume, a HEALTHCHECK and a STOPSIGNAL; compose.yaml has the shape of "
              "the compose specification and runs shards 0 and 1 of 2 on PostgreSQL 15")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
