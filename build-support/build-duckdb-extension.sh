#!/usr/bin/env bash
# Builds moraine.duckdb_extension, the C++ shim that lets DuckDB 1.5.5 attach a moraine store, from registry
# artifacts only (docs/duckdb.md, "Building"):
#   - DuckDB's headers from the PyPI source distribution duckdb==<DUCKDB_VERSION>;
#   - DuckDB's code from the npm package @duckdb/node-bindings-linux-x64@<DUCKDB_NPM_VERSION> (libduckdb.so, shipped
#     beside the extension, found through an $ORIGIN rpath);
#   - JNI headers from the JDK in JAVA_HOME.
# Compiled with DuckDB's release flags (-O2 -DNDEBUG, never DEBUG: it changes the layout of DuckDB's classes), then
# the 512-byte extension footer is appended. Downloads and object files are cached under ${MORAINE_CACHE_DIR:-
# ~/.cache/moraine}, objects by a hash of their source, the shim's headers and the flags: a rebuild with nothing
# changed compiles nothing. DuckDB itself is never compiled.
#
# usage: build-duckdb-extension.sh <source dir> <output dir>
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
source "$here/versions.env"
src=$(cd "$1" && pwd)
out=$2
cache=${MORAINE_CACHE_DIR:-$HOME/.cache/moraine}
downloads=$cache/downloads
export JAVA_HOME=${JAVA_HOME:-$("$here/find-jdk.sh")}
jobs=${MORAINE_NATIVE_JOBS:-2}

log() { echo "[duckdb-extension] $*" >&2; }
die() { echo "[duckdb-extension] error: $*" >&2; exit 1; }

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux_amd64; npm_package=@duckdb/node-bindings-linux-x64 ;;
  Linux-aarch64) platform=linux_arm64; npm_package=@duckdb/node-bindings-linux-arm64 ;;
  *) die "unsupported platform $(uname -s)-$(uname -m): the shim is built for Linux x86_64 and aarch64" ;;
esac
command -v g++ >/dev/null || die "g++ (C++17) is needed to build the DuckDB extension"
python=$(command -v python3 || true)
[ -n "$python" ] || die "python3 (with pip) is needed to download DuckDB's headers from PyPI"
[ -f "$JAVA_HOME/include/jni.h" ] || die "no JNI headers in JAVA_HOME=$JAVA_HOME (include/jni.h); point JAVA_HOME at a JDK"
mkdir -p "$downloads" "$out"
# Two builds on one machine (two checkouts, say) share the cache: the second waits here instead of racing the first.
exec 9>"$cache/.build-duckdb-extension.lock"
flock 9

# 1. DuckDB's headers: the source distribution's external/duckdb/src/include.
headers=$cache/duckdb-$DUCKDB_VERSION/include
if [ ! -f "$headers/.complete" ]; then
  sdist=$downloads/duckdb-$DUCKDB_VERSION.tar.gz
  if [ ! -f "$sdist" ]; then
    log "downloading duckdb==$DUCKDB_VERSION (source distribution, for its headers) from PyPI"
    "$python" -m pip download --quiet --no-deps --no-binary duckdb --dest "$downloads" "duckdb==$DUCKDB_VERSION" >&2 \
      || die "could not download duckdb==$DUCKDB_VERSION's source distribution from PyPI; check that PyPI is reachable"
  fi
  rm -rf "$headers" "$headers.part"
  mkdir -p "$headers.part"
  tar -xzf "$sdist" -C "$headers.part" --strip-components=5 "duckdb-$DUCKDB_VERSION/external/duckdb/src/include" \
    || die "$sdist has no external/duckdb/src/include"
  touch "$headers.part/.complete"
  mv "$headers.part" "$headers"
fi

# 2. libduckdb.so from npm.
libdir=$cache/duckdb-$DUCKDB_VERSION/npm-$DUCKDB_NPM_VERSION
if [ ! -f "$libdir/libduckdb.so" ]; then
  command -v npm >/dev/null || die "npm is needed to download $npm_package@$DUCKDB_NPM_VERSION (libduckdb.so)"
  tarball=$downloads/$(echo "${npm_package#@}" | tr / -)-$DUCKDB_NPM_VERSION.tgz
  if [ ! -f "$tarball" ]; then
    log "downloading $npm_package@$DUCKDB_NPM_VERSION (libduckdb.so) from npm"
    (cd "$downloads" && npm pack --silent "$npm_package@$DUCKDB_NPM_VERSION" >/dev/null) \
      || die "could not download $npm_package@$DUCKDB_NPM_VERSION from npm; check that the npm registry is reachable"
  fi
  mkdir -p "$libdir.part"
  tar -xzf "$tarball" -C "$libdir.part" --strip-components=1 package/libduckdb.so || die "$tarball has no package/libduckdb.so"
  rm -rf "$libdir" && mv "$libdir.part" "$libdir"
fi

# 3. Compile, one object per translation unit, cached by content.
flags="-std=c++17 -O2 -DNDEBUG -fPIC -fvisibility=hidden -fvisibility-inlines-hidden -Wno-deprecated-declarations"
includes="-I$src -I$headers -I$JAVA_HOME/include -I$JAVA_HOME/include/linux"
objects=$cache/duckdb-shim/objects
mkdir -p "$objects"
header_hash=$(cat "$src"/*.hpp 2>/dev/null | sha256sum | cut -c1-16)
jni_hash=$(sha256sum "$JAVA_HOME/include/jni.h" | cut -c1-8)
stamp="$DUCKDB_VERSION $flags $header_hash $jni_hash $(g++ -dumpfullversion)"
object_list=()
to_compile=()
for source in "$src"/*.cpp; do
  key=$( (echo "$stamp"; cat "$source") | sha256sum | cut -c1-24)
  object=$objects/$(basename "$source" .cpp)-$key.o
  object_list+=("$object")
  [ -f "$object" ] || to_compile+=("$source=$object")
done
if [ ${#to_compile[@]} -gt 0 ]; then
  log "compiling ${#to_compile[@]} of ${#object_list[@]} translation units ($jobs at a time, niced)"
  export flags includes
  printf '%s\n' "${to_compile[@]}" | xargs -P "$jobs" -I{} bash -c '
    pair="{}"; source=${pair%%=*}; object=${pair#*=}
    nice -n 10 g++ $flags $includes -c "$source" -o "$object.part" && mv "$object.part" "$object"' \
    || die "compiling the shim failed (see the compiler output above)"
fi

# 4. Link, append the footer, and lay out the extension beside its libduckdb.so.
link_key=$( (printf '%s\n' "${object_list[@]}"; echo "$DUCKDB_NPM_VERSION") | sha256sum | cut -c1-24)
linked=$cache/duckdb-shim/moraine-$link_key.duckdb_extension
if [ ! -f "$linked" ]; then
  g++ -shared -o "$linked.so" "${object_list[@]}" -L"$libdir" -l:libduckdb.so -Wl,-rpath,'$ORIGIN' -Wl,--no-undefined \
    -ldl -lpthread || die "linking the shim failed"
  "$python" - "$linked.so" "$linked.part" "$DUCKDB_VERSION" "$platform" "${MORAINE_EXTENSION_VERSION:-0.1.0}" <<'PY'
import sys
library, target, duckdb_version, platform, extension_version = sys.argv[1:6]
# DuckDB reads the last 512 bytes: 8 fields of 32 bytes (stored in reverse of how it lists them), then a 256-byte
# signature (zero: unsigned, loadable with allow_unsigned_extensions).
fields = ["", "", "", "CPP", extension_version, "v" + duckdb_version, platform, "4"]
footer = b"".join(f.encode().ljust(32, b"\0") for f in fields) + b"\0" * 256
with open(library, "rb") as source, open(target, "wb") as out:
    out.write(source.read())
    out.write(footer)
PY
  rm -f "$linked.so"
  mv "$linked.part" "$linked"
  log "linked $(basename "$linked")"
fi
cmp -s "$linked" "$out/moraine.duckdb_extension" 2>/dev/null || cp "$linked" "$out/moraine.duckdb_extension"
cmp -s "$libdir/libduckdb.so" "$out/libduckdb.so" 2>/dev/null || cp "$libdir/libduckdb.so" "$out/libduckdb.so"
log "$out/moraine.duckdb_extension is ready (DuckDB v$DUCKDB_VERSION, $platform)"
