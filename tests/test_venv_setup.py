"""scripts/venv.sh, which ./run, ./run-tests and .ci/run source: a first setup cut off halfway is repaired.

A Ctrl-C (or a killed CI job) during the first `./run` can leave .venv with a Python but no pip; every later
run then failed at "No module named pip" until someone deleted .venv by hand.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup(project: Path) -> subprocess.CompletedProcess[str]:
    """`ensure_venv` in `project` as the scripts call it, with an empty requirements file (nothing to fetch)."""
    return subprocess.run(["bash", "-c", ". scripts/venv.sh && ensure_venv requirements-none.txt"], cwd=project,
                          env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "PYTHON": sys.executable},
                          capture_output=True, text=True, timeout=300)


def test_a_venv_left_without_pip_by_an_interrupted_setup_is_made_again(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "venv.sh", tmp_path / "scripts" / "venv.sh")
    (tmp_path / "requirements-none.txt").write_text("")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / ".venv")], check=True)
    python = tmp_path / ".venv" / "bin" / "python"
    assert subprocess.run([python, "-c", "import pip"], capture_output=True).returncode != 0  # the broken state

    done = setup(tmp_path)

    assert done.returncode == 0, done.stderr
    assert "incomplete (no pip)" in done.stderr
    assert subprocess.run([python, "-c", "import pip"], capture_output=True).returncode == 0
    again = setup(tmp_path)  # a sound .venv is kept as it is: nothing made or installed again
    assert again.returncode == 0 and again.stderr == "", again.stderr
