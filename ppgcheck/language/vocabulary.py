"""The report language's forms: rules/core/vocabulary.lp, and those a pack declares in its folder.

The forms are the single source of the language: ppgcheck/language/grammar.py
generates the observation, modifier and header-value rules of the grammar from
them, `ppgcheck vocab` lists them, and the printer writes a report back with
them.  A pack adds words with the same facts as the core (`observation_form/2`,
`modifier_form/2`, ...) in any of its files; Python reads only those facts.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import clingo

from ppgcheck.cache import cached_json
from ppgcheck.contract import LANGUAGE as LANGUAGE_PREDICATES
from ppgcheck.contract import READING as READING_PREDICATES
from ppgcheck.contract import VALUE_FACTS
from ppgcheck.errors import PolicyError
from ppgcheck.packs import confine, isolation, overrun
from ppgcheck.packs.pack import Pack, language_files

_SLOT = re.compile(r"\{(\w+)\}")
PERSON_SLOTS = ("P", "Q")



@dataclass(frozen=True)
class Form:
    """One accepted phrase: its kind (the fact constant) and its text with {slots}."""

    category: str          # observation | modifier | adverb | state | tally | header | when | value | number
    kind: str
    text: str
    fact: str
    origin: str = "core"   # core, or the pack that declares it

    @property
    def slots(self) -> list[str]:
        return _SLOT.findall(self.text)


@dataclass
class Vocabulary:
    observations: dict[str, list[Form]] = field(default_factory=dict)
    modifiers: dict[str, list[Form]] = field(default_factory=dict)
    adverbs: dict[str, list[Form]] = field(default_factory=dict)    # modifier -> words before the verb
    headers: list[Form] = field(default_factory=list)
    states: dict[str, list[Form]] = field(default_factory=dict)     # match-state statements
    tallies: dict[str, list[Form]] = field(default_factory=dict)    # `score:` lines, by their key
    tally_ranges: dict[str, tuple[int, int]] = field(default_factory=dict)
    state_groups: dict[str, str] = field(default_factory=dict)    # state kind -> its group (check's scenarios)
    when: dict[str, Form] = field(default_factory=dict)
    person_modifiers: set[str] = field(default_factory=set)
    counted_modifiers: dict[str, str] = field(default_factory=dict)
    two_person: set[str] = field(default_factory=set)
    count_ranges: dict[str, tuple[int, int]] = field(default_factory=dict)
    header_ranges: dict[str, tuple[int, int]] = field(default_factory=dict)
    values: dict[str, list[str]] = field(default_factory=dict)
    exclusive: dict[str, str] = field(default_factory=dict)     # modifier -> its group of mutually exclusive ones
    numbers: dict[str, int] = field(default_factory=dict)       # number words: `an` -> 1
    units: dict[str, list[tuple[str, str]]] = field(default_factory=dict)   # count key -> (singular, plural)
    word_classes: dict[str, list[str]] = field(default_factory=dict)
    value_origins: dict[str, str] = field(default_factory=dict)  # `header:value` -> pack, for a pack's values
    reading: dict = field(default_factory=dict)   # the tolerant reader's words (reading.lp): name -> facts
    # the observation kinds the pack's rules name (suggestions offer only these); None: every kind
    policy_kinds: list[str] | None = None
    pack: str | None = None        # the pack whose forms are added to the core's
    key: str = field(default="", compare=False)   # a digest of the forms: one parser per key

    def canonical(self, category: str, kind: str) -> Form:
        table = {"observation": self.observations, "state": self.states, "tally": self.tallies}.get(
            category, self.modifiers)
        try:
            return table[kind][0]
        except KeyError:
            where = f"policy `{self.pack}`" if self.pack else "the core vocabulary"
            raise PolicyError(f"no form of {where} writes the {category} `{kind}`") from None

    def all_forms(self) -> list[Form]:
        forms = list(self.headers)
        for table in (self.observations, self.modifiers, self.adverbs, self.states, self.tallies):
            for group in table.values():
                forms.extend(group)
        return forms

    def value_forms(self) -> list[Form]:
        """Each header value and number word, as a form."""
        forms = [Form("value", value, value_text(value), f"{header}({value})",
                      self.value_origins.get(f"{header}:{value}", "core"))
                 for header, values in self.values.items() for value in values]
        forms += [Form("number", str(n), word, f"N = {n}") for word, n in self.numbers.items()]
        return forms


def value_text(value: str) -> str:
    """A header value as a report writes it (`board_game` -> `board game`)."""
    return value.replace("_", " ")


# ---------------------------------------------------------------------------
# reading the facts
# ---------------------------------------------------------------------------

def _language_statements(files: Sequence[Path], everything: bool = False) -> list[clingo.ast.AST]:
    """The statements of a pack's files that state language facts (and the #const they may
    use); `everything`: all of them.  Parsed confined (ppgcheck/packs/confine.py): a pack's
    vocabulary is untrusted like the rest of it."""
    # (only when the vocabulary is read, not from the cache)
    import clingo.ast
    from ppgcheck.packs.program import parse_files
    kept: list[clingo.ast.AST] = []

    def keep(statement: clingo.ast.AST) -> None:
        if everything or statement.ast_type is clingo.ast.ASTType.Definition:
            kept.append(statement)
        elif statement.ast_type is clingo.ast.ASTType.Rule and \
                _head_signature(statement) in LANGUAGE_PREDICATES | READING_PREDICATES:
            kept.append(statement)

    for path in files:
        for statement in parse_files([path]):
            keep(statement)
    return kept


def _head_signature(rule: clingo.ast.AST) -> tuple[str, int] | None:
    # (only when the vocabulary is read, not from the cache)
    import clingo.ast
    head = rule.head
    if head.ast_type is not clingo.ast.ASTType.Literal or head.atom.ast_type is not clingo.ast.ASTType.SymbolicAtom:
        return None
    symbol = head.atom.symbol
    if symbol.ast_type is not clingo.ast.ASTType.Function:
        return None
    return symbol.name, len(symbol.arguments)


def _ground(statements: list) -> list[clingo.Symbol]:
    # (only when the vocabulary is read, not from the cache)
    import clingo.ast
    ctl = clingo.Control(["--warn=none"])
    with clingo.ast.ProgramBuilder(ctl) as builder:
        for statement in statements:
            builder.add(statement)
    ctl.ground([("base", [])])
    return [a.symbol for a in ctl.symbolic_atoms if a.is_fact]


def _text_order(files: Sequence[Path]) -> dict[str, int]:
    """Where each string first occurs, file after file: the first form of a kind is canonical."""
    order: dict[str, int] = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        for found in re.finditer(r'"((?:[^"\\]|\\.)*)"|_value\(([^)]*)\)', text):
            string, values = found.groups()
            for item in [string] if string is not None else [v.strip() for v in values.split(";")]:
                order.setdefault(item, len(order))
    return order


def load_vocabulary(core: Path, pack_files: Sequence[Path] = (), pack: str | None = None) -> Vocabulary:
    """The core's vocabulary file plus the language facts of a pack's files (their forms'
    origin is `pack`)."""
    reading = _reading_file(core)
    core_statements = _language_statements([core, *reading], everything=True)
    core_atoms = _ground(core_statements)
    statements = _language_statements(pack_files) if pack_files else []
    atoms = _ground(core_statements + statements) if statements else core_atoms
    from_core = set(core_atoms)
    origin = lambda sym: "core" if sym in from_core else "pack"   # noqa: E731
    order = _text_order([core, *pack_files, *reading])
    vocab = Vocabulary(pack=pack)
    staged: list[tuple[int, str, str, str, str]] = []
    described: set[str] = set()         # the kinds a pack's own signs and hints describe
    for sym in atoms:
        name, args = sym.name, sym.arguments
        if name.startswith("read_"):
            vocab.reading.setdefault(name, []).append([a.string if a.type == clingo.SymbolType.String
                                                       else str(a) for a in args])
            if name in ("read_sign", "read_hint", "read_scene") and origin(sym) != "core":
                described.add(str(args[0]))
        elif name == "person_modifier":
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
        elif name == "state_group":
            vocab.state_groups[args[1].name] = args[0].name
        elif name == "tally_range":
            vocab.tally_ranges[args[0].name] = (args[1].number, args[2].number)
        elif name in VALUE_FACTS:
            vocab.values.setdefault(VALUE_FACTS[name], []).append(args[0].name)
            if origin(sym) != "core":
                vocab.value_origins[f"{VALUE_FACTS[name]}:{args[0].name}"] = origin(sym)
        elif name == "number_word":
            vocab.numbers[args[0].string.lower()] = args[1].number
        elif name == "unit":
            vocab.units.setdefault(args[0].name, []).append((args[1].string, args[2].string))
        elif name == "word_class":
            vocab.word_classes.setdefault(args[0].name, []).append(args[1].string.lower())
        elif name in ("observation_form", "modifier_form", "adverb_form", "state_form", "tally_form"):
            staged.append((order.get(args[1].string, 0), name.removesuffix("_form"), args[0].name,
                           args[1].string, origin(sym)))
        elif name == "header_form":
            vocab.headers.append(Form("header", args[0].name, args[1].string, args[2].string))
        elif name == "when_form":
            kind = args[0].name
            if kind not in vocab.when:
                fact = f"when({kind}(N))" if args[0].arguments else f"when({kind})"
                vocab.when[kind] = Form("when", kind, args[1].string, fact, origin(sym))
    vocab.headers.sort(key=lambda f: order.get(f.text, 0))
    vocab.when = dict(sorted(vocab.when.items(), key=lambda item: order.get(item[1].text, 0)))
    for category in (vocab.values, vocab.units, vocab.word_classes):
        for key, items in category.items():
            items.sort(key=lambda item: order.get(item[0] if isinstance(item, tuple) else item, 0))
    vocab.numbers = dict(sorted(vocab.numbers.items(), key=lambda item: (item[1], order.get(item[0], 0))))
    tables = {"observation": vocab.observations, "modifier": vocab.modifiers, "adverb": vocab.adverbs,
              "state": vocab.states, "tally": vocab.tallies}
    for _, category, kind, text, where in sorted(staged):
        tables[category].setdefault(kind, []).append(Form(category, kind, text, "", where))
    for category, table in tables.items():
        for kind, forms in table.items():
            table[kind] = [Form(category, kind, f.text, _fact(category, kind, f.text, vocab), f.origin)
                           for f in forms]
    for facts in vocab.reading.values():
        facts.sort(key=lambda args: [order.get(a, 0) for a in args])
    if pack_files:
        named = set(_kinds_named(vocab, pack_files)) | described
        vocab.policy_kinds = [kind for kind in vocab.observations if kind in named]
    check_vocabulary(vocab)
    return vocab


def _reading_file(core: Path) -> list[Path]:
    """The core's reading.lp beside its vocabulary.lp (a core may have none)."""
    reading = core.parent / "reading.lp"
    return [reading] if reading.is_file() else []


_LANGUAGE_FACT = re.compile(r'\b(?:\w+_form|read_\w+)\((?:[^()"]|"(?:[^"\\]|\\.)*"|\((?:[^()"]|"(?:[^"\\]|\\.)*")*\))*\)\.')


def _kinds_named(vocab: Vocabulary, pack_files: Sequence[Path]) -> list[str]:
    """The observation kinds a pack's rules name outside its language facts (each fact
    whole, over as many lines as it takes): with the kinds its own signs and hints describe,
    the forms of its policy (a suggestion offers no form the policy's pack never names)."""
    text = "\n".join(re.sub(r"%.*", "", path.read_text(encoding="utf-8")) for path in pack_files)
    rules = _LANGUAGE_FACT.sub(" ", text)
    named = set(re.findall(r"[a-z_][a-z0-9_]*", rules))
    return [kind for kind in vocab.observations if kind in named]


def catalog(vocab: Vocabulary) -> dict:
    """The forms as a report builder offers them: each observation and modifier kind with
    its canonical text (first) and its synonyms (an observation also with the words the
    tolerant reader takes for it: its signs, hints and cues), the header values and ranges."""
    def kinds(table: dict[str, list[Form]], **flags) -> list[dict]:
        return [{"kind": kind, "text": group[0].text, "slots": group[0].slots,
                 "synonyms": [f.text for f in group[1:]],
                 **{name: test(kind) for name, test in flags.items()}}
                for kind, group in table.items()]
    said: dict[str, set[str]] = {}        # the reader's words for each kind (a builder's search finds them)
    for fact in ("read_sign", "read_hint", "read_scene", "read_cue"):
        for kind, text in vocab.reading.get(fact, []):
            said.setdefault(kind, set()).add(text)
    return {
        "observations": kinds(vocab.observations, two_person=lambda k: k in vocab.two_person,
                              words=lambda k: sorted(said.get(k, ()))),
        "modifiers": kinds(vocab.modifiers, person=lambda k: k in vocab.person_modifiers,
                           group=lambda k: vocab.exclusive.get(k)),
        "states": kinds(vocab.states),
        "tallies": [{"kind": kind, "text": f"{group[0].text}: NAME N, NAME N",
                     "range": vocab.tally_ranges.get(kind)} for kind, group in vocab.tallies.items()],
        "headers": [{"kind": f.kind, "text": f.text, "fact": f.fact} for f in vocab.headers],
        "when": [{"kind": f.kind, "text": f.text} for f in vocab.when.values()],
        "values": vocab.values, "count_ranges": vocab.count_ranges, "header_ranges": vocab.header_ranges,
    }


def _fact(category: str, kind: str, text: str, vocab: Vocabulary) -> str:
    if category == "state":
        persons = [slot for slot in _SLOT.findall(text) if slot in PERSON_SLOTS]
        who = "none" if not persons else persons[0] if len(persons) == 1 else f"({','.join(persons)})"
        return f"match_state({kind},{who})"
    if category == "tally":
        return f"tally({kind},P,N) for each pair"
    if category == "observation":
        parts = [f"observation(O,P,{kind})"]
        if kind in vocab.two_person:
            parts.append("other_person(O,Q)")
        parts += [f"count(O,{slot},{slot.upper()})" for slot in _SLOT.findall(text) if slot not in PERSON_SLOTS]
        return ", ".join(parts)
    if kind in vocab.person_modifiers:
        return f"modifier(O,{kind},Q)"
    parts = [f"modifier(O,{kind})"]
    if kind in vocab.counted_modifiers:
        parts.append(f"count(O,{vocab.counted_modifiers[kind]},{vocab.counted_modifiers[kind].upper()})")
    return ", ".join(parts)


# ---------------------------------------------------------------------------
# what a form may say
# ---------------------------------------------------------------------------

_WORD = re.compile(r"[\w'\-]+\Z")


def check_vocabulary(vocab: Vocabulary) -> None:
    """Each form's slots agree with the declarations the rules read (person_modifier,
    counted_modifier, two_person_observation, count_range), synonyms of a kind state the
    same facts, and no text is two kinds'.  A pack's mistake is a PolicyError naming it."""
    seen: dict[tuple[str, str], Form] = {}

    def where(form: Form) -> str:
        return "the core" if form.origin == "core" else f"policy `{vocab.pack}`"

    for form in vocab.all_forms():
        if form.category == "header":
            continue
        problem = _form_problem(form, vocab)
        if problem:
            raise PolicyError(f"{form.category} form `{form.text}` of {where(form)}: {problem}")
        key = (form.category if form.category != "adverb" else "modifier", _normal(form.text))
        other = seen.setdefault(key, form)
        if other.kind != form.kind:
            raise PolicyError(f"{form.category} form `{form.text}` of {where(form)} is also a form of "
                              f"`{other.kind}`: one text must mean one fact")
    for table in (vocab.observations, vocab.modifiers, vocab.states):
        for kind, forms in table.items():
            slots = sorted(forms[0].slots)
            for form in forms[1:]:
                if sorted(form.slots) != slots:
                    raise PolicyError(f"{form.category} form `{form.text}` of {where(form)} states other facts "
                                      f"than `{forms[0].text}`, the first form of `{kind}`: a synonym must have "
                                      "the same {slots}")
    for kind, forms in vocab.adverbs.items():
        if kind not in vocab.modifiers or kind in vocab.person_modifiers or kind in vocab.counted_modifiers:
            raise PolicyError(f"adverb form `{forms[0].text}` of {where(forms[0])}: an adverb stands for a "
                              f"modifier with no person or number, and `{kind}` needs a modifier_form of its own")


def _form_problem(form: Form, vocab: Vocabulary) -> str | None:
    words = [w for w in re.split(r"\{\w+\}|\s+|(?<=\w),(?=\s)" if form.category == "state"
                                 else r"\{\w+\}|\s+", form.text) if w]
    bad = next((w for w in words if not _WORD.match(w)), None)
    if bad:
        return f"`{bad}` is not a word (letters, digits, `-` and `'`)"
    slots = form.slots
    persons = [s for s in slots if s in PERSON_SLOTS]
    numbers = [s for s in slots if s not in PERSON_SLOTS]
    unknown = [s for s in numbers if s not in vocab.count_ranges and form.category != "when"]
    if unknown:
        return f"`{{{unknown[0]}}}` has no count_range({unknown[0]}, Low, High)"
    if len(set(slots)) != len(slots):
        return "a slot is named twice"
    if form.category == "observation":
        if "P" not in persons:
            return "an observation needs its subject `{P}`"
        if ("Q" in persons) != (form.kind in vocab.two_person):
            return (f"`{{Q}}` names a second person: declare two_person_observation({form.kind})" if "Q" in persons
                    else f"`{form.kind}` is a two_person_observation: the form needs `{{Q}}`")
    elif form.category == "modifier":
        if "P" in persons:
            return "a modifier names its person as `{Q}`"
        if ("Q" in persons) != (form.kind in vocab.person_modifiers):
            return (f"`{{Q}}` names a person: declare person_modifier({form.kind})" if persons
                    else f"`{form.kind}` is a person_modifier: the form needs `{{Q}}`")
        counted = vocab.counted_modifiers.get(form.kind)
        if numbers != ([counted] if counted else []):
            return (f"`{{{numbers[0]}}}` states a number: declare counted_modifier({form.kind}, {numbers[0]})"
                    if numbers and not counted else f"`{form.kind}` counts `{counted}`: the form needs `{{{counted}}}`"
                    if counted else "a modifier states at most one number")
    elif form.category == "adverb" and slots:
        return "an adverb has no slots"
    elif form.category == "state" and (numbers or (persons and persons[0] != "P")):
        return "a state names persons only, the first `{P}`"
    elif form.category == "tally" and (slots or form.kind not in vocab.tally_ranges):
        return ("a tally line has no slots" if slots else
                f"`{form.kind}` has no tally_range({form.kind}, Low, High)")
    elif form.category == "when" and (persons or len(numbers) > 1 or
                                      any(n not in vocab.header_ranges for n in numbers)):
        return "a `when:` value names at most one number, a header_range key"
    return None


def _normal(text: str) -> str:
    return " ".join(_SLOT.sub("{}", text).lower().split())


# ---------------------------------------------------------------------------
# the vocabulary of a pack, cached by the bytes of the files it is read from
# ---------------------------------------------------------------------------

def _to_json(vocab: Vocabulary) -> dict:
    def forms(table: dict[str, list[Form]]) -> dict:
        return {kind: [[f.category, f.kind, f.text, f.fact, f.origin] for f in group] for kind, group in table.items()}
    return {"observations": forms(vocab.observations), "modifiers": forms(vocab.modifiers),
            "adverbs": forms(vocab.adverbs),
            "headers": [[f.category, f.kind, f.text, f.fact, f.origin] for f in vocab.headers],
            "states": forms(vocab.states), "tallies": forms(vocab.tallies), "tally_ranges": vocab.tally_ranges,
            "state_groups": vocab.state_groups,
            "when": {kind: [f.category, f.kind, f.text, f.fact, f.origin] for kind, f in vocab.when.items()},
            "person_modifiers": sorted(vocab.person_modifiers), "counted_modifiers": vocab.counted_modifiers,
            "two_person": sorted(vocab.two_person), "count_ranges": vocab.count_ranges,
            "header_ranges": vocab.header_ranges, "values": vocab.values, "exclusive": vocab.exclusive,
            "numbers": vocab.numbers, "units": vocab.units, "word_classes": vocab.word_classes,
            "value_origins": vocab.value_origins, "reading": vocab.reading, "policy_kinds": vocab.policy_kinds}


def _from_json(data: dict, key: str) -> Vocabulary:
    def forms(table: dict) -> dict[str, list[Form]]:
        return {kind: [Form(*f) for f in group] for kind, group in table.items()}
    return Vocabulary(
        observations=forms(data["observations"]), modifiers=forms(data["modifiers"]),
        adverbs=forms(data["adverbs"]), headers=[Form(*f) for f in data["headers"]],
        states=forms(data["states"]), tallies=forms(data["tallies"]),
        tally_ranges={k: (lo, hi) for k, (lo, hi) in data["tally_ranges"].items()},
        state_groups=data["state_groups"],
        when={kind: Form(*f) for kind, f in data["when"].items()},
        person_modifiers=set(data["person_modifiers"]), counted_modifiers=data["counted_modifiers"],
        two_person=set(data["two_person"]),
        count_ranges={k: (lo, hi) for k, (lo, hi) in data["count_ranges"].items()},
        header_ranges={k: (lo, hi) for k, (lo, hi) in data["header_ranges"].items()},
        values=data["values"], exclusive=data["exclusive"], numbers=data["numbers"],
        units={k: [tuple(u) for u in units] for k, units in data["units"].items()},
        word_classes=data["word_classes"], value_origins=data["value_origins"], reading=data["reading"],
        policy_kinds=data["policy_kinds"], key=key)


def vocabulary(policy: str | None = None, rules: Path | None = None) -> Vocabulary:
    """The core's vocabulary, with a pack's forms added when `policy` names a pack of the
    rules folder (the bundled one by default).  Read from the on-disk cache when no file changed."""
    return _policy_vocabulary(policy, Path(rules) if rules is not None else None)


@cache
def _policy_vocabulary(policy: str | None, rules: Path | None) -> Vocabulary:   # once a process, like engines
    # a pack's files are found by the one pack resolver (packs/pack.py), where what an
    # untrusted pack may read is decided
    core, pack_files = language_files(policy, rules)
    return _vocabulary(core, tuple(pack_files))


@cache
def _vocabulary(core: Path, pack_files: tuple[Path, ...]) -> Vocabulary:
    return vocabulary_of_files(core, pack_files, pack_files[0].parent.name if pack_files else None)


def vocabulary_of_files(core: Path, pack_files: Sequence[Path], pack: str | None) -> Vocabulary:
    """The vocabulary of a core file and a pack's files, cached by their bytes (a pack's
    forms have the origin `pack`; `pack` names it)."""
    # before a byte is read (the cache hashes them), the pack's size capped too
    confine.check_files([core, *_reading_file(core), *pack_files], size=confine.PackSize())
    inputs = [core, *_reading_file(core), *pack_files]
    # grounding the language facts is a pack's rules at work: a bounded job like the others
    data = cached_json("vocabulary", inputs, lambda: isolation.call_bounded(
        lambda: _to_json(load_vocabulary(core, pack_files, pack)), f"the vocabulary of {confine.shown(core.parent)}"
        + (f" and {confine.shown(pack_files[0].parent)}" if pack_files else ""),
        lambda: overrun.locate([core, *pack_files])))
    # the key is the language's, not the files': packs that add no words share one parser
    grammar_data = {k: v for k, v in data.items() if k not in ("reading", "policy_kinds")}   # not the grammar's
    vocab = _from_json(data, hashlib.sha256(json.dumps(grammar_data, sort_keys=True).encode()).hexdigest()[:32])
    vocab.pack = pack
    return vocab


def pack_vocabulary(pack: Pack) -> Vocabulary:
    """The language of a pack's reports: the core's forms and the pack's own (read once a pack)."""
    if "vocabulary" not in pack.derived:
        pack.derived["vocabulary"] = vocabulary_of_files(pack.core / "vocabulary.lp", pack.files, pack.id)
    return pack.derived["vocabulary"]
