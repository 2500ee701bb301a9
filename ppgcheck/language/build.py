"""The parse tree of a report -> Report: a Lark Transformer with a method per rule.

Leaves become names, numbers and the facts of the form they were written in;
each statement becomes a small record; `report` puts the records of one report
together in order and checks what needs the whole report (a header given twice,
a history entry outside `history:`, a name nobody declared).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from lark import Token, Transformer
from lark.tree import Meta

from ppgcheck.errors import ReportError
from ppgcheck.language.grammar import Language
from ppgcheck.language.model import HistoryEntry, MatchState, Modifier, Observation, Report
from ppgcheck.language.names import INVISIBLE, Name, Resolver
from ppgcheck.language.vocabulary import PERSON_SLOTS, Form, Vocabulary

MAX_PERSONS = 8
MAX_OBSERVATIONS = 8
MAX_HISTORY_REPEATS = 6
# every range of the language (Vocabulary's *_ranges) lies far below 10**18: a number written
# with more digits is out of range before int() reads it (it refuses 4,301 digits or more)
MAX_DIGITS = 18


@dataclass
class Number:
    value: int
    line: int
    column: int
    written: str = ""       # the digits as written, for the error of a number out of range


def _read_int(digits: str) -> int:
    """The value of INT's digits; 10**MAX_DIGITS (beyond every range) for a longer number."""
    significant = digits.lstrip("0") or "0"
    return int(significant) if len(significant) <= MAX_DIGITS else 10**MAX_DIGITS


def _as_written(value: int, written: str) -> str:
    """A number for an error message, quoted: a long one by its first digits and its length."""
    if not written:
        return f"`{value}`"
    return f"`{written}`" if len(written) <= 24 else f"`{written[:12]}…` ({len(written)} digits)"


@dataclass
class _Header:
    key: str                                   # for "given twice"; "" for a person, who may repeat
    meta: Meta
    values: dict = field(default_factory=dict)     # Report attributes it sets
    positions: dict = field(default_factory=dict)
    person: tuple[Name, str] | None = None     # a `player:` / `spectator:` declaration


@dataclass
class _Continuation:
    modifiers: list[Modifier]
    meta: Meta


@dataclass
class _HistoryHead:
    meta: Meta


_ESCAPE = re.compile(r'\\(["\\])')
_NAME_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# shown as `?`, so the caret lines up
_CONTROL_SHOWN = re.compile(r"[\x00-\x1f\x7f\ufeff]|" + INVISIBLE.pattern)


@dataclass
class _Tally:
    key: str
    pairs: list[tuple[Name, int]]
    meta: Meta


def _line(lines: list[str], n: int) -> str:
    return lines[n - 1] if 0 < n <= len(lines) else ""


def _said(kind: str) -> str:
    """A modifier's id as a judge reads it (`caught_at_once` -> `caught at once`)."""
    return kind.replace("_", " ")


class ReportBuilder(Transformer):
    """Turns the tree of a file (`start`) into its Reports, validating as it goes.  Each
    rule's method takes (meta, children); a generated `form_<n>` goes to the method of its
    form's category."""

    def _call_userfunc(self, tree, new_children=None):
        # Lark's own dispatch (v_args wrappers made per call, an AttributeError per generated
        # alternative) was a sixth of parsing a report: one lookup in a table instead
        children = tree.children if new_children is None else new_children
        method = _RULES.get(tree.data)
        if method is not None:
            return method(self, tree.meta, children)
        return self.__default__(tree.data, children, tree.meta)

    def __init__(self, source: str, lines: list[str], language: Language, vocab: Vocabulary,
                 line_offset: int = 0) -> None:
        super().__init__(visit_tokens=False)
        self.source, self.lines, self.language, self.vocab = source, lines, language, vocab
        self.line_offset = line_offset      # lines of the file before `lines` (a report read alone)
        self.uses: list[Name] = []       # the names the current report's statements use
        self.resolver = Resolver(lines, self._fail)     # names as declared, `the opponent`, pronouns

    def _fail(self, message: str, line: int, column: int, **extra) -> ReportError:
        return ReportError(message, self.source, line, column, _line(self.lines, line), **extra)

    def _in_range(self, value: int, line: int, column: int, bounds: tuple[int, int], what: str,
                  written: str = "") -> int:
        lo, hi = bounds
        if not lo <= value <= hi:
            raise self._fail(f"{what} {_as_written(value, written)} is out of range: expected {lo} to {hi}",
                             line, column)
        return value

    def _header_number(self, token: Token, key: str, what: str) -> int:
        return self._in_range(_read_int(token.value), token.line, token.column, self.vocab.header_ranges[key],
                              what, token.value)

    # --- leaves ----------------------------------------------------------------
    def person(self, meta: Meta, children: list[Token]) -> Name:
        """A name (its declared spelling), a quoted one unescaped (\\" and \\\\), `the opponent` or
        a pronoun as the declared name it stands for (names.py)."""
        token = children[0]
        value = token.value
        if token.type == "QNAME":
            self._refuse_hidden(token)
            value = _ESCAPE.sub(r"\1", token.value[1:-1])
        return Name(self.resolver.person(token, value), token)

    def _refuse_hidden(self, token: Token) -> None:
        """A control character (a tab, say), bidi control or zero-width character in a quoted
        name is an error at its column: the name would look like another."""
        for pattern, what in ((_NAME_CONTROL, "control character"),
                              (INVISIBLE, "bidi control or zero-width character")):
            bad = pattern.search(token.value)
            if bad:
                raise ReportError(f"{what} U+{ord(bad.group()):04X} is not allowed in a name", self.source,
                                  token.line, token.column + bad.start(),
                                  _CONTROL_SHOWN.sub("?", _line(self.lines, token.line)))

    def number(self, meta: Meta, children: list) -> Number:
        child = children[0]
        if isinstance(child, Number):       # a number word
            return child
        return Number(_read_int(child.value), child.line, child.column, child.value)

    def __default__(self, data: str, children: list, meta: Meta):
        """The generated alternatives: `form_<n>` is the n-th form of the language."""
        if not data.startswith("form_"):   # pragma: no cover - every skeleton rule has a method
            raise self._fail(f"no method for the rule `{data}`", meta.line, meta.column)
        form = self.language.forms[int(data[5:])]
        return getattr(self, f"_{form.category}")(form, children, meta)

    def _slots(self, form: Form, children: list) -> dict[str, Name | Number]:
        """The persons and numbers of a form, by the slot each fills (they come in text order)."""
        values = [c for c in children if isinstance(c, (Name, Number))]
        return dict(zip(form.slots, values))

    def _count(self, key: str, number: Number) -> int:
        return self._in_range(number.value, number.line, number.column, self.vocab.count_ranges[key],
                              key.replace("_", " "), number.written)

    def _observation(self, form: Form, children: list, meta: Meta) -> Observation:
        slots = self._slots(form, children)
        self.uses.extend(v for v in slots.values() if isinstance(v, Name))
        obs = Observation(slots["P"].value, form.kind, line=meta.line)
        if "Q" in slots:
            obs.other = slots["Q"].value
        obs.counts = {key: self._count(key, n) for key, n in slots.items() if key not in PERSON_SLOTS}
        obs.modifiers = [c for c in children if isinstance(c, Modifier)]     # an adverb before the verb
        return obs

    def _modifier(self, form: Form, children: list, meta: Meta) -> Modifier:
        slots = self._slots(form, children)
        modifier = Modifier(form.kind, line=meta.line, column=meta.column)
        for key, value in slots.items():
            if isinstance(value, Name):
                self.uses.append(value)
                modifier.person = value.value
            else:
                modifier.number = self._count(key, value)
        return modifier

    def _adverb(self, form: Form, children: list, meta: Meta) -> Modifier:
        return Modifier(form.kind, line=meta.line, column=meta.column)

    def _one_of_each_group(self, obs: Observation) -> None:
        """An observation states at most one modifier of each group that excludes each other
        (rules/core/vocabulary.lp, exclusive/2: `on purpose` and `accidentally`, `caught at once`
        and `caught later`): a report stating both contradicts itself, and the ruling would
        follow one of them silently."""
        taken: dict[str, Modifier] = {}
        for modifier in obs.modifiers:
            group = self.vocab.exclusive.get(modifier.kind)
            if group is None:
                continue
            first = taken.setdefault(group, modifier)
            if first.kind != modifier.kind:
                members = ", ".join(f"`{_said(m)}`" for m, g in sorted(self.vocab.exclusive.items()) if g == group)
                raise self._fail(f"`{_said(modifier.kind)}` contradicts `{_said(first.kind)}`"
                                 + (f" (line {first.line})" if first.line and first.line != modifier.line else "")
                                 + f": an observation is one of {members}", modifier.line or obs.line,
                                 modifier.column or 1)

    def _state(self, form: Form, children: list, meta: Meta) -> MatchState:
        names = [c for c in children if isinstance(c, Name)]
        self.uses.extend(names)
        return MatchState(form.kind, [n.value for n in names], line=meta.line)

    def tally_pair(self, meta: Meta, children: list) -> tuple[Name, Token]:
        return children[0], children[1]

    def _tally(self, form: Form, children: list, meta: Meta) -> _Tally:
        bounds = self.vocab.tally_ranges[form.kind]
        pairs, seen = [], set()
        for name, token in (c for c in children if isinstance(c, tuple)):
            if name.value in seen:
                raise self._fail(f"`{name.value}` is given twice on one `{form.text}:` line",
                                 name.token.line, name.token.column)
            seen.add(name.value)
            self.uses.append(name)
            pairs.append((name, self._in_range(_read_int(token.value), token.line, token.column, bounds, form.text,
                                               token.value)))
        return _Tally(form.kind, pairs, meta)

    def _number(self, form: Form, children: list, meta: Meta) -> Number:
        return Number(int(form.kind), meta.line, meta.column)

    def _value(self, form: Form, children: list, meta: Meta) -> str:
        return form.kind

    def _when(self, form: Form, children: list, meta: Meta) -> tuple[str, int | None]:
        numbers = self._slots(form, children)
        for key, number in numbers.items():
            return form.kind, self._in_range(number.value, number.line, number.column,
                                             self.vocab.header_ranges[key], key, number.written)
        return form.kind, None

    # --- headers -----------------------------------------------------------------
    def _set(self, key: str, meta: Meta, **values) -> _Header:
        return _Header(key, meta, values)

    def h_policy(self, meta: Meta, children: list[Token]) -> _Header:
        token = children[0]
        return _Header("policy", meta, {"policy": token.value.lower()}, {"policy": (token.line, token.column)})

    def h_rel(self, meta: Meta, children: list) -> _Header:
        return self._set("rel", meta, rel=children[0])

    def h_tier(self, meta: Meta, children: list) -> _Header:
        return self._set("tier", meta, tier=self._header_number(children[0], "tier", "tier"))

    def h_event(self, meta: Meta, children: list) -> _Header:
        return self._set("event", meta, event_kind=children[0])

    def h_game(self, meta: Meta, children: list) -> _Header:
        return self._set("game", meta, game_kind=children[0])

    def h_round(self, meta: Meta, children: list) -> _Header:
        return self._set("round", meta, round=self._header_number(children[0], "round", "round"))

    def h_round_kind(self, meta: Meta, children: list) -> _Header:
        return self._set("round", meta, round=self._header_number(children[0], "round", "round"),
                         round_kind=children[1])

    def h_draft(self, meta: Meta, children: list) -> _Header:
        return self._set("round", meta, round_kind="draft")

    def h_best_of(self, meta: Meta, children: list) -> _Header:
        return self._set("match", meta, best_of=self._header_number(children[0], "best_of", "best of"))

    def h_single_game(self, meta: Meta, children: list) -> _Header:
        return self._set("match", meta, best_of=1)

    def h_day(self, meta: Meta, children: list) -> _Header:
        return self._set("day", meta, day=self._header_number(children[0], "day", "day"))

    def h_table(self, meta: Meta, children: list) -> _Header:
        return self._set("table", meta, table=self._header_number(children[0], "table", "table"))

    def h_when(self, meta: Meta, children: list) -> _Header:
        return self._set("when", meta, when=children[0])

    def h_ruling_minutes(self, meta: Meta, children: list) -> _Header:
        minutes = self._header_number(children[0], "ruling_minutes", "ruling time")
        return self._set("the ruling took", meta, ruling_minutes=minutes)

    def h_judge_call(self, meta: Meta, children: list[Token]) -> _Header:
        infraction, penalty = children
        return _Header("judge call", meta, {"judge_call": (infraction.value.lower(), penalty.value.lower())},
                       {"judge_call_infraction": (infraction.line, infraction.column),
                        "judge_call_penalty": (penalty.line, penalty.column)})

    def h_player(self, meta: Meta, children: list[Name]) -> _Header:
        return _Header("", meta, person=(children[0], "player"))

    def h_spectator(self, meta: Meta, children: list[Name]) -> _Header:
        return _Header("", meta, person=(children[0], "spectator"))

    # --- statements ------------------------------------------------------------------
    def observation(self, meta: Meta, children: list) -> Observation:
        obs, *modifiers = children
        obs.modifiers.extend(modifiers)
        return obs

    def continuation(self, meta: Meta, children: list[Modifier]) -> _Continuation:
        self.resolver.carry(meta.line)
        return _Continuation(children, meta)

    def history_head(self, meta: Meta, children: list) -> _HistoryHead:
        return _HistoryHead(meta)

    def history_entry(self, meta: Meta, children: list) -> HistoryEntry:
        person, penalty, infraction, *day = children
        self.uses.append(person)
        return HistoryEntry(person.value, penalty.value.lower(), infraction.value.lower(),
                            self._header_number(day[0], "day", "day") if day else None,
                            line=meta.line, penalty_column=penalty.column, infraction_column=infraction.column)

    # --- a report ----------------------------------------------------------------------
    def report(self, meta: Meta, statements: list) -> Report:
        uses, self.uses = self.uses, []
        if not statements:
            raise self._fail("empty report: a report needs at least one statement", 1 if meta.empty else meta.line, 1)
        report = Report(source=self.source, line=meta.line, lines=self.lines, vocab=self.vocab)
        seen: dict[str, int] = {}
        in_history = False
        for st in statements:
            if isinstance(st, _Header):
                self._apply(report, st, seen)
            elif isinstance(st, Observation):
                if len(report.observations) == MAX_OBSERVATIONS:
                    raise self._fail(f"too many observations: at most {MAX_OBSERVATIONS} in one report", st.line, 1)
                report.observations.append(st)
            elif isinstance(st, _Continuation):
                if not report.observations:
                    raise self._fail("an `It ...` line must follow an observation", st.meta.line, st.meta.column)
                report.observations[-1].modifiers.extend(st.modifiers)
            elif isinstance(st, _HistoryHead):
                in_history = True
            elif isinstance(st, MatchState):
                report.states.append(st)
            elif isinstance(st, _Tally):
                text = self.vocab.tallies[st.key][0].text
                if st.key in seen:
                    raise self._fail(f"`{text}:` is given twice (first on line {seen[st.key]})",
                                     st.meta.line, st.meta.column)
                seen[st.key] = st.meta.line
                report.tallies[st.key] = [(name.value, n) for name, n in st.pairs]
            else:
                if not in_history:
                    raise self._fail("a history entry must follow a `history:` line", st.line, 1)
                report.history.append(st)
        self._check_names(report, uses)
        self._check_repeats(report)
        for obs in report.observations:
            self._one_of_each_group(obs)
        return report

    def start(self, meta: Meta, children: list) -> list[Report]:
        return [c for c in children if isinstance(c, Report)]

    def _apply(self, report: Report, header: _Header, seen: dict[str, int]) -> None:
        line, column = header.meta.line, header.meta.column
        if header.key:
            if header.key in seen:
                raise self._fail(f"`{header.key}` is given twice (first on line {seen[header.key] + self.line_offset})", line, column)
            seen[header.key] = line
        for attribute, value in header.values.items():
            setattr(report, attribute, value)
        report.positions.update(header.positions)
        if header.person:
            name, role = header.person
            if any(n == name.value for n, _ in report.persons):
                token = name.token
                written = _line(self.lines, token.line)[token.column - 1:token.end_column - 1].strip('"')
                case = f" (`{written}`: names are read without regard to case)" if written != name.value else ""
                raise self._fail(f"`{name.value}` is declared twice{case}", token.line, token.column)
            if len(report.persons) == MAX_PERSONS:
                raise self._fail(f"too many persons: at most {MAX_PERSONS} in one report",
                                name.token.line, name.token.column)
            report.persons.append((name.value, role))

    def _check_names(self, report: Report, uses: list[Name]) -> None:
        declared = [n for n, _ in report.persons]
        for name in uses:
            if name.value not in declared:
                # (only to suggest a close match)
                from ppgcheck.language.diagnostics import close_names
                close = close_names(name.value, declared)
                raise self._fail(f"`{name.value}` is not declared: add a `player: {name.value}` or "
                                f"`spectator: {name.value}` line", name.token.line, name.token.column,
                                suggestions=close)

    def _check_repeats(self, report: Report) -> None:
        counts: dict[tuple, int] = {}
        for entry in report.history:
            key = (entry.person, entry.penalty, entry.infraction, entry.day)
            counts[key] = counts.get(key, 0) + 1
            if counts[key] > MAX_HISTORY_REPEATS:
                raise self._fail(f"the same history entry is repeated more than {MAX_HISTORY_REPEATS} times",
                                entry.line, 1)


# the methods of the grammar's rules (lowercase, not private): Transformer dispatch above
_RULES = {name: f for name, f in vars(ReportBuilder).items()
          if callable(f) and name[0].islower() and not name.startswith("_")}
