"""What the phone's bar and the TV board say about the hand (issue 19): what the table waits for as the engine's
``Waiting`` kind (the page picks its control by the kind, never by the words), the boards' labels (a bomb pot's
two boards, the runs of POT-11) and, once the hand is over, the result in words: "Dan wins 25 with two pair,
nines and fives", each pot named (main pot, side pot 1) with who took it and how much (a split pot names
each share).

Nothing here is secret: the waiting kind names a seat or a street, never a card, except the four cards of a
four-card flop the dealer picks the burn from (BRD-1), which lie face up on the table; the result names only
hands tabled at the showdown (``hand_words``: a hand nobody showed is never looked at).
"""

from __future__ import annotations

from typing import Any

from dealerpi.engine import Table, Waiting
from dealerpi.views.hand_words import summary


def next_input(table: Table) -> dict[str, Any]:
    """The table's expectation as the journal says it (``{"expect": "card", "for": "flop"}``, docs/journal.md),
    plus ``paused`` when START would be refused (TRN-5): the bar offers Resume there instead."""
    expectation = table.expectation()
    data = expectation.as_json()
    if expectation.waiting is Waiting.START and table.paused is not None:
        data["paused"] = table.paused
    return data


def board_labels(table: Table) -> list[str]:
    """A label per board of the hand in play or just played: "" for the one board of a plain hand; "Board 1",
    "Board 2" for two boards (a bomb pot's, seed 001); "Run 1", "Run 2" when run N times (POT-11, the runs one
    after another: board index = run x boards + board, dealing.py); "Run 2 · board 1" for both."""
    play = table.play
    if play is None:
        return []
    hand = play.hand
    per_run, runs = max(1, hand.board_count), max(1, hand.runs)
    labels = []
    for index in range(len(hand.boards)):
        run, board = divmod(index, per_run)
        parts = ([f"Run {run + 1}"] if runs > 1 else []) + ([f"Board {board + 1}"] if per_run > 1 else [])
        labels.append(" · ".join(parts))
    return labels


def bomb_pot(table: Table) -> bool:
    """The hand in play or just played is a bomb pot (seed 001): the board's title says so."""
    return table.play is not None and table.play.hand.bomb


def hand_result(table: Table) -> dict[str, Any] | None:
    """The hand just finished (None during a hand and before the first): its winners in words and its pots,
    each named, with each winner's name and chips."""
    config = table.config
    if config is None or not table.payouts() or not table.records:
        return None
    record = table.records[-1]
    if record.number != table.hand_number or record.misdeal:
        return None
    players = {seat: info.player for seat, info in table.seats.items()}
    words = summary(record, players, tuple(config.game.evaluators))
    pots = []
    for index, pot in enumerate(record.pots):
        shares = [{"seat": seat, "player": players.get(seat) or f"Seat {seat}", "chips": chips}
                  for seat, chips in pot.won if chips]
        name = "Pot" if len(record.pots) == 1 else "Main pot" if index == 0 else f"Side pot {index}"
        pots.append({"name": name, "amount": pot.amount, "split": len(shares) > 1, "shares": shares})
    return {"hand": record.number, "winners": words["winners"], "pots": pots}


def break_in(table: Table) -> int | None:
    """The director's clock's "break in" (TRN-1): seconds until the next break starts, from the level clock as
    the journaled ticks left it (the page counts down between ticks, as for the level's time); 0 during a break,
    None when no break is left in the schedule or there is no schedule."""
    levels = table.levels
    if levels is None:
        return None
    if levels.on_break:
        return 0
    seconds = levels.remaining
    for step in levels.levels[levels.index + 1:]:
        if step.is_break:
            return seconds
        seconds += step.minutes * 60
    return None
