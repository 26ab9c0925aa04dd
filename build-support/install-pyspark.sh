#!/usr/bin/env bash
# Installs a real Spark distribution — PySpark from PyPI, which ships Spark's jars and its own spark-submit — into a
# virtual environment in the cache: ${MORAINE_CACHE_DIR:-~/.cache/moraine}/pyspark-<PYSPARK_VERSION>/venv. The
# spark-connector test that runs spark-submit with only the bundle jar uses it. Idempotent: a finished install is
# marked (.complete) and reused as it is, so later runs need no network. A failed install is removed and reported;
# that test then skips, naming this script.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
source "$here/versions.env"
cache=${MORAINE_CACHE_DIR:-$HOME/.cache/moraine}
home=$cache/pyspark-$PYSPARK_VERSION
venv=$home/venv

log() { echo "[pyspark] $*" >&2; }

if [ -f "$home/.complete" ] && [ -x "$venv/bin/spark-submit" ]; then
  log "PySpark $PYSPARK_VERSION is in $venv"
  exit 0
fi
python=$(command -v python3 || command -v python || true)
if [ -z "$python" ]; then
  log "python3 is not installed; the real-Spark test will skip (install python3 with venv and pip, then re-run $0)"
  exit 1
fi
log "installing PySpark $PYSPARK_VERSION from PyPI into $venv (about 450 MB, once)"
rm -rf "$home"
mkdir -p "$home"
# A virtual environment records its own absolute path, so it is built where it stays; the marker comes last.
if ! "$python" -m venv "$venv" >&2 \
    || ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "pyspark==$PYSPARK_VERSION" >&2 \
    || [ ! -x "$venv/bin/spark-submit" ]; then
  rm -rf "$home"
  log "could not install pyspark==$PYSPARK_VERSION from PyPI (is PyPI reachable? see pip config); the real-Spark test will skip"
  exit 1
fi
touch "$home/.complete"
log "PySpark $PYSPARK_VERSION is in $venv"
