"""The pure rules engine: games, hands, betting, pots, dealing, the table. No I/O, clock or randomness."""
