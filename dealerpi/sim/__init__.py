"""The laptop simulator: the whole table in a browser (``dealerpi sim``, docs/simulator.md)."""
