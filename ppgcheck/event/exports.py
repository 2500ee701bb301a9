"""An event's penalties out to, and in from, the files tournament platforms exchange.

Export: CSV or JSON, one row per penalty in force, in the fields platforms' penalty
imports use (player, round, table, infraction, penalty, judge, time, notes, time
extension) and what a store needs to count them again (policy, day, report); or
(`--results`) one row per match outcome the rulings in force gave.
Import: that CSV or JSON, or the JSON Lines log of ppgcheck's earlier `--event-log`.
A bad row is an error naming the file and line, and nothing of the file is imported.
"""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from ppgcheck.errors import UsageError
from ppgcheck.event.records import ImportRow, MatchResultRow, PenaltyRow
from ppgcheck.event.store import digest

PLATFORM_FIELDS = ("player", "round", "table", "infraction", "penalty", "judge", "time", "notes", "time_extension")
FIELDS = PLATFORM_FIELDS + ("policy", "day", "report")
REQUIRED = ("player", "infraction", "penalty", "policy")
NUMBERS = ("round", "table", "day", "time_extension")
LOG_FIELDS = ("policy", "player", "penalty", "infraction")      # a line of the old JSON Lines log
NUMBER_MAX = 999_999        # an imported round, table, day or time extension: far above any event's
TEXTS = ("player", "infraction", "penalty", "policy", "judge", "time", "notes", "report")

# a cell a spreadsheet reads as a formula (OWASP, "CSV Injection"): exported behind a `'`
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# what a report refuses in a name (language/build.py): control characters; and the bidi
# controls and zero-width characters that make a name display other than it reads
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_NAME_CONTROL = re.compile(r"[\x00-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def neutral(value):
    """A cell a spreadsheet shows as text: one starting like a formula gets a leading `'`."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _unneutral(value: str) -> str:
    """An exported cell read back: the `'` neutral() added is taken off again."""
    return value[1:] if value.startswith("'") and value[1:].startswith(FORMULA_START) else value


def export_row(p: PenaltyRow) -> dict:
    return {"player": p.player, "round": p.round, "table": p.table, "infraction": p.infraction,
            "penalty": p.penalty, "judge": p.judge, "time": p.time, "notes": p.notes,
            "time_extension": p.time_extension, "policy": p.policy, "day": p.day, "report": p.source}


def to_csv(penalties: list[PenaltyRow]) -> str:
    return _csv(FIELDS, [export_row(p) for p in penalties])


def to_json(penalties: list[PenaltyRow]) -> str:
    return _json([export_row(p) for p in penalties])


# the outcome of each match a ruling in force gave (a result, the penalty that ends it,
# the step the guide takes next): where it was, what, and the report it came from
RESULT_FIELDS = ("day", "round", "table", "kind", "scope", "result", "winner", "player", "penalty", "step",
                 "section", "report")


def result_row(r: MatchResultRow) -> dict:
    return {"day": r.day, "round": r.round, "table": r.table, "kind": r.kind, "scope": r.scope,
            "result": r.result, "winner": r.winner, "player": r.player, "penalty": r.penalty, "step": r.step,
            "section": r.section, "report": r.source}


def results_to_csv(results: list[MatchResultRow]) -> str:
    return _csv(RESULT_FIELDS, [result_row(r) for r in results])


def results_to_json(results: list[MatchResultRow]) -> str:
    return _json([result_row(r) for r in results])


def _csv(fields: tuple[str, ...], rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else neutral(v) for k, v in row.items()})
    return out.getvalue()


def _json(rows: list[dict]) -> str:
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"


def read_import(path: Path) -> tuple[str, list[ImportRow], str]:
    """(format, rows, digest of the text) of a CSV, JSON or JSON Lines file."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"no such file: `{path}`") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"`{path}` cannot be read: {exc}") from None
    start = text.lstrip()[:1]
    if path.suffix == ".jsonl" or (path.suffix != ".json" and start == "{"):
        fmt, rows = "jsonl", _read_log(path, text)
    elif path.suffix == ".json" or start == "[":
        fmt, rows = "json", _read_json(path, text)
    else:
        fmt, rows = "csv", _read_csv(path, text)
    return fmt, rows, digest(text)


def _row(path: Path, line: int, raw: dict, source_default: str = "") -> ImportRow:
    """An import row from a dict of export fields, each checked."""
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise UsageError(f"{path}:{line}: unknown field `{unknown[0]}`: the fields are "
                         + ", ".join(f"`{f}`" for f in FIELDS))
    values: dict = {}
    for key in TEXTS:
        value = raw.get(key)
        if isinstance(value, str):
            raw[key] = value = _unneutral(value)
            bad = (_NAME_CONTROL if key in ("player", "judge") else _CONTROL).search(value)
            if bad:
                raise UsageError(f"{path}:{line}: `{key}` holds the control character U+{ord(bad.group()):04X} "
                                 "(at its character " f"{bad.start() + 1}): a name or a note may not")
    for key in REQUIRED:
        value = raw.get(key)
        if not isinstance(value, str) or not value.strip():
            raise UsageError(f"{path}:{line}: `{key}` is missing: every row needs "
                             + ", ".join(f"`{k}`" for k in REQUIRED))
        values[key] = value.strip()
    for key in NUMBERS:
        value = raw.get(key)
        if value in (None, ""):
            continue
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
            digits = value.strip().lstrip("0") or "0"
            value = int(digits) if len(digits) <= 7 else NUMBER_MAX + 1     # int() refuses 4,301 digits
        written = str(raw.get(key))
        shown_value = written if len(written) <= 24 else f"{written[:12]}…` ({len(written)} characters) `"
        if not isinstance(value, int) or isinstance(value, bool) or value < (0 if key == "time_extension" else 1):
            lowest = "a whole number, 0 or more" if key == "time_extension" else "a positive whole number"
            raise UsageError(f"{path}:{line}: `{key}` must be {lowest} or empty, not `{shown_value}`")
        if value > NUMBER_MAX:
            raise UsageError(f"{path}:{line}: `{key}` must be at most {NUMBER_MAX}, not `{shown_value}`")
        values[key] = value
    for key in ("judge", "time", "notes"):
        value = raw.get(key)
        if value is not None and not isinstance(value, str):
            raise UsageError(f"{path}:{line}: `{key}` must be text")
        values[key] = value or ""
    return ImportRow(line, values["policy"], values["player"], values["infraction"], values["penalty"],
                     day=values.get("day"), round=values.get("round"), table=values.get("table"),
                     judge=values["judge"], time=values["time"], notes=values["notes"],
                     time_extension=values.get("time_extension", 0),
                     source=str(raw.get("report") or source_default))


def _read_csv(path: Path, text: str) -> list[ImportRow]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = reader.fieldnames or []
    missing = [k for k in REQUIRED if k not in header]
    if missing:
        raise UsageError(f"{path}:1: the header has no column `{missing[0]}`: a penalty CSV needs "
                         + ", ".join(f"`{k}`" for k in REQUIRED))
    rows = []
    try:
        for raw in reader:
            if None in raw:
                raise UsageError(f"{path}:{reader.line_num}: more cells than the header has columns")
            if not any((v or "").strip() for v in raw.values()):
                continue
            rows.append(_row(path, reader.line_num, raw))
    except csv.Error as exc:
        raise UsageError(f"{path}:{reader.line_num}: not CSV: {exc}") from None
    return rows


def _read_json(path: Path, text: str) -> list[ImportRow]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}:{exc.lineno}: not JSON: {exc.msg} (column {exc.colno})") from None
    except ValueError as exc:     # a number of 4,301 digits or more (int()'s limit)
        raise UsageError(f"{path}: not JSON ppgcheck reads: {exc}") from None
    if not isinstance(data, list) or not all(isinstance(row, dict) for row in data):
        raise UsageError(f"{path}:1: expected a JSON list of penalty objects (what `event export --format json` writes)")
    return [_row(path, number, row) for number, row in enumerate(data, 1)]


def _read_log(path: Path, text: str) -> list[ImportRow]:
    """The JSON Lines log `ppgcheck rule --event-log` kept: one issued penalty a line."""
    rows = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{path}:{number}: not a JSON object: {exc.msg} (column {exc.colno})") from None
        except ValueError as exc:     # a number of 4,301 digits or more (int()'s limit)
            raise UsageError(f"{path}:{number}: not JSON ppgcheck reads: {exc}") from None
        if not isinstance(row, dict) or any(not isinstance(row.get(k), str) or not row.get(k) for k in LOG_FIELDS):
            raise UsageError(f"{path}:{number}: an event log line needs the strings "
                             + ", ".join(f"`{k}`" for k in LOG_FIELDS))
        extra = {k: v for k, v in row.items() if k in ("day",)}
        rows.append(_row(path, number, {**{k: row[k] for k in LOG_FIELDS}, **extra},
                         source_default=str(row.get("report") or "")))
    return rows
