"""Report -> canonical text, with the first form of each kind: parse(print(r)) == r."""
from __future__ import annotations

import re

from ppgcheck.language.grammar import Language, language, tokens, unit_positions
from ppgcheck.language.model import HistoryEntry, Observation, Report
from ppgcheck.language.names import OPPONENT
from ppgcheck.language.vocabulary import PERSON_SLOTS, Form, Vocabulary, value_text, vocabulary


def quote_name(name: str, lang: Language | None = None) -> str:
    """A (declared) name bare where the report reads it as declared, else quoted: one word
    that is no keyword where a name stands, or bare words and single spaces (names.py)."""
    lang = lang or language(vocabulary())
    words = name.split(" ")
    if all(lang.bare_name.fullmatch(w) for w in words) and not OPPONENT.fullmatch(name) \
            and (len(words) > 1 or name.lower() not in lang.must_quote):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def fill(form: Form, values: dict[str, str], vocab: Vocabulary) -> str:
    """A form's text with its slots filled; a unit agrees with its number (`1 extra card`)."""
    items = tokens(form.text)
    units = unit_positions(items, vocab)
    out: list[str] = []
    for i, (what, name) in enumerate(items):
        if what == "slot":
            out.append(values[name])
        elif i in units:
            singular, plural = vocab.units[units[i]][0]
            out.append(singular if values.get(units[i]) == "1" else plural)
        else:
            out.append(name)
    return re.sub(r" 's\b", "'s", " ".join(out)).replace(" ,", ",")


def print_observation(obs: Observation, vocab: Vocabulary | None = None) -> str:
    vocab = vocab or vocabulary()
    lang = language(vocab)
    values = {"P": quote_name(obs.subject, lang), "Q": quote_name(obs.other or "", lang)}
    values.update({k: str(v) for k, v in obs.counts.items()})
    parts = [fill(vocab.canonical("observation", obs.kind), values, vocab)]
    for mod in obs.modifiers:
        form = vocab.canonical("modifier", mod.kind)
        slot_values = {"Q": quote_name(mod.person or "", lang)}
        if mod.number is not None:
            slot_values.update({s: str(mod.number) for s in form.slots if s not in PERSON_SLOTS})
        parts.append(fill(form, slot_values, vocab))
    return ", ".join(parts)


def print_report(report: Report) -> str:
    vocab = report.vocabulary
    lang = language(vocab)
    out: list[str] = []
    if report.policy:
        out.append(f"policy: {report.policy}")
    if report.rel:
        out.append(f"rel: {value_text(report.rel)}")
    if report.tier is not None:
        out.append(f"tier: {report.tier}")
    if report.event_kind:
        out.append(f"event: {value_text(report.event_kind)}")
    if report.game_kind:
        out.append(f"game: {value_text(report.game_kind)}")
    if report.round is not None:
        out.append(f"round: {report.round}" + (f", {value_text(report.round_kind)}" if report.round_kind else ""))
    elif report.round_kind == "draft":
        out.append("round: draft")
    if report.best_of is not None:
        out.append("match: single game" if report.best_of == 1 else f"match: best of {report.best_of}")
    if report.day is not None:
        out.append(f"day: {report.day}")
    if report.table is not None:
        out.append(f"table: {report.table}")
    if report.when:
        kind, number = report.when
        form = vocab.when[kind]
        out.append("when: " + fill(form, {slot: str(number) for slot in form.slots}, vocab))
    for name, role in report.persons:
        out.append(f"{role}: {quote_name(name, lang)}")
    out.extend(print_observation(obs, vocab) for obs in report.observations)
    for key, pairs in report.tallies.items():
        text = vocab.canonical("tally", key).text
        out.append(f"{text}: " + ", ".join(f"{quote_name(name, lang)} {n}" for name, n in pairs))
    for state in report.states:
        form = vocab.canonical("state", state.kind)
        slots = [s for s in form.slots if s in PERSON_SLOTS]
        out.append(fill(form, {s: quote_name(n, lang) for s, n in zip(slots, state.persons)}, vocab))
    if report.ruling_minutes is not None:
        out.append(f"the ruling took {report.ruling_minutes} minutes")
    if report.judge_call:
        out.append(f"judge call: {report.judge_call[0]}, {report.judge_call[1]}")
    if report.history:
        out.append("history:")
        out.extend(f"  {print_history_entry(e, lang)}" for e in report.history)
    return "\n".join(out) + "\n"


def print_history_entry(entry: HistoryEntry, lang: Language | None = None) -> str:
    day = f", day {entry.day}" if entry.day is not None else ""
    return f"{quote_name(entry.person, lang)}: {entry.penalty} for {entry.infraction}{day}"


def print_reports(reports: list[Report]) -> str:
    return "---\n".join(print_report(r) for r in reports)
