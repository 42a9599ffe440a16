"""The streamed table (issue 21): ``dealerpi broadcast``, its own process and unit (docs/broadcast.md)."""
