"""One root error; each stage's errors say where and what, never a traceback."""
from __future__ import annotations

import re

from dataclasses import dataclass, field, replace


class PpgError(Exception):
    """Root of every error ppgcheck reports to a user (exit code 2)."""

    exit_code = 2


@dataclass
class ReportError(PpgError):
    """Bad report input: where it is, the line with a caret, what was expected."""

    message: str
    file: str
    line: int
    column: int
    line_text: str = ""
    expected: list[str] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    suggesting: str = "closest valid forms"     # what the suggestions are

    def __post_init__(self) -> None:
        super().__init__(self.render())

    def render(self) -> str:
        out = [f"{self.file}:{self.line}:{self.column}: error: {self.message}"]
        if self.line_text:
            gutter = f"{self.line} | "
            out.append(gutter + self.line_text)
            out.append(" " * (len(gutter) + max(self.column - 1, 0)) + "^")
        if self.expected:
            out.append("expected: " + ", ".join(self.expected))
        if self.suggestions:
            out.append(f"{self.suggesting}:")
            out.extend(f"  {s}" for s in self.suggestions)
        return "\n".join(out)

    def __str__(self) -> str:
        return self.render()


@dataclass
class ResubmittedReport(ReportError):
    """A report from a source the event holds with other content: replacing the recorded
    one is the judge's choice (the CLI's --amend, the API's `"amend": true`, the
    station's button), each front end saying so in its own words (`remedied`)."""

    recorded: int = 0       # the report in force from the same source
    held: str = ""          # what the event holds, without the way to replace it

    def remedied(self, remedy: str) -> "ResubmittedReport":
        """The same refusal, with another front end's way to replace the recorded report."""
        return replace(self, message=f"{self.held}: {remedy}")


class PolicyError(PpgError):
    """A policy pack that does not load, ground or solve to exactly one model."""


class ProgramError(PolicyError):
    """A program that does not parse, or a construct an analysis cannot read, at file:line."""

    def __init__(self, message: str, file: str = "", line: int = 0) -> None:
        self.file, self.line, self.message = file, line, message
        super().__init__(f"{file}:{line}: {message}" if file else message)

    @classmethod
    def unparsed(cls, path, messages: list[str]) -> "ProgramError":
        """A file clingo could not parse, at the line its messages name."""
        # clingo says `file:line:column: error: what`: the file and line lead the message
        said = [_CLINGO_MESSAGE.match(m) for m in messages]
        line = next((int(m.group(2)) for m in said if m), 0)
        detail = "; ".join(m.group(3) if m else text for m, text in zip(said, messages)) or "unreadable"
        return cls(f"policy file does not parse: {detail}", str(path), line)


_CLINGO_MESSAGE = re.compile(r"(.*?):(\d+):\d+(?:-\d+(?::\d+)?)?: (?:error|info|warning): (.*)")


class ConfinementError(PolicyError):
    """A rules pack reaching outside its folder, or holding a statement ppgcheck refuses
    (ppgcheck/packs/confine.py)."""


class LimitExceeded(PolicyError):
    """Grounding or solving a pack went past its time or memory limit (ppgcheck/packs/isolation.py)."""


class UsageError(PpgError):
    """A command-line request that cannot be carried out (unknown policy, missing file)."""


class StoreError(PpgError):
    """An event store that cannot be opened, read or written (damaged, foreign, locked, full,
    read-only), or a request it refuses (void a void penalty); nothing was written."""


class NotRecorded(StoreError):
    """A report or penalty number the event store does not hold."""


def error_dict(exc: PpgError) -> dict:
    """An error as JSON, for a program to act on (`--format json`): a report that cannot be
    read says where, what was expected and the whole lines suggested instead."""
    if isinstance(exc, ReportError) and not isinstance(exc, ResubmittedReport):
        return {"kind": "parse", "line": exc.line, "column": exc.column, "message": exc.message,
                "expected": list(exc.expected), "suggestions": list(exc.suggestions)}
    kinds = ((ResubmittedReport, "resubmitted"), (UsageError, "usage"), (StoreError, "store"), (PolicyError, "pack"))
    kind = next((name for cls, name in kinds if isinstance(exc, cls)), "error")
    message = exc.message if isinstance(exc, ReportError) else str(exc)
    return {"kind": kind, "message": message}
