"""A ruling's JSON (render.ruling_dict, fresh or as an event stored it) -> what its
card shows, phrased by the text renderer's own functions (option_text, question_text,
penalty_line), so the page and `ppgcheck rule` say the same thing."""
from __future__ import annotations

from ppgcheck.engine.render import (WHO, judge_call_text, note_text, option_text, outcome_option_text, outcome_text,
                                    penalty_line, question_text)
from ppgcheck.engine.ruling import Adjustment, Cited, Option, Outcome, OutcomeOption, PlayerRuling, Question


def _options(r: dict) -> list[Option]:
    return [Option(o["penalty"], o["by"], o.get("if") or "", o.get("section") or "") for o in r.get("options", [])]


def _player_ruling(r: dict) -> PlayerRuling:
    return PlayerRuling(
        r["observation"], r["player"], r["infraction"], r["section"], r.get("base_penalty"), r.get("penalty"),
        r.get("issued", True), related_to=r.get("related_to"), permitted=list(r.get("permitted") or []),
        base_choices=list(r.get("choose_from") or []), options=_options(r), by_value=r.get("by_value"),
        adjustments=[Adjustment(a["kind"], a["to"], a["reason"], a["section"], 0) for a in r.get("adjustments", [])])


def _question(q: dict) -> Question:
    return Question(q["observation"], q["player"], q["add"], q["asks"], q.get("infraction"), q.get("penalty"),
                    q.get("choose_from") or [], q.get("unsettled") or "")


def _outcome(o: dict) -> Outcome:
    return Outcome(o["kind"], o.get("section") or "", o.get("step"), o.get("scope"), o.get("result"),
                   o.get("winner"), o.get("player"), o.get("penalty"))


def _match_lines(data: dict) -> list[str]:
    """The match's outcome as `ppgcheck rule` words it: the outcome, what someone may choose
    instead, the notes (a ruling stored before outcomes were recorded has none)."""
    lines = [outcome_text(_outcome(o)) for o in data.get("outcomes", [])]
    lines += [outcome_option_text(OutcomeOption(_outcome(o["outcome"]), o["by"], o.get("if") or "",
                                                o.get("section") or ""), instead=bool(data.get("outcomes")))
              for o in data.get("outcome_options", [])]
    lines += [note_text(Cited(n["text"], n.get("section") or "")) for n in data.get("outcome_notes", [])]
    return lines


def card(data: dict) -> dict:
    """The card of one report's ruling: a block per player ruling, then the report's own lines."""
    blocks = []
    for r in data.get("rulings", []):
        pr = _player_ruling(r)
        blocks.append({
            "player": r["player"], "infraction": r["infraction"], "section": r["section"],
            "penalty": r.get("penalty"), "penalty_line": penalty_line(pr),
            # only the highest penalty of related infractions is issued (discretion.md)
            "absorbed_into": r.get("related_to") if not r.get("issued", True) else None,
            "permitted": pr.permitted, "options": [option_text(o) for o in pr.options],
            "adjustments": [f"{a.kind} → {a.to}: {a.reason}" + (f" ({a.section})" if a.section else "")
                            for a in pr.adjustments],
            "by_value": r.get("by_value") or {},
            "fix": list(zip(r.get("fix", []), r.get("fix_sections", []))),
            "notes": [(n["text"], n["section"]) for n in r.get("notes", [])],
            "assumptions": [(a["text"], a["section"]) for a in r.get("assumptions", [])],
            "head_judge": r.get("head_judge", False),
            "explanation": r.get("explanation", []),
        })
    call = data.get("judge_call")
    return {
        "report": data.get("report", ""), "policy": data.get("policy", ""), "blocks": blocks,
        "no_infraction": data.get("no_infraction", []),
        "findings": data.get("findings", []),
        "time_extension": data.get("time_extension_minutes") or 0,
        "match": _match_lines(data),
        "judge_call": call and {**call, "verdict_text": judge_call_text(call.get("verdict", ""))},
        "notes": [(n["text"], n["section"]) for n in data.get("notes", [])],
        "assumptions": [(a["text"], a["section"]) for a in data.get("assumptions", [])],
        "questions": [{"text": question_text(_question(q)), "add": q["add"]} for q in data.get("questions", [])],
        "who": WHO,
    }
