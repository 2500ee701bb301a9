"""ppgcheck: rules-as-logic rulings and consistency checks for tournament penalty guides."""
from .api import rule, rule_report
from .errors import PolicyError, PpgError, ReportError, UsageError
from .report import Report, parse_report, parse_reports, print_report, print_reports
from .ruling import RulingSet

__all__ = ["check_policy", "rule", "rule_report", "PpgError", "PolicyError", "ReportError", "UsageError",
           "Report", "parse_report", "parse_reports", "print_report", "print_reports", "RulingSet"]
__version__ = "0.1.0"


def __getattr__(name: str):
    # the checker is imported on first use: ruling one report should not pay for it
    if name == "check_policy":
        from .check import check_policy
        return check_policy
    raise AttributeError(f"module 'ppgcheck' has no attribute {name!r}")
