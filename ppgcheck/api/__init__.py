"""The library's one face: report text in, RulingSets out, and every other job the CLI
and the judge station do (they import nothing else of the package).  One module a job:

- `ruling.py`: reading reports, ruling them in batches, comparing guides, rendering rulings;
- `event.py`: the event record's operations (submit, void, amend, rule again, export);
- `authoring.py`: golden cases and coverage, the check, the diff, a new pack;
- `catalogs.py`: a policy's ids, the report language's vocabulary, the observation search;
- `cards.py`: a ruling's JSON in `ppgcheck rule`'s words (the station's card), a recorded penalty's.

Ruling is imported with the package; the other jobs when one of their names is first used
(PEP 562), so a cold `ppgcheck rule` pays for none of them."""
from __future__ import annotations

import importlib

from ppgcheck.api.ruling import (Comparison, PpgError, Report, ReportError, RulingSet, UsageError, Vocabulary,
                               __version__, compare_report, comparison_as_json, comparison_as_text,
                               default_job_limits, engine, forks, hand_back_free_memory, job_limits, load_policy,
                               one_report_file, parse_reports, policy_ids, positions_by_policy, prepare,
                               prepare_bytes, print_reports, questions_each, read_reports, readings, relevance,
                               resident_child, resolve_policy, rule, rule_prepared, rule_report, rules_version,
                               ruling_as_json, ruling_as_json_line, ruling_as_text, run_as_job, start_ruling_job)

# the names of the jobs imported on first use, by module
_LAZY = {
    "event": ["open_event", "submit_prepared", "submit_report", "not_recorded_why", "stale_rulings",
              "exported_penalties", "import_penalties", "amend_penalty", "rulings_changed_by_amend",
              "void_penalty", "void_report", "rerule_report", "set_event_settings", "event_setting_choices",
              "MAX_REASON", "MAX_NOTES", "check_judge", "check_change", "penalty_json", "listed_penalties",
              "pending_penalties", "export_penalties", "export_match_results", "check_event_store"],
    "authoring": ["run_golden_cases", "golden_results_as", "measure_coverage", "coverage_below",
                  "coverage_with_results", "check_packs", "check_results_as", "split_by_baseline", "level_rank",
                  "diff_folders", "diff_against_revision", "diff_results_as", "diff_exit_code", "new_pack"],
    "catalogs": ["report_vocabulary", "policy_reference", "modifiers_read", "vocabulary_catalog",
                 "observation_search"],
    "cards": ["player_ruling_words", "match_lines", "judge_call_words", "question_words", "who_words",
              "recorded_name", "recorded_line"],
}
_HOMES = {name: module for module, names in _LAZY.items() for name in names}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'ppgcheck.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"ppgcheck.api.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = ["Comparison", "PpgError", "Report", "ReportError", "RulingSet", "UsageError", "Vocabulary",
           "__version__", "compare_report", "comparison_as_json", "comparison_as_text", "default_job_limits",
           "engine", "forks", "hand_back_free_memory", "job_limits", "load_policy", "one_report_file",
           "parse_reports", "policy_ids", "positions_by_policy", "prepare", "prepare_bytes", "print_reports",
           "questions_each", "read_reports", "readings", "relevance", "resident_child", "resolve_policy", "rule",
           "rule_prepared", "rule_report", "rules_version", "ruling_as_json", "ruling_as_json_line",
           "ruling_as_text", "run_as_job", "start_ruling_job", *_HOMES]
