"""The package's version (pyproject.toml reads it; the event store records it with every ruling)."""
__version__ = "0.5.0"
