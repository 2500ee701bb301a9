"""Model atoms -> Ruling dataclasses (decoding only: every decision was made in ASP)."""
from __future__ import annotations

from dataclasses import dataclass, field

import clingo

from ppgcheck.language.facts import Facts, constant_to_slug, slug_to_constant
from ppgcheck.language.model import Reading
from ppgcheck.language.report import Report, print_observation

UNDETERMINED = "undetermined"     # how golden files and diffs spell "the guide names no default"


@dataclass
class Adjustment:
    kind: str
    to: str
    reason: str
    section: str
    stage: int

    def to_dict(self) -> dict:
        return {"kind": self.kind, "to": self.to, "reason": self.reason, "section": self.section}

    @classmethod
    def from_dict(cls, d: dict) -> Adjustment:
        return cls(d["kind"], d["to"], d["reason"], d["section"], 0)     # (the JSON keeps no stage)


@dataclass
class Cited:
    text: str
    section: str


@dataclass
class Option:
    """A discretionary move away from the default penalty (discretion.md)."""
    penalty: str            # where the move lands, after every later stage
    by: str                 # who may make it: head-judge | judge
    condition: str          # the guide's words for when
    section: str

    def to_dict(self) -> dict:
        return {"penalty": self.penalty, "by": self.by, "if": self.condition, "section": self.section}

    @classmethod
    def from_dict(cls, d: dict) -> Option:
        return cls(d["penalty"], d["by"], d.get("if") or "", d.get("section") or "")


@dataclass
class Question:
    """A fact the report does not state that would change the ruling if added."""
    observation: int
    player: str             # whose ruling changes
    add: str                # the observation as it would read, in report language
    asks: str               # just the added words (`on purpose`)
    infraction: str | None  # the infraction with it (None: no infraction)
    penalty: str | None     # the default penalty with it (None: the guide names none)
    choose_from: list[str] = field(default_factory=list)   # with no default: the set the guide narrows it to
    # what the answer is when it names no penalty: "no-infraction" (none derived, or the guide
    # says so), "gap" (no rule of the guide covers it), "conflict" (two rules disagree); "" otherwise
    unsettled: str = ""

    def to_dict(self) -> dict:
        return {"observation": self.observation, "player": self.player, "add": self.add, "asks": self.asks,
                "infraction": self.infraction, "penalty": self.penalty, "choose_from": self.choose_from,
                "unsettled": self.unsettled or None}

    @classmethod
    def from_dict(cls, d: dict) -> Question:
        return cls(d["observation"], d["player"], d["add"], d["asks"], d.get("infraction"), d.get("penalty"),
                   d.get("choose_from") or [], d.get("unsettled") or "")


@dataclass
class PlayerRuling:
    observation: int
    player: str
    infraction: str
    section: str
    base_penalty: str | None     # None: no single base penalty (a conflict, or the guide narrows to a set)
    penalty: str | None          # the default; None when the guide names none (see permitted)
    issued: bool
    absorbed_by: str = ""        # the section that combines related infractions
    withheld: Cited | None = None    # why the guide gives this penalty no judge issues it (not_issued/5)
    related_to: int | None = None   # the related observation whose penalty is issued instead
    permitted: list[str] = field(default_factory=list)    # every penalty the guide allows, lightest first
    base_choices: list[str] = field(default_factory=list)  # the set the guide narrows the base to (no default)
    options: list[Option] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)
    fix: list[Cited] = field(default_factory=list)
    notes: list[Cited] = field(default_factory=list)
    because: list[Cited] = field(default_factory=list)
    assumptions: list[Cited] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    by_value: dict[str, dict[str, str | None]] | None = None   # header -> value -> default penalty
    head_judge: str = ""     # the sections requiring confirmation ("PPG 1.2, PPG 3.7"), "" when not needed
    base_section: str = ""   # the sentence that gives the base penalty

    @property
    def key(self) -> tuple[int, str, str]:
        return (self.observation, self.player, self.infraction)

    @classmethod
    def from_dict(cls, d: dict) -> PlayerRuling:
        """One ruling of a ruling's JSON (render.ruling_dict, fresh or as an event stored it)
        back: all it holds (not the reasons, `because`, nor which sections ask the Head Judge)."""
        def cited(items: list[dict]) -> list[Cited]:
            return [Cited(c.get("text", ""), c.get("section", "")) for c in items]
        withheld = d.get("not_issued")
        return cls(
            d["observation"], d["player"], d["infraction"], d["section"], d.get("base_penalty"), d.get("penalty"),
            d.get("issued", True), withheld=cited([withheld])[0] if withheld else None,
            related_to=d.get("related_to"), permitted=list(d.get("permitted") or []),
            base_choices=list(d.get("choose_from") or []), options=[Option.from_dict(o) for o in d.get("options", [])],
            adjustments=[Adjustment.from_dict(a) for a in d.get("adjustments", [])],
            fix=[Cited(t, s) for t, s in zip(d.get("fix", []), d.get("fix_sections", []))],
            notes=cited(d.get("notes", [])), assumptions=cited(d.get("assumptions", [])),
            questions=[Question.from_dict(q) for q in d.get("questions", [])], by_value=d.get("by_value"),
            base_section=d.get("base_penalty_section") or "")


@dataclass
class NoInfraction:
    observation: int
    player: str
    reason: str
    section: str


@dataclass
class Finding:
    kind: str
    level: str
    observation: int
    message: str
    section: str


@dataclass
class Outcome:
    """What happens next in the match, by the procedures besides penalties (CONTRACT.md:
    outcome/2): a next step, a game or match result, a penalty, or what the players did allowed."""
    kind: str                   # step | result | penalty | allowed
    section: str
    step: str | None = None     # step and allowed: the guide's words
    scope: str | None = None    # result: game | match
    result: str | None = None   # result: win | draw
    winner: str | None = None   # result: who wins (None for a draw)
    player: str | None = None   # penalty: who gets it
    penalty: str | None = None  # penalty: which

    def to_dict(self) -> dict:
        """The JSON of one outcome: step, result, winner, section (and the penalty's player and id)."""
        return {"kind": self.kind, "step": self.step, "result": self.result, "scope": self.scope,
                "winner": self.winner, "player": self.player, "penalty": self.penalty, "section": self.section}

    @classmethod
    def from_dict(cls, d: dict) -> Outcome:
        return cls(d["kind"], d.get("section") or "", d.get("step"), d.get("scope"), d.get("result"),
                   d.get("winner"), d.get("player"), d.get("penalty"))

    def describe(self) -> str:
        """One line in a judge's words, without the section."""
        if self.kind == "result":
            return f"the {self.scope} is a draw" if self.result == "draw" else f"{self.winner} wins the {self.scope}"
        if self.kind == "penalty":
            return f"{self.player}: {self.penalty}"
        return self.step or ""


@dataclass
class OutcomeOption:
    """A different outcome the guide lets someone choose (outcome_option/4)."""
    outcome: Outcome
    by: str
    condition: str
    section: str

    def to_dict(self) -> dict:
        return {"outcome": self.outcome.to_dict(), "by": self.by, "if": self.condition, "section": self.section}

    @classmethod
    def from_dict(cls, d: dict) -> OutcomeOption:
        return cls(Outcome.from_dict(d["outcome"]), d["by"], d.get("if") or "", d.get("section") or "")


@dataclass
class RulingSet:
    report: str
    policy: str
    observations: list[str]
    rulings: list[PlayerRuling] = field(default_factory=list)
    no_infractions: list[NoInfraction] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    time_extensions: list[Cited] = field(default_factory=list)
    time_extension_minutes: int = 0
    judge_call: tuple[str, str] | None = None
    judge_call_verdict: str = ""
    # per omitted header value, where the verdict depends on it ("depends"): {header: {value: verdict}}
    judge_call_by_value: dict[str, dict[str, str]] | None = None
    day: int | None = None      # the day the ruling counted history on (`day:`, or the one it took)
    notes: list[Cited] = field(default_factory=list)
    assumptions: list[Cited] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)   # every question, whoever it concerns
    outcomes: list[Outcome] = field(default_factory=list)     # more than one is a conflict finding
    outcome_options: list[OutcomeOption] = field(default_factory=list)
    outcome_notes: list[Cited] = field(default_factory=list)
    # per observation, how the tolerant reader read its free sentence (None: written canonically)
    readings: list[Reading | None] = field(default_factory=list)

    @property
    def outcome(self) -> Outcome | None:
        """The outcome, when the guide gives exactly one."""
        return self.outcomes[0] if len(self.outcomes) == 1 else None

    @property
    def exit_code(self) -> int:
        """1 when the guide has trouble with this report; the report's own gaps (`input`) are not the guide's."""
        return 1 if any(f.kind != "input" for f in self.findings) else 0


def _text(sym: clingo.Symbol) -> str:
    """A string argument, or a message tuple ("fmt {}", args...) filled in."""
    if sym.type is clingo.SymbolType.String:
        return sym.string
    if sym.type is clingo.SymbolType.Function and sym.name == "" and sym.arguments:
        fmt, *args = sym.arguments
        return _text(fmt).format(*(_text(a) for a in args))
    return _value(sym)


def _value(sym: clingo.Symbol) -> str:
    if sym.type is clingo.SymbolType.String:
        return sym.string
    if sym.type is clingo.SymbolType.Number:
        return str(sym.number)
    if sym.type is clingo.SymbolType.Function and not sym.arguments:
        return constant_to_slug(sym.name)
    return str(sym)


def decode(by: dict[str, list[tuple[clingo.Symbol, ...]]], facts: Facts, report: Report,
           policy: str, ranks: dict[str, int] | None = None) -> RulingSet:
    """A RulingSet from one report's shown atoms (PolicyEngine.solve: argument tuples by name/arity)."""

    def person(sym: clingo.Symbol) -> str:
        return facts.person_name(sym.number)

    def key(o, p, i) -> tuple[int, int, str]:
        return (o.number, p.number, i.name)

    sections = {i.name: s.string for i, s in by.get("cited/2", [])}
    final = {key(o, p, i): pen.name for o, p, i, pen in by.get("penalty/4", [])}
    base, base_sections = _bases(by, key)
    issued = {key(o, p, i) for o, p, i, _ in by.get("issued/4", [])}
    result = RulingSet(report.name, policy, [print_observation(o, report.vocabulary) for o in report.observations],
                       readings=[o.reading for o in report.observations])
    rulings: dict[tuple, PlayerRuling] = {}
    for o, p, i in sorted(by.get("committed/3", []), key=lambda t: (t[0].number, t[1].number, t[2].name)):
        k = key(o, p, i)
        rulings[k] = PlayerRuling(
            observation=o.number, player=person(p), infraction=constant_to_slug(i.name),
            section=sections.get(i.name, ""), base_penalty=constant_to_slug(base[k]) if k in base else None,
            penalty=constant_to_slug(final[k]) if k in final else None,
            issued=k in issued, base_section=base_sections.get(k, ""))
    for o, p, i, s, kind, to, reason, sec in sorted(by.get("applied/8", []), key=lambda t: t[3].number):
        r = rulings.get(key(o, p, i))
        if r:
            r.adjustments.append(Adjustment(kind.name, constant_to_slug(to.name), _text(reason),
                                            sec.string, s.number))
    for o, p, i, step, text, sec in sorted(by.get("fix/6", []), key=lambda t: t[3].number):
        r = rulings.get(key(o, p, i))
        if r:
            r.fix.append(Cited(_text(text), sec.string))
    for o, p, i, text, sec in by.get("note/5", []):
        r = rulings.get(key(o, p, i))
        if r:
            r.notes.append(Cited(_text(text), sec.string))
    for o, p, i, text, sec in by.get("because/5", []):
        r = rulings.get(key(o, p, i))
        if r:
            r.because.append(Cited(_text(text), sec.string))
    for o, p, i, sec in sorted(by.get("head_judge/4", []), key=lambda row: row[3].string):
        r = rulings.get(key(o, p, i))
        if r and sec.string not in r.head_judge.split(", "):   # every section that asks, in a stable order
            r.head_judge = f"{r.head_judge}, {sec.string}" if r.head_judge else sec.string
    for o, p, i, why, sec in by.get("not_issued/5", []):
        r = rulings.get(key(o, p, i))
        if r:
            r.withheld = Cited(_text(why), sec.string)
    for o, p, i, sec in by.get("absorbed/4", []):
        r = rulings.get(key(o, p, i))
        if r:
            r.absorbed_by = sec.string
    for o, p, i, o2 in by.get("absorbed_by/4", []):
        r = rulings.get(key(o, p, i))
        if r:
            r.related_to = o2.number
    for o, p, i, text, sec in by.get("assumption/5", []):
        r = rulings.get(key(o, p, i))
        if r:
            r.assumptions.append(Cited(_text(text), sec.string))
    _discretion(by, rulings, key, ranks or {})
    for r in rulings.values():
        for group in (r.notes, r.because, r.assumptions):
            group.sort(key=lambda c: (c.section, c.text))
    result.rulings = list(rulings.values())
    _report_level(by, result, report, person)
    _outcomes(by, result, person)
    return result


def decode_outcomes(by: dict[str, list[tuple[clingo.Symbol, ...]]], facts: Facts, report: Report,
                    policy: str, ranks: dict[str, int] | None = None) -> RulingSet:
    """What a question's variant is compared by (variants.questions_from), from the atoms
    policy.QUESTION_SHOWN shows: each ruling's infraction, default penalty and open base
    set, the not-infractions and the findings (their kind, level and observation); no text."""
    def key(o, p, i) -> tuple[int, int, str]:
        return (o.number, p.number, i.name)
    ordered = sorted(by.get("committed/3", []), key=lambda t: (t[0].number, t[1].number, t[2].name))
    final = {key(o, p, i): pen.name for o, p, i, pen in by.get("penalty/4", [])}
    base, _ = _bases(by, key)
    choices = _base_choices(by, key, ranks or {})
    result = RulingSet(report.name, policy, [])
    for o, p, i in ordered:
        k = key(o, p, i)
        r = PlayerRuling(observation=o.number, player=facts.person_name(p.number), infraction=constant_to_slug(i.name),
                         section="", base_penalty=constant_to_slug(base[k]) if k in base else None,
                         penalty=constant_to_slug(final[k]) if k in final else None, issued=False)
        if r.base_penalty is None:
            r.base_choices = choices.get(k, [])
        result.rulings.append(r)
    result.no_infractions = [NoInfraction(o.number, facts.person_name(p.number), "", "")
                             for o, p, _, _ in by.get("not_infraction/4", [])]
    result.findings = [Finding(kind.name, level.name, o.number, "", "")
                       for kind, level, o, _, _ in by.get("finding/5", [])]
    return result


def _bases(by: dict, key) -> tuple[dict[tuple, str], dict[tuple, str]]:
    """Each ruling's base penalty (two base penalties are a conflict finding: the ruling
    shows neither) and the section it comes from (where one rule gives it)."""
    bases: dict[tuple, set[tuple[str, str]]] = {}
    for o, p, i, pen, sec in by.get("base_penalty/5", []):
        bases.setdefault(key(o, p, i), set()).add((pen.name, sec.string))
    base = {k: next(iter(v))[0] for k, v in bases.items() if len({pen for pen, _ in v}) == 1}
    base_sections = {k: next(iter(v))[1] for k, v in bases.items() if len(v) == 1}
    return base, base_sections


def _base_choices(by: dict, key, ranks: dict[str, int]) -> dict[tuple, list[str]]:
    """The set each open base penalty is chosen from (base_choice/5), lightest first, as slugs."""
    chosen_from: dict[tuple, set[str]] = {}
    for o, p, i, pen, _ in by.get("base_choice/5", []):
        chosen_from.setdefault(key(o, p, i), set()).add(pen.name)
    return {k: [constant_to_slug(pen) for pen in sorted(members, key=lambda pen: (ranks.get(pen, 0), pen))]
            for k, members in chosen_from.items()}


def _report_level(by: dict, result: RulingSet, report: Report, person) -> None:
    """What the ruling says of the report as a whole: no-infractions, findings, time
    extensions, the judge's call, notes and assumptions."""
    result.no_infractions = sorted(
        (NoInfraction(o.number, person(p), _text(reason), sec.string)
         for o, p, reason, sec in by.get("not_infraction/4", [])),
        key=lambda n: (n.observation, n.player, n.section))
    result.findings = sorted(
        (Finding(kind.name, level.name, o.number, _text(msg), sec.string)
         for kind, level, o, msg, sec in by.get("finding/5", [])),
        key=lambda f: (f.observation, f.kind, f.message))
    result.time_extensions = sorted((Cited(str(m.number), s.string)
                                     for m, s in by.get("time_extension/2", [])),
                                    key=lambda c: c.section)
    total = by.get("time_extension_total/1", [])
    result.time_extension_minutes = total[0][0].number if total else 0
    result.judge_call = report.judge_call
    verdicts = by.get("judge_call_verdict/1", [])
    result.judge_call_verdict = verdicts[0][0].name if verdicts else ""
    if result.judge_call_verdict in ("disagrees", "unsettled") and by.get("judge_call_permitted/2"):
        result.judge_call_verdict = "permitted"      # not the default, but a course the guide allows
    days = by.get("today/1", [])
    result.day = days[0][0].number if days else None
    result.notes = sorted((Cited(_text(t), s.string) for t, s in by.get("report_note/2", [])),
                          key=lambda c: (c.section, c.text))
    result.assumptions = sorted((Cited(_text(t), s.string) for t, s in by.get("report_assumption/2", [])),
                                key=lambda c: (c.section, c.text))


def outcome_of(sym: clingo.Symbol, section: str, person) -> Outcome:
    """An outcome/2 term (step("..."), result(Scope, winner(P)|draw), penalty(P, Pen), allowed("..."))."""
    args = sym.arguments
    if sym.name == "result" and len(args) == 2:
        won = args[1].type is clingo.SymbolType.Function and args[1].name == "winner"
        return Outcome("result", section, scope=_value(args[0]), result="win" if won else _value(args[1]),
                       winner=person(args[1].arguments[0]) if won else None)
    if sym.name == "penalty" and len(args) == 2:
        return Outcome("penalty", section, player=person(args[0]), penalty=_value(args[1]))
    if sym.name in ("step", "allowed") and len(args) == 1:
        return Outcome(sym.name, section, step=_text(args[0]))
    return Outcome("step", section, step=str(sym))      # a malformed term is shown as written


def _outcomes(by: dict, result: RulingSet, person) -> None:
    found = {(str(o), s.string): outcome_of(o, s.string, person) for o, s in by.get("outcome/2", [])}
    result.outcomes = [found[k] for k in sorted(found)]
    result.outcome_options = sorted(
        (OutcomeOption(outcome_of(o, sec.string, person), constant_to_slug(who.name), _text(cond), sec.string)
         for o, who, cond, sec in by.get("outcome_option/4", [])),
        key=lambda x: (x.section, x.outcome.describe()))
    result.outcome_notes = sorted((Cited(_text(t), s.string) for t, s in by.get("outcome_note/2", [])),
                                  key=lambda c: (c.section, c.text))


def _discretion(by: dict, rulings: dict, key, ranks: dict[str, int]) -> None:
    """The permitted set and the options, from the exploring solve's brave atoms (when it ran)."""
    def ordered(penalties: set[str]) -> list[str]:
        return sorted(penalties, key=lambda pen: (ranks.get(pen, 0), pen))

    permitted: dict[tuple, set[str]] = {}
    for o, p, i, pen in by.get("permitted/4", []):
        permitted.setdefault(key(o, p, i), set()).add(pen.name)
    for k, r in rulings.items():
        found = permitted.get(k) or ({slug_to_constant(r.penalty)} if r.penalty else set())
        r.permitted = [constant_to_slug(pen) for pen in ordered(found)]
    for k, choices in _base_choices(by, key, ranks).items():
        r = rulings.get(k)
        if r is not None and r.base_penalty is None:
            r.base_choices = choices
    moves: dict[tuple, set[tuple]] = {}
    for o, p, i, pen, who, cond, sec in by.get("option/7", []):
        moves.setdefault(key(o, p, i), set()).add((pen.name, who.name, _text(cond), sec.string))
    for k, found in moves.items():
        r = rulings.get(k)
        if r is None:
            continue
        # a move that lands on the default is no move away from it (discretion.md: "options")
        r.options = [Option(constant_to_slug(pen), constant_to_slug(who), cond, sec)
                     for pen, who, cond, sec in sorted(found, key=lambda m: (ranks.get(m[0], 0), m))
                     if constant_to_slug(pen) != r.penalty]

