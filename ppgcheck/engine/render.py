"""RulingSet -> text a judge reads in ten seconds, or JSON (report-language.md)."""
from __future__ import annotations

import json
from dataclasses import asdict

from ppgcheck.engine.ruling import UNDETERMINED, PlayerRuling, RulingSet


def _cite(section: str) -> str:
    return f" ({section})" if section else ""


def _observed(rs: RulingSet, index: int) -> str:
    """The observation a ruling is about; 0 is the report as a whole (e.g. its history)."""
    return rs.observations[index - 1] if 0 < index <= len(rs.observations) else "the report as a whole"


def explanation(ruling: PlayerRuling, observation: str) -> list[str]:
    """The derivation, each step with its section."""
    steps = [f"observed: {observation}"]
    for why in ruling.because:
        steps.append(f"classified as {ruling.infraction}: {why.text}{_cite(why.section)}")
    if not ruling.because:
        steps.append(f"classified as {ruling.infraction}{_cite(ruling.section)}")
    if ruling.base_penalty == UNDETERMINED:
        steps.append("no single base penalty: see the findings")
    else:
        steps.append(f"base penalty {ruling.base_penalty}{_cite(ruling.base_section or ruling.section)}")
    for adj in ruling.adjustments:
        steps.append(f"{adj.kind} to {adj.to}: {adj.reason}{_cite(adj.section)}")
    if ruling.absorbed_by:
        steps.append(f"not issued: a related infraction carries a higher penalty{_cite(ruling.absorbed_by)}")
    return steps


def render_text(rs: RulingSet, explain: bool = False) -> str:
    out = [f"{rs.report} — policy {rs.policy}"]
    for r in rs.rulings:
        head = f"  {r.player}: {r.infraction}{_cite(r.section)}"
        out.append(head)
        penalty = r.penalty.upper().replace("-", " ")
        line = f"    penalty: {penalty}"
        if r.penalty == UNDETERMINED:
            line += " — the guide gives no single penalty here: see the findings"
        elif r.adjustments or r.base_penalty != r.penalty:
            line += f" (base {r.base_penalty})"
        if r.absorbed_by:
            line += f" — not issued: only the highest penalty of related infractions is given{_cite(r.absorbed_by)}"
        out.append(line)
        for adj in r.adjustments:
            out.append(f"      {adj.kind} → {adj.to}: {adj.reason}{_cite(adj.section)}")
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
        out.append(f"  time extension: {rs.time_extension_minutes} minutes [{sources}]")
    if rs.judge_call:
        verdict = "agrees with" if rs.judge_call_verdict == "agrees" else "DISAGREES with"
        out.append(f"  the guide {verdict} the judge's call: {rs.judge_call[0]}, {rs.judge_call[1]}")
    for note in rs.notes:
        out.append(f"  note: {note.text}{_cite(note.section)}")
    for f in rs.findings:
        where = f" [observation {f.observation}]" if f.observation else ""
        out.append(f"  FINDING {f.kind} ({f.level}){where}: {f.message}{_cite(f.section)}")
    if not (rs.rulings or rs.no_infractions or rs.findings):
        out.append("  nothing to rule")
    return "\n".join(out)


def ruling_dict(rs: RulingSet, explain: bool = True) -> dict:
    rulings = []
    for r in rs.rulings:
        item = {
            "player": r.player, "observation": r.observation, "infraction": r.infraction,
            "section": r.section, "base_penalty": r.base_penalty,
            "base_penalty_section": r.base_section, "penalty": r.penalty,
            "issued": r.issued,
            "adjustments": [{"kind": a.kind, "to": a.to, "reason": a.reason, "section": a.section}
                            for a in r.adjustments],
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
        "report": rs.report, "policy": rs.policy, "rulings": rulings,
        "no_infraction": [asdict(n) for n in rs.no_infractions],
        "findings": [asdict(f) for f in rs.findings],
        "time_extension_minutes": rs.time_extension_minutes,
        "judge_call": ({"infraction": rs.judge_call[0], "penalty": rs.judge_call[1],
                        "verdict": rs.judge_call_verdict} if rs.judge_call else None),
        "notes": [asdict(n) for n in rs.notes],
    }


def render_json(rs: RulingSet) -> str:
    return json.dumps(ruling_dict(rs), indent=2, ensure_ascii=False)


def render_jsonl(rs: RulingSet) -> str:
    return json.dumps(ruling_dict(rs), ensure_ascii=False, separators=(",", ":"))


def _cell(rs: RulingSet, observation: int) -> list[str]:
    """What one guide says about one observation."""
    lines = [f"{r.player}: {r.infraction} → {r.penalty}{_cite(r.section)}"
             + ("" if r.issued else " (not issued: related)")
             for r in rs.rulings if r.observation == observation]
    lines += [f"{n.player}: no infraction{_cite(n.section)}"
              for n in rs.no_infractions if n.observation == observation]
    gaps = [f for f in rs.findings if f.observation == observation]
    if not lines and any(f.kind == "gap" for f in gaps):
        lines.append("not covered" + _cite(next(f.section for f in gaps if f.kind == "gap")))
    lines += [f"{f.kind}: {f.message}" for f in gaps if f.kind != "gap" or len(lines) > 1]
    return lines or ["not covered"]


def render_comparison_text(comparison) -> str:
    sets = comparison.by_policy
    width = max(len(p) for p in sets) + 2
    first = next(iter(sets.values()))
    out = [f"{first.report} — the same observations under every guide"]
    for index, observation in enumerate(first.observations, start=1):
        out.append(f"  {observation}")
        for policy, rs in sets.items():
            for i, line in enumerate(_cell(rs, index)):
                out.append(f"    {(policy if i == 0 else ''):<{width}}{line}")
    for policy, rs in sets.items():
        notes = [f"{n.text}{_cite(n.section)}" for n in rs.notes]
        notes += [f"history entry ignored (not an id of this guide): {h}"
                  for h in comparison.ignored.get(policy, [])]
        notes += [f"{f.kind}: {f.message}{_cite(f.section)}" for f in rs.findings if f.observation == 0]
        if notes:
            out.append(f"  {policy} assumed or noted:")
            out.extend(f"    - {n}" for n in notes)
    return "\n".join(out)


def comparison_dict(comparison) -> dict:
    first = next(iter(comparison.by_policy.values()))
    return {"report": first.report, "observations": first.observations,
            "policies": {p: {**ruling_dict(rs, explain=False),
                             "ignored_history": comparison.ignored.get(p, [])}
                         for p, rs in comparison.by_policy.items()}}
