# shellcheck shell=bash
# Sourced by ./run, ./run-tests and .ci/run. ensure_venv makes .venv with Python 3.11 or newer on first
# use, and (re)installs the pinned requirements whenever requirements*.txt changed since the last install.

SKATBOT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SKATBOT_VENV="$SKATBOT_ROOT/.venv"

# Print the first Python >= 3.11 found: $PYTHON if set, else python3.11, python3.12, ..., python3.
find_python() {
  local candidate
  for candidate in ${PYTHON:-} python3.11 python3.12 python3.13 python3.14 python3; do
    if command -v "$candidate" >/dev/null 2>&1 \
       && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  echo "skatbot needs Python 3.11 or newer; none found (set PYTHON=/path/to/python3.11)." >&2
  return 1
}

# ensure_venv REQUIREMENTS_FILE: make .venv if missing (or left without pip by a setup cut off), install
# REQUIREMENTS_FILE if not yet installed.
ensure_venv() {
  local requirements="$SKATBOT_ROOT/$1" python stamp wanted
  if [ -x "$SKATBOT_VENV/bin/python" ] && ! "$SKATBOT_VENV/bin/python" -c 'import pip' >/dev/null 2>&1; then
    # a first setup cut off (Ctrl-C, a killed job) leaves a Python without pip: made again, not left broken
    echo "$SKATBOT_VENV is incomplete (no pip); making it again" >&2
    rm -rf "$SKATBOT_VENV"
  fi
  if [ ! -x "$SKATBOT_VENV/bin/python" ]; then
    python=$(find_python)
    echo "Creating $SKATBOT_VENV with $python" >&2
    "$python" -m venv "$SKATBOT_VENV"
  fi
  stamp="$SKATBOT_VENV/.installed-$1.sha256"
  wanted=$(cat "$SKATBOT_ROOT"/requirements*.txt | sha256sum | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    echo "Installing $1 into .venv" >&2
    "$SKATBOT_VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$wanted" >"$stamp"
  fi
}
