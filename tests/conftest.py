"""Shared helpers for the test suite."""
from __future__ import annotations

import re

from ppgcheck.vocabulary import Form

NAMES = {"P": "Alice", "Q": "Bob", "name": "Alice"}


def fill(form: Form | str, number: int = 2) -> str:
    """A form's text with its slots filled by sample values."""
    text = form.text if isinstance(form, Form) else form
    return re.sub(r"\{(\w+)\}", lambda m: NAMES.get(m.group(1), str(number)), text)


HEADER = "policy: fab\nplayer: Alice\nplayer: Bob\n"
