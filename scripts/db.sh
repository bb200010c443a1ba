#!/usr/bin/env bash
# Tatib's private PostgreSQL cluster: created on first use under
# $TATIB_DATA_DIR/postgres, listening on a unix socket in that folder and on
# 127.0.0.1:$TATIB_DB_PORT only.
#
#   scripts/db.sh start     create (first time) and start; prints nothing else
#   scripts/db.sh stop      stop it
#   scripts/db.sh status    say whether it runs
#   scripts/db.sh url [db]  print the DATABASE_URL of database db (default tatib)
#   scripts/db.sh env       print `export DATABASE_URL=...` after starting
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
data=${TATIB_DATA_DIR:-$root/.data}
mkdir -p "$data"
data=$(cd "$data" && pwd)
pgdata=$data/postgres
port=${TATIB_DB_PORT:-54329}
pwfile=$data/postgres.password
log=$data/postgres.log

die() { echo "db.sh: $*" >&2; exit 1; }

find_bin() {
	local name=$1 p
	if p=$(command -v "$name" 2>/dev/null); then echo "$p"; return; fi
	for p in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		[ -x "$p/$name" ] && { echo "$p/$name"; return; }
	done
	return 1
}

ensure_installed() {
	if find_bin initdb >/dev/null && find_bin pg_ctl >/dev/null; then return; fi
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "db.sh: PostgreSQL is not installed; installing Debian's postgresql" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends postgresql >&2 \
			|| die "could not install postgresql with apt-get"
		# Debian's package starts its own cluster on 5432; we do not use it.
		(command -v pg_ctlcluster >/dev/null && pg_ctlcluster --help >/dev/null 2>&1 && \
			for c in /etc/postgresql/*/main; do v=$(basename "$(dirname "$c")"); pg_ctlcluster "$v" main stop 2>/dev/null || true; done) || true
		find_bin initdb >/dev/null || die "postgresql installed but initdb not found"
	else
		die "PostgreSQL is not installed: install the 'postgresql' package (Debian: sudo apt-get install postgresql), or set DATABASE_URL"
	fi
}

# as_pg runs a PostgreSQL binary: as the postgres user when we are root,
# since PostgreSQL refuses to run as root.
as_pg() {
	if [ "$(id -u)" = 0 ]; then
		id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
		chown postgres "$data" 2>/dev/null || true
		if command -v runuser >/dev/null; then
			runuser -u postgres -- "$@"
		else
			su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
		fi
	else
		"$@"
	fi
}

running() {
	[ -f "$pgdata/postmaster.pid" ] || return 1
	as_pg "$(find_bin pg_ctl)" -D "$pgdata" status >/dev/null 2>&1
}

create() {
	ensure_installed
	local initdb; initdb=$(find_bin initdb)
	umask 077
	[ -s "$pwfile" ] || head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' > "$pwfile"
	local tmp; tmp=$(mktemp); cp "$pwfile" "$tmp"
	if [ "$(id -u)" = 0 ]; then
		# The postgres user must be able to reach the data folder: give
		# traverse-only permission where it is missing, and say so.
		local d=$data
		while [ "$d" != / ]; do
			if ! runuser -u postgres -- test -x "$d" 2>/dev/null; then
				chmod o+x "$d" && echo "db.sh: made $d traversable (o+x) so the postgres user can reach $pgdata" >&2
			fi
			d=$(dirname "$d")
		done
		chown postgres "$tmp"
		mkdir -p "$pgdata"; chown postgres "$pgdata"
	fi
	as_pg "$initdb" -D "$pgdata" -U tatib --pwfile="$tmp" -E UTF8 --locale=C.UTF-8 \
		--auth-local=trust --auth-host=scram-sha-256 >"$log" 2>&1 \
		|| { rm -f "$tmp"; cat "$log" >&2; die "initdb failed (log above)"; }
	rm -f "$tmp"
	cat >>"$pgdata/postgresql.conf" <<CONF
# Tatib's private cluster
listen_addresses = '127.0.0.1'
unix_socket_directories = '$pgdata'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 128MB
CONF
}

start() {
	ensure_installed
	[ -f "$pgdata/PG_VERSION" ] || create
	if ! running; then
		rm -f "$pgdata/postmaster.pid" 2>/dev/null || true
		[ "$(id -u)" = 0 ] && touch "$log" && chown postgres "$log"
		as_pg "$(find_bin pg_ctl)" -D "$pgdata" -l "$log" -o "-p $port" -w -t 60 start >/dev/null \
			|| { tail -n 20 "$log" >&2; die "PostgreSQL did not start (is port $port taken? set TATIB_DB_PORT)"; }
	fi
	# The application database.
	local psql; psql=$(find_bin psql)
	if ! as_pg "$psql" -h "$pgdata" -p "$port" -U tatib -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname='tatib'" | grep -q 1; then
		as_pg "$psql" -h "$pgdata" -p "$port" -U tatib -d postgres -qc "CREATE DATABASE tatib" >/dev/null
	fi
}

url() {
	printf 'postgres://tatib:%s@127.0.0.1:%s/%s?sslmode=disable\n' "$(cat "$pwfile")" "$port" "${1:-tatib}"
}

case ${1:-} in
	start) start ;;
	stop) if running; then as_pg "$(find_bin pg_ctl)" -D "$pgdata" -m fast -w stop >/dev/null; echo "db.sh: stopped"; else echo "db.sh: not running"; fi ;;
	status) if running; then echo "db.sh: running on 127.0.0.1:$port ($pgdata)"; else echo "db.sh: not running"; exit 3; fi ;;
	url) url "${2:-tatib}" ;;
	env) start; echo "export DATABASE_URL='$(url tatib)'" ;;
	*) echo "usage: scripts/db.sh start|stop|status|url [db]|env" >&2; exit 2 ;;
esac
