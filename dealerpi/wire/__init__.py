"""What crosses a process boundary (issue 22), shared by both ends: ``limits`` (size and depth before
parsing), ``inputs`` (the keys a sender may write), ``api`` (the daemon's local API: typed, versioned
requests and answers), ``views`` (each role's view the daemon sends the console), ``mqtt`` (the broker's
payloads between a table and the room), ``stream`` (the broadcast role's stream and the delayed feed's
payloads), ``pages`` and ``room_pages`` (what the browser pages send: the console's WebSocket operations,
the room's and the broadcast's POST bodies). docs/architecture.md lists every message and its record."""

from dealerpi.wire.inputs import SENT_KEYS, ShoeRead, WireError, sent_input, shoe_read
from dealerpi.wire.limits import MAX_COMMAND, MAX_DEPTH, MAX_REQUEST, LimitError, check_json, read_json, read_toml

__all__ = ["MAX_COMMAND", "MAX_DEPTH", "MAX_REQUEST", "SENT_KEYS", "LimitError", "ShoeRead", "WireError",
           "check_json", "read_json", "read_toml", "sent_input", "shoe_read"]
