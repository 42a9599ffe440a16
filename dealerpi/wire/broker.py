"""Where the broker is and how a client logs in (``[mqtt]`` in a table's config and in room.toml), and the
topics every table and the room use (docs/room.md).

The topic design follows Zigbee2MQTT (zigbee2mqtt.io/guide/usage/mqtt_topics_and_messages.html): one base
topic per installation, a device's state as JSON, retained, on ``BASE/NAME``, its availability on
``BASE/NAME/availability`` (``online``/``offline``, the last will sets ``offline``), and commands on
``BASE/NAME/set``. Here a device is a table:

| topic | who writes | retained | what |
|---|---|---|---|
| ``P/T`` | table T | yes | public state: seats, names, stacks, blinds, board, pots, whose turn, hands published |
| ``P/T/availability`` | table T (will) | yes | ``online`` / ``offline`` |
| ``P/T/hand`` | table T | no (QoS 1) | one finished hand, its PHH (hole cards only now, the hand over) |
| ``P/T/set`` | the room | no (QoS 1) | a command ``{"id", "type", ...}`` |
| ``P/T/set/result`` | table T | no (QoS 1) | the command's answer ``{"id", "accepted", "reason"}`` |
| ``P/room/...`` | the room | yes | the room's own availability |
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")      # a topic level without wildcards, and a broker user
ROOM = "room"                                           # the room's own name: no table may take it


@dataclass(frozen=True)
class MqttSettings:
    """The broker's address and this client's login. ``name`` is the table's (or ``room``): its topic level
    and its broker user. The password is read from ``password_file`` (never on a command line)."""

    name: str
    host: str = "127.0.0.1"
    port: int = 1883
    prefix: str = "dealerpi"
    password_file: Path | None = None
    tls_ca: Path | None = None           # a CA file: TLS to the broker (docs/room.md)

    def password(self) -> str | None:
        if self.password_file is None:
            return None
        return self.password_file.read_text(encoding="utf-8").strip()


class Topics:
    """The topic names of one installation (``prefix``)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def state(self, table: str) -> str:
        return f"{self.prefix}/{table}"

    def availability(self, table: str) -> str:
        return f"{self.prefix}/{table}/availability"

    def hand(self, table: str) -> str:
        return f"{self.prefix}/{table}/hand"

    def command(self, table: str) -> str:
        return f"{self.prefix}/{table}/set"

    def result(self, table: str) -> str:
        return f"{self.prefix}/{table}/set/result"

    def table_of(self, topic: str) -> tuple[str, str] | None:
        """``(table, kind)`` of a table's topic; kind is ``state``, ``availability``, ``hand``, ``set`` or
        ``result``; None for any other topic."""
        parts = topic.split("/")
        if len(parts) < 2 or parts[0] != self.prefix or parts[1] == ROOM or not NAME.match(parts[1]):
            return None
        kinds = {(): "state", ("availability",): "availability", ("hand",): "hand", ("set",): "set",
                 ("set", "result"): "result"}
        kind = kinds.get(tuple(parts[2:]))
        return None if kind is None else (parts[1], kind)


def parse_mqtt(raw: Any, source: Path, key: str = "mqtt", *, name: str | None = None) -> tuple[MqttSettings | None,
                                                                                                 list[str]]:
    """Check an ``[mqtt]`` table; the errors name the file and the key. ``name`` fixes the client's name (the
    room's); a table names itself with ``name = "t1"``. Relative paths are relative to ``source``."""
    errors: list[str] = []

    def error(sub: str, message: str) -> None:
        errors.append(f"{source}: {key}.{sub}: {message}")

    if not isinstance(raw, Mapping):
        return None, [f"{source}: {key}: must be a table, not {type(raw).__name__}"]
    allowed = ("host", "port", "prefix", "password_file", "tls_ca") + (() if name else ("name",))
    errors += [f"{source}: {key}.{k}: unknown key (expected one of: {', '.join(allowed)})"
               for k in raw if k not in allowed]
    given = name if name is not None else raw.get("name")
    if not isinstance(given, str) or not NAME.match(given) or (name is None and given == ROOM):
        error("name", f"a table's name is 1-32 of a-z, 0-9, _ and - (not {ROOM!r}), not {given!r}")
    host = raw.get("host", "127.0.0.1")
    if not isinstance(host, str) or not host:
        error("host", f"must be a host name or address, not {host!r}")
    port = raw.get("port", 1883)
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        error("port", f"must be a port number 1-65535, not {port!r}")
    prefix = raw.get("prefix", "dealerpi")
    if not isinstance(prefix, str) or not NAME.match(prefix):
        error("prefix", f"a topic level of a-z, 0-9, _ and -, not {prefix!r}")
    paths: dict[str, Path | None] = {}
    for sub in ("password_file", "tls_ca"):
        text = raw.get(sub)
        if text is not None and (not isinstance(text, str) or not text):
            error(sub, f"must be a file's path, not {text!r}")
            text = None
        paths[sub] = None if text is None else (Path(text) if Path(text).is_absolute() else source.parent / text)
    if errors:
        return None, errors
    assert isinstance(given, str) and isinstance(host, str) and isinstance(port, int) and isinstance(prefix, str)
    return MqttSettings(given, host, port, prefix, paths["password_file"], paths["tls_ca"]), []
