"""What a report leaves open, ruled as variants of it in the same batch.

* `by_value`: a header the guide tells apart (header_matters/2) and the report omits
  is filled in with each of its values;
* `questions`: each unstated modifier a rule about the observation reads is added,
  one at a time, and kept when it changes the infraction or the default penalty.

Python only writes the variant reports and lines their rulings up with the report's;
every ruling is derived in ASP like any other (rules/core, the pack).
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property

from ppgcheck.contract import ADJUSTMENT_WORDS, DECISIVE
from ppgcheck.contract import PACK_DEFINED_NAMES as _CONTRACT
from ppgcheck.language.report import Modifier, Observation, Report, print_observation
from ppgcheck.engine.ruling import Cited, Finding, Option, PlayerRuling, Question, RulingSet
from ppgcheck.engine.words import variant_label

MAX_QUESTIONS = 5

# report field and value type of each header header_matters/2 can name
HEADER_FIELDS: dict[str, tuple[str, Callable[[str], object]]] = {
    "rel": ("rel", str), "tier": ("tier", int), "event": ("event_kind", str),
    "game": ("game_kind", str), "match": ("best_of", int)}


@dataclass
class Variant:
    """A report derived from another: under one header value, or with one modifier added."""
    report: Report
    header: str | None = None
    value: str | None = None
    observation: int = 0          # the observation a question adds to (1-based)
    before: Observation | None = None    # that observation as the report states it

    @cached_property
    def add(self) -> str:
        """The observation as the question would state it (written only for a question asked)."""
        return print_observation(self.report.observations[self.observation - 1], self.report.vocabulary)

    @cached_property
    def asks(self) -> str:
        """The added modifier's words."""
        return self.add.removeprefix(print_observation(self.before, self.report.vocabulary) + ", ")


def header_variants(report: Report, header_values: dict[str, list[str]]) -> list[Variant]:
    """One variant per value of each header the guide tells apart that the report omits."""
    out: list[Variant] = []
    order = report.vocabulary.values
    for header, values in header_values.items():
        field_name, convert = HEADER_FIELDS.get(header, (None, str))
        if field_name is None or getattr(report, field_name) is not None:
            continue
        known = order.get({"event": "event_kind", "game": "game_kind"}.get(header, header), [])
        for value in sorted(values, key=lambda v: (known.index(v) if v in known else len(known), v)):
            variant = copy.copy(report)
            setattr(variant, field_name, convert(value))
            out.append(Variant(variant, header=header, value=value))
    return out


def question_variants(report: Report, relevant: Callable[[str], frozenset[str]]) -> list[Variant]:
    """One variant per unstated modifier a rule about an observation reads (and that no
    stated modifier of its group excludes)."""
    vocab = report.vocabulary
    players = [name for name, role in report.persons if role == "player"]
    out: list[Variant] = []
    for index, obs in enumerate(report.observations, start=1):
        stated = {m.kind for m in obs.modifiers}
        taken = {vocab.exclusive[m] for m in stated if m in vocab.exclusive}
        for read in sorted(relevant(obs.kind)):
            kind, _, of_self = read.partition(SELF)
            if kind in stated or vocab.exclusive.get(kind) in taken or kind in vocab.counted_modifiers:
                continue
            # a modifier naming a person is asked of the first other player, and of the observed
            # player where a rule reads it of that player (`with illegal cards Alice meant to
            # play` decides Alice's own list)
            if kind in vocab.person_modifiers:
                others = [p for p in players if p != obs.subject]
                persons = ([obs.subject] if obs.subject in players else []) if of_self == "self" else others[:1]
            else:
                persons = [None]
            for person in persons:
                modifier = Modifier(kind, person=person) if person else Modifier(kind)
                out.append(_with_modifier(report, index, obs, modifier))
    return out


def _with_modifier(report: Report, index: int, obs, modifier: Modifier) -> Variant:
    """The report with one modifier added to its index-th observation, as a question asks it."""
    variant_obs = copy.copy(obs)
    variant_obs.modifiers = [*obs.modifiers, modifier]
    variant = copy.copy(report)
    variant.observations = [*report.observations[:index - 1], variant_obs, *report.observations[index:]]
    return Variant(variant, observation=index, before=obs)


# --- which modifiers the rules about an observation read ------------------------

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_WORD = re.compile(r"\b[a-z_][A-Za-z0-9_]*\b")
_HEAD = re.compile(r"^\s*([a-z_][A-Za-z0-9_]*)\(")
_MODIFIER = re.compile(r"\bmodifier\([A-Z_][A-Za-z0-9_]*,([a-z][A-Za-z0-9_]*)")
# a person modifier read of the observation's (or the infraction's) own person:
# `committed(O,P,I), modifier(O,M,P)` -> M is asked of the observed player too
_PERSON_MODIFIER = re.compile(r"\bmodifier\([A-Z_][A-Za-z0-9_]*,([a-z][A-Za-z0-9_]*),([A-Z][A-Za-z0-9_]*)\)")
_OBSERVATION_KIND = re.compile(r"\bobservation\([A-Z_][A-Za-z0-9_]*,[A-Z_][A-Za-z0-9_]*,([a-z][A-Za-z0-9_]*)\)")
_SUBJECT = re.compile(r"\b(?:observation|committed|infraction)\([A-Z_][A-Za-z0-9_]*,([A-Z][A-Za-z0-9_]*)")
SELF = "@"      # `name@self`: the modifier read of the observed person


@dataclass(frozen=True)
class _Rule:
    head: str
    head_words: frozenset[str]
    words: frozenset[str]
    modifiers: frozenset[str]
    kinds: frozenset[str] = frozenset()     # the observation kinds it is pinned to (none: any)

    def may_apply(self, kind: str) -> bool:
        return not self.kinds or kind in self.kinds



def _modifiers_read(rule_text: str) -> frozenset[str]:
    """The modifiers a rule reads, and `name@self` for a person modifier it reads of the
    person its observation or infraction is about."""
    subjects = set(_SUBJECT.findall(rule_text))
    return frozenset(_MODIFIER.findall(rule_text)) | {
        f"{name}{SELF}self" for name, person in _PERSON_MODIFIER.findall(rule_text) if person in subjects}


class Relevance:
    """The modifiers that can change the infraction or the default penalty of an
    observation kind.  A rule is about the kind when it names it, or names what such a
    rule derives (an infraction id, a helper like FaB's `repair(O, simple_rewind)`),
    three steps deep; of those, the ones deriving an infraction, a base penalty or an
    adjustment count, with the helpers they read (two steps)."""

    def __init__(self, plain: str, core_heads: frozenset[str], penalties: set[str]) -> None:
        self.rules: list[_Rule] = []
        for line in plain.split("\n"):
            if ":-" not in line:
                fact = _HEAD.match(_STRING.sub("", line))
                if fact:    # a table of facts (`gpe_category(broke_game_rule, 5).`) leads from a kind
                    # to its predicate only, not to the other kinds the table lists
                    words = frozenset(_WORD.findall(_STRING.sub("", line)))
                    self.rules.append(_Rule(fact.group(1), frozenset({fact.group(1)}), words, frozenset()))
                continue
            bare = _STRING.sub("", line)
            head_text, _, _ = bare.partition(":-")
            head = _HEAD.match(head_text)
            body = bare.partition(":-")[2]
            self.rules.append(_Rule(head.group(1) if head else "", frozenset(_WORD.findall(head_text)),
                                    frozenset(_WORD.findall(bare)), _modifiers_read(bare),
                                    frozenset(_OBSERVATION_KIND.findall(body))))
        self.ignored = core_heads | _CONTRACT | ADJUSTMENT_WORDS | penalties | {"modifier", "observation", "not"}
        self.defining: dict[str, list[_Rule]] = {}
        for rule in self.rules:
            if rule.head and rule.head not in self.ignored:
                self.defining.setdefault(rule.head, []).append(rule)
        self._memo: dict[str, frozenset[str]] = {}

    def __call__(self, kind: str) -> frozenset[str]:
        if kind not in self._memo:
            anchors = {kind}
            about: list[_Rule] = []
            # a rule that reads another observation kind by name (Fraud from a draft's
            # `announcing picks`) is about that kind, not this one: its modifiers are not asked
            for _ in range(3):
                about = [r for r in self.rules if r.words & anchors and r.may_apply(kind)]
                grown = anchors | {w for r in about for w in r.head_words} - self.ignored
                if grown == anchors:
                    break
                anchors = grown
            decisive = [r for r in about if r.head in DECISIVE]
            found = {m for r in decisive for m in r.modifiers}
            seen: set[str] = set()
            frontier = {w for r in decisive for w in r.words} & set(self.defining)
            for _ in range(2):
                step = [r for name in frontier - seen for r in self.defining[name] if r.may_apply(kind)]
                seen |= frontier
                found |= {m for r in step for m in r.modifiers}
                frontier = {w for r in step for w in r.words} & set(self.defining)
            self._memo[kind] = frozenset(found)
        return self._memo[kind]


@cache
def core_heads(core_text: str) -> frozenset[str]:
    return frozenset(m.group(1) for line in core_text.split("\n") if (m := _HEAD.match(line)))


# --- lining the variants' rulings up with the report's ----------------------------

def attach_by_value(rs: RulingSet, variants: list[tuple[Variant, RulingSet]], ranks: dict[str, int]) -> None:
    """Each ruling's default penalty under each value of the headers the report omits.
    A finding that no value shows is the report's gap, not the guide's (`input`); a
    finding some values show is listed with them."""
    if not variants:
        return
    def lightest_first(penalties: set[str]) -> list[str]:
        return sorted(penalties, key=lambda p: (ranks.get(p.replace("/", "__").replace("-", "_"), 0), p))

    headers = sorted({v.header for v, _ in variants})
    _add_variant_only(rs, variants)
    for r in rs.rulings:
        by_value: dict[str, dict[str, str | None]] = {}
        permitted: set[str] = set(r.permitted)
        notes_at: dict[tuple[str, str], list[str]] = {}
        for variant, vrs in variants:
            match = _same_ruling(vrs, r)
            by_value.setdefault(variant.header, {})[variant.value] = variant_label(match, r) if match else None
            if match and match.infraction == r.infraction:
                permitted |= set(match.permitted)
                _add_options_at(r, match, variant)
                for note in match.notes:
                    notes_at.setdefault((note.text, note.section), []).append(f"`{variant.header}: {variant.value}`")
        if any(v != r.penalty for values in by_value.values() for v in values.values()):
            # (a header whose every value gives the header-less default tells nothing: left out)
            r.by_value = {h: values for h, values in by_value.items() if any(v != r.penalty for v in values.values())}
            # the notes of a penalty only some values give (DCI's Match Point for a Game
            # Loss in a single-game Swiss match, without `rel:`), with the values they hold at
            own = {(n.text, n.section) for n in r.notes}
            r.notes.extend(Cited(text if len(values) == len(variants) else f"{text} (at {', '.join(values)})",
                                 section)
                           for (text, section), values in notes_at.items() if (text, section) not in own)
        if r.by_value or len(permitted) > len(r.permitted):
            r.permitted = lightest_first(permitted)
    _findings_by_value(rs, variants, headers)
    depends_on = sorted({h for r in rs.rulings for h in (r.by_value or {})})
    if depends_on:      # (the headers some ruling's penalty differs by)
        where = " or ".join(f"`{h}:`" for h in depends_on)
        rs.findings.append(Finding("input", "warning", 0,
                                   f"no {where} given: the ruling depends on it (shown under each value)", ""))
    _judge_call_by_value(rs, variants)


def _findings_by_value(rs: RulingSet, variants: list[tuple[Variant, RulingSet]], headers: list[str]) -> None:
    """The findings under the omitted headers' values.  A finding of the report that every
    value of some omitted header removes is that header's doing, the report's gap (`input`,
    "without `h:`"); one the values of a header tell apart is listed with them (a header at
    every value of which it shows is not its cause: DCI without `rel:` and `match:`, the REL
    gap shows under each `match:` value too, which then lacks the REL).  A finding only some
    variants show is listed with the values that show it."""
    values_of: dict[str, list[str]] = {}
    shown: dict[tuple[str, str, int, str, str], dict[str, list[str]]] = {}
    for variant, vrs in variants:
        values_of.setdefault(variant.header, []).append(variant.value)
        for f in vrs.findings:
            key = (f.kind, f.level, f.observation, f.message, f.section)
            shown.setdefault(key, {}).setdefault(variant.header, []).append(variant.value)

    def listed(message: str, per: dict[str, list[str]], telling_apart: bool) -> str:
        at = [f"`{h}: {v}`" for h in headers for v in per.get(h, [])
              if not telling_apart or len(per[h]) < len(values_of[h])]
        everywhere = all(len(per.get(h, [])) == len(values_of[h]) for h in headers)
        return message if not at or everywhere else f"{message} (at {', '.join(at)})"
    own = set()
    for i, f in enumerate(rs.findings):
        key = (f.kind, f.level, f.observation, f.message, f.section)
        own.add(key)
        if f.kind == "input":
            continue
        per = shown.get(key, {})
        causes = [h for h in headers if not per.get(h)]
        if causes:       # the missing header's doing, not the guide's
            rs.findings[i] = Finding("input", "warning", f.observation,
                                     f"{f.message} without " + " or ".join(f"`{h}:`" for h in causes), f.section)
        else:
            rs.findings[i] = Finding(f.kind, f.level, f.observation, listed(f.message, per, True), f.section)
    for (kind, level, observation, message, section), per in shown.items():
        if (kind, level, observation, message, section) not in own and kind != "input":
            rs.findings.append(Finding(kind, level, observation, listed(message, per, False), section))


def _judge_call_by_value(rs: RulingSet, variants: list[tuple[Variant, RulingSet]]) -> None:
    """A judge's call the guide holds at some value of an omitted header and not at another:
    the verdict is `depends`, with each value's (the report's own verdict, ruled without the
    header, is no answer of the guide's, whether it agrees or not)."""
    if not rs.judge_call:
        return
    by_value: dict[str, dict[str, str]] = {}
    for variant, vrs in variants:
        by_value.setdefault(variant.header, {})[variant.value] = vrs.judge_call_verdict
    verdicts = {v for values in by_value.values() for v in values.values()}
    held = rs.judge_call_verdict in ("agrees", "permitted")
    # the call held at some value and not at another (FaB without `rel:`: a Warning agrees at
    # Competitive, the table's IP2 at Professional does not), or held only under the values
    if len(verdicts) > 1 or (not held and verdicts & {"agrees", "permitted"}):
        rs.judge_call_verdict = "depends"
        rs.judge_call_by_value = by_value


def _add_options_at(r: PlayerRuling, match: PlayerRuling, variant: Variant) -> None:
    """An option only some values of an omitted header give (PPG 3.9's Competitive-REL
    Caution for a report without `rel:`): listed, with the value it holds at."""
    at = f"`{variant.header}: {variant.value}`"
    for option in match.options:
        if option.penalty == r.penalty:
            continue
        same = next((o for o in r.options if (o.penalty, o.by, o.section) == (option.penalty, option.by, option.section)
                     and (o.condition == option.condition or o.condition.startswith(f"{option.condition} (at "))),
                    None)
        if same is None:
            r.options.append(Option(option.penalty, option.by, f"{option.condition} (at {at})", option.section))
        elif same.condition != option.condition:     # held at one more value
            same.condition = same.condition[:-1] + f", {at})"


def _add_variant_only(rs: RulingSet, variants: list[tuple[Variant, RulingSet]]) -> None:
    """A person's ruling on an observation that only some values give (FFG: a player 7
    minutes late is absent in a card game, late in a miniatures game, and in no row
    without `game:`): shown with no default, its fixes and notes those every value
    giving it shares."""
    ruled = {(r.observation, r.player) for r in rs.rulings}
    found: dict[tuple[int, str], list[PlayerRuling]] = {}
    for _, vrs in variants:
        for r in vrs.rulings:
            if (r.observation, r.player) not in ruled:
                found.setdefault((r.observation, r.player), []).append(r)
    for (observation, player), seen in sorted(found.items()):
        first = seen[0]
        same = [r for r in seen if r.infraction == first.infraction]
        shared = lambda group: [c for c in group(first) if all(c in group(r) for r in same)]
        at = sum(1 for r in rs.rulings if r.observation <= observation)    # after its observation's others
        rs.rulings.insert(at, PlayerRuling(
            observation=observation, player=player, infraction=first.infraction, section=first.section,
            base_penalty=None, penalty=None, issued=False,
            fix=shared(lambda r: r.fix), notes=shared(lambda r: r.notes),
            assumptions=shared(lambda r: r.assumptions), because=shared(lambda r: r.because)))


def _same_ruling(rs: RulingSet, r: PlayerRuling) -> PlayerRuling | None:
    same = [x for x in rs.rulings if (x.observation, x.player) == (r.observation, r.player)]
    return next((x for x in same if x.infraction == r.infraction), same[0] if same else None)


def questions_from(rs: RulingSet, variants: list[tuple[Variant, RulingSet]],
                   ranks: dict[str, int]) -> list[Question]:
    """The added facts that change an infraction or a default penalty, most severe first."""
    found: list[tuple[int, Question]] = []
    for variant, vrs in variants:
        before = _outcomes(rs, variant.observation)
        after = _outcomes(vrs, variant.observation)
        for player in sorted(set(before) | set(after)):
            if before.get(player) == after.get(player):
                continue
            outcomes = after.get(player) or ((None, None, ()),)
            for infraction, penalty, _ in outcomes:
                choices = next((r.base_choices for r in vrs.rulings if (r.observation, r.player, r.infraction)
                                == (variant.observation, player, infraction)), [])
                heaviest = penalty or (choices[-1] if choices else "")
                severity = ranks.get(heaviest.replace("/", "__").replace("-", "_"), -1)
                found.append((severity, Question(variant.observation, player, variant.add, variant.asks,
                                                 infraction, penalty, list(choices),
                                                 _unsettled(vrs, variant.observation, player, infraction, penalty, choices))))
    found.sort(key=lambda sq: (-sq[0], sq[1].observation, sq[1].add, sq[1].infraction or ""))
    # two observations written alike ask the same question once (the text does not tell them apart)
    asked: set[tuple] = set()
    unique = []
    for _, q in found:
        said = (q.player, q.add, q.infraction, q.penalty, tuple(q.choose_from), q.unsettled)
        if said not in asked:
            asked.add(said)
            unique.append(q)
    return unique[:MAX_QUESTIONS]


def _unsettled(vrs: RulingSet, observation: int, player: str, infraction: str | None, penalty: str | None,
               choices: list[str]) -> str:
    """Why a question's answer names no penalty: the variant's own findings on the
    observation say whether the guide leaves it uncovered (a gap) or two rules disagree,
    so the question never reads "no infraction" where the guide says nothing."""
    if penalty or choices:
        return ""
    if infraction is None:
        # the guide's own "not an infraction", or no rule classifying the observation (the
        # core's gap is an error; a warning-level gap is about another person's ruling)
        if any(n.observation == observation and n.player == player for n in vrs.no_infractions):
            return "no-infraction"
        unclassified = any(f.kind == "gap" and f.level == "error" and f.observation == observation
                           for f in vrs.findings)
        return "gap" if unclassified else "no-infraction"
    kinds = {f.kind for f in vrs.findings if f.observation == observation}
    return "conflict" if "conflict" in kinds else "gap" if "gap" in kinds else ""


def _outcomes(rs: RulingSet, observation: int) -> dict[str, tuple[tuple[str, str | None, tuple[str, ...]], ...]]:
    """Per person, the (infraction, default penalty, the set the guide narrows it to where it
    names no default) of each of an observation's rulings: a question whose answer turns "no
    penalty in the guide" into "a Disqualification, with or without prizes" changes the penalty."""
    out: dict[str, list[tuple[str, str | None, tuple[str, ...]]]] = {}
    for r in rs.rulings:
        if r.observation == observation:
            out.setdefault(r.player, []).append((r.infraction, r.penalty,
                                                 () if r.penalty else tuple(r.base_choices)))
    return {player: tuple(sorted(rows, key=lambda row: (row[0], row[1] or "", row[2]))) for player, rows in out.items()}
