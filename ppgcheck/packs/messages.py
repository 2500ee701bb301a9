"""clingo's own messages, kept for the error a failed grounding raises (its RuntimeError
says only that it failed).  Light on purpose: the engine's hot path imports it, and a
ruling from the cache imports neither clingo.ast nor the program reader."""
from __future__ import annotations

from collections.abc import Callable

import clingo


def error_logger(messages: list[str]) -> Callable[[clingo.MessageCode, str], None]:
    """A clingo logger keeping its errors in `messages`, each on one line."""
    def log(code: clingo.MessageCode, message: str) -> None:
        if code is clingo.MessageCode.RuntimeError:
            messages.append(" ".join(message.split()))
    return log
