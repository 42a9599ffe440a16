"""What a typed, versioned wire costs per view (issue 22): today's dicts against msgspec, pydantic v2 and a
TypedDict checked by hand, on the real views of a 10-seat table in a hand.

    .venv/bin/python bench/bench_wire.py [--rounds 2000]

The views come from the daemon's own code (``ApiServer.view``: the board's, the dealer's and the host's,
the host's with the session ledger and the status panel) at hardware/example.toml's 10-seat table on fake
devices, ten players seated, hand 1 dealt, seat 4 to act; and the change frame one action sends (``changes``,
what goes out on every button press). Each is timed ``--rounds`` times per way, best of 5 (the least
disturbed by the machine's load), in microseconds, with the ratio to today's ``json``:

- encode: today ``json.dumps(view).encode()``; msgspec ``msgspec.json.encode`` of the dict and of the
  typed record (``msgspec.Struct``: what the daemon would build instead of the dict); pydantic
  ``TypeAdapter(TypedDict).dump_json``.
- decode: today ``json.loads``; msgspec ``msgspec.json.decode(data, type=Record)`` (parsed and checked in
  one pass); pydantic ``TypeAdapter.validate_json``; ``json.loads`` then a hand-written check of the
  TypedDict's fields.

The msgspec records are production's (``dealerpi/wire/views.py``: every key typed, the tournament, the
status panel, the ledger's sessions and the game form too); the TypedDicts below, kept to compare the
libraries, type the seats, pots, action, alerts and ledger key by key and the rest as objects of any
content, so they check less than the records do.

The column ``x today`` compares with what production did before the views were typed (the dict through
msgspec, unchecked: ``protocol.encode``, ``wire.limits.read_json``): the daemon's check of its own view at a
hello (dict -> record), the console's check of each whole view it receives (a dict, then the record:
``DaemonLink``), and of each change (decoded, merged into its copy of the host's view, and the sections it
changed read again as the record's: ``wire.views.read_changed``; the whole view read again is shown too).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import time
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pydantic
from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench_latency  # noqa: E402  (beside this script)

from dealerpi.config import load  # noqa: E402
from dealerpi.devices import FakeDevices  # noqa: E402
from dealerpi.journal.file import Journal  # noqa: E402
from dealerpi.table.api.server import ApiServer  # noqa: E402
from dealerpi.table.controller import Controller  # noqa: E402
from dealerpi.wire.protocol import changes, merge  # noqa: E402

Object = dict[str, Any]


# --- msgspec: the records the console reads the views as (dealerpi/wire/views.py) -------------------------

from dealerpi.wire.views import BoardView, DealerView, HostView, read_changed  # noqa: E402

# --- pydantic v2 and the hand-checked variant: TypedDicts ------------------------------------------------

class SeatLineTD(TypedDict):
    player: str | None
    stack: int
    status: str
    bet: int
    blind: str | None
    button: bool
    turn: bool
    won: int
    cards: list[str]
    away: bool


class PotTD(TypedDict):
    amount: int
    eligible: list[int]


class ActionTD(TypedDict):
    seat: int
    words: list[str]


class AlertTD(TypedDict):
    rule: str
    message: str


class LedgerEventTD(TypedDict):
    at: str | None
    kind: str
    player: str
    seat: int
    amount: int


LedgerPlayerTD = TypedDict("LedgerPlayerTD", {"player": str, "in": int, "out": int, "on_table": int, "net": int})
TransferTD = TypedDict("TransferTD", {"from": str, "to": str, "amount": int})
LedgerTD = TypedDict("LedgerTD", {"session": Object, "events": list[LedgerEventTD], "players": list[LedgerPlayerTD],
                                  "in": int, "out": int, "on_table": int, "balanced": bool,
                                  "transfers": list[TransferTD], "expenses": list[Object], "charges": list[Object],
                                  "sessions": list[Object]})


class BoardTD(TypedDict):
    hand: int
    game: str | None
    blinds: list[int] | None
    board: list[list[str]]
    pots: list[PotTD]
    payouts: list[list[int]]
    seats: dict[str, SeatLineTD]
    in_hand: bool
    paused: str | None
    pausing: Object | None
    last_blinds: list[int]
    next_hand: Object | None
    starting_stacks: list[list[int]]
    tournament: Object | None
    action: ActionTD | None
    bust_by: dict[str, list[int]]
    board_labels: list[str]
    bomb: bool
    result: Object | None
    break_in: int | None
    announcement: str | None
    v: int


class DealerTD(BoardTD):
    expect: str
    next: Object
    alerts: list[AlertTD]
    shoe: bool


class HostTD(DealerTD):
    status: Object
    ledger: LedgerTD
    setup: Object


_STRICT = pydantic.ConfigDict(strict=True, extra="forbid")
for _td in (SeatLineTD, PotTD, ActionTD, AlertTD, LedgerEventTD, LedgerPlayerTD, TransferTD, LedgerTD, BoardTD,
            DealerTD, HostTD):
    _td.__pydantic_config__ = _STRICT  # type: ignore[attr-defined]


@functools.cache
def _hints(shape: Any) -> dict[str, Any]:
    return typing.get_type_hints(shape)


def _check(value: object, shape: object, where: str) -> None:
    """A hand-written check of a TypedDict's value (the third way: no library)."""
    origin = getattr(shape, "__origin__", None)
    if shape is Any:
        return
    if hasattr(shape, "__total__"):                                                 # a TypedDict
        hints = _hints(shape)
        if not isinstance(value, dict) or value.keys() != hints.keys():
            raise ValueError(f"{where}: keys")
        for key, inner in hints.items():
            _check(value[key], inner, f"{where}.{key}")
    elif origin is list:
        if not isinstance(value, list):
            raise ValueError(where)
        for item in value:
            _check(item, shape.__args__[0], where)  # type: ignore[attr-defined]
    elif origin is dict:
        if not isinstance(value, dict):
            raise ValueError(where)
        for item in value.values():
            _check(item, shape.__args__[1], where)  # type: ignore[attr-defined]
    elif getattr(shape, "__args__", None) is not None:                               # X | None
        if value is not None:
            _check(value, next(a for a in shape.__args__ if a is not type(None)), where)  # type: ignore[attr-defined]
    elif shape is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(where)
    elif not isinstance(value, shape):  # type: ignore[arg-type]
        raise ValueError(where)


# --- the views -----------------------------------------------------------------------------------------------

def table_views(folder: Path) -> tuple[dict[str, Object], Object]:
    """The board's, dealer's and host's views at a 10-seat table in hand 1 (seat 4 to act), and the change
    the host's view gets when seat 4 calls."""
    path = bench_latency.write_config(folder)
    with path.open("a") as handle:
        handle.write(f'\n[console]\nsocket = "{folder / "api.sock"}"\nstate = "{folder / "console"}"\n')
    config = load(path)
    assert config.console is not None
    journal, entries = Journal.open(config.journal)
    controller = Controller(config, FakeDevices(config), journal, decks=bench_latency.ShuffledDecks())
    api = ApiServer(controller, config.console.socket)
    controller.api = api
    controller.replay(entries)
    for seat in range(1, 11):
        assert controller.submit({"type": "sit", "seat": seat, "player": f"Player {seat}", "stack": 200,
                                  "by": "host", "at": "2026-11-26T20:00:00Z"}).accepted
    assert controller.submit({"type": "start"}).accepted
    read = 0
    while controller.table.expectation().as_json()["expect"] in ("card", "burn"):
        controller.on_card(f"C{read}")
        read += 1
    views = {role: api.view(role) for role in ("board", "dealer", "host")}
    assert controller.submit({"type": "act", "seat": 4, "action": "call"}).accepted
    change = changes(views["host"], api.view("host"))
    journal.close()
    return views, change


def best(rounds: int, action: Callable[[], object]) -> float:
    """Microseconds per call, the best of 5 runs of ``rounds`` calls."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(rounds):
            action()
        times.append((time.perf_counter() - start) / rounds * 1e6)
    return min(times)


Row = tuple[str, str, float, float, float | None]


def measure(rounds: int) -> list[Row]:
    """Each way's microseconds, its ratio to ``json`` and, for the ways production has (today's dicts through
    msgspec, and the records of issue 22), its ratio to today's dicts."""
    with tempfile.TemporaryDirectory() as folder:
        views, change = table_views(Path(folder))
    rows: list[Row] = []
    kinds: dict[str, tuple[type[msgspec.Struct], Any]] = {
        "board": (BoardView, BoardTD), "dealer": (DealerView, DealerTD), "host": (HostView, HostTD)}
    for role, view in views.items():
        record_type, typed_dict = kinds[role]
        view = json.loads(json.dumps(view))             # as the console receives it: lists, not tuples
        data = json.dumps(view, separators=(",", ":"), ensure_ascii=False).encode()
        record = msgspec.convert(view, record_type)
        adapter = pydantic.TypeAdapter(typed_dict)
        assert msgspec.json.decode(data, type=record_type) == record
        assert adapter.validate_json(data) == view
        _check(json.loads(data), typed_dict, role)
        name = f"{role} view ({len(data)} bytes)"
        base_encode = best(rounds, lambda v=view: json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode())
        base_decode = best(rounds, lambda d=data: json.loads(d))
        today_encode = best(rounds, lambda v=view: msgspec.json.encode(v))
        today_decode = best(rounds, lambda d=data: msgspec.json.decode(d))
        rows += [
            (name, "encode: json.dumps", base_encode, 1.0, None),
            (name, "encode: msgspec, the dict (today: protocol.encode)", today_encode, today_encode / base_encode,
             1.0),
            (name, "encode: msgspec, the record", e := best(rounds, lambda r=record: msgspec.json.encode(r)),
             e / base_encode, e / today_encode),
            (name, "sender's check: dict -> record (the daemon, hello)",
             e := best(rounds, lambda v=view, t=record_type: msgspec.convert(v, t)), e / base_encode,
             e / today_encode),
            (name, "encode: pydantic dump_json", e := best(rounds, lambda v=view, a=adapter: a.dump_json(v)),
             e / base_encode, None),
            (name, "decode: json.loads (unchecked)", base_decode, 1.0, None),
            (name, "decode: msgspec, a dict (today: read_json, unchecked)", today_decode, today_decode / base_decode,
             1.0),
            (name, "decode: msgspec into the record (checked)",
             d := best(rounds, lambda d=data, t=record_type: msgspec.json.decode(d, type=t)), d / base_decode,
             d / today_decode),
            (name, "decode: a dict, then -> record (the console's link)",
             d := best(rounds, lambda d=data, t=record_type: msgspec.convert(msgspec.json.decode(d), t)),
             d / base_decode, d / today_decode),
            (name, "decode: pydantic validate_json (checked)",
             d := best(rounds, lambda d=data, a=adapter: a.validate_json(d)), d / base_decode, None),
            (name, "decode: json.loads + hand check (checked)",
             d := best(rounds, lambda d=data, t=typed_dict, r=role: _check(json.loads(d), t, r)), d / base_decode,
             None),
        ]
    data = json.dumps(change, separators=(",", ":")).encode()
    name = f"host change, seat 4 calls ({len(data)} bytes)"
    base = best(rounds, lambda: json.dumps(change, separators=(",", ":")).encode())
    today = best(rounds, lambda: msgspec.json.encode(change))
    host = json.loads(json.dumps(views["host"]))
    received = best(rounds, lambda: msgspec.json.decode(data))       # today: the console decodes the change
    record = msgspec.convert(host, HostView)
    whole = best(rounds, lambda: msgspec.convert(merge(host, msgspec.json.decode(data)), HostView))
    follow = best(rounds, lambda: read_changed("host", record, merge(host, diff := msgspec.json.decode(data)), diff))
    rows += [(name, "encode: json.dumps", base, 1.0, None),
             (name, "encode: msgspec, the dict (today)", today, today / base, 1.0),
             (name, "decode: msgspec, a dict (today)", received, received / base, 1.0),
             (name, "decode, merge, whole view -> record", whole, whole / base, whole / received),
             (name, "decode, merge, changed sections -> record (the link)", follow, follow / base, follow / received)]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    print(f"msgspec {msgspec.__version__}, pydantic {pydantic.VERSION}, Python {sys.version.split()[0]}")
    print(f"{'view':34} {'way':54} {'us':>8} {'x json':>7} {'x today':>8}")
    for view, way, micros, ratio, today in measure(args.rounds):
        print(f"{view:34} {way:54} {micros:8.1f} {ratio:7.2f} {'' if today is None else f'{today:8.2f}'}")


if __name__ == "__main__":
    main()
