"""The ruling's JSON and its types: `to_dict`/`from_dict` beside each (engine/ruling.py), so
what the CLI prints, the event store keeps and the station reads back is one encoding."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ppgcheck import api
from ppgcheck.engine.render import ruling_dict
from ppgcheck.engine.ruling import Outcome, OutcomeOption, PlayerRuling, Question

GOLDEN = Path(__file__).parent / "golden"
# reports whose rulings hold options, adjustments, questions, fixes, notes, assumptions and outcomes
CASES = ["fab/ppg1_2-judge-mistake-deviation-option.txt", "fab/ppg1_2-related-same-type-no-repeat-upgrade-fires.txt",
         "ffg/s11-intermediate-gameplay-error-over-5-minutes-option.txt", "ffg/s31-lie-to-official-is-cheating.txt",
         "dci/s020-caution-took-minutes-upgraded.txt", "fab/ppg1_2-no-intervention-resolved-quickly-fires.txt"]


def _without_what_the_json_leaves_out(r: PlayerRuling) -> PlayerRuling:
    """The reasons (`because`), which sections ask the Head Judge and an adjustment's stage are
    not in the JSON; the questions are the ruling set's, given beside each ruling."""
    return dataclasses.replace(r, because=[], head_judge="", absorbed_by="", questions=[],
                               adjustments=[dataclasses.replace(a, stage=0) for a in r.adjustments])


@pytest.mark.parametrize("case", CASES)
def test_a_ruling_read_back_from_its_json_is_the_ruling(case):
    [rs] = api.rule_report((GOLDEN / case).read_text())
    data = ruling_dict(rs)
    assert data["rulings"], case
    for r, item in zip(rs.rulings, data["rulings"]):
        back = PlayerRuling.from_dict(item)
        assert dataclasses.replace(back, questions=[]) == _without_what_the_json_leaves_out(r)
        assert back.questions == [q for q in rs.questions if (q.observation, q.player) == (r.observation, r.player)]


def test_the_cases_hold_every_part_of_a_ruling():
    rulings = [r for case in CASES for rs in api.rule_report((GOLDEN / case).read_text()) for r in rs.rulings]
    for part in ("options", "adjustments", "fix", "notes", "assumptions", "withheld"):
        assert any(getattr(r, part) for r in rulings), part


def test_a_question_an_outcome_and_an_outcome_option_read_back_as_themselves():
    question = Question(1, "Kim", "Kim drew 1 extra card, on purpose", "on purpose", "cheating", None,
                        ["game-loss", "disqualification"], "")
    outcome = Outcome("result", "PPG 3.1", scope="match", result="win", winner="Lee")
    assert Question.from_dict(question.to_dict()) == question
    assert Outcome.from_dict(outcome.to_dict()) == outcome
    option = OutcomeOption(outcome, "head-judge", "if both agree", "PPG 3.1")
    assert OutcomeOption.from_dict(option.to_dict()) == option
