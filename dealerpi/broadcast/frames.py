"""What the two feeds show of the table at one moment: pure functions of the broadcast's own :class:`Table`.

The **venue** frame is :func:`dealerpi.views.roles.public_view`, the board TV's view (the function the
console's board page uses, whose secrecy is tested there), without any hole card while a hand is in play:
the hands an all-in turns face up (POT-5) wait for the hand's end there (:func:`venue_frame`). The
**broadcast** frame is for
the delayed feed only: every dealt hand face up, folded ones marked, the cards the table has seen that are
out of the deck (folded hands, burns, exposed cards: the "true outs" a camera table cannot know), the last
action, the amount to call, and at the end the winners with their hands in words.
"""

from __future__ import annotations

from typing import Any

from dealerpi.engine import BetOrRaisedTo, BoardDealt, CheckedOrCalled, Folded, Killed, SeatStatus, Table, Waiting
from dealerpi.views.hand_words import summary
from dealerpi.views.roles import public_view

LIVE = (SeatStatus.IN, SeatStatus.ALL_IN)


def venue_frame(table: Table, ms: int) -> dict[str, Any]:
    """The board TV's view, stricter still: during a hand no hole card at all, not even the hands turned
    face up at an all-in (POT-5 on the console's board): the issue wants the all-in reveal (TDA R16) on the
    delayed feed only. The hands tabled are shown once the hand is over."""
    view = public_view(table)
    if not table.between_hands:
        for seat in view["seats"].values():
            seat["cards"] = []
    return {"ms": ms, **view}


def _play(table: Table) -> Any:
    return getattr(table, "play", None)


def live_hands(table: Table) -> dict[int, tuple[str, ...]]:
    """Seat -> hole cards of every hand still in play (dealt in, neither folded nor mucked: ``Hand.live``)."""
    play = _play(table)
    if play is None or table.between_hands:
        return {}
    hand, order = play.hand, play.plan.order
    return {order[i]: tuple(hand.hole[i]) for i in hand.live}


def dead_cards(table: Table) -> list[str]:
    """Every card read in this hand that is neither in a live hand nor on a board nor back in the deck:
    burns, folded and killed hands, exposed cards (the "true outs", issue 21)."""
    play = _play(table)
    if play is None or table.between_hands:
        return []
    live = {card for cards in live_hands(table).values() for card in cards}
    board = {card for cards in table.board() for card in cards}
    back = table.returned_cards()
    return [card for card in play.deal.read_order if card not in live and card not in board and card not in back]


def hands_complete(table: Table) -> bool:
    """An equity is computable: two or more hands live, every hole card dealt, and each board a whole
    number of streets (not a flop half dealt; waiting for the next street is fine)."""
    play = _play(table)
    if play is None or table.config is None or len(live_hands(table)) < 2 or play.hand.hole_due:
        return False
    ends, total = {0}, 0
    for street in table.config.game.streets:
        total += street.board_cards
        ends.add(total)
    return all(len(board) in ends for board in table.board())


def all_in_reveal(table: Table) -> bool:
    """TDA R16 (rules digest POT-5): betting is over with an all-in and two or more hands live: every live hand
    is turned face up."""
    play = _play(table)
    if play is None or table.between_hands or len(live_hands(table)) < 2:
        return False
    if table.expectation().waiting is Waiting.ACTION:      # a player still to call the all-in
        return False
    hand = play.hand
    return bool(hand.betting_closed) and any(table.seat(s).status is SeatStatus.ALL_IN for s in live_hands(table))


def last_action(table: Table) -> str | None:
    """The last betting step in words ("Bob bets or raises to 12", "Cy checks"), from the hand's log (a hand
    shown or mucked is on the overlay itself)."""
    play = _play(table)
    log = getattr(getattr(play, "hand", None), "log", None)
    if not log:
        return None
    order = play.plan.order
    for index in range(len(log) - 1, -1, -1):
        step = log[index]
        if not isinstance(step, Folded | CheckedOrCalled | BetOrRaisedTo | Killed):
            continue
        seat = order[step.player]
        name = table.seat(seat).player or f"Seat {seat}"
        if isinstance(step, CheckedOrCalled):
            return f"{name} {'checks' if _a_check(table, log[:index], seat) else 'calls'}"
        if isinstance(step, BetOrRaisedTo):
            return f"{name} bets or raises to {step.amount}"
        return f"{name} folds" if isinstance(step, Folded) else f"{name}'s hand is dead"
    return None


def _a_check(table: Table, before: list[Any], seat: int) -> bool:
    """A CheckedOrCalled was a check: no bet on its street before it (before the flop: the biggest blind,
    BB or a straddle, with no raise; a straddle's big blind calls it)."""
    street: list[Any] = []
    for step in before:
        street = [] if isinstance(step, BoardDealt) else [*street, step]
    if any(isinstance(step, BoardDealt) for step in before):
        return not any(isinstance(step, BetOrRaisedTo) for step in street)
    blinds = {other: table.seat(other).blind for other in table.dealt_seats()}
    biggest = "STR" if "STR" in blinds.values() else "BB"
    return blinds.get(seat) == biggest and not any(isinstance(step, BetOrRaisedTo) for step in street)


def _to_call(table: Table) -> dict[str, Any] | None:
    expectation = table.expectation()
    legal = expectation.legal
    if legal is None or expectation.seat is None:
        return None
    bet = table.seat(expectation.seat).bet
    call = 0 if legal.call_to is None else max(0, legal.call_to - bet)
    return {"seat": expectation.seat, "to_call": call, "words": list(legal.words())}


def broadcast_frame(table: Table, ms: int) -> dict[str, Any]:
    """The delayed feed's frame, without the equities (:mod:`dealerpi.broadcast.odds` adds them)."""
    frame = {"ms": ms, **public_view(table)}
    play = _play(table)
    blinds = table.hand_blinds()
    big = blinds[1] if blinds else None
    dealt = set(table.dealt_seats())
    out = _out_of_hand(play)
    for key, seat_frame in frame["seats"].items():
        seat = int(key)
        seat_frame["cards"] = list(table.hole_cards(seat)) if seat in dealt and play is not None else []
        seat_frame["folded"] = seat in out
        seat_frame["bb"] = round(seat_frame["stack"] / big, 1) if big else None
        seat_frame["equity"] = None
    frame["dead"] = dead_cards(table)
    frame["reveal"] = all_in_reveal(table)
    frame["to_call"] = _to_call(table)
    frame["last_action"] = last_action(table)
    frame["button"] = table.button()
    frame["outs"] = None
    frame["result"] = _result(table)
    frame["clock"] = action_clock(table)
    return frame


def action_clock(table: Table) -> dict[str, Any] | None:
    """TRN-2: the clock on the seat to act when one runs (called, or the shot clock): its seconds left as the
    journaled ticks left them, the final countdown (TDA 29), the time-bank tokens the seat has left. The
    delayed table has it at the delayed time: it is the clock of the moment the overlay shows."""
    clock, play = table.clock, _play(table)
    if clock is None or play is None:
        return None
    return {"seat": clock.seat, "remaining": clock.remaining, "final": clock.counting_down,
            "banks_left": int(play.banks_left.get(clock.seat, 0))}


def on_break(table: Table) -> bool:
    """TRN-1: the tournament is on a break and no hand is in play (no hand can start: no hole card exists at
    the table), so the dynamic delay may drop this dead air (:mod:`dealerpi.broadcast.delay`)."""
    levels = table.levels
    return levels is not None and levels.on_break and table.between_hands


def player_stats(frame: dict[str, Any], players: dict[str, dict[str, int]]) -> None:
    """Each seated player's VPIP and PFR (percent of his hands) from the room's statistics as the delayed
    moment had them (:mod:`dealerpi.broadcast.room_stats`); None for a player the room has no hand of."""
    for seat in frame["seats"].values():
        counts = players.get(seat["player"] or "")
        hands = counts.get("hands", 0) if counts else 0
        seat["stats"] = None if not hands or counts is None else {
            "hands": hands, "vpip": round(100 * counts.get("vpip", 0) / hands),
            "pfr": round(100 * counts.get("pfr", 0) / hands)}


def _out_of_hand(play: Any) -> set[int]:
    """Seats of the hand in play or just played that folded or mucked (greyed, after the hand too)."""
    if play is None:
        return set()
    hand, order = play.hand, play.plan.order
    return {order[i] for i in range(hand.n) if hand.folded[i] or hand.mucked[i]}


def _result(table: Table) -> dict[str, Any] | None:
    """At the end of a hand: the winners, their chips and hands in words (the console's hand list's words)."""
    if not table.between_hands or not table.records:
        return None
    record = table.records[-1]
    config = table.config
    evaluators = tuple(config.game.evaluators) if config is not None else ()
    players = {seat: state.player for seat, state in table.seats.items() if state.player}
    words = summary(record, players, evaluators)
    return {"number": words["number"], "winners": words["winners"]}
