"""What the event store hands out and takes in: penalties, audit entries, a submission's
outcome, a judge's choice, an imported row (plain data; ppgcheck/event/store.py fills them)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ppgcheck.engine.ruling import Outcome


@dataclass
class PenaltyRow:
    id: int
    player: str
    policy: str
    infraction: str
    penalty: str | None
    permitted: list[str]
    chosen_by: str
    status: str
    day: int | None
    round: int | None
    table: int | None
    judge: str
    time: str
    notes: str
    time_extension: int
    source: str
    report_id: int | None
    import_id: int | None
    replaces: int | None


@dataclass
class MatchResultRow:
    """The outcome of a match a report's ruling gave (engine/ruling.py: Outcome), as recorded."""
    id: int
    report_id: int
    kind: str                   # step | result | penalty | allowed
    scope: str | None
    result: str | None          # win | draw
    winner: str | None
    player: str | None
    penalty: str | None
    step: str | None
    section: str
    day: int | None
    round: int | None
    table: int | None
    source: str
    status: str                 # its report's: in-force | superseded | void

    def describe(self) -> str:
        """`Alice wins the match (TRP 3)`, `next: ...`, `Bob: match-loss`: the ruling's words."""
        what = Outcome(self.kind, self.section, self.step, self.scope, self.result, self.winner, self.player,
                       self.penalty).describe()
        if self.kind in ("step", "allowed"):
            what = f"{'next' if self.kind == 'step' else 'allowed'}: {what}"
        return f"{what} ({self.section})"

    def as_dict(self) -> dict:
        return {"id": self.id, "report_id": self.report_id, "kind": self.kind, "step": self.step,
                "result": self.result, "scope": self.scope, "winner": self.winner, "player": self.player,
                "penalty": self.penalty, "section": self.section, "day": self.day, "round": self.round,
                "table": self.table, "source": self.source, "status": self.status}


@dataclass
class AuditRow:
    id: int
    at: str
    judge: str
    action: str
    report_id: int | None
    penalty_id: int | None
    import_id: int | None
    reason: str
    detail: dict


@dataclass
class Submission:
    """What submitting one report did: the stored ruling and what was recorded."""

    outcome: str                # recorded | already-recorded | amended
    store: str
    report_id: int
    source: str
    ruling: dict                # the ruling's JSON (render.ruling_dict), as stored
    text: str                   # render_text, as stored
    explained: str              # render_text(explain=True), as stored
    exit_code: int
    recorded: list[PenaltyRow]  # this report's penalties, as they stand now
    counted: list[PenaltyRow]   # the earlier penalties its ruling counted
    superseded: int | None = None
    judge: str = ""
    at: str = ""
    match_result: MatchResultRow | None = None    # the match's outcome the ruling gave, if any
    status: str = "in-force"    # the report's: in-force, superseded (by an amended one) or void
    # of its penalties, those the guide does not record: penalty -> (why, section); kept in
    # the event's log, given to no later ruling as history
    not_recorded: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def upgrades(self) -> list[dict]:
        """The repeat upgrades the counted penalties caused, from the stored ruling."""
        return [{"player": r["player"], "infraction": r["infraction"], "to": a["to"],
                 "reason": a["reason"], "section": a["section"]}
                for r in self.ruling.get("rulings", []) for a in r.get("adjustments", [])
                if a.get("kind") == "repeat"]

    def as_dict(self) -> dict:
        return {"store": self.store, "outcome": self.outcome, "report_id": self.report_id,
                "status": self.status, "judge": self.judge, "at": self.at, "superseded": self.superseded,
                "recorded": [penalty_dict(p) for p in self.recorded],
                "counted": [penalty_dict(p) for p in self.counted], "upgrades": self.upgrades,
                "match_result": self.match_result.as_dict() if self.match_result else None,
                "not_recorded": [{"penalty": pen, "text": why, "section": sec}
                                 for pen, (why, sec) in self.not_recorded.items()]}


def penalty_dict(p: PenaltyRow) -> dict:
    return {"id": p.id, "player": p.player, "policy": p.policy, "infraction": p.infraction,
            "penalty": p.penalty, "permitted": p.permitted, "chosen_by": p.chosen_by, "status": p.status,
            "day": p.day, "round": p.round, "table": p.table, "judge": p.judge, "time": p.time,
            "notes": p.notes, "time_extension": p.time_extension, "source": p.source, "report_id": p.report_id}


@dataclass
class Choice:
    """A judge's choice among the penalties the guide permits: from the report's
    `judge call:` line or given with the submission (by infraction id)."""
    penalty: str
    origin: str                 # for errors: "judge call" or "--choose"
    error: Callable[[str], Exception] | None = None


@dataclass
class ImportRow:
    """One penalty of an import file (exports.py reads CSV, JSON and the old JSONL log)."""
    line: int
    policy: str
    player: str
    infraction: str
    penalty: str
    day: int | None = None
    round: int | None = None
    table: int | None = None
    judge: str = ""
    time: str = ""
    notes: str = ""
    time_extension: int = 0
    source: str = ""
