"""The evening's money: the session ledger, home money and the game form, shared by the daemon's API and the console."""
