"""Entry point on the Pico: run the shoe, or stay in maintenance mode for one boot.

The watchdog cannot be stopped once started, so a REPL session (mpremote) would be cut off by a reset
after a few seconds. Ctrl-C (what mpremote sends first) therefore leaves a flag file and reboots; the next
boot finds the flag, removes it and starts neither the watchdog nor the shoe, so mpremote can copy files.
`mpremote reset` (or a power cycle) starts the shoe again. See firmware/README.md.
"""

import os
import sys
import time

import machine

MAINTENANCE_FLAG = "maintenance"  # in the current folder: / on the Pico


def maintenance_requested() -> bool:
    try:
        os.stat(MAINTENANCE_FLAG)
    except OSError:
        return False
    os.remove(MAINTENANCE_FLAG)
    return True


def main() -> None:
    if maintenance_requested():
        print("dealerpi shoe: maintenance mode (no watchdog); `mpremote reset` runs the shoe")
        return
    try:
        from shoefw import board

        board.run()
    except KeyboardInterrupt:
        with open(MAINTENANCE_FLAG, "w") as flag:
            flag.write("1")
        machine.reset()
    except Exception as err:  # a bug: say what, then restart clean (the host sees a new boot id)
        sys.print_exception(err)
        time.sleep_ms(500)
        machine.reset()


main()
