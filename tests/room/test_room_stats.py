"""Players' statistics from PHH (issue 15), worked by hand, and the room's store: hands stored once, sums
per session and overall, the gap the room asks the table to fill, room.toml errors naming file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerpi.history.phh import loads
from dealerpi.room.settings import RoomConfigError, parse_room
from dealerpi.room.stats import PlayerHand, hand_stats
from dealerpi.room.store import Store

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


def test_store_keeps_a_hand_once_and_sums_per_session_and_overall(tmp_path: Path) -> None:
    """Overall: Ann hands 2, VPIP 2 (raise + call), PFR 1, showdowns 2, won 1; Bob 2, 2, 0, 2, 0; Cy 2, 0,
    0, 1 (he folded the raised pot), 1. Session s1 of t1 holds only the raised pot."""
    store = Store(tmp_path / "room.sqlite")
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
    again = Store(tmp_path / "room.sqlite")                           # durable across a restart
    assert again.hand_count() == 2


def test_room_toml_errors_name_the_file_and_key(tmp_path: Path) -> None:
    source = tmp_path / "room.toml"
    with pytest.raises(RoomConfigError) as caught:
        parse_room({"room": {"database": "postgresql://db/room", "listen": "8790"}, "mqtt": {"port": 0},
                    "games": [{"name": "NL", "tables": [], "stack": 0}], "extra": 1}, source)
    assert caught.value.errors == [
        f"{source}: extra: unknown key (expected one of: room, mqtt, games)",
        f"{source}: room.database: a PostgreSQL URL is not supported yet: give an SQLite file's path",
        f"{source}: room.listen: must be host:port, e.g. 127.0.0.1:8790, not '8790'",
        f"{source}: mqtt.port: must be a port number 1-65535, not 0",
        f"{source}: games[0].name: 1-32 of a-z, 0-9, _ and -, not 'NL'",
        f"{source}: games[0].tables: a list of table names, not []",
        f"{source}: games[0].stack: the buy-in in chips, a positive integer, not 0"]
    settings = parse_room({"mqtt": {"password_file": "room.password"},
                           "games": [{"name": "nlhe-1-3", "tables": ["t1"], "stack": 300}]}, source)
    assert (settings.database, settings.mqtt.name, settings.mqtt.password_file) == \
        (tmp_path / "room.sqlite", "room", tmp_path / "room.password")
