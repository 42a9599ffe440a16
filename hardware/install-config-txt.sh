#!/bin/sh
# Put hardware/config.txt (DealerPi's overlays) into the firmware config, once:
#   sudo hardware/install-config-txt.sh [/boot/firmware/config.txt]
# A block from an earlier run (between "# DealerPi begin" and "# DealerPi end") is replaced, not added twice,
# and the block opens with [all], so its lines apply to every model whatever section the file ended in
# (Raspberry Pi OS's own file has [cm4], [cm5] and [all] sections). The file as it was before DealerPi's first
# run is kept as config.txt.dealerpi-bak; a later run leaves that backup alone (it would otherwise become the
# first run's result, and the original would be lost). Reboot afterwards.
set -eu
target=${1:-/boot/firmware/config.txt}
block="$(cd "$(dirname "$0")" && pwd)/config.txt"
[ -f "$target" ] || { echo "install-config-txt: no $target (Raspberry Pi OS Bookworm keeps it in /boot/firmware)" >&2; exit 2; }
[ -e "$target.dealerpi-bak" ] || cp "$target" "$target.dealerpi-bak"
# Everything outside an earlier DealerPi block, then the block. awk ends every line it prints with a newline,
# so a file whose last line had none does not run into the block's first line.
awk '/^# DealerPi begin/ { skip = 1 } !skip { print } /^# DealerPi end/ { skip = 0 }' "$target" \
    > "$target.dealerpi-new"
cat "$block" >> "$target.dealerpi-new"
mv "$target.dealerpi-new" "$target"
echo "DealerPi's overlays are in $target (under [all]); the file before DealerPi is $target.dealerpi-bak. Reboot to load them."
