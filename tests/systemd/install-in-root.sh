# docs/install-pi.md steps 6, 7, 8 and 10 and docs/console.md's steps, as root in the guest's root (a chroot on
# the host; the guest boots it afterwards). The source is already in /opt/dealerpi/src (step 6's "copy"), the
# wheels in /tmp/wheels (PIP_NO_INDEX and PIP_FIND_LINKS point pip there: the same command, offline).
# What is not the doc's is marked TEST: the guest's own config, i2c-stub, the probe, no firstboot prompt.
src=/opt/dealerpi/src

# TEST: a machine id (no systemd-firstboot prompt on the console), a hostname, no getty on the console.
systemd-machine-id-setup
echo dealerpi-test > /etc/hostname
systemctl mask systemd-firstboot.service serial-getty@ttyS0.service getty@tty1.service

# step 6 on plain Debian: the gpio and i2c groups Raspberry Pi OS has, and the rule giving the nodes to them
for g in gpio i2c; do getent group $g >/dev/null || groupadd --system $g; done
cp $src/systemd/99-dealerpi-gpio.rules /etc/udev/rules.d/
useradd --system --home-dir /var/lib/dealerpi --shell /usr/sbin/nologin --groups gpio,i2c,dialout dealerpi
install -d -o dealerpi -g dealerpi -m 0750 /var/lib/dealerpi /var/lib/dealerpi/decks
python3 -m venv /opt/dealerpi/venv
/opt/dealerpi/venv/bin/pip install -q -c $src/hardware/constraints-aarch64.txt "$src[pi,shoe]"
/opt/dealerpi/venv/bin/pip check

# step 7: the config. TEST: fake pins and displays (the VM has no header), the shoe on /dev/ttyACM0 (a node
# the probe makes: major 166, cdc_acm's, with no USB device behind it).
install -d -m 0755 /etc/dealerpi
# TEST: log_level DEBUG, so that every failed attempt to open the shoe is in the log (no hand is dealt here).
sed -e 's/^devices = "pi"/devices = "fake"/' -e 's#port = "/dev/dealerpi-shoe"#port = "/dev/ttyACM0"#' \
    -e 's/^log_level = "INFO"/log_level = "DEBUG"/' \
    $src/hardware/example-6seat.toml > /etc/dealerpi/dealerpi.toml
/opt/dealerpi/venv/bin/dealerpi check-config /etc/dealerpi/dealerpi.toml

# step 8: the udev rules and the modules-load file
cp $src/systemd/99-dealerpi-shoe.rules $src/systemd/99-dealerpi-i2c-mux.rules /etc/udev/rules.d/
cp $src/systemd/modules-load-dealerpi.conf /etc/modules-load.d/dealerpi.conf

# step 10: the unit
cp $src/systemd/dealerpi.service /etc/systemd/system/
systemctl enable dealerpi.service
# TEST: the guest's CPU is emulated (TCG, 10-20 times slower than a Pi 4): the daemon's start (Python, PIL,
# the journal read back) took 12-35 s of it on a loaded host, against the unit's TimeoutStartSec=30. A drop-in
# gives the start 120 s here only; the watchdog (WatchdogSec=10) and everything else is the shipped unit's.
mkdir -p /etc/systemd/system/dealerpi.service.d
printf '[Service]\nTimeoutStartSec=120\n' > /etc/systemd/system/dealerpi.service.d/test-emulated-cpu.conf

# docs/console.md: [console] in the config (the defaults suit the units), the console's user and unit
printf '\n[console]\n' >> /etc/dealerpi/dealerpi.toml
chgrp dealerpi /etc/dealerpi/dealerpi.toml && chmod 0640 /etc/dealerpi/dealerpi.toml
useradd --system --home /nonexistent --shell /usr/sbin/nologin --groups dealerpi dealerpi-console
cp $src/systemd/dealerpi-console.service /etc/systemd/system/
systemctl enable dealerpi-console.service

# docs/room.md "The broker": Debian's mosquitto (in the cached root: tests/vm_root.py), the room's files, the
# conf.d file (listener, use_username_as_clientid, the hashed passwd and the acl), owned as the doc says.
/opt/dealerpi/venv/bin/dealerpi room broker-files /etc/mosquitto/dealerpi t1
cp /etc/mosquitto/dealerpi/dealerpi.conf /etc/mosquitto/conf.d/dealerpi.conf
chown mosquitto: /etc/mosquitto/dealerpi/passwd /etc/mosquitto/dealerpi/acl
systemctl enable mosquitto.service
# docs/room.md "A table": the table's password for the console's user, [mqtt] beside [console]
install -o root -g dealerpi-console -m 0640 /etc/mosquitto/dealerpi/t1.password /etc/dealerpi/mqtt.password
printf '\n[mqtt]\nname = "t1"\nhost = "127.0.0.1"\nport = 1883\npassword_file = "/etc/dealerpi/mqtt.password"\n' \
    >> /etc/dealerpi/dealerpi.toml
/opt/dealerpi/venv/bin/dealerpi check-config /etc/dealerpi/dealerpi.toml
# docs/room.md "The room": its user (the unit's User=), its password readable by it, room.toml on SQLite, the unit
useradd --system --home /nonexistent --shell /usr/sbin/nologin dealerpi-room
chown dealerpi-room: /etc/mosquitto/dealerpi/room.password
cat > /etc/dealerpi/room.toml <<'TOML'
[room]
database = "/var/lib/dealerpi-room/room.sqlite"
listen = "0.0.0.0:8790"
state = "/var/lib/dealerpi-room"
session_gap_minutes = 30

[mqtt]
host = "127.0.0.1"
password_file = "/etc/mosquitto/dealerpi/room.password"

[[games]]
name = "nlhe-1-3"
tables = ["t1"]
stack = 300
TOML
cp $src/systemd/dealerpi-room.service /etc/systemd/system/
systemctl enable dealerpi-room.service
# docs/broadcast.md "On the Pi": broadcast.toml naming the table's config, on the venue's network, on a port of
# its own (the room page has 8790 on this machine), the table's delay; the unit
cat > /etc/dealerpi/broadcast.toml <<'TOML'
[broadcast]
table = "/etc/dealerpi/dealerpi.toml"
listen = "0.0.0.0:8791"
delay_minutes = 30
TOML
cp $src/systemd/dealerpi-broadcast.service /etc/systemd/system/
systemctl enable dealerpi-broadcast.service

# TEST: an I2C bus with a device at 0x3c (i2c-stub, Debian's kernel has it as a module): /dev/i2c-0 once
# i2c-dev is loaded by the shipped modules-load file.
echo i2c-stub > /etc/modules-load.d/dealerpi-test.conf
echo "options i2c-stub chip_addr=0x3c" > /etc/modprobe.d/dealerpi-test.conf
# TEST: a table on "pi" devices for the doctor: displays on the stub's bus (0x3c answers, 0x3d does not) and on
# a bus that does not exist; the shoe on a ttyACM node the probe makes.
cat > /etc/dealerpi/doctor-pi.toml <<'TOML'
devices = "pi"
journal = "/var/lib/dealerpi/journal"
decks = "/var/lib/dealerpi/decks"

[table]
game = "nlhe"
rules = "home"
seats = 2
blinds = [1, 3]

[shoe]
port = "/dev/ttyACM0"

[[seats]]
seat = 1
buttons = { fold = "GPIO4", call = "GPIO5", bet = "GPIO6" }
display = { bus = 0, address = 0x3C }

[[seats]]
seat = 2
buttons = { fold = "GPIO9", call = "GPIO10", bet = "GPIO11" }
display = { bus = 0, address = 0x3D }

[dealer]
buttons = { start = "GPIO12", exposed = "GPIO13", misdeal = "GPIO16", undo = "GPIO19", confirm = "GPIO20" }
display = { bus = 7, address = 0x3C }
TOML
/opt/dealerpi/venv/bin/dealerpi check-config /etc/dealerpi/doctor-pi.toml

# TEST: the probe, once the system is up; it powers the guest off.
cat > /etc/systemd/system/dealerpi-probe.service <<'UNIT'
[Unit]
Description=DealerPi test probe (tests/systemd/guest_probe.py)
After=multi-user.target dealerpi.service dealerpi-console.service mosquitto.service dealerpi-room.service
After=dealerpi-broadcast.service
[Service]
Type=exec
ExecStart=/usr/bin/python3 /opt/dealerpi-probe.py /dev/ttyS1
ExecStopPost=/usr/bin/systemctl --no-block poweroff
StandardOutput=journal+console
[Install]
WantedBy=multi-user.target
UNIT
systemctl enable dealerpi-probe.service
echo "installed"
