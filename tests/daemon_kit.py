"""A three-seat table config for the daemon's tests (fake devices; paths relative to the config file)."""

CONFIG = """
devices = "fake"
journal = "state/journal.jsonl"
decks = "decks"

[table]
game = "nlhe"
rules = "home"
seats = 3
blinds = [1, 3]

[input]
debounce_ms = 30

[[seats]]
seat = 1
buttons = { fold = "GPIO4", call = "GPIO5", bet = "GPIO6" }
leds = { action = "GPIO7", dealer = "GPIO8" }
display = { bus = 1, address = 0x3C }

[[seats]]
seat = 2
buttons = { fold = "GPIO9", call = "GPIO10", bet = "GPIO11" }
leds = { action = "GPIO12", dealer = "GPIO13" }
display = { bus = 1, address = 0x3D }

[[seats]]
seat = 3
buttons = { fold = "GPIO14", call = "GPIO15", bet = "GPIO16" }
leds = { action = "GPIO17", dealer = "GPIO18" }
display = { bus = 3, address = 0x3C }

[dealer]
buttons = { start = "GPIO19", exposed = "GPIO20", misdeal = "GPIO21", undo = "GPIO22", confirm = "GPIO23" }
display = { bus = 3, address = 0x3D }
"""
