"""Progressive knockout bounties (PKO): the bounty on each player's head and the bounty money won.

``bounty`` of every buy-in (the table's config) goes on the buyer's head instead of into the prize pool. The
player who busts him takes half his head in cash and adds the other half to his own head; players who share the
pot he busted in share both halves (odd units one each to the first clockwise from the button); the winner of
the tournament takes his own head. So at every moment the heads of the players still in plus the cash won add up
to the bounty money paid in, and at the end all of it is cash (the ledger the issue asks to balance).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def _shares(amount: int, people: int) -> list[int]:
    base, extra = divmod(amount, people)
    return [base + (1 if k < extra else 0) for k in range(people)]


def _add(pairs: tuple[tuple[str, int], ...], player: str, amount: int) -> tuple[tuple[str, int], ...]:
    book = dict(pairs)
    book[player] = book.get(player, 0) + amount
    return tuple(book.items())


@dataclass(frozen=True, slots=True)
class Bounties:
    """``heads``: the bounty on each player still in; ``won``: the bounty cash each player has won."""

    heads: tuple[tuple[str, int], ...] = ()
    won: tuple[tuple[str, int], ...] = ()

    def enter(self, player: str, amount: int) -> Bounties:
        """An entry, re-entry or rebuy puts ``amount`` on ``player``'s head."""
        return Bounties(_add(self.heads, player, amount), self.won)

    def bust(self, busted: str, winners: Sequence[str]) -> tuple[Bounties, str]:
        """``busted`` is out, busted by ``winners`` (clockwise from the button): half his head in cash to them,
        half onto their heads. Returns the books and the dealer's line."""
        heads = dict(self.heads)
        head = heads.pop(busted, 0)
        if not winners or not head:
            return Bounties(tuple(heads.items()), self.won), ""
        cash, onto = head // 2, head - head // 2
        won = self.won
        for player, part in zip(winners, _shares(cash, len(winners)), strict=True):
            won = _add(won, player, part)
        for player, part in zip(winners, _shares(onto, len(winners)), strict=True):
            heads[player] = heads.get(player, 0) + part
        who = " and ".join(winners)
        where = f"{who}'s head ({heads[winners[0]]})" if len(winners) == 1 else "their heads"
        words = f"PKO: {who} bust{'s' if len(winners) == 1 else ''} {busted}: {cash} in cash, {onto} on {where}"
        return Bounties(tuple(heads.items()), won), words

    def win(self, player: str) -> Bounties:
        """The winner of the tournament takes his own head in cash."""
        heads = dict(self.heads)
        head = heads.pop(player, 0)
        return Bounties(tuple(heads.items()), _add(self.won, player, head))

    def as_json(self) -> dict[str, list[list[object]]]:
        return {"heads": [[p, a] for p, a in self.heads], "won": [[p, a] for p, a in self.won]}
