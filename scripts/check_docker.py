#!/usr/bin/env python3
"""CI check of the Docker image's promises, without a container engine (none runs in CI).

hadolint lints the Dockerfile's style; this checks what it cannot know: the image starts the bot with
the command the README names (the same program ./run starts), runs as a user without privileges, keeps
the database on a volume that the README's `docker run` mounts, and copies files that exist.

    python scripts/check_docker.py [ROOT]      exit 0 when all holds, 1 with the problems listed
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

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
            image = Image()  # only the final stage is the image
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
    database = image.env.get("SKATBOT_DATABASE", "")
    folder = str(Path(database).parent) if database else ""
    if not folder or folder not in image.volumes:
        found.append(f"the database ({database or 'SKATBOT_DATABASE unset'}) must live on a VOLUME "
                     f"(volumes: {image.volumes})")
    runs = DOCKER_RUN.findall(readme)
    if not runs or not all(re.search(rf"-v \S+:{re.escape(folder)}(\s|$)", run) for run in runs if folder):
        found.append(f"every `docker run` in the README must mount a volume at {folder or 'the database folder'}")
    for source in image.copied:
        if not (root / source).exists():
            found.append(f"COPY {source}: no such file in the project")
    return found


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    found = problems(root)
    for problem in found:
        print(f"check_docker: {problem}", file=sys.stderr)
    if not found:
        print("check_docker: the image starts the README's command, as a user without privileges, "
              "with the database on a volume")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
