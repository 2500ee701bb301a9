"""The event's own settings (issue 39): its policy, REL, day, round and round kind, each
optional, set once by the Head Judge (per day, per round) as the policy is.  A report
builder prefills a new report's header lines from them; the store never adds them to a
report: the report's text is what is recorded and ruled.  Mixed into EventStore (store.py),
whose transactions and audit these use; a change is an audit row (action `settings`)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from ppgcheck.errors import UsageError
from ppgcheck.language.vocabulary import value_text, vocabulary
from ppgcheck.resources import policy_ids

FIELDS = ("policy", "rel", "day", "round", "round_kind")


@dataclass(frozen=True)
class EventSettings:
    policy: str | None = None
    rel: str | None = None
    day: int | None = None
    round: int | None = None
    round_kind: str | None = None

    def as_dict(self) -> dict:
        return asdict(self)

    def header_lines(self) -> list[str]:
        """The report's header lines these settings give (`rel: competitive`, `round: 5, swiss`)."""
        lines = [f"policy: {self.policy}"] if self.policy else []
        if self.rel:
            lines.append(f"rel: {value_text(self.rel)}")
        if self.round is not None:
            lines.append(f"round: {self.round}" + (f", {value_text(self.round_kind)}" if self.round_kind else ""))
        if self.day is not None:
            lines.append(f"day: {self.day}")
        return lines


def check_settings(settings: EventSettings, rules: Path | None = None) -> None:
    """Refuse a value the report language would refuse in a report of the settings' policy
    (its vocabulary's REL values, round kinds and header ranges; core's without a policy)."""
    known = policy_ids(rules)
    if settings.policy is not None and settings.policy not in known:
        raise UsageError(f"unknown policy `{settings.policy}`: known policies are "
                         + ", ".join(f"`{p}`" for p in known))
    vocab = vocabulary(settings.policy, rules)
    under = f"policy `{settings.policy}`" if settings.policy else "the report language"
    rels = vocab.values.get("rel", [])
    if settings.rel is not None and settings.rel not in rels:
        raise UsageError(f"unknown REL `{settings.rel}` under {under}: one of " + ", ".join(f"`{r}`" for r in rels))
    # (`draft` is a header of its own, `round: draft`, not the kind of a numbered round)
    kinds = [k for k in vocab.values.get("round_kind", []) if k != "draft"]
    if settings.round_kind is not None:
        if settings.round_kind not in kinds:
            raise UsageError(f"unknown round kind `{settings.round_kind}` under {under}: one of "
                             + ", ".join(f"`{k}`" for k in kinds))
        if settings.round is None:
            raise UsageError("a round's kind goes with its number (`round: 5, swiss`): give the round too")
    for key in ("day", "round"):
        value = getattr(settings, key)
        low, high = vocab.header_ranges.get(key, (1, 1))
        if value is not None and not low <= value <= high:
            raise UsageError(f"{key} {value} is out of range: a {key} is a number from {low} to {high}")


def setting_choices(policy: str | None = None, rules: Path | None = None) -> dict:
    """What a settings form offers: the policies, and the policy's (core's) REL values, round
    kinds and day and round ranges."""
    vocab = vocabulary(policy, rules)
    return {"policies": policy_ids(rules), "rel": vocab.values.get("rel", []),
            "round_kind": [k for k in vocab.values.get("round_kind", []) if k != "draft"],
            "day": vocab.header_ranges.get("day", (1, 1)), "round": vocab.header_ranges.get("round", (1, 1))}


class SettingsRecord:
    """The event's settings, read and changed (EventStore's: self._read, _write, _audit)."""

    def settings(self) -> EventSettings:
        with self._read() as db:
            return self._settings_of(db)

    @staticmethod
    def _settings_of(db) -> EventSettings:
        row = db.execute(f"SELECT {', '.join(FIELDS)} FROM event").fetchone()
        return EventSettings(**{key: row[key] for key in FIELDS})

    def set_settings(self, changes: Mapping[str, object], judge: str,
                     rules: Path | None = None) -> tuple[EventSettings, EventSettings]:
        """Change the settings named in `changes` (None: unset), checked as a whole (a REL is
        one of the policy's), in one transaction with its audit row.  Returns (before, after);
        the same settings again write nothing."""
        unknown = sorted(set(changes) - set(FIELDS))
        if unknown:
            raise UsageError(f"unknown event settings {', '.join(unknown)}: the settings are {', '.join(FIELDS)}")
        # checked first outside the write lock (a pack's vocabulary may be loaded: judges'
        # rulings are not kept waiting), then again on what the transaction reads
        check_settings(_changed(self.settings(), changes), rules)
        with self._write() as db:
            before = self._settings_of(db)
            after = _changed(before, changes)
            check_settings(after, rules)
            if after == before:
                return before, after
            db.execute(f"UPDATE event SET {', '.join(f'{key} = ?' for key in FIELDS)}",
                       [getattr(after, key) for key in FIELDS])
            self._audit(db, judge, "settings", detail={
                key: [getattr(before, key), getattr(after, key)] for key in FIELDS
                if getattr(before, key) != getattr(after, key)})
            return before, after


def _changed(settings: EventSettings, changes: Mapping[str, object]) -> EventSettings:
    after = replace(settings, **changes)
    if after.round is None and "round_kind" not in changes:
        after = replace(after, round_kind=None)     # (a kind goes with its round)
    return after
