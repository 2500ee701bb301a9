"""A ruling's JSON (render.ruling_dict, fresh or as an event stored it) -> what its
card shows, phrased by the text renderer's own functions (ppgcheck/api/cards.py), so the
page and `ppgcheck rule` say the same thing."""
from __future__ import annotations

from ppgcheck import api


class Card(dict):
    """A card's fields (card.html reads them), and its slip once the report is recorded."""

    def on_record(self, recorded: list, changes: dict[int, dict] | None = None) -> dict:
        return slip(self, recorded, changes)


def card(data: dict) -> Card:
    """The card of one report's ruling: a block per player ruling, then the report's own lines."""
    blocks = []
    for r in data.get("rulings", []):
        words = api.player_ruling_words(r)
        blocks.append({
            "player": r["player"], "infraction": r["infraction"], "section": r["section"],
            "penalty": r.get("penalty"), "penalty_line": words["penalty_line"],
            # only the highest penalty of related infractions is issued (discretion.md)
            "absorbed_into": r.get("related_to") if not r.get("issued", True) else None,
            "permitted": words["permitted"], "options": words["options"],
            "adjustments": words["adjustments"],
            "by_value": r.get("by_value") or {},
            "fix": list(zip(r.get("fix", []), r.get("fix_sections", []))),
            "notes": [(n["text"], n["section"]) for n in r.get("notes", [])],
            "assumptions": [(a["text"], a["section"]) for a in r.get("assumptions", [])],
            "head_judge": r.get("head_judge", False),
            "explanation": r.get("explanation", []),
        })
    call = data.get("judge_call")
    several = _observations(data) > 1
    return Card({
        "report": data.get("report", ""), "policy": data.get("policy", ""), "blocks": blocks,
        "source_shown": _source_shown(data.get("report", "")), "readings": readings(data),
        "no_infraction": data.get("no_infraction", []),
        "findings": data.get("findings", []),
        "time_extension": data.get("time_extension_minutes") or 0,
        "match": api.match_lines(data),
        "judge_call": call and {**call, "verdict_text": api.judge_call_words(call.get("verdict", ""),
                                                                             call.get("by_value"))},
        "notes": [(n["text"], n["section"]) for n in data.get("notes", [])],
        "assumptions": [(a["text"], a["section"]) for a in data.get("assumptions", [])],
        "questions": [{"text": api.question_words(q, several=several), "add": q["add"]}
                      for q in data.get("questions", [])],
        "who": api.who_words(),
    })


def readings(data: dict) -> list[dict]:
    """The observations the tolerant reader read from free sentences, numbered from 1: a ruling's
    `observations[i]` is an object {read_as, written, not_read} (a string, as printed, in a
    ruling stored before readings were kept, and for a canonical sentence)."""
    out = []
    for n, obs in enumerate(data.get("observations") or [], start=1):
        if isinstance(obs, dict) and obs.get("written") and (obs.get("written") != obs.get("read_as")
                                                              or obs.get("not_read")):
            out.append({"n": n, "read_as": obs.get("read_as", ""), "written": obs["written"],
                        "not_read": list(obs.get("not_read") or [])})
    return out


def _source_shown(source: str) -> str:
    """A report's name as its card shows it: none for a name the station made up (its draft's
    `station-…` key, `report`): only a file's or a program's name tells the judge anything."""
    return "" if source == "report" or source.startswith(("station-", "station:")) else source


def _observations(data: dict) -> int:
    """How many observations the report of a ruling's JSON has (one an event stored before the
    JSON listed them: those its rulings, findings and questions speak of)."""
    if "observations" in data:
        return len(data["observations"])
    return len({item.get("observation") for key in ("rulings", "no_infraction", "findings", "questions")
                for item in data.get(key, []) if item.get("observation")})


LIVE = ("in-force", "pending")


def changes_of(audit: list) -> dict[int, dict]:
    """From a report's audit rows: each penalty that replaced another -> why (the change's
    reason) and whether the report was ruled again (else a Head Judge's decision)."""
    return {a.penalty_id: {"reason": a.reason, "ruled_again": "ruled_again" in a.detail}
            for a in audit if a.action == "amend" and a.penalty_id is not None and "replaces" in a.detail}


def _how(p, changes: dict[int, dict]) -> str:
    """How a row that replaced another came to be: `ruled again after penalty #1 voided: ...`."""
    if p.replaces is None:
        return ""
    change = changes.get(p.id, {})
    why = change.get("reason", "")
    if change.get("ruled_again"):
        return f"ruled again, replacing #{p.replaces}" + (f", after {why}" if why else "")
    return f"the Head Judge's decision, replacing #{p.replaces}" + (f" ({why})" if why else "")


def _row(p, replaced_by: dict[int, int], changes: dict[int, dict]) -> dict:
    return {"id": p.id, "player": p.player, "infraction": p.infraction, "penalty": p.penalty,
            "name": api.recorded_name(p.penalty), "status": p.status, "chosen_by": p.chosen_by, "notes": p.notes,
            "replaces": p.replaces, "replaced_by": replaced_by.get(p.id), "live": p.status in LIVE,
            "how": _how(p, changes), "ruled_again": changes.get(p.id, {}).get("ruled_again", False)}


def slip(c: Card, recorded: list, changes: dict[int, dict] | None = None) -> dict:
    """A recorded report's slip: the penalties in force first (the Head Judge's decision where one
    was made), every row of the record with what replaced it, and the ruling's card with each
    player's block showing the penalty in force where it is not the one the ruling gave."""
    replaced_by = {p.replaces: p.id for p in recorded if p.replaces}
    rows = [_row(p, replaced_by, changes or {}) for p in recorded]
    c = Card(c, blocks=[dict(b) for b in c["blocks"]])
    live = [r for r in rows if r["live"]]
    taken: set[int] = set()
    for block in c["blocks"]:
        if block["absorbed_into"]:
            continue
        mine = [r for r in rows if (r["player"], r["infraction"]) == (block["player"], block["infraction"])
                and r["id"] not in taken]
        now = next((r for r in mine if r["live"]), None) or next((r for r in mine if r["status"] == "void"), None)
        if now is None:
            continue
        by_id = {r["id"]: r for r in rows}
        chain = [now]
        while chain[-1]["replaces"] in by_id and by_id[chain[-1]["replaces"]] not in chain:
            chain.append(by_id[chain[-1]["replaces"]])
        taken.update(r["id"] for r in chain)        # (a second block of the same infraction takes the next)
        if now["status"] == "void":
            block["decision"] = {**now, "name": "VOID", "by": "voided: it does not count"}
        elif now["ruled_again"]:
            # ruled again: this card is the ruling as it was then (its upgrade, its notes), marked
            # replaced; the penalty in force is the new ruling's, at the top of the slip
            block["replaced"] = {"by": now["id"], "how": now["how"]}
        elif now["penalty"] != block["penalty"] or now["chosen_by"] == "judge":
            by = ("the judge's choice" if now["replaces"] is None else "the Head Judge's decision"
                  ) if now["chosen_by"] == "judge" else "ruled again"
            block["decision"] = {**now, "by": by}
    return {"card": c, "rows": rows, "live": live, "history": [r for r in rows if not r["live"]]}
