"""RulingSet -> text a judge reads in ten seconds, or JSON (docs/ruling-json.md)."""
from __future__ import annotations

import json
from dataclasses import asdict

from ppgcheck.engine.ruling import Cited, Option, Outcome, OutcomeOption, PlayerRuling, Question, RulingSet
from ppgcheck.engine.words import cell_penalty, either, loud, penalty_line
from ppgcheck.language.model import Reading

WHO = {"head-judge": "the Head Judge", "judge": "the judge", "tournament-organizer": "the tournament organizer",
       "players": "the players"}


def _cite(section: str) -> str:
    return f" ({section})" if section else ""


def option_text(option: Option) -> str:
    """`the Head Judge may make it a GAME LOSS if ...`, in a judge's words."""
    condition = option.condition
    article = "an" if option.penalty[:1].lower() in "aeiou" else "a"
    return (f"{WHO.get(option.by, option.by)} may make it {article} {loud(option.penalty)}"
            + (f" if {condition}" if condition else "") + _cite(option.section))


def question_text(question: Question, several: bool = False) -> str:
    """A question in a judge's words; of a report with `several` observations, it names the
    one it adds to (two observations can take the same words: "mixed into her hand?")."""
    if question.penalty:
        penalty = loud(question.penalty)
    elif question.choose_from:
        penalty = f"{either(question.choose_from)} (the guide does not say which)"
    elif question.unsettled == "conflict":
        penalty = "no single penalty: two rules of the guide disagree"
    elif question.unsettled == "gap":
        penalty = "penalty not named by the guide (a gap)"
    else:
        penalty = "no penalty named"
    if question.infraction:
        outcome = f"{question.infraction}, {penalty}"
    elif question.unsettled == "gap":
        outcome = "not covered by the guide (a gap)"
    else:
        outcome = "no infraction"
    # an answer about another person than the observation's names the observation whole
    # ("on purpose? → Bob" read as asking about Bob, not about Alice's error)
    asked = question.asks if question.add.startswith(f"{question.player} ") else question.add
    where = f"[observation {question.observation}] " if several else ""
    return f"{where}{asked}? → {question.player}: {outcome}"


# how the guide stands to the judge's call: its default, a course it permits (an option, or
# one of a set it leaves open), or neither
JUDGE_CALL_VERDICTS = {"agrees": "the guide agrees with the judge's call",
                       "permitted": "the guide permits the judge's call, though not as its default",
                       "unsettled": "the guide names no single penalty to hold the judge's call against (see the "
                                    "findings)",
                       "disagrees": "the guide DISAGREES with the judge's call"}
_VERDICT_WORDS = {"agrees": "agrees", "permitted": "permits it", "unsettled": "names no single penalty",
                  "disagrees": "DISAGREES"}


def judge_call_text(verdict: str, by_value: dict[str, dict[str, str]] | None = None) -> str:
    if verdict == "depends" and by_value:
        parts = [f"`{header}:` — it " + ", ".join(f"{_VERDICT_WORDS.get(v, v)} at {value}" for value, v in values.items())
                 for header, values in by_value.items()]
        return "the guide's answer to the judge's call depends on " + "; ".join(parts)
    return JUDGE_CALL_VERDICTS.get(verdict, JUDGE_CALL_VERDICTS["disagrees"])


def _observed(rs: RulingSet, index: int) -> str:
    """The observation a ruling is about; 0 is the report as a whole (e.g. its history)."""
    return rs.observations[index - 1] if 0 < index <= len(rs.observations) else "the report as a whole"


def _reading(rs: RulingSet, index: int) -> Reading | None:
    """How observation `index` (from 1) was read from a free sentence; None where it was written canonically."""
    return rs.readings[index - 1] if 0 < index <= len(rs.readings) else None


def not_read_text(words: list[str]) -> str:
    """`"In game 2", "at table 40"`: the runs of words the reader did not read."""
    return ", ".join(f'"{w}"' for w in words)


def reading_lines(rs: RulingSet, indent: str = "  ") -> list[str]:
    """For each observation read from a free sentence, the canonical sentence ruled on and the
    words not read, so a judge sees what the ruling is about; nothing for canonical sentences."""
    several = len(rs.observations) > 1
    out = []
    for index, observation in enumerate(rs.observations, start=1):
        reading = _reading(rs, index)
        if reading is None:
            continue
        out.append(f"{indent}{f'[observation {index}] ' if several else ''}read as: {observation}")
        if reading.not_read:
            out.append(f"{indent}  not read: {not_read_text(reading.not_read)}")
    return out


def observation_dicts(rs: RulingSet) -> list[dict]:
    """The JSON of the observations as ruled: the canonical sentence, the sentence as written
    (the same for a canonical one) and the runs of words not read."""
    out = []
    for index, observation in enumerate(rs.observations, start=1):
        reading = _reading(rs, index)
        out.append({"read_as": observation, "written": reading.written if reading else observation,
                    "not_read": list(reading.not_read) if reading else []})
    return out


def stored_observations(observations: list) -> list[dict]:
    """A ruling JSON's `observations` read back in today's shape: rulings stored by earlier
    versions list each observation as its canonical sentence (a string)."""
    return [{"read_as": o, "written": o, "not_read": []} if isinstance(o, str) else
            {"read_as": o.get("read_as", ""), "written": o.get("written", o.get("read_as", "")),
             "not_read": list(o.get("not_read") or [])} for o in observations]


def stored_ruling(data: dict) -> dict:
    """A ruling JSON as stored (by this version or an earlier one), its observations in today's shape."""
    if isinstance(data.get("observations"), list):
        return {**data, "observations": stored_observations(data["observations"])}
    return data


def explanation(ruling: PlayerRuling, observation: str) -> list[str]:
    """The derivation, each step with its section."""
    steps = [f"observed: {observation}"]
    for why in ruling.because:
        steps.append(f"classified as {ruling.infraction}: {why.text}{_cite(why.section)}")
    if not ruling.because:
        steps.append(f"classified as {ruling.infraction}{_cite(ruling.section)}")
    if ruling.base_penalty is None:
        steps.append("no single base penalty" + (f": one of {', '.join(ruling.permitted)}" if ruling.permitted
                                                  else ": see the findings"))
    else:
        steps.append(f"base penalty {ruling.base_penalty}{_cite(ruling.base_section or ruling.section)}")
    for adj in ruling.adjustments:
        steps.append(f"{adj.kind} to {adj.to}: {adj.reason}{_cite(adj.section)}")
    for option in ruling.options:
        steps.append(f"option: {option_text(option)}")
    if ruling.absorbed_by:
        steps.append(f"not issued: a related infraction carries a higher penalty{_cite(ruling.absorbed_by)}")
    elif ruling.withheld:
        steps.append(f"not issued: {ruling.withheld.text}{_cite(ruling.withheld.section)}")
    return steps


def render_text(rs: RulingSet, explain: bool = False) -> str:
    out = [f"{rs.report} — policy {rs.policy}", *reading_lines(rs)]
    for r in rs.rulings:
        out.append(f"  {r.player}: {r.infraction}{_cite(r.section)}")
        line = f"    penalty: {penalty_line(r)}"
        if len(r.options) == 1:
            line += f" — {option_text(r.options[0])}"
        if r.absorbed_by:
            related = f" (observation {r.related_to})" if r.related_to else ""
            line += (f" — not issued: only the highest penalty of related infractions is given, "
                     f"a related one{related} carries it{_cite(r.absorbed_by)}")
        elif r.withheld:
            line += f" — not issued: {r.withheld.text}{_cite(r.withheld.section)}"
        out.append(line)
        if len(r.options) > 1:
            out.extend(f"      {option_text(o)}" for o in r.options)
        for adj in r.adjustments:
            out.append(f"      {adj.kind} → {adj.to}: {adj.reason}{_cite(adj.section)}")
        for header, values in (r.by_value or {}).items():
            shown = ", ".join(f"{value} {loud(pen) if pen else '—'}" for value, pen in values.items())
            out.append(f"    by `{header}:` (the report gives none): {shown}")
        for assumption in r.assumptions:
            out.append(f"    assumed: {assumption.text}{_cite(assumption.section)}")
        for i, step in enumerate(r.fix, start=1):
            out.append(f"    fix {i}: {step.text}{_cite(step.section)}")
        for note in r.notes:
            out.append(f"    note: {note.text}{_cite(note.section)}")
        if r.head_judge:
            out.append(f"    confirm with the Head Judge{_cite(r.head_judge)}")
        if explain:
            out.append("    why:")
            out.extend(f"      - {s}" for s in explanation(r, _observed(rs, r.observation)))
    for n in rs.no_infractions:
        out.append(f"  {n.player}: no infraction — {n.reason}{_cite(n.section)}")
    if rs.time_extension_minutes:
        sources = ", ".join(f"{c.text} min{_cite(c.section)}" for c in rs.time_extensions)
        minutes = rs.time_extension_minutes
        out.append(f"  time extension: {minutes} minute{'' if minutes == 1 else 's'} [{sources}]")
    if rs.judge_call:
        out.append(f"  {judge_call_text(rs.judge_call_verdict, rs.judge_call_by_value)}: "
                   f"{rs.judge_call[0]}, {rs.judge_call[1]}")
    out.extend(outcome_lines(rs))
    for note in rs.notes:
        out.append(f"  note: {note.text}{_cite(note.section)}")
    for assumption in rs.assumptions:
        out.append(f"  assumed: {assumption.text}{_cite(assumption.section)}")
    if rs.questions:
        out.append("  questions that would change this ruling:")
        out.extend(f"    - {question_text(q, several=len(rs.observations) > 1)}" for q in rs.questions)
    for f in rs.findings:
        where = f" [observation {f.observation}]" if f.observation else ""
        if f.kind == "input" and f.level == "info":     # a line the guide does not read
            out.append(f"  not used by this guide{where}: {f.message}")
        elif f.kind == "input":       # the report's gap, not the guide's
            out.append(f"  missing from the report{where}: {f.message}{_cite(f.section)}")
        else:
            out.append(f"  FINDING {f.kind} ({f.level}){where}: {f.message}{_cite(f.section)}")
    if not (rs.rulings or rs.no_infractions or rs.findings or rs.outcomes or rs.outcome_notes):
        out.append("  nothing to rule")
    return "\n".join(out)


def outcome_text(outcome: Outcome) -> str:
    """`next: ...`, `result: ...`, `penalty: ...` or `allowed: ...`, with its section."""
    label = {"step": "next", "result": "result", "penalty": "penalty", "allowed": "allowed"}[outcome.kind]
    what = outcome.describe()
    if outcome.kind == "penalty":
        what = f"{outcome.player}: {loud(outcome.penalty)}"
    return f"{label}: {what}{_cite(outcome.section)}"


def outcome_option_text(option: OutcomeOption, instead: bool = True) -> str:
    """A different outcome someone may choose, in a judge's words (`instead` of the outcome
    the guide gives, when it gives one)."""
    verb = "may choose instead" if instead else "may choose"
    return (f"{WHO.get(option.by, option.by)} {verb}: {option.outcome.describe()}"
            + (f" if {option.condition}" if option.condition else "") + _cite(option.section))


def note_text(note: Cited) -> str:
    """A note of the match's outcome, with its section."""
    return f"note: {note.text}{_cite(note.section)}"


def outcome_lines(rs: RulingSet) -> list[str]:
    """The match's outcome block of the text ruling."""
    out = [f"  match — {outcome_text(o)}" for o in rs.outcomes]
    # with no outcome of the guide's, an option is the match's line itself, not one beside it
    out += [f"    {outcome_option_text(o)}" if rs.outcomes else f"  match — {outcome_option_text(o, instead=False)}"
            for o in rs.outcome_options]
    out += [f"  match — {note_text(n)}" for n in rs.outcome_notes]
    return out


def ruling_dict(rs: RulingSet, explain: bool = True) -> dict:
    rulings = []
    for r in rs.rulings:
        item = {
            "player": r.player, "observation": r.observation, "infraction": r.infraction,
            "section": r.section, "base_penalty": r.base_penalty,
            "base_penalty_section": r.base_section, "penalty": r.penalty,
            "permitted": r.permitted,
            "choose_from": r.base_choices,
            "options": [o.to_dict() for o in r.options],
            "issued": r.issued, "related_to": r.related_to,
            "not_issued": asdict(r.withheld) if r.withheld else None,
            "assumptions": [asdict(a) for a in r.assumptions],
            "questions": [q.to_dict() for q in rs.questions if (q.observation, q.player) == (r.observation, r.player)],
            "by_value": r.by_value,
            "adjustments": [a.to_dict() for a in r.adjustments],
            "fix": [s.text for s in r.fix],
            "fix_sections": [s.section for s in r.fix],
            "notes": [asdict(n) for n in r.notes],
            "head_judge": bool(r.head_judge),
            "time_extension_minutes": rs.time_extension_minutes,
        }
        if explain:
            item["explanation"] = explanation(r, _observed(rs, r.observation))
        rulings.append(item)
    return {
        "report": rs.report, "policy": rs.policy,
        "observations": observation_dicts(rs),     # in order: a ruling's `observation` counts from 1
        "rulings": rulings,
        "no_infraction": [asdict(n) for n in rs.no_infractions],
        "findings": [asdict(f) for f in rs.findings],
        "time_extension_minutes": rs.time_extension_minutes,
        "judge_call": ({"infraction": rs.judge_call[0], "penalty": rs.judge_call[1],
                        "verdict": rs.judge_call_verdict,
                        **({"by_value": rs.judge_call_by_value} if rs.judge_call_by_value else {})}
                       if rs.judge_call else None),
        "notes": [asdict(n) for n in rs.notes],
        "assumptions": [asdict(a) for a in rs.assumptions],
        "questions": [q.to_dict() for q in rs.questions],
        "outcome": rs.outcome.to_dict() if rs.outcome else None,
        "outcomes": [o.to_dict() for o in rs.outcomes],
        "outcome_options": [o.to_dict() for o in rs.outcome_options],
        "outcome_notes": [asdict(n) for n in rs.outcome_notes],
    }


def render_json(rs: RulingSet) -> str:
    return json.dumps(ruling_dict(rs), indent=2, ensure_ascii=False)


def render_jsonl(rs: RulingSet) -> str:
    return json.dumps(ruling_dict(rs), ensure_ascii=False, separators=(",", ":"))


def _not_issued(r) -> str:
    """Why a ruling's penalty is not issued, in a comparison's cell ("" when it is, or when
    there is no default penalty to issue)."""
    if r.absorbed_by:
        return " (not issued: related)"
    if r.withheld:
        return f" (not issued: {r.withheld.text})"
    return ""


def _cell(rs: RulingSet, observation: int) -> list[str]:
    """What one guide says about one observation."""
    lines = [f"{r.player}: {r.infraction} → {cell_penalty(r)}{_cite(r.section)}"
             + _not_issued(r)
             for r in rs.rulings if r.observation == observation]
    lines += [f"{n.player}: no infraction{_cite(n.section)}"
              for n in rs.no_infractions if n.observation == observation]
    found = [f for f in rs.findings if f.observation == observation]
    uncovered = not lines and any(f.kind == "gap" for f in found)
    if uncovered:      # the gap is said as "not covered": its message only beside a ruling
        lines.append("not covered" + _cite(next(f.section for f in found if f.kind == "gap")))
    lines += [f"{f.kind}: {f.message}" for f in found if not (uncovered and f.kind == "gap")]
    return lines or ["not covered"]


def render_comparison_text(comparison) -> str:
    sets = comparison.by_policy
    width = max(len(p) for p in sets) + 2
    first = next(iter(sets.values()))
    out = [f"{first.report} — the same observations under every guide"]
    for index, observation in enumerate(first.observations, start=1):
        out.append(f"  {observation}")
        reading = _reading(first, index)
        if reading is not None:          # read from a free sentence: what was written, what was not read
            out.append(f'    written: "{reading.written}"')
            if reading.not_read:
                out.append(f"    not read: {not_read_text(reading.not_read)}")
        for policy, rs in sets.items():
            for i, line in enumerate(_cell(rs, index)):
                out.append(f"    {(policy if i == 0 else ''):<{width}}{line}")
    if any(rs.outcomes or rs.outcome_notes for rs in sets.values()):
        out.append("  the match")
        for policy, rs in sets.items():
            lines = [outcome_text(o) for o in rs.outcomes] or ["no outcome"]
            lines += [note_text(n) for n in rs.outcome_notes]
            for i, line in enumerate(lines):
                out.append(f"    {(policy if i == 0 else ''):<{width}}{line}")
    for policy, rs in sets.items():
        notes = [f"{n.text}{_cite(n.section)}" for n in rs.notes]
        notes += [f"assumed: {a.text}{_cite(a.section)}" for a in rs.assumptions]
        notes += [f"history entry ignored (not an id of this guide): {h}"
                  for h in comparison.ignored.get(policy, [])]
        notes += [f"{f.kind}: {f.message}{_cite(f.section)}" for f in rs.findings if f.observation == 0]
        if notes:
            out.append(f"  {policy} assumed or noted:")
            out.extend(f"    - {n}" for n in notes)
    return "\n".join(out)


def comparison_dict(comparison) -> dict:
    first = next(iter(comparison.by_policy.values()))
    return {"report": first.report, "observations": observation_dicts(first),
            "policies": {p: {**ruling_dict(rs, explain=False),
                             "ignored_history": comparison.ignored.get(p, [])}
                         for p, rs in comparison.by_policy.items()}}
