"""The room service's MQTT side: every table's state, availability and hands in; commands out, each sent
again until its table answers (docs/room.md).

Re-sync (no persistent session): on every (re)connect the broker hands over each table's retained state,
which says how many hands the table has in this session and the oldest it can still send (``first``); the
room records the ones before that it lacks as lost (once: the page and a WARNING say so) and asks ``resend``
after the last hand it has without a gap, lost ones counted as had. A command is stored before it is
published and published again (same id) every ``resend_seconds`` until answered; the table applies an id
once (its journal's ``rid``), so a command crosses a broker restart or a room restart exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiomqtt

from dealerpi.room.director import controls
from dealerpi.room.director.controls import ControlError
from dealerpi.room.director.deal import operate
from dealerpi.room.director.mtt import Director, TournamentError, new_state
from dealerpi.room.settings import RoomSettings
from dealerpi.room.store import Store
from dealerpi.room.store_sql import StoreError
from dealerpi.webkit.mqtt import mqtt_client, say_offline, together
from dealerpi.wire import mqtt
from dealerpi.wire.broker import ROOM, Topics
from dealerpi.wire.limits import LimitError, read_json

_LOGGER = logging.getLogger(__name__)

RESEND_SECONDS = 2.0
TICK_SECONDS = 0.5       # how often the tournament's level clock is looked at
STATS_SECONDS = 1.0      # the page's statistics are summed again at most this often (bench/bench_room.py)


@dataclass
class TableSeen:
    """What the room knows of one table: its retained state and whether it is online."""

    state: dict[str, Any] = field(default_factory=dict)
    online: bool = False
    asked: float = 0.0           # when the room last asked it to resend hands


def lost_words(table: str, session: str, start: int, end: int) -> str:
    hands = f"hand {start} of session {session} is" if start == end else \
        f"hands {start}-{end} of session {session} are"
    return f"{table}: {hands} lost: older than the table's journal keeps"


class RoomService:
    def __init__(self, settings: RoomSettings, store: Store, *, retry: float = 1.0,
                 resend_seconds: float = RESEND_SECONDS, clock: Callable[[], float] = time.time,
                 tick_seconds: float = TICK_SECONDS, seed: Callable[[], int] = lambda: secrets.randbits(64)) -> None:
        """``seed``: where the tournament's draws get their randomness (the room's edge; a test injects it)."""
        self.settings, self.store, self.retry, self.resend_seconds = settings, store, retry, resend_seconds
        self.clock, self.tick_seconds, self.seed = clock, tick_seconds, seed
        self.director: Director | None = None
        self.tournament_fault: str | None = None      # the director failed: shown on the page until a restart
        if settings.tournament is not None:
            self.director = Director(settings.tournament, store.tournament() or new_state(secrets.token_hex(4)))
        self.topics = Topics(settings.mqtt.prefix)
        self.tables: dict[str, TableSeen] = {}
        self.connected = False
        self.listeners: list[Callable[[], None]] = []     # the room page: told after every change
        self._client: aiomqtt.Client | None = None
        self.hands_stored = store.hand_count()
        self.lost = [lost_words(*lost) for lost in store.lost()]     # the page says each, for good
        self._stats: tuple[float, int, dict[str, dict[str, int]]] | None = None   # (when, hands then, stats)

    def _changed(self) -> None:
        for listener in self.listeners:
            listener()

    async def run(self) -> None:
        said = False
        prefix = self.settings.mqtt.prefix
        will = aiomqtt.Will(f"{prefix}/{ROOM}/availability", "offline", qos=1, retain=True)
        while True:
            try:
                async with mqtt_client(self.settings.mqtt, will=will) as client:
                    for topic in (f"{prefix}/+", f"{prefix}/+/availability", f"{prefix}/+/hand",
                                  f"{prefix}/+/set/result"):
                        await client.subscribe(topic, qos=1)
                    await client.publish(f"{prefix}/{ROOM}/availability", "online", qos=1, retain=True)
                    self._client, self.connected, said = client, True, False
                    _LOGGER.info("room: on the broker %s:%d", self.settings.mqtt.host, self.settings.mqtt.port)
                    self._changed()
                    try:
                        await together(self._receive(client), self._resend_commands(client), self._tick(client))
                    except asyncio.CancelledError:
                        await say_offline(client, f"{prefix}/{ROOM}/availability")
                        raise
            except aiomqtt.MqttError as exc:
                if not said:
                    _LOGGER.warning("room: the broker %s:%d: %s; retrying", self.settings.mqtt.host,
                                    self.settings.mqtt.port, exc)
                    said = True
            self._client, self.connected = None, False
            self._changed()
            await asyncio.sleep(self.retry)

    async def _receive(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            found = self.topics.table_of(message.topic.value)
            payload = message.payload
            text = payload.decode(errors="replace") if isinstance(payload, bytes) else str(payload)
            if found is not None:
                await self.receive(client, found[0], found[1], text)

    async def receive(self, client: aiomqtt.Client, table: str, kind: str, text: str) -> None:
        """One message of a table's; a bad one is logged, never fatal."""
        seen = self.tables.setdefault(table, TableSeen())
        if kind == "availability":
            seen.online = text == "online"
        elif kind in ("state", "hand", "result"):
            try:       # depth first (issue 22, probe 2); a table's state grows with its view: no size cap
                data = read_json(text, f"{table}'s {kind}", max_bytes=len(text.encode()))
            except LimitError as error:
                _LOGGER.warning("room: %s", error)
                return
            if not isinstance(data, dict):
                return
            if kind == "state":
                # typed, versioned (dealerpi/wire/mqtt.py): the board view, or the counts alone. Picked by "seats":
                # msgspec decodes a union of two untagged object records by neither (msgspec docs,
                # supported-types, "Union / Optional"), and the state has no tag of its own (the pages read it)
                try:
                    mqtt.read(data, mqtt.TableState if "seats" in data else mqtt.TableCounts)
                except mqtt.PayloadError as error:
                    _LOGGER.warning("room: %s's state refused: %s", table, error)
                    return
                if "seats" not in data and "seats" in seen.state:    # its console lost the daemon: the page
                    data = {**seen.state, **data, "stale": True}     # keeps the players last seen (issue 20)
                seen.state = data
                await self._ask_missing(client, table, seen)
            elif kind == "hand":
                self._store_hand(table, data)
            else:
                try:
                    answer = mqtt.read(data, mqtt.CommandAnswer)
                except mqtt.PayloadError as error:
                    _LOGGER.warning("room: %s's answer refused: %s", table, error)
                    return
                if answer.id is not None and answer.retry is not True:
                    self.store.answer(answer.id, data)
            await self._direct(client)
        self._changed()

    def _store_hand(self, table: str, data: dict[str, Any]) -> None:
        try:
            hand = mqtt.read(data, mqtt.HandPayload)        # typed, versioned (dealerpi/wire/mqtt.py)
            if self.store.add_hand(table, hand.session, hand.seq, hand.number, hand.phh):
                self.hands_stored += 1
        except StoreError:
            raise             # the database failed, not the hand (a ValueError too): run says it and stops
        except ValueError as exc:       # mqtt.PayloadError, a PHHError, or what the store refuses
            _LOGGER.warning("room: %s sent a hand the room cannot store: %s", table, exc)

    async def _ask_missing(self, client: aiomqtt.Client, table: str, seen: TableSeen) -> None:
        session, hands = seen.state.get("session"), seen.state.get("hands")
        if not isinstance(session, str) or not isinstance(hands, int) or not session:
            return
        have = self.store.contiguous(table, session)
        first = seen.state.get("first")                 # the oldest hand the table can still send
        if isinstance(first, int) and first > have + 1:
            for start, end in self.store.mark_lost(table, session, first):
                self.lost.append(lost_words(table, session, start, end))
                _LOGGER.warning("room: %s", self.lost[-1])      # once: the range is stored, counted as held
            have = self.store.contiguous(table, session)
        now = time.monotonic()
        if have < hands and now - seen.asked > self.resend_seconds:
            seen.asked = now
            await client.publish(self.topics.command(table), mqtt.command(f"resend-{secrets.token_hex(4)}",
                                                                          {"type": "resend", "after": have}), qos=1)

    async def _resend_commands(self, client: aiomqtt.Client) -> None:
        while True:
            for cid, table, payload in self.store.unanswered():
                if (encoded := self._encoded(cid, table, payload)) is not None:
                    await client.publish(self.topics.command(table), encoded, qos=1)
            await asyncio.sleep(self.resend_seconds)

    # --- the tournament (dealerpi/room/director/mtt.py) ---------------------------------------------------------

    async def _tick(self, client: aiomqtt.Client) -> None:
        """The level clock: the director looks at it every ``tick_seconds``."""
        while True:
            await self._direct(client)
            await asyncio.sleep(self.tick_seconds)

    async def _direct(self, client: aiomqtt.Client | None) -> None:
        """One step of the director; its state and commands stored together, then the commands sent."""
        director = self.director
        if director is None or self.tournament_fault is not None:
            return
        before = json.dumps(director.state, sort_keys=True)
        try:
            commands = director.step(self.views(), self.store.command_answer, self.clock(), self.store.hand)
        except StoreError:
            raise                                   # the database: the room says so and stops (run)
        except Exception as exc:                    # a defect: the room goes on, the page says so
            _LOGGER.exception("room: the tournament's director failed")
            director.state = json.loads(before)
            self.tournament_fault = (f"The tournament stopped deciding ({type(exc).__name__}: {exc}): call the "
                                     "floor; restart the room to go on from its last state")
            self._changed()
            return
        if commands or json.dumps(director.state, sort_keys=True) != before:
            self.store.save_tournament(director.state, commands)
            self._changed()
        for cid, table, payload in commands:
            if client is not None and (encoded := self._encoded(cid, table, payload)) is not None:
                with contextlib.suppress(aiomqtt.MqttError):      # the resend loop sends it again
                    await client.publish(self.topics.command(table), encoded, qos=1)

    def _encoded(self, cid: str, table: str, payload: Mapping[str, Any]) -> bytes | None:
        """A stored command as its record on the wire (dealerpi/wire/mqtt.py); one the table would refuse
        is the room's own fault: said, and answered refused here (the director sees it, it is not resent)."""
        try:
            return mqtt.command(cid, payload)
        except mqtt.PayloadError as error:
            reason = f"the room's {payload.get('type')} command is not one a table reads: {error}"
            _LOGGER.error("room: command %s to %s: %s", cid, table, reason)
            self.store.answer(cid, {"id": cid, "accepted": False, "reason": reason})
            return None

    def views(self) -> dict[str, dict[str, Any]]:
        """The online tables' public states (the director waits for a table that is offline)."""
        return {name: seen.state for name, seen in self.tables.items() if seen.online and seen.state}

    def register(self, player: str) -> None:
        """A player joins the tournament (``TournamentError`` says why not)."""
        if self.director is None:
            raise TournamentError("this room has no [tournament]")
        self.director.register(player, self.clock())
        self.store.save_tournament(self.director.state, [])
        self._changed()

    async def start_tournament(self) -> None:
        """TRN-9: the seed of the seat draw comes from the system's randomness here, at the edge, and is
        stored with the state: a restarted room redraws nothing."""
        if self.director is None:
            raise TournamentError("this room has no [tournament]")
        self.director.start(self.seed(), self.clock())
        self.store.save_tournament(self.director.state, [])
        await self._direct(self._client)

    async def tournament_money(self, body: dict[str, Any]) -> None:
        """The director's money commands (room/director/deal.py ``operate``: a rebuy, an add-on, a race's winners, a
        deal); ``ValueError`` says why one is refused. Stored, then the director sends what it needs."""
        if self.director is None:
            raise TournamentError("this room has no [tournament]")
        operate(self.director, body, self.views())
        self.store.save_tournament(self.director.state, [])
        await self._direct(self._client)

    async def control(self, body: dict[str, Any]) -> str:
        """One of the director's controls (dealerpi/room/director/controls.py): applied to the director's state and
        stored with it, then a step (a move plans its pauses now); ``ControlError`` says why not."""
        if self.director is None:
            raise ControlError("this room has no [tournament]")
        answer = controls.apply(self.director, body, self.clock(), self.views())
        self.store.save_tournament(self.director.state, [])
        await self._direct(self._client)
        self._changed()
        return answer

    def tournament(self) -> dict[str, Any] | None:
        """The tournament's clock, field, tables and places (the page's part; tests inspect it)."""
        if self.director is None:
            return None
        now = self.clock()
        return {**self.director.summary(self.views(), now), **controls.shown(self.director, now),
                "fault": self.tournament_fault}

    async def command(self, table: str, payload: dict[str, Any], waiting: int | None = None) -> str:
        """Store a command, then publish it (now if connected; else it goes with the next resend)."""
        cid = secrets.token_hex(8)
        self.store.add_command(cid, table, payload, waiting)
        if self._client is not None and (encoded := self._encoded(cid, table, payload)) is not None:
            try:
                await self._client.publish(self.topics.command(table), encoded, qos=1)
            except aiomqtt.MqttError as exc:
                _LOGGER.warning("room: command %s to %s waits for the broker: %s", cid, table, exc)
        return cid

    # --- what the room page shows ---------------------------------------------------------------------

    def open_seats(self, table: str) -> list[int]:
        seats = self.tables.get(table, TableSeen()).state.get("seats", {})
        return sorted(int(seat) for seat, view in seats.items() if isinstance(view, dict) and not view.get("player"))

    def summary(self) -> dict[str, Any]:
        tables = {}
        for name, seen in sorted(self.tables.items()):
            state = seen.state
            tables[name] = {"online": seen.online, "hand": state.get("hand"), "game": state.get("game"),
                            "blinds": state.get("blinds"), "board": state.get("board"), "pots": state.get("pots"),
                            "seats": state.get("seats", {}), "hands": state.get("hands"),
                            "open": self.open_seats(name), "stale": bool(state.get("stale")),
                            "broken": name in self._broken()}
        games = [{"name": g.name, "tables": list(g.tables), "stack": g.stack,
                  "open": {t: self.open_seats(t) for t in g.tables}, "waiting": self.store.waiting(g.name)}
                 for g in self.settings.games]
        return {"broker": self.connected, "tables": tables, "games": games, "hands": self.hands_stored,
                "lost": list(self.lost),
                "players": self.players(), "tournament": self.tournament()}

    def _broken(self) -> set[str]:
        """The tournament's tables it no longer uses (broken, TDA 10, or emptied for the final table)."""
        director = self.director
        if director is None or director.state["phase"] not in ("running", "finished"):
            return set()
        return set(director.settings.tables) - set(director.state["active"])

    def players(self) -> dict[str, dict[str, int]]:
        """Everyone's statistics overall, summed again only when hands came and ``STATS_SECONDS`` passed (a
        flood of hands would otherwise sum the whole table at every one)."""
        now = time.monotonic()
        if self._stats is None or (self._stats[1] != self.hands_stored and now - self._stats[0] >= STATS_SECONDS):
            self._stats = (now, self.hands_stored, self.store.stats())
        return self._stats[2]

    def seated_at(self, player: str) -> str | None:
        """The table (of any game) where ``player`` sits, or is being seated by a ``sit`` not yet answered."""
        for table, seen in sorted(self.tables.items()):
            if any(isinstance(v, dict) and v.get("player") == player for v in seen.state.get("seats", {}).values()):
                return table
        return next((table for _, table, payload in self.store.unanswered()
                     if payload.get("type") == "sit" and payload.get("player") == player), None)

    def add_waiting(self, game: str, player: str) -> int:
        """Issue 20: a name is on a game's list once, and not while seated at one of its tables (ValueError
        says why)."""
        name = player.strip()
        if any(w["player"] == name for w in self.store.waiting(game)):
            raise ValueError(f"{name} is on the {game} list already")
        table = self.seated_at(name)
        if table is not None and any(table in g.tables for g in self.settings.games if g.name == game):
            raise ValueError(f"{name} is seated at {table} already")
        return self.store.wait(game, name)

    async def seat_next(self, game_name: str) -> str | None:
        """The first on ``game``'s waiting list not seated anywhere (nor being seated) to the first open seat of
        its tables (a ``sit`` command with the game's buy-in); he leaves the list when the table accepts. None:
        nobody waits or no seat is open."""
        game = next((g for g in self.settings.games if g.name == game_name), None)
        if game is None:
            return None
        waiting = self.store.waiting(game.name)
        pending = self.store.seating()
        waiting = [w for w in waiting if w["id"] not in pending
                   and self.seated_at(w["player"]) is None]      # issue 20: nobody at two tables at once
        promised = {(table, payload.get("seat")) for _, table, payload in self.store.unanswered()
                    if payload.get("type") == "sit"}                  # a seat a sit not yet answered is for
        for table in game.tables:
            seats = [seat for seat in self.open_seats(table) if (table, seat) not in promised]
            if waiting and seats and self.tables[table].online:
                entry = waiting[0]
                return await self.command(table, {"type": "sit", "seat": seats[0], "player": entry["player"],
                                                   "stack": game.stack}, waiting=entry["id"])
        return None
