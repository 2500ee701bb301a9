"""ppgcheck: rules-as-logic rulings and consistency checks for tournament penalty guides."""
from .api import rule, rule_report
from .check import check_policy
from .errors import PolicyError, PpgError, ReportError, UsageError
from .report import Report, parse_report, parse_reports, print_report, print_reports
from .ruling import RulingSet

__all__ = ["rule", "rule_report", "PpgError", "PolicyError", "ReportError", "UsageError",
           "Report", "parse_report", "parse_reports", "print_report", "print_reports", "RulingSet"]
__version__ = "0.1.0"
