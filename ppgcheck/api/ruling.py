"""Ruling reports: text read into Reports, their policies checked, ruled in batches (each a
bounded job), compared under every guide, and the rulings rendered as text or JSON.  The
`rule` command's whole path: it imports nothing it does not use."""
from __future__ import annotations

import io
import os
import stat
from pathlib import Path

from ppgcheck.engine.batches import (positions_by_policy, prepare, questions_each, relevance, resolve_policy, rule,
                                     rule_prepared, rules_version, run_as_job, start_ruling_job)
from ppgcheck.engine.compare import Comparison, compare_report
from ppgcheck.engine.policy import engine
from ppgcheck.engine.render import (comparison_dict, render_comparison_text, render_jsonl, render_text,
                                    ruling_dict)
from ppgcheck.engine.ruling import RulingSet
from ppgcheck.errors import PpgError, ReportError, UsageError
from ppgcheck.language.report import (MAX_REPORT_BYTES, MAX_REPORT_LINES, Report, parse_reports, print_reports,
                                      read_reports, separator_line, single_policy)
from ppgcheck.language.vocabulary import Vocabulary
from ppgcheck.packs.isolation import DEFAULT_LIMITS, can_fork, limits_set, return_free_memory
from ppgcheck.resources import policy_ids
from ppgcheck.version import __version__


def rule_report(text: str, policy: str | None = None, source: str = "<report>",
                questions: bool = True, tolerant: bool = False) -> list[RulingSet]:
    """Parse and rule every report of a text.  Bad input raises ReportError before
    anything is ruled, so there is never a partial result.  `tolerant`: free sentences are
    read by the tolerant reader (each observation's `reading` says how)."""
    return rule_prepared(prepare(parse_reports(text, source, policy, tolerant=tolerant), policy),
                         questions=questions)


def readings(report: Report) -> list[dict]:
    """How the tolerant reader read each observation of a report that is not a canonical form
    (its line, the sentence written, the canonical sentence ruled on, the words not read)."""
    return [{"line": obs.line, "written": obs.reading.written, "read_as": obs.reading.read_as,
             "not_read": list(obs.reading.not_read)} for obs in report.observations if obs.reading is not None]


def load_policy(policy: str, rules: Path | None = None) -> None:
    """Prepare a policy's pack (a pack of `rules`, else the bundled one): an unknown policy
    is a usage error before anything runs."""
    engine(policy, rules)


# --- reading report files ------------------------------------------------------------------

def one_report_file(path: Path, policy: str | None, rules: Path | None) -> tuple[bytes, str] | None:
    """A regular file's bytes and its policy when it holds one report (no separator line)
    within the reading limits and names a known policy (`policy`, else its `policy:` line):
    `read_reports` reads it the same from memory.  None: read it report by report."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as stream:
            raw = stream.read(MAX_REPORT_BYTES + 1)
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    lines = raw.split(b"\n")
    if len(raw) > MAX_REPORT_BYTES or len(lines) > MAX_REPORT_LINES or any(map(separator_line, lines)):
        return None
    policy_id = policy or single_policy(text)
    if policy_id is None or policy_id not in policy_ids(rules):
        return None
    return raw, policy_id


def prepare_bytes(raw: bytes, name: str, policy: str | None, rules: Path | None,
                  tolerant: bool = False) -> list[tuple[Report, str]]:
    """The reports of a file's bytes with their policies, their ids checked; the first bad
    report raises its error."""
    prepared: list[tuple[Report, str]] = []
    for report in read_reports(io.BytesIO(raw), name, policy, rules, tolerant):
        if isinstance(report, ReportError):
            raise report
        prepared.extend(prepare([report], policy, rules))
    return prepared


# --- the rulings in words ------------------------------------------------------------------

def ruling_as_text(rs: RulingSet, explain: bool = False) -> str:
    """A ruling set as a judge reads it (`explain`: each step of the derivation, cited)."""
    return render_text(rs, explain=explain)


def ruling_as_json(rs: RulingSet) -> dict:
    """A ruling set's JSON object (docs/ruling-json.md)."""
    return ruling_dict(rs)


def ruling_as_json_line(rs: RulingSet) -> str:
    """A ruling set's JSON on one line (`--format jsonl`)."""
    return render_jsonl(rs)


def comparison_as_text(comparison: Comparison) -> str:
    """One report under every guide, side by side, as a judge reads it."""
    return render_comparison_text(comparison)


def comparison_as_json(comparison: Comparison) -> dict:
    """One report under every guide as a JSON object."""
    return comparison_dict(comparison)


# --- the jobs a ruling runs in -------------------------------------------------------------

def default_job_limits() -> tuple[float, int]:
    """The wall-clock seconds and the megabytes each grounding-and-solving job may use, unless told."""
    return DEFAULT_LIMITS.seconds, DEFAULT_LIMITS.megabytes


def job_limits(seconds: float | None, megabytes: int | None, exit_on_overrun: bool = False):
    """A context in which every job a command runs is bounded so (packs/isolation.py);
    `exit_on_overrun`: a job past them ends the process with its message."""
    return limits_set(seconds, megabytes, exit_on_overrun=exit_on_overrun)


def hand_back_free_memory() -> None:
    """Give the heap freed by ruling back to the system, before reading on."""
    return_free_memory()


def forks() -> bool:
    """Whether rulings run in forked children here (else in this process)."""
    return can_fork()


def resident_child():
    """A resident child that rules one batch after another (packs/resident.py): the station's."""
    # (only the station keeps one: importing it here saves `rule` start-up time)
    from ppgcheck.packs.resident import Resident
    return Resident()


__all__ = ["Comparison", "PpgError", "Report", "ReportError", "RulingSet", "UsageError", "Vocabulary", "__version__",
           "comparison_as_json", "comparison_as_text", "compare_report", "default_job_limits", "engine",
           "forks", "hand_back_free_memory", "job_limits", "load_policy", "one_report_file", "parse_reports",
           "policy_ids", "positions_by_policy", "prepare", "prepare_bytes", "print_reports", "questions_each",
           "read_reports", "readings", "relevance", "resident_child", "resolve_policy", "rule", "rule_prepared",
           "rule_report", "rules_version", "ruling_as_json", "ruling_as_json_line", "ruling_as_text",
           "run_as_job", "start_ruling_job"]
