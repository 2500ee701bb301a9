"""Where the bundled grammar and rules live, installed or in a source checkout."""
from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


def _bundled(package: str, folder: str) -> Path:
    try:
        path = Path(str(resources.files(package)))
    except ModuleNotFoundError:
        path = _CHECKOUT / folder
    if not path.is_dir():
        path = _CHECKOUT / folder
    return path


@cache
def grammar_dir() -> Path:
    return _bundled("ppgcheck.grammar", "grammar")


@cache
def rules_dir() -> Path:
    return _bundled("ppgcheck.rules", "rules")


def policy_ids(rules: Path | None = None) -> list[str]:
    """The policy packs bundled under rules/ (every folder but core)."""
    root = rules or rules_dir()
    return sorted(p.name for p in root.iterdir()
                  if p.is_dir() and p.name != "core" and any(p.glob("*.lp")))
