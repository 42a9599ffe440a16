"""What every web process shares (console, room, broadcast): access, pairing, tokens, static files, the MQTT client."""
