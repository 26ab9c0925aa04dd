#!/usr/bin/env bash
# Prints the path of DuckDB's command-line shell, version <DUCKDB_VERSION>, taken from PyPI's duckdb-cli wheel and
# cached under ${MORAINE_CACHE_DIR:-~/.cache/moraine}/duckdb-cli-<version>; downloads it on first use.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
source "$here/versions.env"
cache=${MORAINE_CACHE_DIR:-$HOME/.cache/moraine}
dir=$cache/duckdb-cli-$DUCKDB_VERSION
if [ ! -f "$dir/.complete" ]; then
  python=$(command -v python3 || true)
  [ -n "$python" ] || { echo "python3 (with pip) is needed to download duckdb-cli from PyPI" >&2; exit 1; }
  rm -rf "$dir"
  mkdir -p "$dir/wheel"
  "$python" -m pip download --quiet --no-deps --only-binary=:all: --dest "$dir/wheel" "duckdb-cli==$DUCKDB_VERSION" >&2
  "$python" -m zipfile -e "$dir"/wheel/duckdb_cli-*.whl "$dir/unpacked"
  mv "$dir/unpacked/duckdb_cli/duckdb" "$dir/duckdb"
  chmod +x "$dir/duckdb"
  rm -rf "$dir/wheel" "$dir/unpacked"
  touch "$dir/.complete"
fi
echo "$dir/duckdb"
