"""`ppgcheck diff`'s results as text (a witness and both rulings per change) and JSON."""
from __future__ import annotations

import json

from ppgcheck.analysis.diff import Change, DiffResult


def render_text(results: list[DiffResult]) -> str:
    out: list[str] = []
    for r in results:
        intro = [c for c in r.introduced() if c.what != "cannot_rule"]
        removed = [c for c in r.removed() if c.what != "cannot_rule"]
        rulings = [c for c in r.changes if c.introduced is None]
        head = f"{r.policy} ({r.old} → {r.new})"
        if r.status != "compared":
            head += f": pack {r.status}"
        if any(c.what == "cannot_rule" for c in r.changes):
            summary = "not compared: a version cannot rule"
        elif r.changes:
            summary = (f"{len(rulings)} class(es) of incidents ruled differently, "
                       f"{len(intro)} finding(s) introduced, {len(removed)} removed")
        elif r.status != "compared":
            summary = ""
        else:
            summary = "no change" if r.complete else "no change found before the search stopped"
        head += ": " if summary else ""
        out.append(f"{head}{summary} — {r.models} models, {r.seconds:.1f} s"
                   + ("" if r.complete else " — INCOMPLETE"))
        for c in r.changes:
            where = f" [{c.location[0]}:{c.location[1]}]" if c.location else ""
            out.append(f"  {c.message}{where}")
            if c.witness_text:
                out.append("    witness" + ("" if c.minimal else " (not proven minimal)") + ":")
                out.extend("      " + line for line in c.witness_text.splitlines())
            if c.ruling_before or c.ruling_after:
                out.extend(f"    before: {line}" for line in c.ruling_before)
                out.extend(f"    after:  {line}" for line in c.ruling_after)
        for note in r.notes:
            out.append(f"  note: {note}")
    return "\n".join(out)


def change_dict(c: Change) -> dict:
    return {"what": c.what, "observation": c.observation or None, "subject": c.subject or None,
            "before": c.before, "after": c.after, "message": c.message, "level": c.level,
            "introduced": c.introduced, "sections": c.sections,
            "location": {"file": c.location[0], "line": c.location[1]} if c.location else None,
            "witness": c.witness_text or None, "minimal": c.minimal,
            "ruling_before": c.ruling_before, "ruling_after": c.ruling_after}


def result_dict(r: DiffResult) -> dict:
    return {"policy": r.policy, "old": r.old, "new": r.new, "status": r.status, "complete": r.complete,
            "models": r.models, "seconds": round(r.seconds, 3), "notes": r.notes,
            "introduced": len(r.introduced()), "removed": len(r.removed()),
            "changes": [change_dict(c) for c in r.changes]}


def render_json(results: list[DiffResult]) -> str:
    return json.dumps([result_dict(r) for r in results], indent=2, ensure_ascii=False)


def exit_code(results: list[DiffResult], fail_on_change: bool = False) -> int:
    """2 when the new version of a pack cannot rule; 1 when a change introduces an
    error-level finding (or any change, with fail_on_change)."""
    if any(c.what == "cannot_rule" and c.introduced for r in results for c in r.changes):
        return 2
    if any(r.introduced("error") for r in results):
        return 1
    if fail_on_change and any(r.changed for r in results):
        return 1
    return 0
