#!/usr/bin/env bash
# Desktop smoke test: the real app against a real server, unattended.
#
# Starts bin/tatib-server on a fresh database, an X server (Xvfb), a D-Bus
# session with a notification daemon (dunst) and dbus-monitor, then runs
# bin/tatib-desktop in self-test mode: the page signs in and calls the API
# through the app's proxy, the Go side tries the WebSocket and raises one OS
# notification, saves a file through the native save dialog and reads it back
# through the native open dialog (this script types the paths with xdotool),
# prints "TATIB-SELFTEST ok=…" and exits. Checked here: the exit status, the
# Notify call on D-Bus, and a screenshot of the window (screenshots/desktop.png,
# git-ignored).
#
# Needs: bin/tatib-server (make build), bin/tatib-desktop (make desktop),
# TATIB_TEST_DATABASE_URL (a PostgreSQL URL allowed to CREATE DATABASE),
# Debian packages xvfb xauth dunst dbus-x11 imagemagick xdotool curl.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
app=${TATIB_DESKTOP_BIN:-$root/bin/tatib-desktop}
server=${TATIB_SERVER_BIN:-$root/bin/tatib-server}
base_url=${TATIB_TEST_DATABASE_URL:?set TATIB_TEST_DATABASE_URL (scripts/db.sh url postgres)}

die() { echo "desktop-smoke: FAIL: $*" >&2; exit 1; }
say() { echo "desktop-smoke: $*"; }
for b in "$app" "$server"; do [ -x "$b" ] || die "$b is missing (make build desktop)"; done
for c in Xvfb dbus-run-session dbus-monitor dunst import xdotool psql curl; do
	command -v "$c" >/dev/null || die "$c not found (apt-get install xvfb xauth dunst dbus-x11 imagemagick xdotool postgresql-client curl)"
done

work=$(mktemp -d /tmp/tatib-desktop-smoke.XXXXXX)
db=tatib_desktop_smoke_$$
pids=()
cleanup() {
	local rc=$?
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
	wait 2>/dev/null || true
	psql "$base_url" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
	if [ $rc -ne 0 ]; then
		for f in server.log app.log notify.log; do
			[ -s "$work/$f" ] && { echo "--- $f (last 40 lines)"; tail -n 40 "$work/$f"; }
		done
	fi
	rm -rf "$work"
}
trap cleanup EXIT

# A fresh database.
psql "$base_url" -qc "CREATE DATABASE $db" >/dev/null
db_url=$(sed -E "s#/[^/?]*(\?|\$)#/$db\1#" <<<"$base_url")

# The server on a free port.
port=$((20000 + RANDOM % 20000))
while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((20000 + RANDOM % 20000)); done
password=smoke-$$-$RANDOM
DATABASE_URL=$db_url TATIB_ADDR=127.0.0.1:$port TATIB_ADMIN_PASSWORD=$password TATIB_DEMO=0 \
	TATIB_DATA_DIR=$work/data "$server" serve >"$work/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 150); do
	curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
	kill -0 "${pids[0]}" 2>/dev/null || die "the server exited"
	sleep 0.2
done
curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null || die "the server did not come up"
say "server up on :$port"

# A display.
d=94
while [ -e /tmp/.X11-unix/X$d ] || [ -e /tmp/.X$d-lock ]; do d=$((d + 1)); done
Xvfb ":$d" -screen 0 1280x900x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do [ -e /tmp/.X11-unix/X$d ] && break; sleep 0.1; done
export DISPLAY=:$d

# The app in self-test mode, inside its own D-Bus session with a
# notification daemon and a monitor that records Notify calls.
mkdir -p "$work/config" "$work/runtime" "$work/files" screenshots
chmod 700 "$work/runtime"
env XDG_CONFIG_HOME="$work/config" XDG_RUNTIME_DIR="$work/runtime" \
	TATIB_DESKTOP_SELFTEST=1 TATIB_DESKTOP_SERVER_URL="http://127.0.0.1:$port" \
	TATIB_DESKTOP_SELFTEST_USER=admin TATIB_DESKTOP_SELFTEST_PASSWORD="$password" \
	TATIB_DESKTOP_SELFTEST_DIALOGS="$work/files" \
	dbus-run-session -- sh -c '
		dunst >"$0/dunst.log" 2>&1 &
		dbus-monitor --session "interface=org.freedesktop.Notifications,member=Notify" >"$0/notify.log" 2>&1 &
		sleep 0.5
		timeout 150 "$1"; rc=$?
		sleep 0.3
		exit $rc' "$work" "$app" >"$work/app.log" 2>&1 &
app_pid=$!
pids+=($app_pid)

# answer DIALOG_TITLE KEYS PATH: focus the native dialog, type PATH, press Return.
answer() {
	local wid
	wid=$(timeout 15 xdotool search --sync --name "^$1\$" | head -n 1) || { say "no dialog \"$1\""; return 0; }
	sleep 0.8
	xdotool windowfocus --sync "$wid" 2>/dev/null || true
	xdotool key --clearmodifiers "$2"
	sleep 0.3
	xdotool type --delay 40 "$3"
	sleep 0.3
	xdotool key Return
}
saved=no opened=no shot=no
for _ in $(seq 1 1200); do
	if [ $saved = no ] && grep -q "TATIB-SELFTEST dialog save" "$work/app.log"; then
		saved=yes
		answer "Simpan berkas" ctrl+a "$work/files/templat.xlsx"
	fi
	if [ $opened = no ] && grep -q "TATIB-SELFTEST dialog open" "$work/app.log"; then
		opened=yes
		answer "Pilih berkas" ctrl+l "$work/files/templat.xlsx"
	fi
	if [ $shot = no ] && grep -q "TATIB-SELFTEST ready" "$work/app.log"; then
		sleep 1.5 # let the front end paint after the reload
		import -window root screenshots/desktop.png && shot=yes
	fi
	kill -0 $app_pid 2>/dev/null || break
	sleep 0.1
done
rc=0
wait $app_pid || rc=$?
unset 'pids[${#pids[@]}-1]'

result=$(grep "TATIB-SELFTEST ok=" "$work/app.log" || true)
say "${result:-no result line}"
[ $rc -eq 0 ] || die "the app exited with $rc"
grep -q 'member=Notify' "$work/notify.log" || die "no Notify call seen on D-Bus"
grep -q 'Uji mandiri' "$work/notify.log" || die "the Notify call did not carry the self-test popup"
say "Notify seen on D-Bus: $(grep -A6 'member=Notify' "$work/notify.log" | grep -m1 -o 'string "Tatib[^"]*"' || echo Tatib)"
[ $shot = yes ] && [ -s screenshots/desktop.png ] || die "no screenshot"
say "screenshot: screenshots/desktop.png"
say "PASS"
