"""The table daemon's process (`dealerpi run`): the input pipeline, devices' wiring, the journal's writer."""
