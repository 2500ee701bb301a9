"""Where the bundled grammar and rules live, installed or in a source checkout.

An installed wheel carries them inside the package (`ppgcheck/grammar`,
`ppgcheck/rules`, see pyproject.toml); a source checkout has them at the top level.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _bundled(folder: str) -> Path:
    installed = _PACKAGE / folder
    return installed if installed.is_dir() else _PACKAGE.parent / folder


@cache
def grammar_dir() -> Path:
    return _bundled("grammar")


@cache
def rules_dir() -> Path:
    return _bundled("rules")


@cache
def examples_dir() -> Path:
    """The bundled example reports (`ppgcheck example`)."""
    return _bundled("examples")


def core_dir(rules: Path | None = None) -> Path:
    """The core a rules folder's packs are read over: its own `core/`, else the bundled one
    (a folder of packs needs no copy of the core)."""
    own = (rules or rules_dir()) / "core"
    return own if (own / "penalties.lp").is_file() else rules_dir() / "core"


def pack_dir(policy: str, rules: Path | None = None) -> Path | None:
    """A policy's pack folder under a rules folder, None when there is no such pack."""
    if policy not in policy_ids(rules):
        return None
    return (rules or rules_dir()) / policy


def policy_ids(rules: Path | None = None) -> list[str]:
    """The policy packs under a rules folder (every folder but core)."""
    return list(_policy_ids(rules or rules_dir()))


@cache
def _policy_ids(root: Path) -> tuple[str, ...]:
    return tuple(sorted(p.name for p in root.iterdir()
                        if p.is_dir() and p.name != "core" and any(p.glob("*.lp"))))
