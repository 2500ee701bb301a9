"""ppgcheck: rules-as-logic rulings and consistency checks for tournament penalty guides."""
from __future__ import annotations

import importlib

from ppgcheck.version import __version__

__all__ = ["check_policy", "rule", "rule_report", "PpgError", "PolicyError", "ReportError", "UsageError",
           "ConfinementError", "LimitExceeded",
           "Report", "parse_report", "parse_reports", "print_report", "print_reports", "RulingSet", "__version__"]

# The public names are imported on first use: the `ppgcheck` command sets up the
# garbage collector before the heavy imports (ppgcheck/console.py), and ruling one
# report should not pay for the checker.
_HOMES = {"rule": "api", "rule_report": "api", "check_policy": "analysis.check",
          "PpgError": "errors", "PolicyError": "errors", "ReportError": "errors", "UsageError": "errors",
          "ConfinementError": "errors", "LimitExceeded": "errors",
          "Report": "language.report", "parse_report": "language.report", "parse_reports": "language.report",
          "print_report": "language.report", "print_reports": "language.report", "RulingSet": "engine.ruling"}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'ppgcheck' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value
