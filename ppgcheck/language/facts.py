"""Report -> clingo symbols: the only place input facts are built.

Facts are built as clingo symbols, never as program text.  Persons are
numbered in order of declaration and observations in report order, so no
text of a report (a name above all) ever reaches clingo.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from clingo import Function, Number, Symbol

from ppgcheck.language.report import Report




def slug_to_constant(slug: str) -> str:
    """`card-drawing/drawing-extra-cards` -> `card_drawing__drawing_extra_cards`."""
    return slug.replace("/", "__").replace("-", "_")


def constant_to_slug(constant: str) -> str:
    return constant.replace("__", "/").replace("_", "-")


@cache
def _const(name: str) -> Symbol:
    return Function(name)       # symbols are immutable: each constant is built once


# an input fact as its predicate and arguments: the engine adds a report index
# in front of the arguments, so the whole atom is built only once, there
Fact = tuple[str, tuple[Symbol, ...]]


@dataclass
class Facts:
    inputs: list[Fact]
    persons: list[str]          # index i-1 is person i

    def person_name(self, index: int) -> str:
        return self.persons[index - 1]

    @property
    def symbols(self) -> list[Symbol]:
        """The facts as clingo atoms (as a report alone would state them)."""
        return [Function(name, list(arguments)) for name, arguments in self.inputs]


def build_facts(report: Report) -> Facts:
    counted = report.vocabulary.counted_modifiers
    persons = [name for name, _ in report.persons]
    pid = {name: Number(i + 1) for i, name in enumerate(persons)}
    out: list[Fact] = []

    def add(name: str, *arguments: Symbol) -> None:
        out.append((name, arguments))

    for name, role in report.persons:
        add("person", pid[name], _const(role))
    if report.rel:
        add("rel", _const(report.rel))
    if report.tier is not None:
        add("tier", Number(report.tier))
    if report.event_kind:
        add("event_kind", _const(report.event_kind))
    if report.game_kind:
        add("game_kind", _const(report.game_kind))
    if report.round is not None:
        add("round", Number(report.round))
    if report.round_kind:
        add("round_kind", _const(report.round_kind))
    if report.best_of is not None:
        add("best_of", Number(report.best_of))
    if report.day is not None:
        add("day", Number(report.day))
    elif report.event_day is not None:
        add("event_day", Number(report.event_day))
    if report.when:
        kind, number = report.when
        add("when", Function(kind, [Number(number)]) if number is not None else _const(kind))
    if report.ruling_minutes is not None:
        add("ruling_minutes", Number(report.ruling_minutes))
    if report.judge_call:
        inf, pen = report.judge_call
        add("judge_call", _const(slug_to_constant(inf)), _const(slug_to_constant(pen)))
    for i, obs in enumerate(report.observations, start=1):
        o = Number(i)
        add("observation", o, pid[obs.subject], _const(obs.kind))
        if obs.other is not None:
            add("other_person", o, pid[obs.other])
        for key, value in obs.counts.items():
            add("count", o, _const(key), Number(value))
        for mod in obs.modifiers:
            if mod.person is not None:
                add("modifier", o, _const(mod.kind), pid[mod.person])
            else:
                add("modifier", o, _const(mod.kind))
            if mod.number is not None:
                key = counted[mod.kind]
                add("count", o, _const(key), Number(mod.number))
    for state in report.states:
        who = [pid[name] for name in state.persons]
        add("match_state", _const(state.kind),
            _const("none") if not who else who[0] if len(who) == 1 else Function("", who))
    for key, pairs in report.tallies.items():
        for name, number in pairs:
            add("tally", _const(key), pid[name], Number(number))
    seen: dict[tuple, int] = {}
    for entry in report.history:
        key = (entry.person, entry.penalty, entry.infraction, entry.day or 0)
        seen[key] = seen.get(key, 0) + 1
        add("history", pid[entry.person], _const(slug_to_constant(entry.penalty)),
            _const(slug_to_constant(entry.infraction)), Number(entry.day or 0), Number(seen[key]))
        if entry.day:       # the days the history names, apart (core's today/1 reads them, not history/5)
            add("history_day", Number(entry.day))
    # the same fact twice (a modifier repeated) is one fact
    return Facts(list(dict.fromkeys(out)), persons)
