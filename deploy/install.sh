#!/usr/bin/env bash
# Install the table companion as a systemd service on Raspberry Pi OS (Lite), idempotently.
#
#   sudo deploy/install.sh                      # from a checkout of the companion
#   sudo deploy/install.sh --from FILE.whl      # from a built wheel
#   deploy/install.sh --root DIR [--from ...]   # everything under DIR, nothing else touched
#
# What it does (each step only if it is not done already; safe to run again, e.g. after
# `git pull` to update):
#   1. apt packages: python3-venv, and what pip needs to build the pin library
#   2. the groups gpio and dialout, and the system user `companion` in both
#   3. a virtual environment in /opt/companion/.venv with the companion and the extras
#      [pi] (lgpio, rpi-lgpio; on ARM only) and [board] (mpremote)
#   4. /etc/companion/table.toml from the example, if there is none (never overwritten)
#   5. the systemd unit /etc/systemd/system/companion.service (from the installed
#      package), enabled to start at boot
#
# --root DIR writes every file under DIR (DIR/opt/companion/.venv, DIR/etc/...) and
# skips what needs the real system (apt-get, useradd, systemctl daemon-reload),
# printing instead what it would have run; `systemctl --root=DIR enable` still links
# the unit, as it works offline. CI runs it so, twice. Docs: docs/pi-service.md.
set -euo pipefail

ROOT=""
SOURCE=""
EXTRAS="pi,board"
usage() {
    sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT="${2:?--root needs a directory}"; shift 2 ;;
        --from) SOURCE="${2:?--from needs a wheel file or a checkout}"; shift 2 ;;
        --extras) EXTRAS="${2?--extras needs a list, e.g. pi,board}"; shift 2 ;;
        -h|--help) usage 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage 2 >&2 ;;
    esac
done

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -z "$SOURCE" ]; then
    if [ -f "$HERE/../pyproject.toml" ]; then
        SOURCE="$(cd "$HERE/.." && pwd)"
    else
        echo "install.sh: give --from WHEEL (or run it from a checkout of the companion)" >&2
        exit 2
    fi
fi
if [ ! -e "$SOURCE" ]; then
    echo "install.sh: $SOURCE does not exist" >&2
    exit 2
fi
SOURCE="$(cd "$(dirname "$SOURCE")" && pwd)/$(basename "$SOURCE")"
if [ -n "$ROOT" ]; then
    mkdir -p "$ROOT"
    ROOT="$(cd "$ROOT" && pwd)"
elif [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root (sudo), or with --root DIR for a trial install" >&2
    exit 2
fi

if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "install.sh: the companion needs Python 3.11 or newer as python3 (Raspberry Pi OS" \
        "Bookworm or later)" >&2
    exit 2
fi

USER_NAME=companion
VENV="$ROOT/opt/companion/.venv"
CONFIG="$ROOT/etc/companion/table.toml"
UNIT="$ROOT/etc/systemd/system/companion.service"

step() { printf '== %s\n' "$*"; }
# Run a command on the real system; under --root only say what would run.
system() {
    if [ -n "$ROOT" ]; then
        printf '   (--root: skipped) %s\n' "$*"
    else
        printf '   %s\n' "$*"
        "$@"
    fi
}

step "1. system packages"
if [ -z "$ROOT" ] && dpkg-query -W -f='${Status}\n' python3-venv 2>/dev/null | grep -q "ok installed"; then
    echo "   python3-venv is installed"
else
    system apt-get update
    system apt-get install -y python3-venv python3-dev build-essential swig liblgpio-dev
fi

step "2. groups and the service user"
for group in gpio dialout; do
    if [ -z "$ROOT" ] && getent group "$group" >/dev/null; then
        echo "   group $group exists"
    else
        system groupadd --system -f "$group"
    fi
done
if [ -z "$ROOT" ] && id -u "$USER_NAME" >/dev/null 2>&1; then
    echo "   user $USER_NAME exists"
    system usermod --append --groups gpio,dialout "$USER_NAME"
else
    system useradd --system --user-group --groups gpio,dialout --home-dir /var/lib/companion \
        --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
fi

step "3. the companion in $VENV"
if [ -x "$VENV/bin/python" ]; then
    echo "   virtual environment exists"
else
    mkdir -p "$(dirname "$VENV")"
    python3 -m venv "$VENV"
    echo "   created"
fi
# pip leaves an installed wheel of the same version alone and updates an older one.
"$VENV/bin/pip" install --quiet --disable-pip-version-check "$SOURCE[$EXTRAS]"
echo "   $("$VENV/bin/companion" --version) installed with [$EXTRAS]"

step "4. configuration $CONFIG"
if [ -e "$CONFIG" ]; then
    echo "   exists, left as it is (compare with: companion config example)"
else
    mkdir -p "$(dirname "$CONFIG")"
    "$VENV/bin/companion" config example > "$CONFIG.new"
    chmod 644 "$CONFIG.new"
    mv "$CONFIG.new" "$CONFIG"
    echo "   written from the example: edit players, pins and pulse, then run the self-test"
fi

step "5. systemd unit $UNIT"
packaged="$("$VENV/bin/python" -I -c \
    'from importlib.resources import files; print(files("companion.deploy") / "companion.service")')"
mkdir -p "$(dirname "$UNIT")"
if cmp -s "$packaged" "$UNIT"; then
    echo "   unchanged"
else
    install -m 644 "$packaged" "$UNIT"
    echo "   installed"
fi
system systemctl daemon-reload
if [ -n "$ROOT" ]; then
    if command -v systemctl >/dev/null; then
        systemctl --root="$ROOT" --quiet enable companion.service
        echo "   enabled under $ROOT"
    else
        echo "   (--root: skipped, no systemctl here) systemctl enable companion.service"
    fi
else
    system systemctl enable companion.service
fi

cat <<EOF
== done. Next:
   edit $CONFIG (players, pins, pulse_ms; docs/pi-service.md)
   check the hardware: cd ~ && $ROOT/opt/companion/.venv/bin/companion selftest --config /etc/companion/table.toml --fire
   start the service:  sudo systemctl start companion && journalctl -u companion -f
EOF
