"""scripts/check_docker.py: the real Dockerfile and README pass; each broken promise is caught."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("check_docker", ROOT / "scripts" / "check_docker.py")
assert _spec is not None and _spec.loader is not None
check_docker = importlib.util.module_from_spec(_spec)
sys.modules["check_docker"] = check_docker
_spec.loader.exec_module(check_docker)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name in ("Dockerfile", "README.md", "run", "requirements.txt", "bot.py"):
        shutil.copy(ROOT / name, tmp_path / name)
    for folder in ("skatbot", "cogs"):
        (tmp_path / folder).mkdir()
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new))


def test_the_project_keeps_its_promises() -> None:
    assert check_docker.problems(ROOT) == []
    image = check_docker.parse((ROOT / "Dockerfile").read_text())
    assert image.cmd == ["python", "bot.py"] and image.cmd_is_exec_form and image.user == "10001:10001"


@pytest.mark.parametrize(("file", "old", "new", "complaint"), [
    ("Dockerfile", 'CMD ["python", "bot.py"]', 'CMD ["python", "-m", "skatbot"]', "is not the image's CMD"),
    ("Dockerfile", 'CMD ["python", "bot.py"]', "CMD python bot.py", "exec form"),
    ("Dockerfile", "USER 10001:10001", "USER root", "without privileges"),
    ("Dockerfile", "USER 10001:10001\n", "", "without privileges"),
    ("Dockerfile", "VOLUME /data", "VOLUME /srv", "must live on a VOLUME"),
    ("Dockerfile", "COPY cogs ./cogs", "COPY plugins ./plugins", "COPY plugins: no such file"),
    ("README.md", "command is `python bot.py`", "command is `python main.py`", "is not the image's CMD"),
    ("README.md", "command is `python bot.py`", "command is python bot.py", "does not name"),
    ("README.md", "-v skatbot-data:/data skatbot\n", "skatbot\n", "must mount a volume at /data"),
    ("run", 'bin/python" bot.py', 'bin/python" main.py', "start the same program"),
])
def test_each_broken_promise_is_reported(project: Path, file: str, old: str, new: str, complaint: str) -> None:
    edit(project / file, old, new)
    found = check_docker.problems(project)
    assert any(complaint in problem for problem in found), found
    assert check_docker.main(["check_docker", str(project)]) == 1


def test_a_multi_stage_build_is_judged_by_its_last_stage() -> None:
    image = check_docker.parse('FROM a AS build\nUSER 5\nCMD ["x"]\nFROM b\nCOPY --from=build /w ./w\n')
    assert image.user is None and image.cmd is None and image.copied == []  # not from the project


@pytest.fixture
def operated(project: Path) -> Path:
    """The project with what the operator's side needs: .env.example, compose.yaml and the settings module."""
    for name in (".env.example", "compose.yaml", "skatbot/config.py"):
        shutil.copy(ROOT / name, project / name)
    return project


def test_compose_validates_and_matches_the_settings() -> None:
    compose = check_docker.load_compose(ROOT / "compose.yaml")
    assert check_docker.compose_problems(compose, check_docker.settings_read(ROOT / "skatbot" / "config.py")) == []
    bots = check_docker.bot_services(compose)
    assert sorted(service["environment"]["SKATBOT_SHARD_IDS"] for service in bots.values()) == ["0", "1"]
    assert compose["services"]["db"]["image"].startswith("postgres:15")


def test_the_image_keeps_its_database_on_the_volume_whatever_env_example_says() -> None:
    image = check_docker.parse((ROOT / "Dockerfile").read_text())
    assert check_docker.image_database(image, {}) == "/data/skatbot.sqlite3"
    # an operator's old .env, passed with --env-file, names a relative file: it still lands on the volume
    assert check_docker.image_database(image, {"SKATBOT_DATABASE": "skatbot.sqlite3"}) == "/data/skatbot.sqlite3"
    assert check_docker.image_database(image, {"SKATBOT_DATABASE": ""}) == "/data/skatbot.sqlite3"


@pytest.mark.parametrize(("file", "old", "new", "complaint"), [
    ("Dockerfile", "FROM python:3.11.14-slim", "FROM python:3.11-slim", "pinned"),
    ("Dockerfile", "HEALTHCHECK ", "# HEALTHCHECK ", "HEALTHCHECK"),
    ("Dockerfile", "STOPSIGNAL SIGTERM", "", "STOPSIGNAL"),
    ("Dockerfile", "SKATBOT_DATA_DIR=/data", "SKATBOT_DATA_DIR=/app", "must live on a VOLUME"),
    (".env.example", "SKATBOT_DATABASE=\n", "SKATBOT_DATABASE=/app/skatbot.sqlite3\n", "outside the volume"),
    (".env.example", "# SKATBOT_METRICS_PORT=9100", "SKATBOT_METRICS_PORT=", "overrides the image's"),
    ("compose.yaml", 'SKATBOT_SHARD_IDS: "1"', 'SKATBOT_SHARD_IDS: "0"', "shards 0 and 1"),
    ("compose.yaml", 'SKATBOT_SHARD_IDS: "1"', 'SKATBOT_SHARD_ID: "1"', "not a setting the bot reads"),
    ("compose.yaml", "condition: service_healthy", "condition: service_started", "healthy"),
    ("compose.yaml", "image: postgres:15", "image: postgres:14", "PostgreSQL 15"),
    ("compose.yaml", "      condition: service_healthy\n", "      restart: true\n", "is not one of"),
    ("compose.yaml", "  shard-1:", "  shard 1:", "characters compose does not allow"),
    ("compose.yaml", "pg_isready", "true", "pg_isready"),
    ("compose.yaml", "\nvolumes:\n", "\nvolume:\n", "top-level key"),
    ("compose.yaml", "      - skatbot-postgres:/var/lib/postgresql/data", "      - pgdata:/var/lib/postgresql/data",
     "not declared"),
    ("README.md", "docker compose up -d\n", "docker compose up\n", "docker compose up -d"),
    # found with a daemon: a socket check calls the new volume's temporary server ready; `up -d db` returns
    # before the database is created, so the copy met "connection refused"
    ("compose.yaml", "pg_isready -h 127.0.0.1 -U", "pg_isready -U", "over TCP"),
    ("README.md", "docker compose up -d --wait db\n", "docker compose up -d db\n", "--wait db"),
    ("README.md", "--network skatbot_default", "--network skatbot-default", "compose.yaml's is skatbot_default"),
    # found with a daemon: each `docker compose down && up -d` left two anonymous /data volumes behind
    ("compose.yaml", "  tmpfs:\n    - /data:uid=10001,gid=10001\n", "", "anonymous volume"),
    ("compose.yaml", "    - /data:uid=10001,gid=10001\n", "    - /tmp\n", "anonymous volume"),
])
def test_each_broken_operator_promise_is_reported(operated: Path, file: str, old: str, new: str,
                                                  complaint: str) -> None:
    assert check_docker.problems(operated) == []
    edit(operated / file, old, new)
    found = check_docker.problems(operated)
    assert any(complaint in problem for problem in found), found
