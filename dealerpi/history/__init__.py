"""Hand histories: the PHH format (read, write, replay)."""
