#!/usr/bin/env bash
# Desktop smoke test: the real app against a real server, unattended.
#
# Starts bin/tatib-server on a fresh database, an X server (Xvfb), a D-Bus
# session with a notification daemon (dunst) and dbus-monitor, then runs
# bin/tatib-desktop in self-test mode: the page signs in and calls the API
# through the app's proxy, the Go side tries the WebSocket and raises one OS
# notification, saves a file through the native save dialog and reads it back
# through the native open dialog (this script types the paths with xdotool),
# then waits for a live notification: this script records a violation through
# the API (admin's bearer token) and the server's message must come through
# the app's WebSocket to an OS popup. The app prints "TATIB-SELFTEST ok=…"
# and exits. Checked here: the exit status, websocket=connected, both Notify
# calls on D-Bus (the self-test's and the violation's, by the student's name),
# and a screenshot of the window (screenshots/desktop.png, git-ignored).
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

# What the live notification needs: a violation type (API) and a student
# (students only come from a sync: SQL, as the browser tests do).
api="http://127.0.0.1:$port/api/v1"
token=$(curl -fsS -H 'Content-Type: application/json' -d "{\"username\":\"admin\",\"password\":\"$password\"}" "$api/auth/login" |
	sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
[ -n "$token" ] || die "admin sign-in through the API gave no token"
auth=(-H "Authorization: Bearer $token" -H 'Accept-Language: id')
category=$(curl -fsS "${auth[@]}" "$api/violation-categories" | grep -o '"id":[0-9]*' | head -n 1 | cut -d: -f2)
type_id=$(curl -fsS "${auth[@]}" -H 'Content-Type: application/json' \
	-d "{\"name\":\"Uji asap $$\",\"points\":5,\"category_id\":$category,\"default_sanction\":\"\",\"description\":\"\"}" \
	"$api/violation-types" | grep -o '"id":[0-9]*' | head -n 1 | cut -d: -f2)
[ -n "$type_id" ] || die "could not create a violation type"
student_name="Sekar Asap $$"
class_id=$(psql "$db_url" -qAt -c "INSERT INTO classes (name, grade) VALUES ('X Asap $$', 10) RETURNING id" | head -n 1)
student_id=$(psql "$db_url" -qAt -c "INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id, parent_name)
	VALUES (990000000 + $$, '99$$', 'A$$', '$student_name', 'P', $class_id, 'Ibu Asap') RETURNING id" | head -n 1)
[ -n "$student_id" ] || die "could not add a student"

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
	TATIB_DESKTOP_SELFTEST_DIALOGS="$work/files" TATIB_DESKTOP_SELFTEST_LIVE=1 \
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
saved=no opened=no shot=no recorded=no
for _ in $(seq 1 1200); do
	if [ $saved = no ] && grep -q "TATIB-SELFTEST dialog save" "$work/app.log"; then
		saved=yes
		answer "Simpan berkas" ctrl+a "$work/files/templat.xlsx"
	fi
	if [ $opened = no ] && grep -q "TATIB-SELFTEST dialog open" "$work/app.log"; then
		opened=yes
		answer "Pilih berkas" ctrl+l "$work/files/templat.xlsx"
	fi
	if [ $recorded = no ] && grep -q "TATIB-SELFTEST live waiting" "$work/app.log"; then
		recorded=yes
		code=$(curl -sS -o "$work/violation.json" -w '%{http_code}' "${auth[@]}" -H 'Content-Type: application/json' \
			-d "{\"student_id\":$student_id,\"type_ids\":[$type_id],\"location\":\"Kantin\",\"description\":\"Uji asap\"}" "$api/violations")
		say "violation recorded through the API: $code"
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
grep -q 'websocket=connected' <<<"$result" || die "the self-test's WebSocket was not connected"
[ $recorded = yes ] || die "the self-test never waited for the live notification"
grep -q "$student_name" "$work/notify.log" || die "no Notify call for the violation recorded through the API (student \"$student_name\")"
say "live Notify on D-Bus: $(grep -o "string \"[^\"]*$student_name[^\"]*\"" "$work/notify.log" | head -n 1)"
[ $shot = yes ] && [ -s screenshots/desktop.png ] || die "no screenshot"
say "screenshot: screenshots/desktop.png"
say "PASS"
