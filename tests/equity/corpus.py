"""The fixed corpus of spots checked against the oracle (docs/equity.md lists it): every game, every street,
preflop with many dead cards so that the oracle's plain enumeration stays within seconds."""

from __future__ import annotations

from dataclasses import dataclass

from dealerpi.cards import HEXADEC, STANDARD


@dataclass(frozen=True)
class Case:
    name: str
    game: str
    hands: tuple[str, ...]
    board: str = ""
    dead: str = ""

    def cards(self, text: str) -> tuple[str, ...]:
        deck = HEXADEC if self.game == "fileem" else STANDARD
        return deck.parse_many(text) if text else ()


def _all_but(game: str, keep: str) -> str:
    """Every card of the game's deck except those in ``keep`` (to leave a small stub preflop)."""
    deck = HEXADEC if game == "fileem" else STANDARD
    kept = set(deck.parse_many(keep))
    return "".join(card for card in deck.cards if card not in kept)


CORPUS = (
    Case("holdem flop, overpair v set draw", "nlhe", ("AhAs", "KdKc"), "2c7d9h"),
    Case("holdem flop, three-way with flush draws, a burn dead", "nlhe", ("AhKh", "QsQd", "9h8h"), "Th7h2c", "3c"),
    Case("holdem turn, same hand both sides (split)", "nlhe", ("AsKd", "AcKh"), "QhJdTs2c"),
    Case("holdem turn, four ways, folded hands dead", "nlhe", ("AcQc", "8s8d", "JhTh", "5c4c"), "9h8cQd2h",
         "KsKd7s6s"),
    Case("holdem river, four ways", "nlhe", ("AcQc", "8s8d", "JhTh", "5c4c"), "9h8cQd2h3c"),
    Case("holdem preflop, 38 dead", "nlhe", ("AhAs", "KdKc"), "",
         _all_but("nlhe", "AhAsKdKc" "KhKsAdAcQhJhTh9h8h7c")),
    Case("holdem preflop, six ways, 30 dead", "nlhe", ("AhAs", "KdKc", "QsJs", "Tc9c", "8d8h", "7s2d"), "",
         _all_but("nlhe", "AhAsKdKcQsJsTc9c8d8h7s2d" "AdKhQhJh5c6c3s4d9d2c")),
    Case("holdem preflop, ten ways, 22 dead (more hands than the dense tally)", "nlhe",
         ("AhAs", "KdKc", "QsJs", "Tc9c", "8d8h", "7s2d", "5h5c", "4d3d", "JhTh", "9s9d"), "",
         _all_but("nlhe", "AhAsKdKcQsJsTc9c8d8h7s2d5h5c4d3dJhTh9s9d" "AdKhQhJd6c6d2c3c4h7h")),
    Case("omaha flop, wrap v top set", "plo", ("AsKsQdJd", "9h9c8h7c"), "Ts6h2s"),
    Case("omaha turn, three ways", "plo", ("AsKsQdJd", "9h9c8h7c", "AcAd5s4s"), "Ts6h2s3d"),
    Case("omaha preflop, 34 dead", "plo", ("AsKsQdJd", "9h9c8h7c"), "",
         _all_but("plo", "AsKsQdJd9h9c8h7c" "Ts6h2s3dAcAd5s4sTh6d")),
    Case("omaha hi-lo flop, both hold A2 (quartering)", "plo8", ("Ah2s3dKc", "Ad2c5hQh"), "4c8d9s"),
    Case("omaha hi-lo turn, three ways", "plo8", ("Ah2s3dKc", "Ad2c5hQh", "KhKdJsTs"), "4c8d9s7h"),
    Case("omaha hi-lo flop, seven ways (more hands than the dense tally)", "plo8",
         ("Ah2s3dKc", "Ad2c5hQh", "KhKdJsTs", "AcAs4h6h", "3c3s7d8c", "9c9dTcJc", "QcQs6s5s"), "4c8d9s"),
    Case("omaha hi-lo river, low counterfeited", "plo8", ("Ah2s3dKc", "Ad4c5hQh"), "2c3h8d9sKs"),
    Case("omaha hi-lo preflop, 34 dead", "plo8", ("Ah2s3dKc", "Ad2c5hQh"), "",
         _all_but("plo8", "Ah2s3dKcAd2c5hQh" "4c8d9s7hKhKdJsTs3c6h")),
    Case("file 'em turn", "fileem", ("0h0sFd", "1d2c3h"), "2s7d9hAcBdCc"),
    Case("file 'em flop, 43 dead", "fileem", ("0h0sFd", "1d2c3h"), "2s7d9hAc",
         _all_but("fileem", "0h0sFd1d2c3h2s7d9hAc" "0d0cFhFs1h4c5c6cBdCcEd")),
    Case("file 'em preflop, three ways, 46 dead", "fileem", ("0h0sFd", "1d2c3h", "EhEsDd"), "",
         _all_but("fileem", "0h0sFd1d2c3hEhEsDd" "2s7d9hAc0dFh4c5cBd")),
)
