#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on 127.0.0.1, for tests, CI and development.
#
#   scripts/pg-cluster.sh start DIR [PORT]   # prints the store URL: postgres://fetchsched@127.0.0.1:PORT/fetchsched
#   scripts/pg-cluster.sh stop DIR
#
# Uses Debian's `postgresql` package (apt-get install postgresql). The server refuses to run as
# root, so under root the cluster belongs to the `postgres` user the package creates. Trust
# authentication on 127.0.0.1 only; fsync stays on, so acknowledged writes survive a crash.
# Exits non-zero, with the server's log, when the cluster cannot start.
set -euo pipefail

cmd=${1:-}; dir=${2:-}
[[ -n "$cmd" && -n "$dir" ]] || { sed -n '2,5p' "$0" >&2; exit 2; }
port=${3:-55432}

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
[[ -x "$bin/initdb" ]] || { echo "pg-cluster: no PostgreSQL server (apt-get install postgresql)" >&2; exit 1; }

as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [[ $(id -u) -eq 0 ]] && chown postgres: "$dir"
    chmod 700 "$dir"
    if [[ ! -f "$dir/data/PG_VERSION" ]]; then
      as_owner "$bin/initdb" -D "$dir/data" -U fetchsched -A trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    mkdir -p "$dir/socket"; [[ $(id -u) -eq 0 ]] && chown postgres: "$dir/socket"
    if as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      :  # already running
    elif ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/socket -c max_connections=200" start >/dev/null; then
      cat "$dir/server.log" >&2; exit 1
    fi
    # pg_ctl can report a start whose server then failed to bind: make sure the server on the
    # port is this cluster, not another one already listening there.
    served=$(as_owner "$bin/psql" -h 127.0.0.1 -p "$port" -U fetchsched -d postgres -tAc "SHOW data_directory" 2>/dev/null || true)
    if [[ "$served" != "$dir/data" ]]; then
      echo "pg-cluster: port $port is served by another cluster (${served:-unknown}), not $dir/data" >&2
      tail -5 "$dir/server.log" >&2; exit 1
    fi
    if ! as_owner "$bin/psql" -h 127.0.0.1 -p "$port" -U fetchsched -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'fetchsched'" | grep -q 1; then
      as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U fetchsched fetchsched
    fi
    echo "postgres://fetchsched@127.0.0.1:$port/fetchsched"
    ;;
  stop)
    dir=$(cd "$dir" && pwd)
    [[ -f "$dir/data/postmaster.pid" ]] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  *)
    sed -n '2,5p' "$0" >&2; exit 2 ;;
esac
