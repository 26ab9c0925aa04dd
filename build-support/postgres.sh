#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests that import a DuckLake catalog kept in PostgreSQL.
#
#   build-support/postgres.sh install         installs Debian's `postgresql` package when no server is found (as root,
#                                             with apt-get); exits 3, saying why, when it cannot
#   build-support/postgres.sh start [parent]  installs if needed, creates a cluster in a new directory under parent
#                                             (default /tmp) and starts it on 127.0.0.1 on a free port; prints
#                                             `dir=<cluster directory>` and `port=<port>` on standard output
#   build-support/postgres.sh stop <dir>      stops that cluster and removes its directory
#
# initdb refuses to run as root: as root the cluster is created and run as the `postgres` user (or `nobody`), in a
# directory that user owns. The server takes no TCP connections but on loopback and trusts them (a test database).
set -euo pipefail

log() { echo "[postgres] $*" >&2; }
die() { echo "[postgres] error: $*" >&2; exit 1; }
# Exit status 3: no server is installed and none can be (the tests that need one skip on it).
cannot_install() { echo "[postgres] error: $*" >&2; exit 3; }

# The directory with initdb, pg_ctl and postgres, newest major version first.
server_bin() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ]; then
      echo "$dir"
      return 0
    fi
  done
  local initdb
  initdb=$(command -v initdb || true)
  if [ -n "$initdb" ] && [ -x "$(dirname "$(readlink -f "$initdb")")/postgres" ]; then
    dirname "$(readlink -f "$initdb")"
    return 0
  fi
  return 1
}

install_server() {
  if server_bin >/dev/null; then
    return 0
  fi
  command -v apt-get >/dev/null || cannot_install "no PostgreSQL server is installed and apt-get is not available; install PostgreSQL (initdb, pg_ctl) yourself"
  [ "$(id -u)" = 0 ] || cannot_install "no PostgreSQL server is installed; install Debian's postgresql package (sudo apt-get install postgresql)"
  log "installing Debian's postgresql package"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq postgresql >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1 || true
    apt-get install -y -qq postgresql >/dev/null 2>&1 || cannot_install "apt-get install postgresql failed; check that Debian's package repositories are reachable"
  fi
  server_bin >/dev/null || die "the postgresql package is installed but no initdb/pg_ctl/postgres was found under /usr/lib/postgresql"
}

# Who runs the server: this user, or a non-root user when this is root.
server_user() {
  if [ "$(id -u)" != 0 ]; then
    id -un
  elif id postgres >/dev/null 2>&1; then
    echo postgres
  else
    echo nobody
  fi
}

as_server_user() {
  local user=$1
  shift
  if [ "$user" = "$(id -un)" ]; then
    "$@"
  elif command -v runuser >/dev/null; then
    runuser -u "$user" -- "$@"
  else
    su -s /bin/sh "$user" -c "$(printf '%q ' "$@")"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start_server() {
  local parent=${1:-/tmp}
  install_server
  local bin user dir port
  bin=$(server_bin)
  user=$(server_user)
  mkdir -p "$parent"
  dir=$(mktemp -d "$parent/moraine-postgres.XXXXXX")
  chown "$user" "$dir" 2>/dev/null || true
  chmod 700 "$dir"
  as_server_user "$user" "$bin/initdb" --pgdata="$dir/data" --username=postgres --auth=trust --encoding=UTF8 --locale=C \
    >"$dir/initdb.log" 2>&1 || die "initdb failed as user $user: $(tail -n 5 "$dir/initdb.log")"
  # Another process may take the port between choosing it and binding it: try a few.
  for _ in 1 2 3 4 5; do
    port=$(free_port)
    if as_server_user "$user" "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --timeout=60 \
        -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$dir' -c fsync=off" start >/dev/null 2>&1; then
      log "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') runs as $user on 127.0.0.1:$port in $dir"
      echo "dir=$dir"
      echo "port=$port"
      return 0
    fi
  done
  die "the server did not start: $(tail -n 5 "$dir/server.log" 2>/dev/null)"
}

stop_server() {
  local dir=${1:?usage: postgres.sh stop <dir>}
  [ -f "$dir/data/PG_VERSION" ] || die "$dir holds no cluster started by postgres.sh"
  local bin user
  bin=$(server_bin)
  user=$(stat -c %U "$dir/data")
  as_server_user "$user" "$bin/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null 2>&1 || log "pg_ctl stop failed; removing $dir anyway"
  rm -rf "$dir"
}

case "${1:-}" in
  install) install_server ;;
  start) start_server "${2:-}" ;;
  stop) stop_server "${2:-}" ;;
  *) die "usage: postgres.sh install | start [parent-directory] | stop <cluster-directory>" ;;
esac
