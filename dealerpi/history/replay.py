"""Replay a PHH hand through the engine and compare the result with the recorded one.

The replay feeds the record's actions to :class:`dealerpi.engine.hand.Hand` one by one, exactly as the table
would (every refusal by the engine is a disagreement with the record), settles the showdown, and compares the
final stacks with the record's ``finishing_stacks``. See docs/replay.md for the statuses.

Fractional stakes ($0.10/$0.25) are replayed in the smallest power-of-ten unit that makes every input amount
an integer, then scaled back. A recorded half chip (a split pot whose odd chip the record cut in two) is
accepted within half a chip: the engine gives the whole odd chip by POT-3.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from typing import NamedTuple, cast

from dealerpi.engine import GAMES, UNKNOWN, Hand, IllegalAction, Phase
from dealerpi.history.phh import Action, Amount, HandRecord, PHHError, parse_action, read_deal

_LOGGER = logging.getLogger(__name__)

VARIANTS: dict[str, str] = {
    "NT": "nlhe", "PT": "plhe", "FT": "flhe", "PO": "plo", "PO/8": "plo8", "FO/8": "flo8",
}
"""PHH variant code -> engine game name. Every other code (stud, razz, draw, badugi, short deck) is
unsupported."""

_UNSUPPORTED_NAMES = {
    "NS": "no-limit short-deck hold'em", "F7S": "fixed-limit seven-card stud",
    "F7S/8": "fixed-limit seven-card stud hi-lo", "FR": "fixed-limit razz",
    "N2L1D": "no-limit 2-7 single draw", "F2L3D": "fixed-limit 2-7 triple draw", "FB": "fixed-limit badugi",
}


class Status(StrEnum):
    MATCH = "match"
    """The engine's final stacks equal the recorded ``finishing_stacks``."""
    MISMATCH = "mismatch"
    """The stacks differ, or the engine refused one of the record's actions (the reason says which)."""
    UNSUPPORTED = "unsupported"
    """A variant or feature the engine does not play (the reason says which)."""
    NO_RESULT = "no-result"
    """Replayed, but there is nothing to compare: no ``finishing_stacks``, or a showdown of unknown cards."""
    KNOWN_DATA_ERROR = "known-data-error"
    """A record listed in KNOWN_DATA_ERRORS: after the listed repair, the replay matches."""
    INVALID = "invalid"
    """The record itself cannot be read (a malformed action, inconsistent fields)."""


@dataclass(frozen=True)
class KnownDataError:
    """A record whose data is known to be wrong, the repair that fixes it, and why."""

    name: str
    files: tuple[str, ...]
    """Path endings of the records (``/``-separated) the error is known in; no other record is excused."""
    reason: str
    repair: Callable[[HandRecord], HandRecord]


def _insert_button_fold(record: HandRecord) -> HandRecord:
    """Insert the button's (the last player's) fold right before the small blind's first pre-flop action."""
    actions = list(record.actions)
    first = next(i for i, text in enumerate(actions) if text.split()[:1] == ["p1"])
    actions.insert(first, f"p{record.player_count} f")
    return replace(record, actions=tuple(actions))


KNOWN_DATA_ERRORS: tuple[KnownDataError, ...] = (
    KnownDataError(
        name="omitted-button-fold",
        files=("wsop/2019/42/3/00-01-07.phh",),
        reason=("the record omits the button's pre-flop fold (p8 f): p1 acts while p8 still faces p7's "
                "raise; with that fold inserted the replay matches the recorded stacks. (Its "
                "ante_trimming_status = true would make PokerKit hand the BB's lone ante back to him, "
                "500,000 off the record; antes are dead money (BLD-10) and the record agrees.)"),
        repair=_insert_button_fold,
    ),
)


class ReplayResult(NamedTuple):
    """What one replay gave. Stacks are in the record's units (``Decimal`` for fractional stakes). (A named
    tuple: one is made per replayed hand, and a frozen dataclass costs more to make than a small hand's
    showdown.)"""

    record: HandRecord
    status: Status
    finishing_stacks: tuple[Amount, ...] | None = None
    """The engine's final stacks, None if the replay did not finish."""
    reason: str = ""

    @property
    def recorded(self) -> tuple[Amount, ...] | None:
        return self.record.finishing_stacks


class _Stop(Exception):
    """Ends a replay early with a status and a reason."""

    def __init__(self, status: Status, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def replay(record: HandRecord) -> ReplayResult:
    """Replay one record; never raises for bad data (the status and reason say what went wrong)."""
    result = _replay_once(record)
    if result.status is not Status.MISMATCH:
        return result
    known = known_data_error(record)
    if known is None:
        return result
    repaired = _replay_once(known.repair(record))
    if repaired.status is Status.MATCH:
        return ReplayResult(record, Status.KNOWN_DATA_ERROR, repaired.finishing_stacks,
                            f"{known.name}: {known.reason}")
    return result._replace(reason=f"{result.reason} (known data error {known.name} repaired, still "
                                  f"{repaired.status}: {repaired.reason})")


def known_data_error(record: HandRecord) -> KnownDataError | None:
    """The KNOWN_DATA_ERRORS entry listing the record's file, if any."""
    source = record.source.replace("\\", "/")
    for known in KNOWN_DATA_ERRORS:
        if any(source == f or source.endswith("/" + f) for f in known.files):
            return known
    return None


def _replay_once(record: HandRecord) -> ReplayResult:
    try:
        game_name, scale, whole = _prepare(record)
        hand = _new_hand(record, game_name, scale, whole=whole)
        unknown_shown = _apply_actions(hand, record.actions, scale, record.player_count)
        if hand.phase is not Phase.COMPLETE:
            unknown = unknown_shown | {p for p in hand.live if UNKNOWN in hand.hole[p]}
            if unknown:
                raise _Stop(Status.NO_RESULT, "showdown with unknown hole cards of "
                            + ", ".join(f"p{p + 1}" for p in sorted(unknown)))
            if hand.phase is not Phase.SHOWDOWN:
                waiting = f", p{hand.actor + 1} to act" if hand.actor is not None else ""
                raise _Stop(Status.MISMATCH if record.finishing_stacks else Status.NO_RESULT,
                            f"the record ends before the hand does ({hand.phase.value}{waiting})")
            try:
                hand.settle()
            except IllegalAction as exc:
                raise _Stop(Status.MISMATCH, f"settle() refused after the last action: {exc}") from exc
    except _Stop as stop:
        if stop.status is Status.MISMATCH:
            stop = _malformed(record) or stop      # a record with a malformed action is invalid, first of all
        return ReplayResult(record, stop.status, None, stop.reason)
    ours = tuple(hand.stacks) if scale == 1 else tuple(_unscale(stack, scale) for stack in hand.stacks)
    return _compare(record, ours, scale)


def start_hand(record: HandRecord) -> Hand:
    """The engine's hand for ``record``'s set-up, no action applied, for a writer that steps a record through
    ``apply_actions`` (``history.from_hand``). Whole chips only; raises PHHError with the reason."""
    try:
        game_name, scale, whole = _prepare(record)
        if scale != 1:
            raise PHHError("a record in fractions of a chip cannot be stepped through")
        return _new_hand(record, game_name, 1, whole=whole)
    except _Stop as stop:
        raise PHHError(stop.reason) from stop


def apply_actions(hand: Hand, texts: Sequence[str]) -> None:
    """Apply PHH actions to ``hand`` (from ``start_hand``); raises PHHError naming a refused action."""
    try:
        _apply_actions(hand, texts, 1, hand.n)
    except _Stop as stop:
        raise PHHError(stop.reason) from stop
    except (IllegalAction, ValueError, IndexError) as exc:
        raise PHHError(f"{' / '.join(texts)}: {exc}") from exc


def _prepare(record: HandRecord) -> tuple[str, int, bool]:
    """Check what the engine can play; return the game, the amount scale, and whether every amount is
    already a whole number of chips (``int``). The actions are read as they are replayed."""
    if record.variant not in VARIANTS:
        name = _UNSUPPORTED_NAMES.get(record.variant, "unknown to the replay")
        raise _Stop(Status.UNSUPPORTED, f"variant {record.variant} ({name}) is not a game of the engine")
    if record.blinds_or_straddles and min(record.blinds_or_straddles) < 0:
        raise _Stop(Status.UNSUPPORTED, "a negative blind (a new player's post that does not change who "
                                        "acts first) has no equivalent in the engine's blinds")
    if record.bring_in:
        raise _Stop(Status.UNSUPPORTED, "bring-in games are not games of the engine")
    text = "\n".join(record.actions)
    if "." not in text and " pb" not in text and " sd" not in text and _whole_chips(record):
        return VARIANTS[record.variant], 1, True    # the usual record: whole chips, no stud or draw action
    try:
        actions = list(map(parse_action, record.actions))
    except PHHError as exc:
        raise _Stop(Status.INVALID, str(exc)) from exc
    amounts: list[Amount] = [*record.starting_stacks, *record.antes, *record.blinds_or_straddles,
                             record.min_bet or 0, record.small_bet or 0, record.big_bet or 0]
    for action in actions:
        if action.amount is not None:
            amounts.append(action.amount)
        elif action.verb in ("pb", "sd"):
            raise _Stop(Status.UNSUPPORTED,
                        f"action {action.text!r}: stud and draw actions are not supported")
    scale = _scale_for(amounts)
    return VARIANTS[record.variant], scale, scale == 1 and _whole_chips(record)


def _malformed(record: HandRecord) -> _Stop | None:
    """INVALID for the first action of the record that cannot be read, if any."""
    try:
        for text in record.actions:
            parse_action(text)
    except PHHError as exc:
        return _Stop(Status.INVALID, str(exc))
    return None


def _whole_chips(record: HandRecord) -> bool:
    """Whether every amount of the record's set-up is an ``int`` (no ``Decimal``)."""
    types = {*map(type, record.starting_stacks), *map(type, record.antes), *map(type, record.blinds_or_straddles),
             type(record.min_bet or 0), type(record.small_bet or 0), type(record.big_bet or 0)}
    return types == {int}


def _scale_for(amounts: Sequence[Amount]) -> int:
    """The smallest power of 10 that makes every amount an integer."""
    digits = 0
    for amount in amounts:
        if not isinstance(amount, int):
            exponent = amount.normalize().as_tuple().exponent
            if isinstance(exponent, int) and exponent < 0:
                digits = max(digits, -exponent)
    return int(10 ** digits)


def _scaled(amount: Amount, scale: int) -> int:
    if scale == 1 and isinstance(amount, int):
        return amount
    value = Decimal(amount) * scale
    if value != value.to_integral_value():
        raise _Stop(Status.INVALID, f"amount {amount} is finer than the hand's unit 1/{scale}")
    return int(value)


def _unscale(amount: int, scale: int) -> Amount:
    return amount if scale == 1 else Decimal(amount) / scale


def _new_hand(record: HandRecord, game_name: str, scale: int, *, whole: bool) -> Hand:
    """The engine's hand for the record; ``whole``: every set-up amount is an ``int`` already."""
    count = record.player_count
    stacks: Sequence[int]
    blinds: Sequence[int]
    antes: Sequence[int]
    if whole:   # _whole_chips saw that every one of these amounts is an int; the hand copies what it keeps
        stacks, blinds, antes = (cast(tuple[int, ...], record.starting_stacks),
                                 cast(tuple[int, ...], record.blinds_or_straddles) or (0,) * count,
                                 cast(tuple[int, ...], record.antes))
    else:
        stacks = [_scaled(s, scale) for s in record.starting_stacks]
        blinds = [_scaled(b, scale) for b in record.blinds_or_straddles] or [0] * count
        antes = [_scaled(a, scale) for a in record.antes]
    if count == 2:
        # PHH (like PokerKit) lists heads-up blinds and antes as [SB, BB] while p1 is the big blind and p2
        # the button, who posts the small blind (BLD-4); the engine takes them per player.
        blinds = blinds[::-1]
        antes = antes[::-1]
    game = GAMES[game_name]
    limits = None
    if record.small_bet is not None and record.big_bet is not None:
        limits = (_scaled(record.small_bet, scale), _scaled(record.big_bet, scale))
    min_bet = _scaled(record.min_bet, scale) if record.min_bet is not None else max(blinds, default=0)
    try:   # a replay compares stacks and never reads the hand's log: not kept (a step costs less, docs/replay.md)
        return Hand(game, stacks=stacks, blinds=blinds, antes=antes, min_bet=min_bet, limits=limits,
                    keep_log=False)
    except (IllegalAction, ValueError) as exc:
        raise _Stop(Status.INVALID, f"the engine refused the hand's set-up: {exc}") from exc


def _apply_actions(hand: Hand, texts: Sequence[str], scale: int, count: int) -> set[int]:
    """Apply every action; return the players who showed unknown (``????``) cards. The engine checks every
    action itself (the turn, the cards, the amounts); the reason of a refusal is worked out only then."""
    unknown_shown: set[int] = set()
    fold, check_or_call, bet_or_raise_to = hand.fold, hand.check_or_call, hand.bet_or_raise_to
    deal_hole, deal_board = hand.deal_hole, hand.deal_board
    for number, text in enumerate(texts, start=1):
        try:
            if text[:1] == "d":
                deal = read_deal(text)                  # the usual deals, past the parse cache
                if deal is not None:
                    player, cards = deal
                    if player is None:
                        deal_board(cards)
                    else:
                        deal_hole(player, cards)
                    continue
            action = parse_action(text)
            verb = action.verb
            if verb == "cc":
                check_or_call(action.player)
            elif verb == "f":
                fold(action.player)
            elif verb == "cbr":
                amount = action.amount
                assert amount is not None       # parse_action: "pN cbr AMOUNT"
                bet_or_raise_to(amount if type(amount) is int and scale == 1 else _scaled(amount, scale),
                                action.player)
            elif verb == "dh":
                # Unknown cards ("????") are the engine's UNKNOWN: the hand goes on, and the cards can be
                # revealed at the showdown (show with cards).
                assert action.player is not None and action.cards is not None    # parse_action: "d dh pN CARDS"
                deal_hole(action.player, action.cards)
            elif verb == "db":
                assert action.cards is not None                                  # parse_action: "d db CARDS"
                if UNKNOWN in action.cards:
                    raise _Stop(Status.UNSUPPORTED, f"action {number} {text!r}: unknown board cards")
                deal_board(action.cards)
            elif verb == "sm":
                if hand.phase is Phase.COMPLETE and action.cards is not None:
                    continue    # the winner of an uncontested pot chose to show: no effect on the chips
                _show_or_muck(hand, action, unknown_shown)
            else:
                raise _Stop(Status.UNSUPPORTED, f"action {text!r}: stud and draw actions are not supported")
        except PHHError as exc:
            raise _Stop(Status.INVALID, str(exc)) from exc
        except (IllegalAction, ValueError, IndexError) as exc:
            stop = _refusal(hand, number, parse_action(text), count, exc)
            if stop is None:
                raise
            raise stop from exc
    return unknown_shown


def _refusal(hand: Hand, number: int, action: Action, count: int, exc: Exception) -> _Stop | None:
    """Why the engine refused a record's action: a player the record does not have, an action out of turn,
    or the engine's own reason. None for an ``IndexError`` that is not about a player (a bug: re-raised)."""
    where = f"action {number} {action.text!r}"
    if action.player is not None and action.player >= count:
        return _Stop(Status.INVALID, f"{where}: there are only {count} players")
    if action.verb in ("cc", "f", "cbr") and hand.actor != action.player:
        expected = "nobody" if hand.actor is None else f"p{hand.actor + 1}"
        return _Stop(Status.MISMATCH, f"{where}: the engine expects {expected} to act (phase {hand.phase.name})")
    if isinstance(exc, IllegalAction):
        return _Stop(Status.MISMATCH, f"{where} refused: {exc}")
    if isinstance(exc, IndexError):
        return None
    return _Stop(Status.INVALID, f"{where}: {exc}")


def _show_or_muck(hand: Hand, action: Action, unknown_shown: set[int]) -> None:
    player = action.player
    assert player is not None
    if action.cards is None:
        hand.muck(player)
    elif not action.cards_known:
        unknown_shown.add(player)     # "pN sm ????": shown, but the record does not say what
    elif UNKNOWN in hand.hole[player]:
        hand.show(player, action.cards)
    else:
        shown = list(action.cards)
        if shown != hand.hole[player] and sorted(shown) != sorted(hand.hole[player]):
            raise _Stop(Status.INVALID, f"action {action.text!r}: p{player + 1} shows {''.join(shown)} but was "
                                        f"dealt {''.join(hand.hole[player])}")
        hand.show(player)


def _compare(record: HandRecord, ours: tuple[Amount, ...], scale: int) -> ReplayResult:
    recorded = record.finishing_stacks
    if recorded is None:
        return ReplayResult(record, Status.NO_RESULT, ours, "the record has no finishing_stacks")
    if tuple(recorded) == ours:
        return ReplayResult(record, Status.MATCH, ours)
    half = Decimal(1) / (2 * scale)
    differences = []
    for player, (mine, theirs) in enumerate(zip(ours, recorded, strict=True)):
        if mine == theirs:
            continue
        # The record split an odd chip in two; the engine gives it whole by POT-3.
        if abs(Decimal(mine) - Decimal(theirs)) == half and (Decimal(theirs) * scale) % 1 == Decimal("0.5"):
            continue
        differences.append(f"p{player + 1} {mine} (recorded {theirs})")
    if differences:
        return ReplayResult(record, Status.MISMATCH, ours, "final stacks differ: " + ", ".join(differences))
    if sum(recorded) != sum(ours):
        return ReplayResult(record, Status.MISMATCH, ours,
                            f"the recorded stacks add up to {sum(recorded)}, ours to {sum(ours)}")
    return ReplayResult(record, Status.MATCH, ours)
