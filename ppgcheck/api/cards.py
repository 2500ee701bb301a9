"""A ruling's JSON (fresh, or as an event stored it) put into the words `ppgcheck rule`
prints: the text renderer's own functions phrase the station's ruling card, so the page
and the command say the same thing."""
from __future__ import annotations

from ppgcheck.engine.render import WHO, judge_call_text, note_text, option_text, outcome_option_text, outcome_text, \
    question_text
from ppgcheck.engine.ruling import Cited, Outcome, OutcomeOption, PlayerRuling, Question
from ppgcheck.engine.words import penalty_line, recorded_line, recorded_name

__all__ = ["player_ruling_words", "match_lines", "judge_call_words", "question_words", "who_words", "recorded_line",
           "recorded_name"]


def player_ruling_words(r: dict) -> dict:
    """One player ruling of a ruling's JSON in words: its penalty line, the penalties the guide
    permits, its options and its adjustments (`upgrade → game-loss: ... (section)`)."""
    pr = PlayerRuling.from_dict(r)
    return {"penalty_line": penalty_line(pr), "permitted": pr.permitted,
            "options": [option_text(o) for o in pr.options],
            "adjustments": [f"{a.kind} → {a.to}: {a.reason}" + (f" ({a.section})" if a.section else "")
                            for a in pr.adjustments]}


def match_lines(data: dict) -> list[str]:
    """The match's outcome as `ppgcheck rule` words it: the outcome, what someone may choose
    instead, the notes (a ruling stored before outcomes were recorded has none)."""
    lines = [outcome_text(Outcome.from_dict(o)) for o in data.get("outcomes", [])]
    lines += [outcome_option_text(OutcomeOption.from_dict(o), instead=bool(data.get("outcomes")))
              for o in data.get("outcome_options", [])]
    lines += [note_text(Cited(n["text"], n.get("section") or "")) for n in data.get("outcome_notes", [])]
    return lines


def judge_call_words(verdict: str, by_value: dict[str, dict[str, str]] | None = None) -> str:
    """How the guide stands to the judge's call, in words."""
    return judge_call_text(verdict, by_value)


def question_words(q: dict, several: bool = False) -> str:
    """A question of a ruling's JSON in a judge's words (`several`: the report has several
    observations, so it names the one it adds to)."""
    return question_text(Question.from_dict(q), several=several)


def who_words() -> dict[str, str]:
    """Who may choose another course, in words (`head-judge` -> the Head Judge)."""
    return WHO
