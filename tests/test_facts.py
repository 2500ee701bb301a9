"""Facts are clingo symbols; report text never becomes ASP code."""
from __future__ import annotations

import clingo

from ppgcheck import rule_report
from ppgcheck.language.facts import build_facts, constant_to_slug, slug_to_constant
from ppgcheck.language.report import parse_report

INJECTION = 'x). penalty(disqualification). #include "/etc/passwd". a('


def report_with(name: str) -> str:
    quoted = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return (f"policy: fab\nrel: competitive\nplayer: {quoted}\nplayer: Bob\n"
            f"{quoted} drew 5 cards with intellect 4, mixed into her hand\n"
            f"Bob broke a game rule, {quoted} had a fair chance to notice\n")


def test_a_name_that_looks_like_asp_stays_a_name_and_changes_nothing():
    [plain] = rule_report(report_with("Alice"))
    [injected] = rule_report(report_with(INJECTION))
    assert [r.player for r in injected.rulings] == [INJECTION if r.player == "Alice" else r.player
                                                    for r in plain.rulings]
    strip = lambda rs: [(r.infraction, r.penalty, r.base_penalty, [a.to for a in r.adjustments])
                        for r in rs.rulings]
    assert strip(injected) == strip(plain)
    assert injected.findings == plain.findings
    assert not any(r.penalty == "disqualification" for r in injected.rulings)


def test_persons_reach_clingo_as_numbers_only():
    facts = build_facts(parse_report(report_with(INJECTION)))
    assert facts.persons[0] == INJECTION
    for sym in facts.symbols:
        assert all(arg.type is not clingo.SymbolType.String for arg in sym.arguments)
        assert INJECTION not in str(sym)


def test_each_statement_maps_to_one_fact_shape():
    report = parse_report("policy: fab\nrel: professional\nround: 3, swiss\nmatch: single game\n"
                          "day: 2\nwhen: during game 2\nplayer: Alice\nspectator: Carol\n"
                          "Carol gave Alice advice, unrequested\nAlice was 12 minutes late\n"
                          "the ruling took 2 minutes\njudge call: tardiness, game-loss\n"
                          "history:\n  Alice: warning for slow-play, day 1\n  Alice: warning for slow-play\n")
    facts = {str(s) for s in build_facts(report).symbols}
    assert facts == {
        "person(1,player)", "person(2,spectator)", "rel(professional)", "round(3)",
        "round_kind(swiss)", "best_of(1)", "day(2)", "when(during_game(2))", "ruling_minutes(2)",
        "judge_call(tardiness,game_loss)", "observation(1,2,gave_advice)", "other_person(1,1)",
        "modifier(1,unrequested)", "observation(2,1,late)", "count(2,minutes,12)",
        "history(1,warning,slow_play,1,1)", "history(1,warning,slow_play,0,1)", "history_day(1)"}


def test_slugs_and_constants_convert_both_ways():
    for slug in ("hidden-card-error", "card-drawing/drawing-extra-cards", "game-loss"):
        assert constant_to_slug(slug_to_constant(slug)) == slug
    assert slug_to_constant("card-drawing/drawing-extra-cards") == "card_drawing__drawing_extra_cards"
