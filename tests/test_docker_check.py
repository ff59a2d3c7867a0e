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
