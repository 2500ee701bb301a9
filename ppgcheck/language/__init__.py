"""The report language: text <-> Report <-> input facts; nothing here knows a policy."""
