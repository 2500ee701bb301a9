"""The scenario space of a pack, and a scenario read back as a report.

`ppgcheck check` and `ppgcheck diff` ground a pack over rules/core/scenarios.lp
instead of the runtime's inputs: its choice rules generate every report the
pack can tell apart, bounded by `scen_*` facts built here from what the pack
reads (reads.py) and the vocabulary: observation kinds, modifiers, count
values around every threshold, headers, history.  A scenario found (a model)
is read back into the report whose facts are exactly its inputs, which
`ppgcheck rule` reproduces.
"""
from __future__ import annotations

import clingo

from ppgcheck.analysis.reads import HEADER_NUMBERS, PackReads
from ppgcheck.packs.program import symbol_value
from ppgcheck.contract import INPUT_NAMES
from ppgcheck.language.facts import constant_to_slug
from ppgcheck.language.model import HistoryEntry, MatchState, Modifier, Observation, Report
from ppgcheck.language.vocabulary import PERSON_SLOTS, Vocabulary, vocabulary

# Modifiers of the language that exclude each other: a report holding both says nothing.
EXCLUSIVE = [
    ("intent", ("on_purpose", "accidental")),
    ("discovery", ("caught_at_once", "caught_before_next_action", "caught_within_turn_cycle",
                   "caught_later")),
    ("repair", ("simple_rewind_possible", "partial_fix_possible", "full_rewind_possible",
                "cannot_be_fixed")),
    ("advantage", ("advantage", "significant_advantage", "strategic_advantage", "no_advantage")),
    ("result", ("visible_result", "hidden_result")),
    ("deck_order", ("from_randomized_deck", "from_non_random_deck")),
    ("identifiable", ("extras_identifiable", "extras_not_identifiable")),
    ("difference", ("minor_difference", "big_difference")),
    ("request", ("requested", "unrequested")),
    ("pattern", ("with_pattern", "without_pattern")),
]
REL_ORDER = ("casual", "regular", "competitive", "professional")
# Count keys where a larger number is a worse fact (monotonicity); `intellect` is not.
WORSE_KEYS = {"minutes", "cards", "cards_off"}

# the persons of a scenario by number; the input predicates a witness is read from
NAMES = {1: "Alice", 2: "Bob"}


def _domain(lo: int, hi: int, thresholds: set[int]) -> list[int]:
    vals = {lo, hi}
    for t in thresholds:
        vals.update((t - 1, t, t + 1))
    return sorted(v for v in vals if lo <= v <= hi)


def scenario_facts(reads: PackReads, observations: int = 2, vocab: Vocabulary | None = None) -> str:
    """The `scen_*` facts bounding rules/core/scenarios.lp for this pack (ASP text
    built only from identifiers of the pack and the vocabulary)."""
    vocab = vocab or reads.vocab or vocabulary()
    out: list[str] = [f"scen_max_obs({observations})."]
    kinds = sorted(reads.observation_kinds)
    for k in kinds:
        out.append(f"scen_obs_kind({k}).")
        for slot in vocab.canonical("observation", k).slots:
            if slot not in ("P", "Q"):
                out.append(f"scen_obs_count({k},{slot}).")
    mods = sorted(reads.modifiers)
    for m in mods:
        out.append(f"scen_pmod({m})." if m in vocab.person_modifiers else f"scen_mod({m}).")
        if m in vocab.counted_modifiers:
            out.append(f"scen_mod_count({m},{vocab.counted_modifiers[m]}).")
    for group, members in EXCLUSIVE:
        for m in members:
            if m in reads.modifiers:
                out.append(f"scen_exclusive({group},{m}).")
    keys = {s for k in kinds for s in vocab.canonical("observation", k).slots if s not in ("P", "Q")}
    keys |= {vocab.counted_modifiers[m] for m in mods if m in vocab.counted_modifiers}
    for key in sorted(keys):
        lo, hi = vocab.count_ranges[key]
        values = _domain(lo, hi, reads.thresholds) if key in reads.count_keys else [max(lo, 1) if lo <= 1 <= hi else lo]
        out.extend(f"scen_value({key},{v})." for v in values)
        if key in reads.count_keys and key in WORSE_KEYS:
            out.append(f"scen_worse_key({key}).")
        out.extend(f"scen_next_value({key},{a},{b})." for a, b in zip(values, values[1:]))
    # headers
    out.extend(f"scen_header_value(rel,{r})." for r in vocab.values.get("rel", REL_ORDER))
    out.extend(f"scen_rel_next({a},{b})." for a, b in zip(REL_ORDER, REL_ORDER[1:]))
    for h in ("event_kind", "game_kind", "round_kind"):
        if h in reads.headers:
            out.extend(f"scen_header_value({h},{v})." for v in vocab.values.get(h, []))
    needs_day = "day" in reads.headers or reads.reads_history
    if "round_kind" in reads.headers and "round" not in reads.headers:
        out.append("scen_header_value(round,1).")   # `round: N, swiss` needs a number
    for h in HEADER_NUMBERS:
        if h in reads.headers or (h == "day" and needs_day):
            lo, hi = vocab.header_ranges[h]
            extra = reads.thresholds | set(reads.header_constants.get(h, set()))
            values = _domain(lo, hi, extra) if h != "day" else sorted({1, 2} | {d for d in _domain(lo, hi, reads.header_constants.get(h, set()))})
            out.extend(f"scen_header_value({h},{v})." for v in values)
            if h == "ruling_minutes":
                out.extend(f"scen_next_value(ruling_minutes,{a},{b})." for a, b in zip(values, values[1:]))
            if h == "tier":
                out.extend(f"scen_tier_next({a},{b})." for a, b in zip(values, values[1:]))
    if "when" in reads.headers:
        out.extend(_when_facts(reads, vocab))
    # history
    if reads.reads_history and reads.infractions:
        bound = max([t + 1 for t in reads.history_thresholds if t >= 0] or [2])
        bound = min(bound, 6)
        out.append(f"scen_hist_max({bound}).")
        named = sorted(reads.reads_history_penalty)
        # a penalty the rules name (DCI: an earlier Match Point penalty), and one they do not:
        # with the named ones alone every earlier offense was that penalty (DCI's repeat of a
        # Minor Unsporting Conduct then always met its Match Point rule, never its Game Loss)
        others = [p for p in _representative_penalty(reads) if p not in named][:1]
        pens = named + others if named else _representative_penalty(reads)
        out.extend(f"scen_hist_pen({p})." for p in pens)
        out.extend(f"scen_hist_inf({i})." for i in sorted(reads.infractions))
        days = [0, 1, 2] if needs_day else [0]
        out.extend(f"scen_hist_day({d})." for d in days)
    if reads.cap:
        out.append(f"chk_cap_pen({reads.cap[0]}).")
    out.extend(_match_state_facts(reads, vocab))
    return "\n".join(out) + "\n"


def _match_state_facts(reads: PackReads, vocab: Vocabulary) -> list[str]:
    """The states of the match the pack reads (with the persons each names), their groups,
    and the tallies it reads, each at two values: equal, or one player ahead."""
    out = []
    for kind in sorted(reads.states):
        persons = [s for s in vocab.canonical("state", kind).slots if s in PERSON_SLOTS]
        out.append(f"scen_state({kind},{len(persons)}).")
        out.append(f"scen_state_group({vocab.state_groups.get(kind, kind)},{kind}).")
    for key in sorted(reads.tallies):
        lo, hi = vocab.tally_ranges[key]
        out.extend(f"scen_tally_value({key},{v})." for v in range(lo, min(lo + 1, hi) + 1))
    return out


def header_parts(facts: str, header: str, named: set[str]) -> list[tuple[str | None, str]]:
    """The scenario facts split by one header into disjoint parts: (None, the
    space without the header or at a value the pack never names), then
    (value, the space with the header set to it) for each value it names."""
    prefix = f"scen_header_value({header},"
    lines = facts.splitlines()
    values = [line[len(prefix):-2] for line in lines if line.startswith(prefix)]
    rest = "".join(line + "\n" for line in lines if not line.startswith(prefix))
    unnamed = "".join(f"{prefix}{v}).\n" for v in values if v not in named)
    return [(None, rest + unnamed)] + [(v, f"{rest}{prefix}{v}).\n:- not header({header},{v}).\n")
                                       for v in values if v in named]


def kind_parts(facts: str, groups: int | None = None) -> list[str]:
    """The one-observation scenario facts split into disjoint parts by observation kind
    (the observation of each part's scenarios is of one of its kinds): one part per kind,
    or the kinds dealt in turn into `groups` parts."""
    lines = facts.splitlines()
    kinds = [line for line in lines if line.startswith("scen_obs_kind(")]
    rest = "".join(line + "\n" for line in lines if not line.startswith("scen_obs_kind("))
    dealt = [kinds[i::groups] for i in range(min(groups, len(kinds)))] if groups else [[kind] for kind in kinds]
    return [rest + "".join(kind + "\n" for kind in group) for group in dealt]


def _representative_penalty(reads: PackReads) -> list[str]:
    """Every penalty of the ladder: rules may read the most severe prior penalty
    (an upgrade path's next step, the end of the path).  Not a disqualification:
    a disqualified player has no later incident at the event."""
    return ([p for p, _ in reads.penalties if p != "none" and not p.startswith("disqualification")]
            or [p for p, _ in reads.penalties][:1])


def _when_facts(reads: PackReads, vocab: Vocabulary) -> list[str]:
    out = []
    wanted = reads.when_values
    for kind, form in vocab.when.items():
        if ("*", None) not in wanted and not any(k == kind for k, _ in wanted):
            continue
        if form.slots:            # `before round {round}`: a number in a header_range
            key = form.slots[0]
            lo, hi = vocab.header_ranges[key]
            consts = {n for k, n in wanted if k == kind and n is not None}
            values = _domain(lo, hi, consts) if consts else [lo]
            out.extend(f"scen_header_value(when,{kind}({v}))." for v in values)
        else:
            out.append(f"scen_header_value(when,{kind}).")
    return out


def scenario_report(atoms: list[clingo.Symbol], policy: str, prefix: str = "",
                    vocab: Vocabulary | None = None) -> Report:
    """The report whose facts are exactly the scenario's input atoms, written in `vocab`
    (the pack's language; by default the bundled policy's)."""
    vocab = vocab or vocabulary(policy)
    by: dict[str, list[tuple]] = {}
    for sym in atoms:
        name = sym.name     # (read once: each read is a call into clingo, and a scenario has thousands)
        if name.startswith(prefix) and (name := name[len(prefix):]) in INPUT_NAMES:
            arguments = sym.arguments
            by.setdefault(f"{name}/{len(arguments)}", []).append(tuple(arguments))
    r = Report(policy=policy, vocab=vocab)
    for p, role in sorted(by.get("person/2", []), key=lambda t: t[0].number):
        r.persons.append((NAMES[p.number], role.name))
    single = {"rel/1": "rel", "event_kind/1": "event_kind", "game_kind/1": "game_kind",
              "round_kind/1": "round_kind", "tier/1": "tier", "round/1": "round",
              "best_of/1": "best_of", "day/1": "day", "ruling_minutes/1": "ruling_minutes"}
    for sig, attr in single.items():
        if by.get(sig):
            setattr(r, attr, symbol_value(by[sig][0][0]))
    if by.get("when/1"):
        w = by["when/1"][0][0]
        r.when = (w.name, w.arguments[0].number if w.arguments else None)
    counts: dict[tuple[int, str], int] = {(o.number, k.name): n.number for o, k, n in by.get("count/3", [])}
    others = {o.number: q.number for o, q in by.get("other_person/2", [])}
    for o, p, k in sorted(by.get("observation/3", []), key=lambda t: t[0].number):
        form = vocab.canonical("observation", k.name)
        obs = Observation(NAMES[p.number], k.name,
                          other=NAMES[others[o.number]] if o.number in others else None,
                          counts={s: counts[(o.number, s)] for s in form.slots
                                  if s not in ("P", "Q") and (o.number, s) in counts})
        mods = [Modifier(m.name, number=counts.get((o.number, vocab.counted_modifiers.get(m.name, "")))
                         if m.name in vocab.counted_modifiers else None)
                for o2, m in by.get("modifier/2", []) if o2 == o]
        mods += [Modifier(m.name, person=NAMES[q.number]) for o2, m, q in by.get("modifier/3", []) if o2 == o]
        obs.modifiers = sorted(mods, key=lambda m: (m.kind, m.person or ""))
        r.observations.append(obs)
    for p, pen, i, d, x in sorted(by.get("history/5", []), key=lambda t: tuple(str(a) for a in t[:4]) + (t[4].number,)):
        r.history.append(HistoryEntry(NAMES[p.number], constant_to_slug(pen.name), constant_to_slug(i.name),
                                      d.number or None))
    order = list(vocab.states)      # the vocabulary's order: time called before what follows it
    for kind, who in sorted(by.get("match_state/2", []),
                            key=lambda t: (order.index(t[0].name) if t[0].name in order else len(order), str(t[1]))):
        persons = [who] if who.type is clingo.SymbolType.Number else list(who.arguments)
        r.states.append(MatchState(kind.name, [NAMES[p.number] for p in persons]))
    for key, p, n in sorted(by.get("tally/3", []), key=lambda t: (t[0].name, t[1].number)):
        r.tallies.setdefault(key.name, []).append((NAMES[p.number], n.number))
    return r
