"""The event record: the penalties issued at one event."""
