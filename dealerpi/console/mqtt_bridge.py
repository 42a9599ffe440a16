"""The table's side of the card room: the console process bridges the table to the MQTT broker (issue 15).

Never the daemon: it stays off the network. The bridge is a ``board`` client of the daemon's socket (the
public view: no hole card, no alert) and publishes it retained on ``P/T`` with the number of finished hands
it has and the oldest it can still send (``first``: the room records the ones before it as lost and asks no
more for them); finished hands come from the journal (:mod:`dealerpi.history.final_hands`) to ``P/T/hand``;
``P/T/availability`` is ``online`` while the broker and the daemon are both there (last will: ``offline``).
Topics: :mod:`dealerpi.wire.broker`.

Commands on ``P/T/set`` (``{"id": "...", "type": "sit", ...}``) become journal inputs through the daemon's
socket as the host, the command's id journaled as the input's ``rid`` (``room:ID``): the daemon applies a
rid once, across restarts, so a command the room sends again is answered ``duplicate`` and not applied
twice. ``{"type": "resend", "after": N}`` publishes the hands after the N-th again, from the last ones the
bridge keeps: as many as the journal folder keeps segments (``[journal_keep] segments``, a hand each), which
is all a console restarted after that many hands could read again anyway. A room that asks for older ones
gets the ones kept, and a WARNING names the hands it cannot have (a room reading ``first`` never asks:
docs/room.md, "After an outage").

After a broker outage: a re-sync from the journal, not QoS 1 with a persistent session. The broker may
itself restart and lose what it held in memory, and paho refuses to publish while disconnected; the journal
has every hand. So the retained state says how many hands there are, and the room asks for the ones it
lacks; the room sends a command again until it has its answer (docs/room.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import aiomqtt
import msgspec

from dealerpi.config import Config
from dealerpi.console.server import DaemonLink
from dealerpi.history.final_hands import FinalHand, FinalHands
from dealerpi.journal.folder import KEEP_SEGMENTS
from dealerpi.webkit.mqtt import mqtt_client, say_offline, together
from dealerpi.webkit.running import ServiceFault
from dealerpi.wire import mqtt
from dealerpi.wire.api import Announce, Hello, InputAnswer, Params, SendInput, params
from dealerpi.wire.broker import MqttSettings, Topics
from dealerpi.wire.limits import MAX_COMMAND, LimitError, read_json
from dealerpi.wire.protocol import merge

_LOGGER = logging.getLogger(__name__)

# the journal inputs the room may send: seats (a player from the waiting list, balancing), the stakes, the
# button a tournament table's draw gave, pause/resume (TRN-5 hand-for-hand, a break), chips (a tournament's
# rebuy or add-on, room/director/money.py) and colour_up (TRN-6: the race's plan at a break, then its result)
COMMANDS = frozenset({"sit", "leave", "move", "away", "back", "chips", "table", "button", "pause", "resume",
                      "colour_up"})
RETRY_SECONDS = 1.0


class TableBridge:
    """See the module docstring. :meth:`run` until cancelled; it reconnects to the broker and the daemon."""

    def __init__(self, mqtt: MqttSettings, socket_path: Path, journal: Path, retry: float = RETRY_SECONDS,
                 memo: Path | None = None, keep: int = KEEP_SEGMENTS) -> None:
        self.mqtt, self.socket_path, self.retry = mqtt, socket_path, retry
        self.name = mqtt.name
        self.topics = Topics(mqtt.prefix)
        self.final = FinalHands(journal, memo, keep)
        self._lost_said: int | None = None        # the last ``after`` whose lost hands were logged
        self.view: dict[str, Any] | None = None
        self.daemon_online = False
        self._changed = asyncio.Event()

    async def run(self) -> None:
        await asyncio.gather(self._follow_daemon(), self._follow_broker())

    # --- the daemon ----------------------------------------------------------------------------------

    async def _follow_daemon(self) -> None:
        said = False
        while True:
            link = None
            try:
                link = await DaemonLink.open(self.socket_path, self._on_push)
                await link.request("hello", params(Hello("board")))
                self.daemon_online, said = True, False
                self._changed.set()
                await link.closed.wait()
            except (OSError, TimeoutError) as exc:
                if not said:
                    _LOGGER.warning("room bridge: the table daemon does not answer (%s); retrying", exc)
                    said = True
            finally:
                if link is not None:
                    await link.close()
            if self.daemon_online:
                self.daemon_online = False
                self._changed.set()
            await asyncio.sleep(self.retry)

    async def _on_push(self, message: dict[str, Any]) -> None:
        if message["type"] == "view":
            self.view = message["view"]
        elif self.view is not None:
            merge(self.view, message["changes"])
        self._changed.set()

    # --- the broker ----------------------------------------------------------------------------------

    async def _follow_broker(self) -> None:
        said = False
        will = aiomqtt.Will(self.topics.availability(self.name), "offline", qos=1, retain=True)
        while True:
            try:
                async with mqtt_client(self.mqtt, will=will) as client:
                    await client.subscribe(self.topics.command(self.name), qos=1)
                    _LOGGER.info("room bridge: on the broker %s:%d as %s", self.mqtt.host, self.mqtt.port, self.name)
                    said = False
                    self._changed.set()
                    try:
                        await together(self._publish(client), self._commands(client))
                    except asyncio.CancelledError:      # the console stops: a clean disconnect sends no will
                        await say_offline(client, self.topics.availability(self.name))
                        raise
            except aiomqtt.MqttError as exc:
                if not said:
                    _LOGGER.warning("room bridge: the broker %s:%d: %s; retrying", self.mqtt.host, self.mqtt.port, exc)
                    said = True
            await asyncio.sleep(self.retry)

    async def _publish(self, client: aiomqtt.Client) -> None:
        """Whenever the view changed: the hands that became final, availability and the state."""
        shown: tuple[bool, bytes] | None = None
        while True:
            await self._changed.wait()
            self._changed.clear()
            for hand in self.final.poll():
                await self._send_hand(client, hand)
            online = self.daemon_online
            text = self.state()
            if shown is None or shown[0] != online:
                await client.publish(self.topics.availability(self.name), "online" if online else "offline",
                                     qos=1, retain=True)
            if shown is None or shown[1] != text:
                await client.publish(self.topics.state(self.name), text, qos=1, retain=True)
            shown = (online, text)

    def state(self) -> bytes:
        """``P/T``: the board view and the hand counts (:class:`dealerpi.wire.mqtt.TableState`), or the counts
        alone while the daemon is away (:class:`~dealerpi.wire.mqtt.TableCounts`), encoded from the record."""
        counts = mqtt.TableCounts(table=self.name, session=self.final.session, hands=self.final.count,
                                  first=self.final.hands[0].seq if self.final.hands else self.final.count + 1)
        if self.view is None:
            return msgspec.json.encode(counts)
        # the view was checked as the board's record as it came (DaemonLink); this adds the counts to it
        state = msgspec.convert({**self.view, **msgspec.to_builtins(counts)}, mqtt.TableState)
        return msgspec.json.encode(state)

    async def _send_hand(self, client: aiomqtt.Client, hand: FinalHand) -> None:
        payload = mqtt.HandPayload(self.name, self.final.session, hand.seq, hand.number, list(hand.players), hand.phh)
        await client.publish(self.topics.hand(self.name), msgspec.json.encode(payload), qos=1)

    async def _commands(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            payload = message.payload
            answer = await self.command(payload if isinstance(payload, bytes) else str(payload).encode(), client)
            if answer is not None:
                await client.publish(self.topics.result(self.name), msgspec.json.encode(answer), qos=1)

    async def command(self, payload: bytes, client: aiomqtt.Client) -> mqtt.CommandAnswer | None:
        """One command from the room, read as its record (:data:`dealerpi.wire.mqtt.Command`); the answer to
        publish (None: a resend, answered by the hands)."""
        try:
            command = read_json(payload, "a command", MAX_COMMAND)   # limits first (issue 22, probe 2)
        except LimitError as error:
            return mqtt.CommandAnswer(id=None, accepted=False,
                                      reason="a command is a JSON object" if "not JSON" in str(error) else str(error))
        cid = command.get("id") if isinstance(command, dict) else None
        if not (isinstance(command, dict) and isinstance(cid, str) and 0 < len(cid) <= 48):
            return mqtt.CommandAnswer(id=None, accepted=False,
                                      reason='a command is {"id": "1-48 characters", "type": ...}')
        kind = command.get("type")
        if kind not in mqtt.COMMAND_TYPES:
            return mqtt.CommandAnswer(id=cid, accepted=False, reason=f"type {kind!r} is not a room command (one of: "
                                      f"resend, {', '.join(sorted(COMMANDS))})")
        try:
            record = mqtt.read_command(command)
        except mqtt.PayloadError as error:
            return mqtt.CommandAnswer(id=cid, accepted=False, reason=f"{kind}: {error}")
        if isinstance(record, mqtt.ResendCommand):
            after = record.after
            oldest = self.final.hands[0].seq if self.final.hands else self.final.count + 1
            if oldest > after + 1 and self._lost_said != after:
                self._lost_said = after
                _LOGGER.warning("room bridge: the room asks for hands %d to %d of session %s, older than the "
                                "last %d this console keeps; it can have them no more", after + 1, oldest - 1,
                                self.final.session, self.final.keep)
            for hand in self.final.hands:
                if hand.seq > after:
                    await self._send_hand(client, hand)
            return None
        if isinstance(record, mqtt.Announce):   # the director's announcement: the dealer display's, not an input
            return mqtt.CommandAnswer(id=cid, **await self._announce(record.text))
        return mqtt.CommandAnswer(id=cid, **await self._submit(mqtt.journal_input(record), f"room:{cid}"))

    async def _announce(self, text: str) -> dict[str, Any]:
        try:
            answer = await self._ask("announce", Announce(text))
        except _DaemonAway as away:
            return {"accepted": False, "retry": True, "reason": str(away)}
        if "result" not in answer:
            return {"accepted": False, "reason": answer.get("error", {}).get("message")}
        return {"accepted": True, "reason": None}

    async def _submit(self, entry: dict[str, Any], rid: str) -> dict[str, Any]:
        try:
            answer = await self._ask("input", SendInput(entry, rid=rid))
        except _DaemonAway as away:
            return {"accepted": False, "retry": True, "reason": str(away)}
        if "result" not in answer:
            return {"accepted": False, "reason": answer.get("error", {}).get("message")}
        try:
            result = msgspec.convert(answer["result"], InputAnswer)      # the daemon's answer, typed (wire/api.py)
        except msgspec.ValidationError as error:
            _LOGGER.error("room bridge: the daemon's answer is not an input's answer: %s", error)
            return {"accepted": False, "retry": True,
                    "reason": f"the table daemon's answer was not understood: {error}"}
        said = {"accepted": result.accepted, "reason": result.reason}
        return said if result.duplicate is msgspec.UNSET else {**said, "duplicate": result.duplicate}

    async def _ask(self, method: str, request: Params) -> dict[str, Any]:
        """One request to the daemon as the host, on a connection of its own; :class:`_DaemonAway` (the room
        asks again) when the daemon does not answer or goes away."""
        try:
            link = await DaemonLink.open(self.socket_path, _ignore)
        except OSError as exc:
            raise _DaemonAway(f"the table daemon does not answer: {exc}") from None
        try:
            await link.request("hello", params(Hello("host")))
            return await link.request(method, params(request))
        except (ConnectionError, TimeoutError) as exc:
            raise _DaemonAway(f"the table daemon went away: {exc}") from None
        finally:
            await link.close()


class _DaemonAway(Exception):
    """The daemon did not answer a request; the text says how."""


async def _ignore(message: dict[str, Any]) -> None:
    return None


async def with_bridge(config: Config, serving: Coroutine[Any, Any, None]) -> None:
    """The console's pages and, when the config has ``[mqtt]``, the bridge, until cancelled."""
    if config.mqtt is None or config.console is None:
        await serving
        return
    bridge = TableBridge(config.mqtt, config.console.socket, config.journal,
                         memo=config.console.state / "room-hands.json", keep=config.journal_keep_segments)
    task = asyncio.ensure_future(bridge.run())
    pages = asyncio.ensure_future(serving)
    try:
        await asyncio.wait((task, pages), return_when=asyncio.FIRST_COMPLETED)
        if task.done() and not task.cancelled() and (error := task.exception()) is not None:
            # a fault is never hidden: the bridge retries what it expects (the broker, the daemon); anything
            # else stops the console, said once, so that its unit (Restart=on-failure) starts it again
            _LOGGER.error("room bridge stopped: %s; the console stops so that its unit starts it again", error,
                          exc_info=error)
            raise ServiceFault(f"the room bridge stopped: {error}")
        await pages
    finally:
        for part in (task, pages):
            part.cancel()
        await asyncio.gather(task, pages, return_exceptions=True)    # the bridge's error was said above
