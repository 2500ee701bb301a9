"""A penalty in words, in the one place each way the tools say it: the ruling a judge reads
(`GAME LOSS`, `WARNING or GAME LOSS (the guide does not say which)`), a comparison's cell,
a diff's line, a variant's label, a golden file's value, and a penalty an event recorded
(`PENDING` where the guide leaves it to the Head Judge)."""
from __future__ import annotations

from collections.abc import Iterable

from ppgcheck.engine.ruling import UNDETERMINED, PlayerRuling


def loud(penalty: str | None, none: str = "NO PENALTY") -> str:
    """A penalty id as a judge reads it (`intellect-penalty` -> INTELLECT PENALTY)."""
    return penalty.upper().replace("-", " ").replace("/", " / ") if penalty else none


def either(penalties: Iterable[str]) -> str:
    """`WARNING or GAME LOSS`."""
    return " or ".join(loud(p) for p in penalties)


def penalty_line(r: PlayerRuling) -> str:
    """The default penalty, or what the guide narrows it to, never a bare UNDETERMINED."""
    if r.penalty is not None:
        line = loud(r.penalty)
        if r.adjustments or (r.base_penalty is not None and r.base_penalty != r.penalty):
            line += f" (base {r.base_penalty})"
        return line
    if r.by_value:
        headers = ", ".join(f"`{h}:`" for h in r.by_value)
        return f"{either(r.permitted)}: it depends on {headers}, which the report does not give"
    if len(r.base_choices) > 1:
        return f"{either(r.base_choices)} (the guide does not say which)"
    if len(r.permitted) > 1:
        return f"{either(r.permitted)} (the guide does not say which)"
    return "not named by the guide: it gives no single penalty here (see the findings)"


def cell_penalty(r: PlayerRuling) -> str:
    """A comparison's cell: the default and who may move it, or the set the guide permits."""
    if r.penalty is None:
        return " or ".join(r.permitted) if r.permitted else "no single penalty"
    moves = "".join(f", {o.by} may make it {o.penalty}" for o in r.options)
    return r.penalty + moves


def default_or_choices(r: PlayerRuling) -> str:
    """A diff's line: the default penalty; where the guide names none, the set it narrows it
    to, or that it names none."""
    if r.penalty:
        return r.penalty
    if r.base_choices:
        return "one of " + ", ".join(r.base_choices) + " (the guide does not say which)"
    return "no penalty named by the guide"


def variant_label(match: PlayerRuling, r: PlayerRuling) -> str | None:
    """A variant's default penalty; another infraction's is prefixed with its id (and, where
    the guide names it no default, the set it narrows it to, or that it names none)."""
    if match.infraction == r.infraction:
        return match.penalty
    penalty = match.penalty or (" or ".join(match.base_choices) if match.base_choices else "no penalty named")
    return f"{match.infraction}: {penalty}"


def golden_penalty(value: str | None) -> str:
    """A golden file spells "the guide names no default penalty" `undetermined`."""
    return UNDETERMINED if value is None else value


def recorded_name(penalty: str | None) -> str:
    """A penalty an event recorded, as the station's card spells it; PENDING for one the
    guide leaves to the Head Judge."""
    return loud(penalty, none="PENDING")


def recorded_line(p, with_status: bool = False) -> str:
    """One recorded penalty as a judge reads it: `#3 Alice: warning for hidden-card-error, day 2 (r1.txt)`."""
    where = ", ".join(f"{k} {v}" for k, v in (("day", p.day), ("round", p.round), ("table", p.table)) if v is not None)
    what = p.penalty if p.penalty else "PENDING"
    status = f" [{p.status}]" if with_status and p.status != "in-force" else ""
    return f"#{p.id} {p.player}: {what} for {p.infraction}" + (f", {where}" if where else "") + f" ({p.source}){status}"
