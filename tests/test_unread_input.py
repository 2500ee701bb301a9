"""Nothing a report says is silently ignored (issue 37): for every policy and every form of
the language (modifiers, states, tallies, headers), a report stating it is ruled, and either
a rule of the policy reads the fact or the ruling carries an `input` finding saying the
guide does not read it; where it does, the ruling is the one without the line."""
from __future__ import annotations

import re

import pytest

from ppgcheck.api import rule_report
from ppgcheck.engine.unread import input_reads
from ppgcheck.language.vocabulary import vocabulary
from ppgcheck.packs.pack import load_pack

POLICIES = ("fab", "dci", "ffg", "yugioh")
BASE = "policy: {policy}\nplayer: Alice\nplayer: Bob\n"
OBSERVATION = "Alice broke a game rule"
UNREAD = "no rule of this guide reads"


def _fill(text: str) -> str:
    """A form's text with its slots filled: Alice, Bob, the number 1."""
    text = text.replace("{P}", "Alice").replace("{Q}", "Bob")
    return re.sub(r"\{[a-z_]+\}", "1", text)


def _cases(policy: str) -> list[tuple[str, str, str, str]]:
    """(what, value, the report with the line, the report without it) for each form."""
    vocab = vocabulary(policy)
    base = BASE.format(policy=policy)
    cases = []
    for kind, forms in sorted(vocab.modifiers.items()):
        with_line = base + f"{OBSERVATION}, {_fill(forms[0].text)}\n"
        cases.append(("modifier", kind, with_line, base + OBSERVATION + "\n"))
    for kind, forms in sorted(vocab.states.items()):
        cases.append(("state", kind, base + _fill(forms[0].text) + "\n", base))
    for key in sorted(vocab.tallies):
        cases.append(("tally", key, base + f"{key}: Alice 1, Bob 2\n" + OBSERVATION + "\n",
                      base + OBSERVATION + "\n"))
    headers = [("rel", value, f"rel: {value}") for value in vocab.values.get("rel", [])]
    headers += [("event_kind", value, f"event: {value}") for value in vocab.values.get("event_kind", [])]
    headers += [("game_kind", value, f"game: {value}") for value in vocab.values.get("game_kind", [])]
    headers += [("best_of", "1", "match: single game"), ("best_of", "3", "match: best of 3"),
                ("tier", "1", "tier: 1"), ("ruling_minutes", "8", "the ruling took 8 minutes"),
                ("when", "between_games", "when: between games"), ("round", "3", "round: 3")]
    for what, value, line in headers:
        cases.append((what, value, base.replace("player: Alice", f"{line}\nplayer: Alice") + OBSERVATION + "\n",
                      base + OBSERVATION + "\n"))
    return cases


def _summary(rs) -> tuple:
    """What a ruling decides, without its findings and the observation's words."""
    return (sorted((r.player, r.infraction, r.penalty, r.issued, tuple(r.permitted),
                    tuple((o.by, o.penalty) for o in r.options)) for r in rs.rulings),
            sorted((n.player, n.reason) for n in rs.no_infractions),
            [o.describe() for o in rs.outcomes], rs.time_extension_minutes)


@pytest.mark.parametrize("policy", POLICIES)
def test_every_form_is_read_or_reported(policy: str) -> None:
    pack = load_pack(policy, None)
    reads = set(input_reads(pack.parsed(pack.runtime_files, order="files"), pack.core))
    cases = _cases(policy)
    texts = [text for case in cases for text in case[2:]]
    rulings = rule_report("\n---\n".join(texts), policy, questions=False)
    assert len(rulings) == len(texts)
    unread_seen = 0
    for at, (what, value, _, _) in enumerate(cases):
        with_line, without = rulings[2 * at], rulings[2 * at + 1]
        shown = value.replace("_", "-")
        said = [f for f in with_line.findings if f.kind == "input" and UNREAD in f.message
                and re.search(rf"(?<![\w-]){re.escape(shown)}(?![\w-])", f.message)]
        read = (what, value) in reads or (what, "any") in reads
        if what == "rel" and value not in pack_rels(with_line):
            continue        # a REL the guide is not written for: the scope finding speaks for it
        if read:
            assert not said, f"{policy}: {what} {value} is read, yet reported unread: {said}"
            continue
        unread_seen += 1
        assert said, f"{policy}: no rule reads {what} {value}, and the ruling does not say so"
        assert _summary(with_line) == _summary(without), f"{policy}: unread {what} {value} changed the ruling"
    assert unread_seen, f"{policy}: every form read: the test would not notice a silent one"


def pack_rels(rs) -> set[str]:
    """The RELs the guide covers, read off the ruling: a REL it does not cover has a scope finding."""
    if any(f.kind == "scope" for f in rs.findings):
        return set()
    return {"casual", "regular", "competitive", "professional"}


def test_a_pack_that_reads_a_fact_stops_reporting_it() -> None:
    """DCI reads no `score:` line; the finding is computed from the rules, not a list."""
    text = BASE.format(policy="dci") + "score: Alice 1, Bob 0\n" + OBSERVATION + "\n"
    [rs] = rule_report(text, "dci", questions=False)
    assert any(UNREAD in f.message and "score" in f.message for f in rs.findings)
    pack = load_pack("dci", None)
    assert ("tally", "score") not in input_reads(pack.parsed(pack.runtime_files, order="files"), pack.core)


def test_check_lists_the_forms_a_pack_never_reads() -> None:
    """`check` lists per pack the forms no rule reads: DCI's tallies, FFG's `rel:`; not FaB's `rel:`."""
    from ppgcheck.analysis.check import unread_forms
    from ppgcheck.language.vocabulary import pack_vocabulary
    lists = {}
    for policy in ("dci", "ffg", "fab"):
        pack = load_pack(policy, None)
        lists[policy] = unread_forms(pack, pack_vocabulary(pack))
    assert "`score:`" in lists["dci"]["tally"]
    assert "`rel:`" in lists["ffg"]["header"]
    assert "`rel:`" not in lists["fab"].get("header", [])
    assert "`score:`" not in lists["fab"].get("tally", [])
