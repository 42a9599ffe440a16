#!/bin/sh
# Build step + install: copy the shared codec into firmware/lib, then put the firmware on the shoe's Pico.
#   firmware/flash.sh [PORT]        PORT defaults to /dev/ttyACM0
# Needs MicroPython already on the Pico (firmware/README.md, "Flashing", step 1) and mpremote: the project's
# venv has it with the [shoe] extra (Raspberry Pi OS Lite has no pip outside a venv, PEP 668). MPREMOTE names
# another one. On the table's Pi, run it as the service user with the service stopped (the daemon holds the
# port; dealerpi is in the port's dialout group):
#   sudo systemctl stop dealerpi
#   sudo -u dealerpi /opt/dealerpi/src/firmware/flash.sh /dev/dealerpi-shoe
#   sudo systemctl start dealerpi
set -eu
here=$(cd "$(dirname "$0")" && pwd)
port=${1:-/dev/ttyACM0}
if [ -z "${MPREMOTE:-}" ]; then
    for candidate in "$here/../.venv/bin/mpremote" /opt/dealerpi/venv/bin/mpremote; do
        [ -x "$candidate" ] && MPREMOTE=$candidate && break
    done
fi
MPREMOTE=${MPREMOTE:-mpremote}
command -v "$MPREMOTE" >/dev/null 2>&1 || {
    echo "flash.sh: no mpremote; install the [shoe] extra in the venv: .venv/bin/pip install -e '.[shoe]'" >&2
    exit 2
}

# No shoe: say so, rather than let mpremote guess ("it may be in use by another program"). A pyserial-style
# URL is not a port here; mpremote takes device paths only.
[ -e "$port" ] || {
    echo "flash.sh: no shoe at $port: plug the shoe's Pico in (USB) and check ls -l /dev/dealerpi-shoe /dev/ttyACM*;" \
        "on the Pi install systemd/99-dealerpi-shoe.rules (docs/install-pi.md step 8)" >&2
    exit 2
}

# The one source of truth is dealerpi/shoe/codec.py; tests/firmware checks the copy is byte-identical. An
# identical copy is left alone (the source tree on the Pi belongs to root; the service user only reads it).
cmp -s "$here/../dealerpi/shoe/codec.py" "$here/lib/codec.py" || cp "$here/../dealerpi/shoe/codec.py" "$here/lib/codec.py"

# A running shoe answers mpremote's Ctrl-C by rebooting into maintenance mode (no watchdog, no shoe):
# this first contact may therefore end with an mpremote error, which is expected.
"$MPREMOTE" connect "$port" exec "print('shoe in maintenance mode')" || sleep 3

cd "$here"
"$MPREMOTE" connect "$port" \
    exec "import os
for d in ('lib', 'shoefw'):
    try:
        os.mkdir(d)
    except OSError:
        pass" \
    + cp lib/codec.py :lib/codec.py \
    + cp shoefw/__init__.py shoefw/board.py shoefw/pn532.py shoefw/protocol.py shoefw/ring.py \
         shoefw/tracker.py :shoefw/ \
    + cp main.py :main.py \
    + reset
echo "flashed; the shoe restarts and sends a heartbeat every second (firmware/README.md, \"Checking it works\")"
