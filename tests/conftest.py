"""Shared helpers for the test suite."""
from __future__ import annotations

import os
import re

import pytest

from ppgcheck.vocabulary import Form

NAMES = {"P": "Alice", "Q": "Bob", "name": "Alice"}


def fill(form: Form | str, number: int = 2) -> str:
    """A form's text with its slots filled by sample values."""
    text = form.text if isinstance(form, Form) else form
    return re.sub(r"\{(\w+)\}", lambda m: NAMES.get(m.group(1), str(number)), text)


HEADER = "policy: fab\nplayer: Alice\nplayer: Bob\n"


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory):
    """The suite (and the CLI runs it starts) use their own cache folder, not the user's."""
    folder = tmp_path_factory.mktemp("ppgcheck-cache")
    previous = os.environ.get("PPGCHECK_CACHE")
    os.environ["PPGCHECK_CACHE"] = str(folder)
    yield
    if previous is None:
        os.environ.pop("PPGCHECK_CACHE", None)
    else:
        os.environ["PPGCHECK_CACHE"] = previous
