"""Players' statistics from PHH (issue 15), worked by hand, and the room's store: hands stored once, sums
per journal and overall, the gap the room asks the table to fill, room.toml errors naming file and key;
players' sessions by PokerStat's definition (a table, no pause longer than the gap) by the hands' own
times, on both databases, from an old database too, and on the room page's /stats.json."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from aiohttp.test_utils import TestClient, TestServer
from browser_kit import chromium
from mqtt_kit import free_port
from orphan_kit import dies_with_parent
from playwright.sync_api import Browser, expect

from dealerpi.history.phh import loads
from dealerpi.room.director.stats import PlayerHand, Session, hand_stats, hand_time, sessions
from dealerpi.room.service import RoomService
from dealerpi.room.settings import RoomConfigError, RoomSettings, parse_room
from dealerpi.room.store import Store
from dealerpi.room.store_sql import StoreError
from dealerpi.room.web import COOKIE, RoomPage
from dealerpi.wire.broker import MqttSettings

HEAD = 'variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 3, 0]\nmin_bet = 3\n' \
       'starting_stacks = [250, 250, 250]\nplayers = ["Bob", "Cy", "Ann"]\n'

# Ann (p3, button) raises to 9, Bob (p1, SB) calls 8 more, Cy (p2, BB) folds; Bob checks, Ann bets 10, Bob
# calls; two checks on the turn and the river; Ann shows the better hand. In: Ann 9 + 10 = 19, Bob 19,
# Cy 3: pot 41. Finishing: Bob 250 - 19 = 231, Cy 247, Ann 250 - 19 + 41 = 272.
RAISED = HEAD + '''actions = ["d dh p1 7s6s", "d dh p2 9d2h", "d dh p3 AsAd", "p3 cbr 9", "p1 cc", "p2 f",
  "d db KhQc3s", "p1 cc", "p3 cbr 10", "p1 cc", "d db 2c", "p1 cc", "p3 cc", "d db 8d", "p1 cc", "p3 cc",
  "p1 sm 7s6s", "p3 sm AsAd"]
finishing_stacks = [231, 247, 272]
'''
# Ann calls 3, Bob completes the small blind (2 more), Cy checks his option (no chips: not VPIP); checks to
# the showdown, Cy wins the 9: Bob 247, Cy 250 - 3 + 9 = 256, Ann 247.
LIMPED = HEAD + '''actions = ["d dh p1 7s6s", "d dh p2 AhAc", "d dh p3 Jd9d", "p3 cc", "p1 cc", "p2 cc", "d db KhQc3s",
  "p1 cc", "p2 cc", "p3 cc", "d db 2c", "p1 cc", "p2 cc", "p3 cc", "d db 8d", "p1 cc", "p2 cc", "p3 cc",
  "p1 sm 7s6s", "p2 sm AhAc", "p3 sm Jd9d"]
finishing_stacks = [247, 256, 247]
'''


def test_vpip_pfr_showdown_won_of_a_raised_pot_worked_by_hand() -> None:
    assert hand_stats(loads(RAISED)) == [PlayerHand("Bob", True, False, True, False),
                                         PlayerHand("Cy", False, False, False, False),
                                         PlayerHand("Ann", True, True, True, True)]


def test_the_big_blind_checking_his_option_is_not_vpip_and_wins_at_showdown() -> None:
    assert hand_stats(loads(LIMPED)) == [PlayerHand("Bob", True, False, True, False),
                                         PlayerHand("Cy", False, False, True, True),
                                         PlayerHand("Ann", True, False, True, False)]


def test_a_hand_folded_to_the_big_blind_has_no_showdown_and_no_vpip() -> None:
    """Hand 1 of the bridge test: Ann (button) and Bob (SB) fold; Cy takes 4 with no showdown."""
    walk = HEAD + 'actions = ["d dh p1 KdQc", "d dh p2 8c9c", "d dh p3 5d4s", "p3 f", "p1 f"]\n' \
                  'finishing_stacks = [249, 251, 250]\n'
    assert [(p.vpip, p.pfr, p.showdown, p.won) for p in hand_stats(loads(walk))] == [(False,) * 4] * 3


def test_store_keeps_a_hand_once_and_sums_per_session_and_overall(database: Path | str) -> None:
    """Overall: Ann hands 2, VPIP 2 (raise + call), PFR 1, showdowns 2, won 1; Bob 2, 2, 0, 2, 0; Cy 2, 0,
    0, 1 (he folded the raised pot), 1. Session s1 of t1 holds only the raised pot. SQLite and PostgreSQL."""
    store = Store(database)
    assert store.add_hand("t1", "s1", 1, 1, RAISED) is True
    assert store.add_hand("t1", "s1", 1, 1, RAISED) is False          # sent again after an outage
    assert store.add_hand("t2", "s9", 2, 5, LIMPED) is True
    assert store.hand_count() == 2
    assert store.stats() == {
        "Ann": {"hands": 2, "vpip": 2, "pfr": 1, "showdowns": 2, "won": 1},
        "Bob": {"hands": 2, "vpip": 2, "pfr": 0, "showdowns": 2, "won": 0},
        "Cy": {"hands": 2, "vpip": 0, "pfr": 0, "showdowns": 1, "won": 1}}
    assert store.stats("t1", "s1")["Cy"] == {"hands": 1, "vpip": 0, "pfr": 0, "showdowns": 0, "won": 0}
    assert store.contiguous("t1", "s1") == 1
    assert store.contiguous("t2", "s9") == 0                          # seq 1 is missing: ask after 0
    store.close()
    again = Store(database)                                           # durable across a restart
    assert again.hand_count() == 2
    assert again.sessions() == [("t1", "s1"), ("t2", "s9")]
    again.close()


def test_room_toml_errors_name_the_file_and_key(tmp_path: Path) -> None:
    source = tmp_path / "room.toml"
    with pytest.raises(RoomConfigError) as caught:
        parse_room({"room": {"database": "postgresql://room:s3cret@db/room", "listen": "8790"}, "mqtt": {"port": 0},
                    "games": [{"name": "NL", "tables": [], "stack": 0}], "extra": 1}, source)
    assert caught.value.errors == [
        f"{source}: extra: unknown key (expected one of: room, mqtt, games, tournament)",
        f"{source}: room.database: no password in the URL: give it in a password file (passfile=PATH, mode "
        "0600) or use peer authentication over the Unix socket (docs/room.md)",
        f"{source}: room.listen: must be host:port, e.g. 127.0.0.1:8790, not '8790'",
        f"{source}: mqtt.port: must be a port number 1-65535, not 0",
        f"{source}: games[0].name: 1-32 of a-z, 0-9, _ and -, not 'NL'",
        f"{source}: games[0].tables: a list of table names, not []",
        f"{source}: games[0].stack: the buy-in in chips, a positive integer, not 0"]
    settings = parse_room({"mqtt": {"password_file": "room.password"},
                           "games": [{"name": "nlhe-1-3", "tables": ["t1"], "stack": 300}]}, source)
    assert (settings.database, settings.mqtt.name, settings.mqtt.password_file) == \
        (tmp_path / "room.sqlite", "room", tmp_path / "room.password")


@pytest.mark.parametrize(("url", "problem"), [
    ("postgresql://room@db:54x2/room", "not a PostgreSQL URL (Port could not be cast to integer value as '54x2'): "
                                       "postgresql://USER@HOST:PORT/DATABASE"),
    ("postgresql://room@db", "the URL names no database: postgresql://USER@HOST:PORT/DATABASE"),
    ("postgres:room", "a PostgreSQL URL starts with postgresql:// (postgresql://USER@HOST:PORT/DATABASE)"),
])
def test_a_bad_postgresql_url_is_named_by_file_and_key(tmp_path: Path, url: str, problem: str) -> None:
    source = tmp_path / "room.toml"
    with pytest.raises(RoomConfigError) as caught:
        parse_room({"room": {"database": url}}, source)
    assert caught.value.errors == [f"{source}: room.database: {problem}"]


def test_a_postgresql_url_is_kept_as_given_and_a_path_is_relative_to_the_file(tmp_path: Path) -> None:
    source = tmp_path / "room.toml"
    url = "postgresql://room@/room?host=/run/postgresql&passfile=/etc/dealerpi/room.pgpass"
    assert parse_room({"room": {"database": url}}, source).database == url
    assert parse_room({"room": {"database": "db/room.sqlite"}}, source).database == tmp_path / "db" / "room.sqlite"


def test_a_database_that_cannot_be_opened_is_one_line_naming_it(tmp_path: Path) -> None:
    """A PostgreSQL server that is not there (a socket folder with no server in it) and an SQLite file in
    a folder that does not exist: a StoreError (a ValueError: dealerpi room prints it in one line)."""
    with pytest.raises(StoreError) as caught:
        Store(f"postgresql://room@/room?host={tmp_path}&port=5999")
    message = str(caught.value)                                         # libpq's words after the colon
    assert message.startswith(f"the PostgreSQL database postgresql://room@/room?host={tmp_path}&port=5999: ")
    assert f'"{tmp_path}/.s.PGSQL.5999" failed: No such file or directory' in message and "\n" not in message
    with pytest.raises(StoreError) as caught:
        Store(tmp_path / "no" / "room.sqlite")
    assert str(caught.value) == f"the SQLite database {tmp_path / 'no' / 'room.sqlite'}: unable to open database file"


# --- players' sessions (PokerStat's definition: dealerpi/room/director/stats.py) --------------------------------------

NINE_PM = 1_795_554_000      # 2026-11-24 21:00:00 UTC (tests/sim/test_sim_histories.py works the epoch out)
ANN_RAISED, ANN_LIMPED = (True, True, True, True), (True, False, True, False)   # Ann's (vpip, pfr, sd, won)


def timed(phh: str, clock: str, day: int = 24) -> str:
    """The hand as the table's bridge writes it: PHH's time keys from its start's "at" (UTC)."""
    return f'year = 2026\nmonth = 11\nday = {day}\ntime = {clock}\ntime_zone = "UTC"\n' + phh


def test_a_session_splits_at_a_pause_just_over_the_gap_not_at_one_just_under(database: Path | str) -> None:
    """Gap 30 min = 1,800 s. Ann's hands at t1: 21:00:00 (raised), 21:29:59 (limped: 1,799 s later, just
    under), 21:59:59 (raised: 1,800 s later, "no more than" the gap: the same session), 22:30:00 (limped:
    1,801 s later, just over: a new one). Session 1: 3 hands, VPIP 3, PFR 2 (the raises), showdowns 3, won
    2; session 2: 1 hand, VPIP 1, PFR 0, showdown 1, won 0. With a gap of 1,799 s the 1,800 s pause splits too:
    three sessions. Times: 21:00:00 = NINE_PM; + 1,799; + 3,599; + 5,400. SQLite and PostgreSQL."""
    store = Store(database)
    for seq, (clock, phh) in enumerate((("21:00:00", RAISED), ("21:29:59", LIMPED), ("21:59:59", RAISED),
                                        ("22:30:00", LIMPED)), start=1):
        assert store.add_hand("t1", "j1", seq, seq, timed(phh, clock))
    assert store.player_sessions("Ann", 1800) == [Session("t1", NINE_PM + 5400, NINE_PM + 5400, 1, 1, 0, 1, 0),
                                                   Session("t1", NINE_PM, NINE_PM + 3599, 3, 3, 2, 3, 2)]
    assert [(s.start - NINE_PM, s.end - NINE_PM, s.hands) for s in store.player_sessions("Ann", 1799)] == [
        (5400, 5400, 1), (3599, 3599, 1), (0, 1799, 2)]
    assert store.player_sessions("Cy", 1800)[1] == Session("t1", NINE_PM, NINE_PM + 3599, 3, 0, 0, 1, 1)
    assert store.player_sessions("Zed", 1800) == []
    store.close()


def test_two_tables_at_once_are_two_sessions() -> None:
    """Ann plays t1 at 21:00 and 21:02 (raised twice) and t2 at 21:01 and 21:03 (limped twice): a session is
    one table's ("when you sit down at a table till when you leave that table"): t2's 21:01-21:03 (the
    newer start first) and t1's 21:00-21:02, 2 hands each; t1: VPIP 2, PFR 2, won 2; t2: VPIP 2, PFR 0, won 0."""
    plays = [("t1", NINE_PM, *ANN_RAISED), ("t2", NINE_PM + 60, *ANN_LIMPED), ("t1", NINE_PM + 120, *ANN_RAISED),
             ("t2", NINE_PM + 180, *ANN_LIMPED)]
    assert sessions(plays, 1800) == [Session("t2", NINE_PM + 60, NINE_PM + 180, 2, 2, 0, 2, 0),
                                     Session("t1", NINE_PM, NINE_PM + 120, 2, 2, 2, 2, 2)]
    assert sessions([], 1800) == []


def test_a_hand_resent_late_lands_in_the_session_it_was_played_in(database: Path | str) -> None:
    """Gap 15 min = 900 s. t1's hands 1 (21:00) and 3 (21:20) come; hand 2 (21:10) is lost to a broker outage
    and sent again later: 20 min = 1,200 s > 900 s apart, hands 1 and 3 are two sessions until hand 2 comes;
    then 10 min = 600 s pauses: one session of 3 hands, 21:00-21:20, by the hands' own times (the time the
    room stored hand 2 is after both)."""
    store = Store(database)
    assert store.add_hand("t1", "j1", 1, 1, timed(RAISED, "21:00:00"))
    assert store.add_hand("t1", "j1", 3, 3, timed(RAISED, "21:20:00"))
    assert [(s.start - NINE_PM, s.hands) for s in store.player_sessions("Ann", 900)] == [(1200, 1), (0, 1)]
    assert store.add_hand("t1", "j1", 2, 2, timed(LIMPED, "21:10:00"))
    assert store.player_sessions("Ann", 900) == [Session("t1", NINE_PM, NINE_PM + 1200, 3, 3, 2, 3, 2)]
    store.close()


# The room's first schema of these two tables (before played_at): a room database made by it must keep working.
FIRST_SCHEMA = (
    "CREATE TABLE hands (tbl TEXT, session TEXT, seq INTEGER, number INTEGER, phh TEXT, stored_at TEXT, "
    "PRIMARY KEY (tbl, session, seq))",
    "CREATE TABLE plays (tbl TEXT, session TEXT, seq INTEGER, player TEXT, vpip INTEGER, pfr INTEGER, "
    "showdown INTEGER, won INTEGER, PRIMARY KEY (tbl, session, seq, player))")


@pytest.mark.slow   # a thousand old hands to date, one batch at a time: 10 s on SQLite
def test_a_room_database_from_before_sessions_opens_and_its_hands_get_their_times(database: Path | str) -> None:
    """An old database holds two hands of Ann's at t1: hand 1 without a time in its PHH, stored 20:00:00
    (NINE_PM - 3,600), and hand 2 whose PHH says 21:00:00, stored the next morning (sent again after an
    outage). Opening adds played_at: hand 1 at its storing time, hand 2 at its PHH's. Gap 1,800 s: two
    sessions (3,600 s apart); gap 3,600 s: one, 20:00-21:00, 2 hands, VPIP 2, PFR 2, won 2 (raised twice). A
    hand stored after that, at 21:20 (limped), joins it; opening again changes nothing. 1,000 more hands
    (no lines) make the filling take two batches of at most 1,000: none is left without a time."""
    rows = [("t1", "j1", 1, 1, RAISED, "2026-11-24T20:00:00Z"),
            ("t1", "j1", 2, 2, timed(RAISED, "21:00:00"), "2026-11-25T09:00:00Z")]
    if isinstance(database, Path):
        old: Any = sqlite3.connect(database, isolation_level=None)
        mark = "?"
    else:
        old = psycopg.connect(database, autocommit=True)
        mark = "%s"
    for statement in FIRST_SCHEMA:
        old.execute(statement)
    for row in rows:
        old.execute(f"INSERT INTO hands VALUES ({', '.join([mark] * 6)})", row)
        for player, line in (("Bob", (1, 0, 1, 0)), ("Cy", (0, 0, 0, 0)), ("Ann", (1, 1, 1, 1))):
            old.execute(f"INSERT INTO plays VALUES ({', '.join([mark] * 8)})", (*row[:3], player, *line))
    filler = [("t9", "j9", seq, seq, RAISED, "2026-11-23T00:00:00Z") for seq in range(1, 1001)]
    old.cursor().executemany(f"INSERT INTO hands VALUES ({', '.join([mark] * 6)})", filler)   # more than one batch
    old.close()
    store = Store(database)
    assert store.db.execute("SELECT COUNT(*) FROM hands WHERE played_at IS NULL").fetchone()[0] == 0
    assert [(s.start - NINE_PM, s.hands) for s in store.player_sessions("Ann", 1800)] == [(0, 1), (-3600, 1)]
    assert store.player_sessions("Ann", 3600) == [Session("t1", NINE_PM - 3600, NINE_PM, 2, 2, 2, 2, 2)]
    assert store.add_hand("t1", "j1", 3, 3, timed(LIMPED, "21:20:00"))
    store.close()
    again = Store(database)
    assert again.player_sessions("Ann", 3600) == [Session("t1", NINE_PM - 3600, NINE_PM + 1200, 3, 3, 2, 3, 2)]
    assert again.stats()["Ann"] == {"hands": 3, "vpip": 3, "pfr": 2, "showdowns": 3, "won": 2}
    again.close()


def test_a_hand_time_in_a_time_zone_and_one_that_cannot_be_read() -> None:
    """phh-std optional.rst, "Time": the time is in ``time_zone``: 22:00 in Europe/Paris on November 24 (CET,
    UTC+1) is 21:00 UTC = NINE_PM; no zone and no place: UTC. A zone that is not one, a place without a
    zone (its local time, unknown here) and a month 13 give no time (the room then uses its storing time)."""
    def time_of(keys: str) -> int | None:
        return hand_time(loads(keys + RAISED))
    assert time_of('year = 2026\nmonth = 11\nday = 24\ntime = 22:00:00\ntime_zone = "Europe/Paris"\n') == NINE_PM
    assert time_of('year = 2026\nmonth = 11\nday = 24\ntime = 21:00:00\n') == NINE_PM
    assert time_of('year = 2026\nmonth = 11\nday = 24\ntime = 21:00:00\ntime_zone = "Mars/Olympus"\n') is None
    assert time_of('year = 2026\nmonth = 11\nday = 24\ntime = 21:00:00\ncity = "Lyon"\nregion = "Rhone"\n'
                   'country = "France"\n') is None
    assert time_of('year = 2026\nmonth = 13\nday = 24\ntime = 21:00:00\n') is None
    assert time_of("") is None


def test_session_gap_minutes_in_room_toml_default_and_errors(tmp_path: Path) -> None:
    source = tmp_path / "room.toml"
    assert parse_room({}, source).session_gap_minutes == 30
    assert parse_room({"room": {"session_gap_minutes": 7.5}}, source).session_gap_minutes == 7.5
    for bad in (0, -5, 1441, "30", True):
        with pytest.raises(RoomConfigError) as caught:
            parse_room({"room": {"session_gap_minutes": bad}}, source)
        assert caught.value.errors == [
            f"{source}: room.session_gap_minutes: the longest pause, in minutes, between two of a player's hands "
            f"at a table in one session: a number above 0 and at most 1440, not {bad!r}"]


def test_stats_json_gives_a_players_sessions_behind_the_rooms_token(tmp_path: Path) -> None:
    """GET /stats.json?player=Ann with the board's token: overall = the sum of the sessions (gap 15 min in
    room.toml: 21:00 and 21:10 at t1 are one session, 21:40 is 30 min later: another): 3 hands, VPIP 3, PFR
    2, showdowns 3, won 2. Without the token: 401, as every room route; no player: 400; nobody's hands: 404."""
    settings = RoomSettings(tmp_path / "room.sqlite", "0.0.0.0:0", tmp_path / "state", MqttSettings("room"),
                            session_gap_minutes=15)
    store = Store(settings.database)
    for seq, (clock, phh) in enumerate((("21:00:00", RAISED), ("21:10:00", LIMPED), ("21:40:00", RAISED)), 1):
        assert store.add_hand("t1", "j1", seq, seq, timed(phh, clock))
    tokens = {"host": "h" * 22, "dealer": "d" * 22, "board": "b" * 22}

    async def main() -> None:
        page = RoomPage(RoomService(settings, store), tokens, token_required=True)
        client: TestClient[Any, Any] = TestClient(TestServer(page.app()))
        await client.start_server()
        try:
            bare = await client.get("/stats.json", params={"player": "Ann"})
            assert (bare.status, await bare.text()) == (
                401, "401: the room needs its token: open the URL from the room's pairing.txt\n")
            board = {"Cookie": f"{COOKIE}={tokens['board']}"}
            answer = await client.get("/stats.json", params={"player": "Ann"}, headers=board)
            assert answer.status == 200
            assert await answer.json() == {
                "player": "Ann", "session_gap_minutes": 15,
                "overall": {"hands": 3, "vpip": 3, "pfr": 2, "showdowns": 3, "won": 2},
                "sessions": [
                    {"table": "t1", "from": "2026-11-24T21:40:00Z", "to": "2026-11-24T21:40:00Z", "hands": 1,
                     "vpip": 1, "pfr": 1, "showdowns": 1, "won": 1},
                    {"table": "t1", "from": "2026-11-24T21:00:00Z", "to": "2026-11-24T21:10:00Z", "hands": 2,
                     "vpip": 2, "pfr": 1, "showdowns": 2, "won": 1}]}
            nobody = await client.get("/stats.json", headers=board)
            assert (nobody.status, await nobody.text()) == (
                400, "400: /stats.json?player=NAME: the player whose statistics\n")
            zed = await client.get("/stats.json", params={"player": "Zed"}, headers=board)
            assert (zed.status, await zed.text()) == (404, "404: the room has no hands of 'Zed'\n")
        finally:
            await client.close()

    try:
        asyncio.run(main())
    finally:
        store.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium()


@pytest.mark.slow   # Chromium: 4 s
def test_the_room_page_opens_a_players_sessions_in_his_time_zone(tmp_path: Path, browser: Browser) -> None:
    """``dealerpi room`` on a database with Ann's hands at t1 at 21:00, 21:10 and 21:40 UTC (gap 15 min: two
    sessions) and at t2 at 21:05. A browser in Paris (CET, UTC+1) clicks her row: her sessions, the newest
    first, in its local time: t1 22:40-22:40 (1 hand, raised: VPIP 100 %, PFR 100 %, won 1), t2 22:05 (limped:
    VPIP 100 %, PFR 0 %), t1 22:00-22:10 (2 hands: VPIP 2/2 = 100 %, PFR 1/2 = 50 %, showdowns 2, won 1).
    A second click closes them. The database also records hands 1-2 of t2's journal "old" lost (issue 15): the
    top of the page says so, in the room's words."""
    port = free_port()
    config = tmp_path / "room.toml"
    config.write_text(f'[room]\nlisten = "127.0.0.1:{port}"\nsession_gap_minutes = 15\n[mqtt]\nport = {free_port()}\n')
    store = Store(tmp_path / "room.sqlite")
    for table, seq, clock, phh in (("t1", 1, "21:00:00", RAISED), ("t1", 2, "21:10:00", LIMPED),
                                   ("t1", 3, "21:40:00", RAISED), ("t2", 1, "21:05:00", LIMPED)):
        assert store.add_hand(table, "j", seq, seq, timed(phh, clock))
    assert store.mark_lost("t2", "old", 3) == [(1, 2)]
    store.close()
    room = subprocess.Popen(dies_with_parent([sys.executable, "-m", "dealerpi", "room", "--config", str(config)]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = browser.new_context(timezone_id="Europe/Paris")
    page = context.new_page()
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/summary.json", timeout=5):
                    break
            except OSError:
                assert time.monotonic() < deadline and room.poll() is None, "the room did not start"
                time.sleep(0.2)
        page.goto(f"http://127.0.0.1:{port}/")
        expect(page.locator("#lost")).to_have_text(
            "t2: hands 1-2 of session old are lost: older than the table's journal keeps", timeout=30_000)
        ann = page.locator("#players tr.player", has_text="Ann")
        # overall: 4 hands, VPIP 4/4 = 100 %, PFR 2/4 = 50 %, 4 showdowns, won 2 (the raised pots)
        expect(ann.locator("td")).to_have_text(["Ann", "4", "100", "50", "4", "2"], timeout=30_000)
        ann.click()
        rows = page.locator("#players tr.session")
        expect(rows).to_have_count(3)
        cells = [[cell.inner_text() for cell in rows.nth(i).locator("td").all()] for i in range(3)]
        assert cells == [["t1", "2026-11-24 22:40", "2026-11-24 22:40", "1", "100", "100", "1", "1"],
                         ["t2", "2026-11-24 22:05", "2026-11-24 22:05", "1", "100", "0", "1", "0"],
                         ["t1", "2026-11-24 22:00", "2026-11-24 22:10", "2", "100", "50", "2", "1"]]
        ann.click()
        expect(rows).to_have_count(0)
    finally:
        context.close()
        room.terminate()
        room.wait(10)


def test_an_uncalled_bet_returned_after_a_lost_all_in_is_not_a_showdown_won() -> None:
    """Issue 20. Bob (p1, SB, 250) and Cy (p2, BB, 60 only) and Ann (p3, button, 250). Ann folds; Bob
    raises to 100, Cy calls all in for 60 (57 more: VPIP): Bob's 40 above Cy's 60 is uncalled and comes back
    to him. Cy's aces win the 120 pot at the showdown. Bob finishes 250 - 100 + 40 = 190: he lost 60;
    measured against what he put in (100) his 190 looks like 40 won (the code before said ``won``). Cy:
    120, won."""
    text = HEAD.replace("starting_stacks = [250, 250, 250]", "starting_stacks = [250, 60, 250]") + \
        '''actions = ["d dh p1 7s6s", "d dh p2 AhAc", "d dh p3 Jd9d", "p3 f", "p1 cbr 100", "p2 cc", "d db KhQc3s",
  "d db 2c", "d db 8d", "p1 sm 7s6s", "p2 sm AhAc"]
finishing_stacks = [190, 120, 250]
'''
    assert hand_stats(loads(text)) == [PlayerHand("Bob", True, True, True, False),
                                       PlayerHand("Cy", True, False, True, True),
                                       PlayerHand("Ann", False, False, False, False)]
