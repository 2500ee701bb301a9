"""An event log: the penalties issued at one event, so a judge need not retype them.

`ppgcheck rule REPORT --event-log FILE` reads the penalties the log holds for the
report's persons (by name, under the report's policy) as the report's history,
rules it, and appends every penalty the ruling issues.  The log is JSON Lines,
one issued penalty a line, so a name is never re-parsed as report text:

    {"policy": "fab", "player": "Alice", "penalty": "warning",
     "infraction": "hidden-card-error", "day": 2, "report": "r5-t12.txt"}

Python only moves recorded penalties into the history the rules count; which of
them make a repeat is decided by each pack, as for a typed `history:` block.
Judges sharing one log are serialised by an advisory lock on it (flock).
"""
from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterator

from ppgcheck.errors import UsageError
from ppgcheck.language.report import MAX_HISTORY_REPEATS, HistoryEntry, Report
from ppgcheck.engine.ruling import RulingSet

FIELDS = ("policy", "player", "penalty", "infraction")


@dataclass
class LoggedPenalty:
    policy: str
    player: str
    penalty: str
    infraction: str
    day: int | None
    report: str
    line: int           # in the log, for errors


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the log while it is read, a report ruled and its
    penalties appended: two judges' reports are then counted one after the other."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+", encoding="utf-8") as handle:
        try:
            import fcntl
        except ImportError:         # no advisory locks on this platform
            yield
            return
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def read(path: Path) -> list[LoggedPenalty]:
    """Every penalty in the log (none when it does not exist yet)."""
    if not path.exists():
        return []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"event log `{path}` cannot be read: {exc}") from None
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{path}:{number}: not a JSON object: {exc.msg} (column {exc.colno})") from None
        if not isinstance(row, dict) or any(not isinstance(row.get(k), str) or not row.get(k) for k in FIELDS):
            raise UsageError(f"{path}:{number}: an event log line needs the strings "
                             + ", ".join(f"`{k}`" for k in FIELDS))
        day = row.get("day")
        if day is not None and (not isinstance(day, int) or isinstance(day, bool) or day < 1):
            raise UsageError(f"{path}:{number}: `day` must be a positive whole number or absent")
        out.append(LoggedPenalty(row["policy"], row["player"], row["penalty"], row["infraction"], day,
                                 str(row.get("report", "")), number))
    return out


def as_row(row: LoggedPenalty) -> dict:
    """The penalty as its log line holds it."""
    return {k: v for k, v in asdict(row).items() if k != "line"}


def as_history(row: LoggedPenalty) -> HistoryEntry:
    return HistoryEntry(row.player, row.penalty, row.infraction, row.day)


def history_for(report: Report, policy: str, logged: list[LoggedPenalty], path: Path,
                penalties: list[str], infractions: list[str]) -> tuple[list[HistoryEntry], int]:
    """The logged penalties of the report's persons under its policy, as history
    entries, and how many identical ones were left out beyond what a report can
    count (MAX_HISTORY_REPEATS).  An id the policy does not know is an error."""
    names = {name for name, _ in report.persons}
    entries: list[HistoryEntry] = []
    seen: Counter[tuple] = Counter()
    left_out = 0
    for row in logged:
        if row.policy != policy or row.player not in names:
            continue
        for value, table, what in ((row.penalty, penalties, "penalty"), (row.infraction, infractions, "infraction")):
            if value not in table:
                raise UsageError(f"{path}:{row.line}: unknown {what} `{value}` for policy `{policy}`")
        key = (row.player, row.penalty, row.infraction, row.day)
        seen[key] += 1
        if seen[key] > MAX_HISTORY_REPEATS:
            left_out += 1
            continue
        entries.append(as_history(row))
    return entries, left_out


def issued(rs: RulingSet, report: Report) -> list[dict]:
    """A log line for every penalty the ruling issues (an absorbed one is not issued)."""
    return [{"policy": rs.policy, "player": r.player, "penalty": r.penalty, "infraction": r.infraction,
             "day": report.day, "report": report.name}
            for r in rs.rulings if r.issued and r.penalty not in ("none", "undetermined")]


def append(path: Path, rows: list[dict]) -> None:
    if not rows:
        return
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
        handle.flush()
        os.fsync(handle.fileno())
