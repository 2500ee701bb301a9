"""What a parsed incident report holds: plain dataclasses, compared by content."""
from __future__ import annotations

from dataclasses import dataclass, field

from ppgcheck.errors import ReportError
from ppgcheck.language.vocabulary import Vocabulary, vocabulary


@dataclass
class Modifier:
    kind: str
    person: str | None = None
    number: int | None = None
    line: int = field(default=0, compare=False)      # where the report states it (0: built, not parsed)
    column: int = field(default=0, compare=False)


@dataclass
class Reading:
    """How the tolerant reader read a sentence that is not a canonical form: the canonical
    sentence it ruled on and the words it did not read (shown with every ruling)."""
    written: str                  # the sentence as the judge wrote it
    read_as: str                  # the canonical sentence it was read as
    not_read: list[str] = field(default_factory=list)     # the runs of words it did not read


@dataclass
class Observation:
    subject: str
    kind: str
    other: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    modifiers: list[Modifier] = field(default_factory=list)
    line: int = field(default=0, compare=False)
    # None: written as a canonical form; else how the tolerant reader read it
    reading: Reading | None = field(default=None, compare=False)


@dataclass
class HistoryEntry:
    person: str
    penalty: str
    infraction: str
    day: int | None = None
    line: int = field(default=0, compare=False)
    penalty_column: int = field(default=0, compare=False)
    infraction_column: int = field(default=0, compare=False)


@dataclass
class MatchState:
    """A statement of the state of the match (`time was called during Alice's turn`)."""
    kind: str
    persons: list[str] = field(default_factory=list)     # the {P} and {Q} of its form, in order
    line: int = field(default=0, compare=False)


@dataclass
class Report:
    policy: str | None = None
    rel: str | None = None
    tier: int | None = None
    event_kind: str | None = None
    game_kind: str | None = None
    round: int | None = None
    round_kind: str | None = None
    best_of: int | None = None
    day: int | None = None
    table: int | None = None        # for the event record only: no rule reads it
    when: tuple[str, int | None] | None = None
    persons: list[tuple[str, str]] = field(default_factory=list)
    ruling_minutes: int | None = None
    judge_call: tuple[str, str] | None = None
    observations: list[Observation] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    states: list[MatchState] = field(default_factory=list)
    # `score: Alice 1, Bob 0` -> {"score": [("Alice", 1), ("Bob", 0)]}
    tallies: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    source: str = field(default="<report>", compare=False)
    line: int = field(default=1, compare=False)
    lines: list[str] = field(default_factory=list, compare=False, repr=False)
    positions: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)
    one_of_several: bool = field(default=False, compare=False, repr=False)
    # at an event, for a report without `day:`: the latest day the event has recorded (the
    # event store sets it; no report line writes it)
    event_day: int | None = field(default=None, compare=False, repr=False)
    # the language it was written in (the core's and its pack's forms); None: its policy's
    vocab: Vocabulary | None = field(default=None, compare=False, repr=False)
    line_offset: int = field(default=0, compare=False, repr=False)    # lines of the file before `lines`

    @property
    def name(self) -> str:
        """The file, and the report's first line when the file holds several reports."""
        return f"{self.source}:{self.line}" if self.one_of_several else self.source

    @property
    def vocabulary(self) -> Vocabulary:
        """The forms that write this report: those it was parsed with, else its policy's
        bundled pack's (the core's alone for no or an unknown policy)."""
        return self.vocab or vocabulary(self.policy)

    def error(self, message: str, where: str | tuple[int, int], **extra) -> ReportError:
        """An error located at a recorded position of this report."""
        line, column = self.positions.get(where, (self.line, 1)) if isinstance(where, str) else where
        return ReportError(message, self.source, line, column, self.line_text(line), **extra)

    def line_text(self, line: int) -> str:
        """The text of a line of the file (a report read alone holds its own lines only)."""
        n = line - self.line_offset
        return self.lines[n - 1] if 0 < n <= len(self.lines) else ""
