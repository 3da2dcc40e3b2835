#!/usr/bin/env bash
# Runs the tenancy, identity and records end-to-end tests once through PgBouncer in transaction
# pooling mode, in front of the test PostgreSQL: the booted apps' master and client-database pools
# connect to PgBouncer, their administrative work (migrations, CREATE DATABASE, session locks) to
# PostgreSQL directly. The per-server pooler test (server-poolers) runs too, with the master pool
# through this PgBouncer and the client pools through PgBouncers of its own, one per server. Starts its own PgBouncer on a free port from PGBOUNCER_TEST_PORT (6433) on,
# stops it at the end, and exits with jest's status; it also fails when nothing went through
# PgBouncer. Extra arguments go to jest (e.g. a single spec path instead of the default set).
set -euo pipefail
cd "$(dirname "$0")/../.."

PG_HOST="${TEST_PG_HOST:-127.0.0.1}"
PG_PORT="${TEST_PG_PORT:-5432}"
PGBOUNCER_BIN="${PGBOUNCER_BIN:-$(command -v pgbouncer || echo /usr/sbin/pgbouncer)}"
[ -x "$PGBOUNCER_BIN" ] || { echo "pgbouncer not found (apt-get install pgbouncer)" >&2; exit 1; }

port="${PGBOUNCER_TEST_PORT:-6433}"
while (echo >"/dev/tcp/127.0.0.1/${port}") 2>/dev/null; do port=$((port + 1)); done

dir="$(mktemp -d /tmp/svc-pgbouncer.XXXXXX)"
chmod 755 "$dir"
cat >"$dir/pgbouncer.ini" <<EOF
[databases]
; every database by its own name, on the test server
* = host=${PG_HOST} port=${PG_PORT}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
pool_mode = transaction
; no protocol-level prepared statements are tracked: the app sends none (only unnamed ones)
max_prepared_statements = 0
; the test server trusts local logins; PgBouncer looks each login up through auth_user
auth_type = trust
auth_file = ${dir}/userlist.txt
auth_user = postgres
admin_users = postgres
max_client_conn = 2000
default_pool_size = 20
server_idle_timeout = 5
server_lifetime = 300
logfile = ${dir}/pgbouncer.log
pidfile = ${dir}/pgbouncer.pid
EOF
# max_prepared_statements appeared in PgBouncer 1.21; older ones refuse an unknown setting.
if ! "$PGBOUNCER_BIN" --version | awk 'NR==1 { split($2, v, "."); exit !(v[1] > 1 || v[2] >= 21) }'; then
  sed -i '/max_prepared_statements/d' "$dir/pgbouncer.ini"
fi
echo '"postgres" ""' >"$dir/userlist.txt"

# PgBouncer refuses to run as root: it then runs as the postgres system user.
as_user=()
if [ "$(id -u)" = 0 ]; then
  chown -R postgres "$dir"
  as_user=(-u postgres)
fi
"$PGBOUNCER_BIN" -d "${as_user[@]}" "$dir/pgbouncer.ini"

stop() {
  if [ -f "$dir/pgbouncer.pid" ]; then
    kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true
    for _ in $(seq 1 50); do [ -f "$dir/pgbouncer.pid" ] || break; sleep 0.1; done
  fi
  rm -rf "$dir"
}
trap stop EXIT

for _ in $(seq 1 50); do
  psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -Atqc 'SELECT 1' >/dev/null 2>&1 && break
  sleep 0.1
done

admin() { psql -h 127.0.0.1 -p "$port" -U postgres -d pgbouncer -Atqc "$1" 2>/dev/null; }
transactions() { admin 'SHOW TOTALS' | awk -F'|' '$1 == "total_xact_count" { print $2 }'; }
before="$(transactions)"

if [ "$#" -eq 0 ]; then
  set -- test/platform/tenancy.e2e-spec.ts test/platform/sandboxes.e2e-spec.ts test/platform/server-poolers.e2e-spec.ts \
    test/identity/ test/records/
fi
echo "PgBouncer ${port} (transaction pooling) in front of ${PG_HOST}:${PG_PORT}: jest $*"
status=0
TEST_DATABASE_POOLER_URL="postgres://postgres@127.0.0.1:${port}/postgres" \
  TEST_DATABASE_ADMIN_URL="postgres://postgres@${PG_HOST}:${PG_PORT}/postgres" \
  npx jest "$@" --selectProjects e2e || status=$?

through="$(( $(transactions) - before ))"
echo "PgBouncer carried ${through} transactions"
if [ "$status" -eq 0 ] && [ "$through" -le 0 ]; then
  echo "Nothing went through PgBouncer: the tests did not use it" >&2
  status=1
fi
[ "$status" -eq 0 ] || tail -n 40 "$dir/pgbouncer.log" >&2
exit "$status"
