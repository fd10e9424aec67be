#!/usr/bin/env bash
# Sourced by scripts/demo.sh and scripts/test-all.sh: make (once) and use the project's virtual environment
# .venv/ beside this folder, so that the README's two commands work where python3 is the system's own
# (PEP 668 "externally-managed-environment") as well as anywhere else.
# Afterwards $PY is the environment's python and its bin/ leads PATH.
VENV_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV_DIR="${ASL_FIRE_VENV:-$VENV_REPO/.venv}"
if [[ ! -x "$VENV_DIR/bin/python" ]]; then
  base="$(command -v python3 || true)"
  if [[ -z "$base" ]]; then
    echo "asl-fire: no python3 on PATH; install Python 3.11 or newer first" >&2
    exit 1
  fi
  if ! "$base" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "asl-fire: $base is Python $("$base" -c 'import platform; print(platform.python_version())'); 3.11 or newer is needed" >&2
    exit 1
  fi
  if ! "$base" -m venv "$VENV_DIR" >/dev/null 2>&1; then
    # Debian and Ubuntu ship venv's pip bootstrap (ensurepip) as a package of its own.
    rm -rf "$VENV_DIR"
    ver="$("$base" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
    if command -v apt-get >/dev/null 2>&1; then
      echo "asl-fire: apt-get install python${ver}-venv (Python's venv module needs it here)"
      $SUDO apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "python${ver}-venv" >/dev/null
    fi
    "$base" -m venv "$VENV_DIR"
  fi
  "$VENV_DIR/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
fi
PY="$VENV_DIR/bin/python"
export PATH="$VENV_DIR/bin:$PATH"
export VIRTUAL_ENV="$VENV_DIR"
