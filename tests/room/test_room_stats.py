"""Players' statistics from PHH (issue 15), worked by hand, and the room's store: hands stored once, sums
per session and overall, the gap the room asks the table to fill, room.toml errors naming file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerpi.history.phh import loads
from dealerpi.room.settings import RoomConfigError, parse_room
from dealerpi.room.stats import PlayerHand, hand_stats
from dealerpi.room.store import Store
from dealerpi.room.store_sql import StoreError

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
