"""``room.toml``: the room service's config (docs/room.md). Every error names the file and the key.

    [room]
    database = "room.sqlite"          # SQLite (stdlib sqlite3), or a PostgreSQL URL: "postgresql://room@db/room"
    listen = "127.0.0.1:8790"         # the room page; any other address needs a token for everything
    state = "room-state"              # the page's tokens and pairing file (0600)
    session_gap_minutes = 30          # a player's session at a table ends after a pause longer than this

    [mqtt]                            # the broker; the room's user is "room"
    host = "127.0.0.1"
    port = 1883
    password_file = "room.password"

    [[games]]                         # a cash game: its tables, its waiting list, the buy-in when seated
    name = "nlhe-1-3"
    tables = ["t1", "t2"]
    stack = 300

    [tournament]                      # a multi-table tournament (dealerpi/room/director/mtt_config.py)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from dealerpi.room.director.mtt_config import TournamentSettings, parse_tournament
from dealerpi.room.store_sql import POSTGRESQL
from dealerpi.wire.broker import NAME, ROOM, MqttSettings, parse_mqtt
from dealerpi.wire.limits import LimitError, read_toml

# PokerStat's default gap is 360 s (thsoftware.com/pokerstat/help/options.htm), for online tables; a live
# hand takes about two minutes, and a tournament's break (about 15 minutes) or a player's walk away from a
# cash game for a meal is still the same sitting: 30 minutes (docs/room.md "Statistics").
SESSION_GAP_MINUTES = 30


class RoomConfigError(ValueError):
    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors


@dataclass(frozen=True)
class Game:
    name: str
    tables: tuple[str, ...]
    stack: int


@dataclass(frozen=True)
class RoomSettings:
    database: Path | str              # an SQLite file's path, or a postgresql:// URL
    listen: str
    state: Path
    mqtt: MqttSettings
    games: tuple[Game, ...] = ()
    tournament: TournamentSettings | None = None
    session_gap_minutes: float = SESSION_GAP_MINUTES

    def listen_address(self) -> tuple[str, int]:
        host, _, port = self.listen.rpartition(":")
        return host.strip("[]"), int(port)


def load_room(path: Path) -> RoomSettings:
    try:
        data = read_toml(path.read_text(encoding="utf-8"))     # depth checked first (issue 22, probe 2)
    except FileNotFoundError:
        raise RoomConfigError([f"{path}: no such file"]) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RoomConfigError([f"{path}: not TOML: {exc}"]) from None
    except LimitError as exc:
        raise RoomConfigError([f"{path}: {exc}"]) from None
    return parse_room(data, path)


def parse_room(data: dict[str, Any], source: Path) -> RoomSettings:
    errors = [f"{source}: {key}: unknown key (expected one of: room, mqtt, games, tournament)"
              for key in data if key not in ("room", "mqtt", "games", "tournament")]
    room = data.get("room", {})
    if not isinstance(room, dict):
        errors.append(f"{source}: room: must be a table")
        room = {}
    errors += [f"{source}: room.{key}: unknown key (expected one of: database, listen, state, session_gap_minutes)"
               for key in room if key not in ("database", "listen", "state", "session_gap_minutes")]
    gap = room.get("session_gap_minutes", SESSION_GAP_MINUTES)
    if isinstance(gap, bool) or not isinstance(gap, int | float) or not 0 < gap <= 24 * 60:
        errors.append(f"{source}: room.session_gap_minutes: the longest pause, in minutes, between two of a "
                      f"player's hands at a table in one session: a number above 0 and at most 1440, not {gap!r}")
    values: dict[str, str] = {}
    for key, default in (("database", "room.sqlite"), ("listen", "127.0.0.1:8790"), ("state", "room-state")):
        value = room.get(key, default)
        if not isinstance(value, str) or not value:
            errors.append(f"{source}: room.{key}: must be a non-empty string, not {value!r}")
        else:
            values[key] = value
    url = values.get("database", "")
    if url.startswith(("postgresql:", "postgres:")):
        errors += [f"{source}: room.database: {problem}" for problem in postgresql_problems(url)]
    host, _, port = values.get("listen", ":").rpartition(":")
    if "listen" in values and (not host or not (port.isascii() and port.isdigit() and int(port) < 65536)):
        errors.append(f"{source}: room.listen: must be host:port, e.g. 127.0.0.1:8790, not {values['listen']!r}")
    mqtt, mqtt_errors = parse_mqtt(data.get("mqtt", {}), source, name=ROOM)
    errors += mqtt_errors
    games = []
    raw_games = data.get("games", [])
    if not isinstance(raw_games, list):
        errors.append(f"{source}: games: must be an array of tables ([[games]])")
        raw_games = []
    for index, game in enumerate(raw_games):
        key = f"games[{index}]"
        if not isinstance(game, dict):
            errors.append(f"{source}: {key}: must be a table")
            continue
        errors += [f"{source}: {key}.{k}: unknown key (expected one of: name, tables, stack)"
                   for k in game if k not in ("name", "tables", "stack")]
        name, tables, stack = game.get("name"), game.get("tables"), game.get("stack")
        if not isinstance(name, str) or not NAME.match(name):
            errors.append(f"{source}: {key}.name: 1-32 of a-z, 0-9, _ and -, not {name!r}")
        if not (isinstance(tables, list) and tables and all(isinstance(t, str) and NAME.match(t) for t in tables)):
            errors.append(f"{source}: {key}.tables: a list of table names, not {tables!r}")
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            errors.append(f"{source}: {key}.stack: the buy-in in chips, a positive integer, not {stack!r}")
        if not errors:
            assert isinstance(name, str) and isinstance(tables, list) and isinstance(stack, int)
            games.append(Game(name, tuple(tables), stack))
    tournament = None
    if "tournament" in data:
        tournament, tournament_errors = parse_tournament(data["tournament"], source)
        errors += tournament_errors
    if errors:
        raise RoomConfigError(errors)
    assert mqtt is not None

    def path(text: str) -> Path:
        return Path(text) if Path(text).is_absolute() else source.parent / text
    database = url if url.startswith(POSTGRESQL) else path(url)
    return RoomSettings(database, values["listen"], path(values["state"]), mqtt, tuple(games), tournament, gap)


def postgresql_problems(url: str) -> list[str]:
    """What is wrong with a PostgreSQL URL (libpq's syntax: postgresql.org/docs/current/libpq-connect.html,
    section "Connection URIs"), checked without the driver: it need not be installed to read the file. A
    password in the URL is refused, as a password on a command line is: libpq reads it from a password file
    (``passfile=`` or ~/.pgpass, 0600), or the server trusts the room's Unix user (peer)."""
    if not url.startswith(POSTGRESQL):
        return ["a PostgreSQL URL starts with postgresql:// (postgresql://USER@HOST:PORT/DATABASE)"]
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (it raises on a port that is not a number)
    except ValueError as exc:
        return [f"not a PostgreSQL URL ({exc}): postgresql://USER@HOST:PORT/DATABASE"]
    problems = []
    if parts.password is not None:
        problems.append("no password in the URL: give it in a password file (passfile=PATH, mode 0600) or use "
                        "peer authentication over the Unix socket (docs/room.md)")
    if not parts.path.strip("/"):
        problems.append("the URL names no database: postgresql://USER@HOST:PORT/DATABASE")
    return problems
