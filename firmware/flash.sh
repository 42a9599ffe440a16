#!/bin/sh
# Build step + install: copy the shared codec into firmware/lib, then put the firmware on the shoe's Pico.
#   firmware/flash.sh [PORT]        PORT defaults to /dev/ttyACM0
# Needs mpremote (pip install mpremote) and MicroPython already on the Pico (firmware/README.md, step 1).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
port=${1:-/dev/ttyACM0}

# The one source of truth is dealerpi/shoe/codec.py; tests/firmware checks the copy is byte-identical.
cp "$here/../dealerpi/shoe/codec.py" "$here/lib/codec.py"

# A running shoe answers mpremote's Ctrl-C by rebooting into maintenance mode (no watchdog, no shoe):
# this first contact may therefore end with an mpremote error, which is expected.
mpremote connect "$port" exec "print('shoe in maintenance mode')" || sleep 3

cd "$here"
mpremote connect "$port" \
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
echo "flashed; the shoe restarts and sends a heartbeat every second (see firmware/README.md, step 4)"
