"""The host console: the daemon's local API protocol, role views, the session ledger, and the web process."""
