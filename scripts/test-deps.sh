#!/usr/bin/env bash
# Installs the Debian packages `make test` needs on a fresh machine (as `scripts/db.sh` installs
# PostgreSQL for `make run`): as root it runs apt-get; otherwise it stops at once and prints the
# exact command to run. Nothing is done when every package is there.
#
#   scripts/test-deps.sh          check, and install what is missing (root)
#   scripts/test-deps.sh --list   print the packages, one a line
set -euo pipefail

pkgs=(
	# the private cluster, the browser tests, PDF and xlsx second readers
	postgresql chromium fonts-liberation poppler-utils zbar-tools python3-openpyxl libreoffice-calc-nogui
	# the server behind a transaction pooler (cmd/tatib-server's TestBehindTransactionPooler)
	pgbouncer
	# the face-ID tests' fake-camera clips (e2e/face-clips.py)
	python3-skimage python3-matplotlib python3-numpy python3-pil
	# the desktop app (Wails, WebKitGTK 4.1) and its smoke test (X server, D-Bus, notifications)
	libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config build-essential xvfb xauth dunst dbus-x11 imagemagick xdotool curl
)
if [ "${1:-}" = --list ]; then printf '%s\n' "${pkgs[@]}"; exit 0; fi

command -v dpkg >/dev/null || { echo "test-deps: not a Debian machine; install the equivalents of: ${pkgs[*]}" >&2; exit 0; }
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "test-deps: missing Debian packages. Run this once, then make test again:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
	exit 1
fi
echo "test-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
# Debian's postgresql package starts its own cluster on 5432; ours is private.
for c in /etc/postgresql/*/main; do
	[ -d "$c" ] || continue
	v=$(basename "$(dirname "$c")")
	pg_ctlcluster "$v" main stop 2>/dev/null || true
done
# Debian's pgbouncer package starts its own on 6432; the test starts a private one.
service pgbouncer stop 2>/dev/null || true
