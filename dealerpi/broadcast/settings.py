"""``dealerpi broadcast --config FILE``: the broadcast's own TOML file (docs/broadcast.md).

    [broadcast]
    table = "/etc/dealerpi/dealerpi.toml"   # the table's config: the daemon's socket ([console] socket), its journal
    listen = "127.0.0.1:8790"               # the feeds and pages (any address needs the tokens for the delayed feed)
    state = "/var/lib/dealerpi-broadcast"   # 0700: the session's inputs (hole cards) for the delay, tokens, clips
    delay_minutes = 30                      # 0-120, per table (one broadcast process per table)
    min_delay_minutes = 30                  # the dynamic delay: breaks skipped down to this (default: no skip)
    no_delay = false                        # true is needed for delay_minutes = 0 (a feed with live hole cards)
    sync_ms = 0                             # board-sync delay: a board card appears this much later still
    mqtt = false                            # true: the delayed feed to the room's broker too (the table's [mqtt])
    room_url = "http://room:8790"           # VPIP/PFR from the room's statistics (GET /summary.json, read-only)
    room_token_file = "room-token"          # the room's board token (a look-only role), one line, 0600

Paths are relative to this file. A bad value is an error naming the key; the table's config is checked by
its own loader (the same messages as ``dealerpi check-config``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from dealerpi import config as table_config
from dealerpi.wire.broker import MqttSettings

KEYS = ("table", "listen", "state", "delay_minutes", "min_delay_minutes", "no_delay", "sync_ms", "mqtt",
        "room_url", "room_token_file")
MAX_DELAY_MINUTES = 120
MAX_SYNC_MS = 10_000


class SettingsError(ValueError):
    """One or more ``FILE: key: message`` lines."""


@dataclass(frozen=True)
class BroadcastSettings:
    source: Path
    socket: Path
    journal: Path
    listen: str
    state: Path
    delay_ms: int
    sync_ms: int
    mqtt: MqttSettings | None = None      # the table's broker login, when the delayed feed goes there too
    floor_ms: int | None = None           # the dynamic delay's least delay; None: breaks are not skipped
    room_url: str | None = None           # the room's page, for VPIP/PFR (dealerpi.broadcast.room_stats)
    room_token: str | None = None

    def listen_address(self) -> tuple[str, int]:
        host, _, port = self.listen.rpartition(":")
        return host.strip("[]"), int(port)


def load(path: Path) -> BroadcastSettings:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SettingsError(f"{path}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: {exc}") from None
    errors: list[str] = []
    section = data.get("broadcast")
    if not isinstance(section, dict):
        raise SettingsError(f"{path}: broadcast: missing [broadcast] section (docs/broadcast.md)")
    for key in section:
        if key not in KEYS:
            errors.append(f"{path}: broadcast.{key}: unknown key (expected one of: {', '.join(KEYS)})")
    base = path.parent

    def text(key: str, default: str) -> str:
        value = section.get(key, default)
        if not isinstance(value, str) or not value:
            errors.append(f"{path}: broadcast.{key}: must be a non-empty string")
            return default
        return value

    def whole(key: str, default: int, low: int, high: int) -> int:
        value = section.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            errors.append(f"{path}: broadcast.{key}: must be a whole number from {low} to {high}, not {value!r}")
            return default
        return value

    table = base / text("table", "/etc/dealerpi/dealerpi.toml")
    listen = text("listen", "127.0.0.1:8790")
    host, _, port = listen.rpartition(":")
    if not host or not port.isdigit() or int(port) > 65535:
        errors.append(f"{path}: broadcast.listen: must be host:port, e.g. 127.0.0.1:8790, not {listen!r}")
    state = base / text("state", "/var/lib/dealerpi-broadcast")
    minutes = whole("delay_minutes", 30, 0, MAX_DELAY_MINUTES)
    sync_ms = whole("sync_ms", 0, 0, MAX_SYNC_MS)
    floor = whole("min_delay_minutes", minutes, 0, MAX_DELAY_MINUTES)
    if floor > minutes:
        errors.append(f"{path}: broadcast.min_delay_minutes: the dynamic delay's least delay, at most delay_minutes "
                      f"({minutes}), not {floor}")
    elif floor == 0 and minutes > 0:
        errors.append(f"{path}: broadcast.min_delay_minutes: 0 would show live hole cards after a break: at least 1")
    room_url = section.get("room_url")
    if room_url is not None and (not isinstance(room_url, str) or not room_url.startswith(("http://", "https://"))):
        errors.append(f"{path}: broadcast.room_url: the room's page, http://HOST:PORT, not {room_url!r}")
        room_url = None
    room_token = None
    if room_url is not None:
        token_path = base / text("room_token_file", "room-token")
        try:
            room_token = token_path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            errors.append(f"{path}: broadcast.room_token_file: {token_path}: {exc.strerror or exc}")
        if room_token == "":
            errors.append(f"{path}: broadcast.room_token_file: {token_path} is empty (the room's board token)")
    no_delay = section.get("no_delay", False)
    if not isinstance(no_delay, bool):
        errors.append(f"{path}: broadcast.no_delay: must be true or false")
    elif minutes == 0 and not no_delay:
        errors.append(f"{path}: broadcast.delay_minutes: 0 shows live hole cards on the broadcast feed: set "
                      "no_delay = true as well if that is what you want")
    to_broker = section.get("mqtt", False)
    if not isinstance(to_broker, bool):
        errors.append(f"{path}: broadcast.mqtt: must be true or false")
    if errors:
        raise SettingsError("\n".join(errors))
    try:
        table_settings = table_config.load(table)
    except table_config.ConfigError as exc:
        raise SettingsError("\n".join(exc.errors)) from None
    if table_settings.console is None:
        raise SettingsError(f"{path}: broadcast.table: {table} has no [console] section, so its daemon has no "
                            "local socket (docs/console.md)")
    if to_broker and table_settings.mqtt is None:
        raise SettingsError(f"{path}: broadcast.mqtt: {table} has no [mqtt] section: the broker and the table's "
                            "login come from there (docs/room.md)")
    return BroadcastSettings(source=path, socket=table_settings.console.socket, journal=table_settings.journal,
                             listen=listen, state=state, delay_ms=minutes * 60_000, sync_ms=sync_ms,
                             mqtt=table_settings.mqtt if to_broker else None,
                             floor_ms=floor * 60_000 if floor < minutes else None,
                             room_url=room_url.rstrip("/") if room_url else None, room_token=room_token)
