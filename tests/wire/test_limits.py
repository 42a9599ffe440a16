"""Issue 22, fault probe 2: size and depth are checked before any parser runs, at every boundary.

Before the fix a 100,000-deep JSON array ended the console's MQTT bridge task with a RecursionError (the
table stayed ``online`` and answered nothing more), dropped a daemon socket or console WebSocket connection
the same way, and a deeply nested TOML array or a port written with a superscript digit ("127.0.0.1:²")
made check-config, run, console and room stop with a traceback."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from console_kit import make
from daemon_kit import CONFIG
from mqtt_kit import PREFIX, Broker, Listener, until

from dealerpi import config as config_module
from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.console.server import Console
from dealerpi.room.settings import RoomConfigError, load_room
from dealerpi.webkit.mqtt import mqtt_client
from dealerpi.wire.mqtt import CommandAnswer
from dealerpi.wire.protocol import encode

DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_SMALL = b"[" * 30_000 + b"]" * 30_000          # under the socket's 64 KiB: the depth check must catch it


@pytest.mark.slow   # a real broker
def test_mqtt_a_deep_payload_is_refused_and_the_bridge_answers_the_next_command(tmp_path: Path) -> None:
    """A REAL mosquitto: the room publishes the 100,000-deep array on P/t1/set, then a sit; the deep one is
    answered with a refusal and the sit is applied (the bridge's task runs on)."""
    config, controller, api = make(tmp_path)
    broker = Broker(tmp_path, ["t1"])
    broker.start()
    sets, result = f"{PREFIX}/t1/set", f"{PREFIX}/t1/set/result"

    async def main() -> None:
        await api.start()
        bridge = TableBridge(broker.settings("t1"), api.path, config.journal, retry=0.1)
        task = asyncio.ensure_future(bridge.run())
        try:
            async with Listener(broker) as listener:
                await until(lambda: listener.last(f"{PREFIX}/t1/availability") == "online")
                async with mqtt_client(broker.settings("room")) as room:
                    await room.publish(sets, DEEP, qos=1)
                    await until(lambda: any(t == result for t, _, _ in listener.messages))
                    await room.publish(sets, json.dumps({"id": "s1", "type": "sit", "seat": 1, "player": "Ann",
                                                         "stack": 250}), qos=1)
                    await until(lambda: sum(t == result for t, _, _ in listener.messages) == 2)
                answers = [json.loads(text) for t, text, _ in listener.messages if t == result]
                assert answers == [
                    {"id": None, "accepted": False,
                     "reason": "a command: 200000 bytes, more than 16384; nothing read", "v": 1},
                    {"id": "s1", "accepted": True, "reason": None, "v": 1}]       # CommandAnswer, version 1
                assert not task.done()
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await api.stop()

    broker.run(main)
    assert controller.table.seats[1].player == "Ann"


def test_a_deep_but_short_command_is_refused_by_depth() -> None:
    bridge = TableBridge.__new__(TableBridge)
    answer = asyncio.run(bridge.command(b"[" * 8000 + b"]" * 8000, None))  # type: ignore[arg-type]   # no resend: no client use
    assert answer == CommandAnswer(id=None, accepted=False,
                                   reason="a command: nested deeper than 32 arrays and objects; nothing read")


def test_socket_a_deep_request_is_answered_and_the_connection_stays(tmp_path: Path) -> None:
    """The daemon's socket: a 30,000-deep request (60 KB) gets an error; the same connection's hello works."""
    _config, _controller, api = make(tmp_path)

    async def run() -> list[dict[str, Any]]:
        await api.start()
        try:
            reader, writer = await asyncio.open_unix_connection(str(api.path))
            writer.write(DEEP_SMALL + b"\x03" + encode({"id": 2, "method": "hello", "params": {"role": "board"}}))
            answers = [json.loads((await reader.readuntil(b"\x03"))[:-1]) for _ in range(2)]
            writer.close()
            return answers
        finally:
            await api.stop()

    first, second = asyncio.run(run())
    assert first == {"error": {"message": "a message: nested deeper than 32 arrays and objects; nothing read"}}
    assert second["id"] == 2 and second["result"]["role"] == "board"


def test_websocket_a_deep_operation_is_refused() -> None:
    """The console's WebSocket relay reads a page's operation with the same limits."""
    console = Console.__new__(Console)
    answer = asyncio.run(console._operate(None, DEEP.decode()))  # type: ignore[arg-type]   # refused before the link
    assert answer == {"type": "result", "accepted": False,
                      "reason": "an operation: 200000 bytes, more than 65536; nothing read"}
    answer = asyncio.run(console._operate(None, DEEP_SMALL.decode()))  # type: ignore[arg-type]
    assert answer == {"type": "result", "accepted": False,
                      "reason": "an operation: nested deeper than 32 arrays and objects; nothing read"}


def test_config_a_deep_toml_array_is_an_error_naming_the_line_and_key(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG.replace("blinds = [1, 3]", "blinds = " + "[" * 100_000 + "]" * 100_000))
    with pytest.raises(config_module.ConfigError) as caught:
        config_module.load(path)
    assert caught.value.errors == [f"{path}: line 10: table.blinds: nested deeper than 32 arrays and tables"]
    assert config_module.main([str(path)]) == 1


def test_config_a_superscript_port_is_an_error_naming_the_key(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG + '\n[console]\nsocket = "run/api.sock"\nlisten = "127.0.0.1:²"\n')
    with pytest.raises(config_module.ConfigError) as caught:
        config_module.load(path)
    assert caught.value.errors == [f"{path}: console.listen: must be host:port, e.g. 127.0.0.1:8765 or "
                                   "0.0.0.0:8765, not '127.0.0.1:²'"]


def test_room_config_deep_toml_and_superscript_port_are_errors(tmp_path: Path) -> None:
    path = tmp_path / "room.toml"
    path.write_text('[room]\nlisten = "127.0.0.1:²"\n')
    with pytest.raises(RoomConfigError) as caught:
        load_room(path)
    assert f"{path}: room.listen: must be host:port, e.g. 127.0.0.1:8790, not '127.0.0.1:²'" in caught.value.errors
    path.write_text("[room]\nx = " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(RoomConfigError) as caught:
        load_room(path)
    assert caught.value.errors == [f"{path}: line 2: room.x: nested deeper than 32 arrays and tables"]


def test_room_page_a_deep_body_is_a_400_not_a_traceback(tmp_path: Path) -> None:
    """The room page's host-only JSON bodies (waiting lists, tournament desk) are read with the same limits:
    a 30,000-deep array is answered 400 with the reason, not a 500 from a RecursionError."""
    from aiohttp.test_utils import TestClient, TestServer

    from dealerpi.room.service import RoomService
    from dealerpi.room.settings import Game, RoomSettings
    from dealerpi.room.store import Store
    from dealerpi.room.web import COOKIE, RoomPage
    from dealerpi.wire.broker import MqttSettings

    settings = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "state", MqttSettings("room"),
                            (Game("nlhe-1-3", ("t1",), 200),))
    store = Store(settings.database)

    async def main() -> tuple[int, str]:
        page = RoomPage(RoomService(settings, store), {"host": "h" * 22}, token_required=True)
        client: TestClient[Any, Any] = TestClient(TestServer(page.app()))
        await client.start_server()
        try:
            headers = {"Cookie": f"{COOKIE}={'h' * 22}", "Origin": f"http://{client.host}:{client.port}",
                       "Content-Type": "application/json"}
            answer = await client.post("/waiting", data=DEEP_SMALL, headers=headers)
            return answer.status, await answer.text()
        finally:
            await client.close()

    try:
        assert asyncio.run(main()) == (400, "400: the body: nested deeper than 32 arrays and objects; nothing read\n")
    finally:
        store.close()


@pytest.mark.parametrize(("text", "why"), [
    ('{"name": "[[[[' + "[" * 40 + '"}', None),                              # brackets in a string: text
    ('[' * 20 + '"\\"' + "[" * 40 + '"' + "]" * 20, None),                   # an escaped quote stays inside
    ('[' * 20 + '"\\\\"' + "[" * 20 + "]" * 40, "nested deeper than 32 arrays and objects"),  # \\ then a quote
    ('[' + '"]", [' * 40 + "1" + "]" * 41, "nested deeper than 32 arrays and objects"),   # hidden by strings
    ("[" * 40 + "1", "its brackets do not balance (not JSON)"),
    ('{"a": ' * 20 + "[" * 13 + "]" * 13 + "}" * 20, "nested deeper than 32 arrays and objects"),
    ('{"a": ' * 20 + "[" * 12 + "]" * 12 + "}" * 20, None),                  # 32 levels: the limit itself
])
def test_depth_counts_arrays_and_objects_outside_strings(text: str, why: str | None) -> None:
    from dealerpi.wire.limits import LimitError, check_json

    if why is None:
        check_json(text, "a message")
    else:
        with pytest.raises(LimitError) as caught:
            check_json(text, "a message")
        assert str(caught.value) == f"a message: {why}; nothing read"


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


@pytest.mark.slow   # a property over many JSON texts: 6 s
def test_the_depth_scan_agrees_with_the_parsed_depth_on_any_json() -> None:
    """Property: for any JSON value, strings full of brackets, quotes and backslashes included, the scan
    refuses exactly the texts whose parsed depth is over the limit (4 here, to reach it often)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from dealerpi.wire.limits import LimitError, check_json

    text = st.text(alphabet='[]{}"\\ab\n', max_size=6)
    values = st.recursive(st.none() | st.integers() | text,
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                          max_leaves=30)

    @settings(max_examples=400, deadline=None)
    @given(values, st.booleans())
    def check(value: object, ascii_only: bool) -> None:
        data = json.dumps(value, ensure_ascii=ascii_only)
        try:
            check_json(data, "a message", max_depth=4)
            refused = False
        except LimitError:
            refused = True
        assert refused == (_depth(value) > 4), data

    check()
