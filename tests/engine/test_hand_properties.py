"""Property tests over random hands of every game (issue: chips conserved exactly, no card dealt twice, nobody
wins more from an opponent than he put at risk)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpi.engine.games import GAMES, Structure
from dealerpi.engine.hand import Hand, Phase


def random_hand(game_key: str, rng: random.Random) -> Hand:
    """Play one hand with random legal actions, random stacks (so side pots are common) and a shuffled deck."""
    game = GAMES[game_key]
    n = rng.randint(2, 6 if game.hole_cards >= 4 else 9)
    stacks = [rng.randint(1, 60) * 10 for _ in range(n)]
    limits = (10, 20) if game.structure is Structure.FIXED_LIMIT else None
    bomb = game.boards > 1 or rng.random() < 0.1
    blinds = [] if bomb else ([10, 5] if n == 2 else [5, 10])
    antes = [rng.choice([5, 10])] * n if bomb else []
    hand = Hand(game, stacks, blinds=blinds, antes=antes, min_bet=10, limits=limits, bomb=bomb,
                cap_heads_up=rng.random() < 0.5)
    deck = list(game.deck.cards)
    rng.shuffle(deck)
    for player in range(n):
        hand.deal_hole(player, [deck.pop() for _ in range(game.hole_cards)])
    runs_asked = False
    while hand.phase is not Phase.COMPLETE:
        if hand.phase is Phase.BETTING:
            legal = hand.legal()
            roll = rng.random()
            if legal.raise_min_to is not None and roll < 0.35:
                top = legal.raise_max_to or legal.raise_min_to
                hand.bet_or_raise_to(rng.choice([legal.raise_min_to, top, (legal.raise_min_to + top) // 2]))
            elif roll < 0.5 and not legal.check:
                hand.fold()
            else:
                hand.check_or_call()
        elif hand.phase is Phase.DEAL_BOARD:
            if hand.betting_closed and not runs_asked and rng.random() < 0.3 and len(deck) > 30:
                runs_asked = True
                if any(len(b) < game.board_size for b in hand.boards):
                    hand.run_it(2)
            for board, due in enumerate(hand.cards_due()):
                if due:
                    hand.deal_board([deck.pop() for _ in range(due)], board)
                    break
        else:
            hand.settle()
    return hand


@settings(max_examples=300, deadline=None)
@given(game_key=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32))
def test_random_hands_conserve_chips_and_never_deal_a_card_twice(game_key: str, seed: int) -> None:
    hand = random_hand(game_key, random.Random(seed))
    assert sum(hand.stacks) == sum(hand.starting)
    hole = [c for h in hand.hole for c in h]
    assert len(set(hole)) == len(hole)
    # the runs of one board share their first cards; every other card appears once in the whole deal
    everything = list(hole)
    for board in range(hand.board_count):
        runs = hand.boards[board::hand.board_count]
        shared = len([k for k in range(min(map(len, runs))) if len({run[k] for run in runs}) == 1])
        everything += runs[0][:shared] + [c for run in runs for c in run[shared:]]
    assert len(set(everything)) == len(everything)


@settings(max_examples=300, deadline=None)
@given(game_key=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32))
def test_nobody_wins_more_from_an_opponent_than_he_risked(game_key: str, seed: int) -> None:
    """POT-1 / seed 001: you can never win more than you had in your stack from each player."""
    hand = random_hand(game_key, random.Random(seed))
    put_in = [start - stack + won for start, stack, won in zip(hand.starting, hand.stacks, hand.won, strict=True)]
    for player in range(hand.n):
        gain = hand.stacks[player] - hand.starting[player]
        at_risk = sum(min(put_in[player], put_in[other]) for other in range(hand.n) if other != player)
        assert gain <= at_risk
