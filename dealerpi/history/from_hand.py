"""Write a hand the engine played as a PHH record: the table's hand histories.

The record is built from the hand's log (deals, actions, shows and mucks, in order) and its set-up, so that
:func:`dealerpi.history.replay.replay` plays it to the same final stacks. PHH has no notation for some things
the table can do; those raise :class:`PHHError` rather than write a record that would replay differently:
several boards or runs (POT-11, POT-12), a bomb pot without pre-flop betting.

A hand killed out of turn (DEAL-9 an absent player, MIS-4, MIS-8, TRN-2's clock) has no PHH notation either:
PHH players act only in turn. Killed means folded, so the record folds the killed hand at its next turn
("pN f # killed"); if the table's hand ended before that turn, the hand that is left checks or calls to it (it
takes those chips back with the pot), and hole cards the table never dealt are written unknown. The record is
replayed before it is returned: one that would not end with the table's stacks raises PHHError.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, assert_never

from dealerpi.engine import (
    UNKNOWN,
    BetOrRaisedTo,
    BoardDealt,
    CheckedOrCalled,
    Folded,
    Hand,
    HoleDealt,
    HoleSwapped,
    Killed,
    Mucked,
    Phase,
    RunsAgreed,
    Shown,
    StreetRetracted,
)
from dealerpi.history.phh import HandRecord, PHHError
from dealerpi.history.replay import VARIANTS, Status, apply_actions, replay, start_hand

_LOGGER = logging.getLogger(__name__)

PHH_CODES = {game: code for code, game in VARIANTS.items()}
"""Engine game name -> PHH variant code."""


def record_from_hand(hand: Hand, *, blinds: Sequence[int], antes: Sequence[int] = (), dead: Sequence[int] = (),
                     players: Sequence[str] | None = None, extra: Mapping[str, Any] | None = None) -> HandRecord:
    """The PHH record of ``hand``; ``blinds``, ``antes`` and ``dead`` are what it was created with.

    Dead blinds are written as antes (both are dead money; PHH has only antes). With antes as well (or two
    dead blinds), the replay layers a dead blind like an ante (POT-1), not whole in the main pot as the table
    does: the results differ only if a player went all in for less than that poster's ante plus dead blind,
    and such a record raises PHHError (it is replayed first). The ``finishing_stacks`` are set once the hand
    is complete.
    """
    code = PHH_CODES.get(hand.game.key)
    if code is None:
        raise PHHError(f"the game {hand.game.key!r} has no PHH variant code")
    if len(hand.boards) != 1 or hand.bomb:
        raise PHHError("PHH has no notation for several boards, runs or a bomb pot")
    n = hand.n
    phh_blinds = [blinds[i] if i < len(blinds) else 0 for i in range(n)]
    phh_antes = [(antes[i] if i < len(antes) else 0) + (dead[i] if i < len(dead) else 0) for i in range(n)]
    if n == 2:
        # The engine takes heads-up blinds per player, [BB, SB] (the button posts the small blind, BLD-4);
        # PHH writes them [SB, BB] (see replay).
        phh_blinds.reverse()
        phh_antes.reverse()
    small_bet, big_bet = hand.limits if hand.limits else (None, None)
    record = HandRecord(
        variant=code, starting_stacks=tuple(hand.starting), actions=tuple(_actions(hand)),
        antes=tuple(phh_antes), blinds_or_straddles=tuple(phh_blinds),
        small_bet=small_bet, big_bet=big_bet, min_bet=None if hand.limits else hand.min_bet,
        players=None if players is None else tuple(players),
        finishing_stacks=tuple(hand.stacks) if hand.phase is Phase.COMPLETE else None,
        extra=dict(extra or {}),
    )
    if any(action.startswith(_KILL) for action in record.actions):
        record = _with_kills_in_turn(record, hand)
    elif any(dead) and sum(1 for ante in phh_antes if ante) >= 2:
        _check_replays(record, "its dead blind, written as an ante, would make a side-pot layer")
    return record


def _check_replays(record: HandRecord, why: str) -> None:
    """Raise PHHError unless ``record`` (of a finished hand) replays to its own finishing stacks."""
    if record.finishing_stacks is None:
        return
    check = replay(record)
    if check.status is not Status.MATCH:
        raise PHHError(f"PHH cannot say this hand exactly: {why} ({check.reason or check.status.value})")


_KILL = "kill "     # a kill in the list of actions, until _with_kills_in_turn puts it at the player's turn


def _with_kills_in_turn(record: HandRecord, hand: Hand) -> HandRecord:
    """The record with each killed hand folded at its next turn, checked by a replay (module docstring)."""
    shadow = start_hand(replace(record, actions=(), finishing_stacks=None))
    written: list[str] = []
    killed: set[int] = set()

    def play(text: str) -> None:
        apply_actions(shadow, (text,))
        written.append(text)

    for text in record.actions:
        if text.startswith(_KILL):
            killed.add(int(text[len(_KILL):]))
            continue
        actor = int(text.split()[0][1:]) - 1 if text.startswith("p") else None
        _to_turn(shadow, killed, actor, play)
        play(text)
    if hand.phase is Phase.COMPLETE:
        _to_turn(shadow, killed, None, play, end=True)
    result = replace(record, actions=tuple(written))
    _check_replays(result, "PHH players act only in turn, and its kill cannot be put at a turn")
    return result


def _to_turn(shadow: Hand, killed: set[int], actor: int | None, play: Callable[[str], None], *,
             end: bool = False) -> None:
    """Bring ``shadow`` (the record replayed so far) to ``actor``'s turn, or to its end (``end``): killed
    hands fold in turn; before a deal or at the end, a live hand checks or calls to the killed one's turn."""
    while True:
        if shadow.at(Phase.DEAL_HOLE) and end:                  # the table ended the hand before the deal
            for player in range(shadow.n):
                missing = shadow.game.hole_cards - len(shadow.hole[player])
                if missing:
                    play(f"d dh p{player + 1} {'??' * missing}")
            if shadow.at(Phase.DEAL_HOLE):
                return
        elif shadow.at(Phase.BETTING) and shadow.actor is not None and shadow.actor != actor:
            if shadow.actor in killed:
                play(f"p{shadow.actor + 1} f # killed")
            elif actor is None:
                play(f"p{shadow.actor + 1} cc")
            else:
                return
        elif shadow.at(Phase.SHOWDOWN) and end:
            for player in sorted(killed.intersection(shadow.live)):
                try:
                    play(f"p{player + 1} sm")
                except PHHError:                         # POT-8: the last live hand of a pot
                    return
            return
        else:
            return


def _actions(hand: Hand) -> list[str]:
    if hand.log is None:
        raise ValueError("the hand was played without its log (keep_log=False): it cannot be written")
    actions: list[str] = []
    # The table deals board cards one read at a time; PHH writes a street's cards on one line.
    ends = {sum(s.board_cards for s in hand.game.streets[: k + 1]) for k in range(len(hand.game.streets))}
    on_board = 0
    for entry in hand.log:
        match entry:
            case HoleDealt(player, cards):
                actions.append(f"d dh p{player + 1} {_cards(cards)}")
            case BoardDealt(_, cards):
                if on_board not in ends and actions and actions[-1].startswith("d db "):
                    actions[-1] += _cards(cards)         # the rest of the street begun on the line before
                else:
                    actions.append(f"d db {_cards(cards)}")
                on_board += len(cards)
            case Folded(player):
                actions.append(f"p{player + 1} f")
            case CheckedOrCalled(player):
                actions.append(f"p{player + 1} cc")
            case BetOrRaisedTo(player, amount):
                actions.append(f"p{player + 1} cbr {amount}")
            case Shown(player, cards):
                actions.append(f"p{player + 1} sm {_cards(cards)}")
            case Mucked(player):
                actions.append(f"p{player + 1} sm")
            case StreetRetracted():
                # BRD-1: a void street's cards were taken back before anyone acted; the record keeps the redeal.
                while actions and actions[-1].startswith("d db "):
                    actions.pop()
            case Killed(player):
                actions.append(f"{_KILL}{player}")
            case HoleSwapped(player, old, new):
                _swap_hole_card(actions, player, old, new)
            case RunsAgreed(1):
                pass                                     # POT-11: run once is the ordinary deal
            case RunsAgreed(times):
                raise PHHError(f"PHH has no notation for running the board {times} times (POT-11)")
            case _:
                assert_never(entry)
    return actions


def _swap_hole_card(actions: list[str], player: int, old: str, new: str) -> None:
    """EXP-1: an exposed hole card was replaced; the record shows the cards the player kept."""
    prefix = f"d dh p{player + 1} "
    for index, text in enumerate(actions):
        cards = text[len(prefix):]
        pairs = [cards[i:i + 2] for i in range(0, len(cards), 2)]
        if text.startswith(prefix) and old in pairs:
            pairs[pairs.index(old)] = new
            actions[index] = prefix + "".join(pairs)
            return
    raise PHHError(f"p{player + 1} was never dealt {old}")


def _cards(cards: tuple[str, ...]) -> str:
    return "".join("??" if card == UNKNOWN else card for card in cards)
