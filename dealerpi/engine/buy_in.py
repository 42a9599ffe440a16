"""Buy-ins and top-ups between hands (seed 001: 30 to 100 big blinds; seed 003: at least 10 small bets).

Amounts are chips. Seed 001 rounds its minimum up to a whole dollar; chips carry no money value here, so the
minimum is exactly ``buy_in_min_bb`` big blinds.
"""

from __future__ import annotations

import logging

from dealerpi.engine.policies import Policies

_LOGGER = logging.getLogger(__name__)


def check_buy_in(amount: int, *, policies: Policies, big_blind: int, small_bet: int | None,
                 current_stack: int = 0) -> str | None:
    """The reason, with the limits, when buying ``amount`` chips is refused; None when it is allowed.

    ``current_stack`` 0 is a buy-in (a first one, or after going broke): the minimum applies. More chips on a
    stack is a top-up: only the maximum applies (seed 001: "top up to the table limit"). ``small_bet`` is the
    lower limit of a fixed-limit game (seed 003); other games pass None and the big blind stands in for it.
    """
    if amount <= 0:
        return f"a buy-in must be a positive number of chips, not {amount}"
    if policies.tournament:
        if current_stack > 0:
            return "no top-ups in a tournament: the starting stack is fixed"
        return None
    if current_stack == 0:
        by_bb = policies.buy_in_min_bb * big_blind
        by_bets = policies.buy_in_min_small_bets * (small_bet or big_blind)
        if amount < max(by_bb, by_bets):
            rule = (f"{policies.buy_in_min_bb} big blinds (seed 001)" if by_bb >= by_bets
                    else f"{policies.buy_in_min_small_bets} small bets (seed 003)")
            return f"the minimum buy-in is {max(by_bb, by_bets)} chips ({rule}), not {amount}"
    if policies.buy_in_max_bb:
        maximum = policies.buy_in_max_bb * big_blind
        if current_stack + amount > maximum:
            room = max(0, maximum - current_stack)
            return (f"the table maximum is {maximum} chips ({policies.buy_in_max_bb} big blinds, seed 001): "
                    f"with {current_stack} on the table, at most {room} more")
    return None
