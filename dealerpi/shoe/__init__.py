"""The card shoe: frame codec (shared with the firmware), host link, deck enrollment."""
