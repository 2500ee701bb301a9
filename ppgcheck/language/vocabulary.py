"""The report language's forms, read from rules/core/vocabulary.lp (their single source)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import clingo

from ppgcheck.cache import cached_json
from ppgcheck.resources import rules_dir

_SLOT = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Form:
    """One accepted phrase: its kind (the fact constant) and its text with {slots}."""

    category: str          # observation | modifier | header | when
    kind: str
    text: str
    fact: str

    @property
    def slots(self) -> list[str]:
        return _SLOT.findall(self.text)


@dataclass
class Vocabulary:
    observations: dict[str, list[Form]] = field(default_factory=dict)
    modifiers: dict[str, list[Form]] = field(default_factory=dict)
    headers: list[Form] = field(default_factory=list)
    when: dict[str, Form] = field(default_factory=dict)
    person_modifiers: set[str] = field(default_factory=set)
    counted_modifiers: dict[str, str] = field(default_factory=dict)
    two_person: set[str] = field(default_factory=set)
    count_ranges: dict[str, tuple[int, int]] = field(default_factory=dict)
    header_ranges: dict[str, tuple[int, int]] = field(default_factory=dict)
    values: dict[str, list[str]] = field(default_factory=dict)
    exclusive: dict[str, str] = field(default_factory=dict)     # modifier -> its group of mutually exclusive ones

    def canonical(self, category: str, kind: str) -> Form:
        table = self.observations if category == "observation" else self.modifiers
        return table[kind][0]

    def all_forms(self) -> list[Form]:
        forms = list(self.headers)
        for table in (self.observations, self.modifiers):
            for group in table.values():
                forms.extend(group)
        return forms


def _observation_fact(kind: str, text: str, vocab: Vocabulary) -> str:
    parts = [f"observation(O,P,{kind})"]
    if kind in vocab.two_person:
        parts.append("other_person(O,Q)")
    parts += [f"count(O,{slot},{slot.upper()})" for slot in _SLOT.findall(text) if slot not in ("P", "Q")]
    return ", ".join(parts)


def _modifier_fact(kind: str, text: str, vocab: Vocabulary) -> str:
    if kind in vocab.person_modifiers:
        return f"modifier(O,{kind},Q)"
    parts = [f"modifier(O,{kind})"]
    if kind in vocab.counted_modifiers:
        parts.append(f"count(O,{vocab.counted_modifiers[kind]},{vocab.counted_modifiers[kind].upper()})")
    return ", ".join(parts)


def load_vocabulary(path: Path) -> Vocabulary:
    ctl = clingo.Control(["--warn=none"])
    ctl.load(str(path))
    ctl.ground([("base", [])])
    atoms = [a.symbol for a in ctl.symbolic_atoms if a.is_fact]
    # keep declaration order for forms (canonical first): re-read the file order
    order = {text: i for i, text in enumerate(re.findall(r'"((?:[^"\\]|\\.)*)"', path.read_text()))}
    vocab = Vocabulary()
    staged: list[tuple[int, str, str, str]] = []
    for sym in atoms:
        name, args = sym.name, sym.arguments
        if name == "person_modifier":
            vocab.person_modifiers.add(args[0].name)
        elif name == "counted_modifier":
            vocab.counted_modifiers[args[0].name] = args[1].name
        elif name == "two_person_observation":
            vocab.two_person.add(args[0].name)
        elif name == "exclusive":
            vocab.exclusive[args[1].name] = args[0].name
        elif name == "count_range":
            vocab.count_ranges[args[0].name] = (args[1].number, args[2].number)
        elif name == "header_range":
            vocab.header_ranges[args[0].name] = (args[1].number, args[2].number)
        elif name in ("rel_value", "event_kind_value", "game_kind_value", "round_kind_value"):
            vocab.values.setdefault(name.removesuffix("_value"), []).append(args[0].name)
        elif name in ("observation_form", "modifier_form"):
            staged.append((order.get(args[1].string, 0), name, args[0].name, args[1].string))
        elif name == "header_form":
            vocab.headers.append(Form("header", args[0].name, args[1].string, args[2].string))
        elif name == "when_form" and args[0].type is clingo.SymbolType.Function and not args[0].arguments:
            vocab.when[args[0].name] = Form("when", args[0].name, args[1].string, f"when({args[0].name})")
        elif name == "when_form" and args[0].arguments:
            kind = args[0].name
            if kind not in vocab.when:
                text = args[1].string.replace(str(args[0].arguments[0].number), "{N}")
                vocab.when[kind] = Form("when", kind, text, f"when({kind}(N))")
    vocab.headers.sort(key=lambda f: order.get(f.text, 0))
    for _, name, kind, text in sorted(staged):
        if name == "observation_form":
            form = Form("observation", kind, text, "")
            vocab.observations.setdefault(kind, []).append(form)
        else:
            form = Form("modifier", kind, text, "")
            vocab.modifiers.setdefault(kind, []).append(form)
    for table, make in ((vocab.observations, _observation_fact), (vocab.modifiers, _modifier_fact)):
        for kind, forms in table.items():
            table[kind] = [Form(f.category, kind, f.text, make(kind, f.text, vocab)) for f in forms]
    return vocab


def catalog(vocab: Vocabulary) -> dict:
    """The forms as a report builder offers them: each observation and modifier kind with
    its canonical text (first) and its synonyms, the header values and ranges."""
    def kinds(table: dict[str, list[Form]], **flags) -> list[dict]:
        return [{"kind": kind, "text": group[0].text, "slots": group[0].slots,
                 "synonyms": [f.text for f in group[1:]],
                 **{name: test(kind) for name, test in flags.items()}}
                for kind, group in table.items()]
    return {
        "observations": kinds(vocab.observations, two_person=lambda k: k in vocab.two_person),
        "modifiers": kinds(vocab.modifiers, person=lambda k: k in vocab.person_modifiers,
                           group=lambda k: vocab.exclusive.get(k)),
        "headers": [{"kind": f.kind, "text": f.text, "fact": f.fact} for f in vocab.headers],
        "when": [{"kind": f.kind, "text": f.text} for f in vocab.when.values()],
        "values": vocab.values, "count_ranges": vocab.count_ranges, "header_ranges": vocab.header_ranges,
    }


def _to_json(vocab: Vocabulary) -> dict:
    def forms(table: dict[str, list[Form]]) -> dict:
        return {kind: [[f.category, f.kind, f.text, f.fact] for f in group] for kind, group in table.items()}
    return {"observations": forms(vocab.observations), "modifiers": forms(vocab.modifiers),
            "headers": [[f.category, f.kind, f.text, f.fact] for f in vocab.headers],
            "when": {kind: [f.category, f.kind, f.text, f.fact] for kind, f in vocab.when.items()},
            "person_modifiers": sorted(vocab.person_modifiers), "counted_modifiers": vocab.counted_modifiers,
            "two_person": sorted(vocab.two_person), "count_ranges": vocab.count_ranges,
            "header_ranges": vocab.header_ranges, "values": vocab.values, "exclusive": vocab.exclusive}


def _from_json(data: dict) -> Vocabulary:
    def forms(table: dict) -> dict[str, list[Form]]:
        return {kind: [Form(*f) for f in group] for kind, group in table.items()}
    return Vocabulary(
        observations=forms(data["observations"]), modifiers=forms(data["modifiers"]),
        headers=[Form(*f) for f in data["headers"]],
        when={kind: Form(*f) for kind, f in data["when"].items()},
        person_modifiers=set(data["person_modifiers"]), counted_modifiers=data["counted_modifiers"],
        two_person=set(data["two_person"]),
        count_ranges={k: (lo, hi) for k, (lo, hi) in data["count_ranges"].items()},
        header_ranges={k: (lo, hi) for k, (lo, hi) in data["header_ranges"].items()},
        values=data["values"], exclusive=data["exclusive"])


@cache
def vocabulary() -> Vocabulary:
    """The bundled vocabulary; read from the on-disk cache when vocabulary.lp is unchanged."""
    path = rules_dir() / "core" / "vocabulary.lp"
    return _from_json(cached_json("vocabulary", [path, Path(__file__)],
                                  lambda: _to_json(load_vocabulary(path))))
