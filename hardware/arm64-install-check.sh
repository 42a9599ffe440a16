#!/usr/bin/env bash
# The arm64 install check: docs/install-pi.md's steps that need no Raspberry Pi archive and no hardware, run in
# a Debian bookworm arm64 root under qemu-user (Raspberry Pi OS Bookworm is Debian bookworm with Raspberry Pi's
# archive on top; its CPython is bookworm's 3.11). It proves that the pinned set (hardware/constraints-aarch64.txt)
# installs from wheels on aarch64 with no compiler, that the unit's working directory lets `import lgpio` run as
# the service user, and that the unit passes `systemd-analyze verify`.
#
#   sudo hardware/arm64-install-check.sh            # about 10 minutes the first time (debootstrap), then ~5
#
# Needs root, network access to Debian's archive and PyPI. Keeps the root in $ROOT (default
# /var/tmp/dealerpi-arm64) so a second run skips debootstrap; `rm -rf` it to start over.
# What it cannot check (no Pi here): the Raspberry Pi archive's packages (raspi-config, the gpio group, the
# firmware's overlays), real gpiochips, I2C and the shoe. `dealerpi doctor` checks those on the Pi itself.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ROOT=${ROOT:-/var/tmp/dealerpi-arm64}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

say() { printf '\n== %s\n' "$*"; }

[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap and chroot)" >&2; exit 2; }

say "host tools: qemu-user-static binfmt-support debootstrap"
if ! command -v debootstrap >/dev/null || ! command -v qemu-aarch64-static >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static binfmt-support debootstrap >/dev/null
fi
# A container may not have binfmt_misc mounted; without it the kernel cannot hand arm64 programs to qemu.
if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64

if [ ! -e "$ROOT/.dealerpi-debootstrap-done" ]; then
    say "debootstrap bookworm arm64 into $ROOT"
    rm -rf "$ROOT"
    debootstrap --arch=arm64 --variant=minbase \
        --include=python3,python3-venv,systemd,ca-certificates,passwd \
        bookworm "$ROOT" "$MIRROR" >"$ROOT.debootstrap.log" 2>&1 \
        || { tail -20 "$ROOT.debootstrap.log"; exit 1; }
    touch "$ROOT/.dealerpi-debootstrap-done"
fi

cleanup() { umount "$ROOT/proc" 2>/dev/null || true; }
trap cleanup EXIT
mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# The host's CA bundle: where HTTPS goes through a proxy with its own CA, pip inside the root needs it too.
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/host-ca.crt"

say "the source: $(git -C "$here" log -1 --format='%h %s')"
rm -rf "$ROOT/opt/dealerpi" "$ROOT/var/lib/dealerpi" "$ROOT/etc/dealerpi"
mkdir -p "$ROOT/opt/dealerpi/src"
git -C "$here" archive HEAD | tar -x -C "$ROOT/opt/dealerpi/src"

# The doc's steps, as root in the arm64 root. Raspberry Pi OS has the gpio and i2c groups; Debian does not,
# so they are made here (docs/install-pi.md step 6 says the same for hosts that lack them).
chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    PIP_CERT=/etc/ssl/certs/host-ca.crt PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=180 \
    /bin/bash -euo pipefail -c '
say() { printf "\n== %s\n" "$*"; }
say "platform: $(uname -m), $(. /etc/os-release; echo "$PRETTY_NAME"), $(python3 --version)"
command -v gcc >/dev/null && { echo "gcc is present: the no-compiler check would prove nothing"; exit 1; }
echo "no C compiler in the root: everything below installs from wheels or pure Python"

say "step 6: the service user"
for g in gpio i2c dialout; do getent group $g >/dev/null || groupadd --system $g; done
id dealerpi >/dev/null 2>&1 || useradd --system --home-dir /var/lib/dealerpi --shell /usr/sbin/nologin \
    --groups gpio,i2c,dialout dealerpi
id dealerpi
python3 -m venv /opt/dealerpi/venv
/opt/dealerpi/venv/bin/pip install -q -c /opt/dealerpi/src/hardware/constraints-aarch64.txt \
    "/opt/dealerpi/src[pi,shoe]"
/opt/dealerpi/venv/bin/pip check
/opt/dealerpi/venv/bin/pip list --format=freeze | grep -i -E "^(gpiozero|lgpio|luma|pillow|aiohttp|pyserial|mpremote)"
/opt/dealerpi/venv/bin/pip list --format=freeze | grep -i -E "^rpi" && { echo "RPi.GPIO was installed"; exit 1; } || true
/opt/dealerpi/venv/bin/mpremote --version

say "step 7: the config"
install -d -m 0755 /etc/dealerpi
cp /opt/dealerpi/src/hardware/example.toml /etc/dealerpi/dealerpi.toml
/opt/dealerpi/venv/bin/dealerpi check-config /etc/dealerpi/dealerpi.toml
install -d -o dealerpi -g dealerpi -m 0750 /var/lib/dealerpi /var/lib/dealerpi/decks

say "lgpio needs a writable working directory (joan2937/lg#22): from / it fails, from /var/lib/dealerpi it works"
if (cd / && runuser -u dealerpi -- /opt/dealerpi/venv/bin/python -c "import lgpio" 2>/dev/null); then
    echo "import lgpio from / worked: the root is writable for dealerpi?"; exit 1
fi
echo "from /: import lgpio fails as dealerpi (as expected)"
(cd /var/lib/dealerpi && runuser -u dealerpi -- /opt/dealerpi/venv/bin/python -c "import lgpio; print(\"from /var/lib/dealerpi: import lgpio works, lgpio\", lgpio.LGPIO_PY_VERSION)")

say "dealerpi doctor --fake (as dealerpi, from the unit'"'"'s working directory)"
(cd /var/lib/dealerpi && runuser -u dealerpi -- /opt/dealerpi/venv/bin/dealerpi doctor \
    --config /etc/dealerpi/dealerpi.toml --fake)

say "step 9: run --fake for a few seconds (as dealerpi)"
set +e
(cd /var/lib/dealerpi && runuser -u dealerpi -- timeout -s INT 20 /opt/dealerpi/venv/bin/dealerpi run \
    --config /etc/dealerpi/dealerpi.toml --fake --shoe loop://) 2>&1 | tee /tmp/run.log | tail -5
set -e
grep -q "dealerpi ready" /tmp/run.log || { echo "the daemon did not get ready"; exit 1; }
# The journal is a folder of segments (docs/journal.md): at least one, not empty, or the check fails.
segments=$(find /var/lib/dealerpi/journal -name "*.jsonl" -size +0 | wc -l)
[ "$segments" -gt 0 ] || { echo "no journal segment written in /var/lib/dealerpi/journal"; exit 1; }
echo "journal written: $segments segment(s), $(cat /var/lib/dealerpi/journal/*.jsonl | wc -l) line(s)"

say "step 10: the unit"
cp /opt/dealerpi/src/systemd/dealerpi.service /etc/systemd/system/
systemd-analyze verify /etc/systemd/system/dealerpi.service && echo "systemd-analyze verify: no complaints"
systemd-analyze security --offline=true /etc/systemd/system/dealerpi.service 2>&1 | tail -1
(cd /var/lib/dealerpi && runuser -u dealerpi -- /opt/dealerpi/venv/bin/dealerpi doctor \
    --config /etc/dealerpi/dealerpi.toml --fake) | grep -e "unit working directory" -e "checks,"
'
say "arm64 install check: OK"
