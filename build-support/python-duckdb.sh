#!/usr/bin/env bash
# Prints the path of a Python interpreter with duckdb==<DUCKDB_VERSION> (the PyPI wheel), from a virtual environment
# cached under ${MORAINE_CACHE_DIR:-~/.cache/moraine}/python-duckdb-<version>; creates it on first use.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
source "$here/versions.env"
cache=${MORAINE_CACHE_DIR:-$HOME/.cache/moraine}
venv=$cache/python-duckdb-$DUCKDB_VERSION
if [ ! -f "$venv/.complete" ]; then
  python=$(command -v python3 || true)
  [ -n "$python" ] || { echo "python3 is needed for the Python host test" >&2; exit 1; }
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --only-binary=:all: "duckdb==$DUCKDB_VERSION" >&2
  touch "$venv/.complete"
fi
echo "$venv/bin/python"
