"""The card room: tables joined on an MQTT broker, and the room service (docs/room.md)."""
