#!/bin/sh
# Put hardware/config.txt (DealerPi's overlays) into the firmware config, once:
#   sudo hardware/install-config-txt.sh [/boot/firmware/config.txt]
# A block from an earlier run (between "# DealerPi begin" and "# DealerPi end") is replaced, not added twice,
# and the block opens with [all], so its lines apply to every model whatever section the file ended in
# (Raspberry Pi OS's own file has [cm4], [cm5] and [all] sections). The old file is kept as
# config.txt.dealerpi-bak. Reboot afterwards.
set -eu
target=${1:-/boot/firmware/config.txt}
block="$(cd "$(dirname "$0")" && pwd)/config.txt"
[ -f "$target" ] || { echo "install-config-txt: no $target (Raspberry Pi OS Bookworm keeps it in /boot/firmware)" >&2; exit 2; }
cp "$target" "$target.dealerpi-bak"
# Everything outside an earlier DealerPi block, then the block. awk ends every line it prints with a newline,
# so a file whose last line had none does not run into the block's first line.
awk '/^# DealerPi begin/ { skip = 1 } !skip { print } /^# DealerPi end/ { skip = 0 }' "$target.dealerpi-bak" \
    > "$target.dealerpi-new"
cat "$block" >> "$target.dealerpi-new"
mv "$target.dealerpi-new" "$target"
echo "DealerPi's overlays are in $target (under [all]); the old file is $target.dealerpi-bak. Reboot to load them."
