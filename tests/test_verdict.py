"""The judge's verdict of legal play (ppgcheck/language/verdict.py): a note that says the play
was legal and nothing else reads as `P did nothing wrong`, ruled as no infraction with each
guide's reason; a note that also says what someone did wrong is refused."""
from __future__ import annotations

import pytest

from ppgcheck.api import rule_report
from ppgcheck.errors import ReportError
from ppgcheck.language.printer import print_report
from ppgcheck.language.report import parse_report

HEADER = "policy: fab\nplayer: Kim\nplayer: Lee\n"


def read(note: str, header: str = HEADER):
    [observation] = parse_report(header + note + "\n", tolerant=True).observations
    return observation


def refused(note: str, header: str = HEADER) -> ReportError:
    with pytest.raises(ReportError) as caught:
        parse_report(header + note + "\n", tolerant=True)
    return caught.value


def test_a_verdict_after_a_players_claim_reads_as_the_suspected_player_did_nothing_wrong():
    observation = read("Lee called me b/c he thought Kim drew an extra card off her spell. "
                       "The spell says draw 2, she drew 2. All legal, no infraction.")
    assert observation.reading.read_as == "Kim did nothing wrong"
    assert observation.kind == "played_legally"
    assert any("thought Kim drew an extra card" in text for text in observation.reading.not_read)


def test_the_person_a_verdict_names_is_its_subject():
    assert read("Kim and Lee argued over a block. No infraction for Lee.").reading.read_as == "Lee did nothing wrong"


def test_the_first_player_named_who_did_not_call_is_the_subject():
    assert read("Lee resolved his attack, Kim asked me to check it. All correct.").reading.read_as \
        == "Lee did nothing wrong"


def test_a_callers_opponent_is_the_subject_where_no_one_else_is_named():
    assert read("Lee called me, thought it was one card too many. Nothing wrong there.").reading.read_as \
        == "Kim did nothing wrong"


def test_a_verdict_with_no_one_to_be_about_is_refused_offering_the_legal_form():
    error = refused("All legal.")
    assert "names no one" in error.message
    assert "Kim did nothing wrong" in error.suggestions


def test_a_note_that_also_says_what_someone_did_wrong_is_refused():
    error = refused("Kim drew an extra card. No infraction for Lee.")
    assert "says both" in error.message and "nothing was wrong" in error.message


def assert_no_verdict(note: str) -> None:
    """The note is not read as legal play (read otherwise, or refused for another reason)."""
    try:
        observation = read(note)
    except ReportError as error:
        assert "nothing was wrong" not in error.message
    else:
        assert observation.kind != "played_legally"


@pytest.mark.parametrize("note", ["Kim drew 2 extra cards, all legal otherwise.",
                                  "Kim's play was fine but she swore at Lee afterwards",
                                  "Kim knocked her drink over on Lee's cards, no infraction fits."])
def test_a_verdict_set_against_something_else_or_of_the_guide_is_no_verdict_of_legal_play(note):
    assert_no_verdict(note)


@pytest.mark.parametrize("note", [
    "Lee asked me if that is legal.",                   # a question, not the judge's verdict
    "Kim's deck was not legal.",                        # negated
    "Kim drew an extra card, it wasn't fine at all.",
])
def test_a_verdict_negated_or_in_a_players_mouth_is_no_verdict(note):
    assert_no_verdict(note)


def test_what_another_player_claimed_is_not_said_besides_the_verdict():
    observation = read("Kim thought Lee drew an extra card and called me. I counted his hand: all fine.")
    assert observation.reading.read_as == "Lee did nothing wrong"


@pytest.mark.parametrize("policy,header,section", [
    ("fab", "", "PPG 1.2"),
    ("dci", "rel: competitive\n", "UPG 1"),
    ("ffg", "", "FFG Warning Guidelines"),
    ("yugioh", "tier: 2\n", "YGO: Penalties"),
])
def test_each_guide_rules_the_verdict_as_no_infraction_and_no_gap(policy, header, section):
    text = f"policy: {policy}\n{header}player: Kim\nplayer: Lee\n" \
           "Lee thought Kim looked at too many cards. Kim scried 2 as the card says, all legal.\n"
    [ruling_set] = rule_report(text, tolerant=True, questions=False)
    assert not ruling_set.rulings and not [f for f in ruling_set.findings if f.kind == "gap"]
    [no_infraction] = ruling_set.no_infractions
    assert no_infraction.section.startswith(section) and "judge found no" in no_infraction.reason
    # the reading prints back as a canonical report that the strict language rules the same
    printed = print_report(parse_report(text, tolerant=True))
    assert "Kim did nothing wrong" in printed
    [strict] = rule_report(printed, questions=False)
    assert strict.no_infractions == ruling_set.no_infractions and not strict.rulings


def test_what_the_card_allowed_beside_the_verdict_is_legal_play():
    # (the action, then the card that lets it and the judge's verdict: nothing was wrong)
    observation = read("Kim looked at the top 2 cards with her scry. All legal, no infraction.",
                       header="policy: dci\nplayer: Kim\nplayer: Lee\n")
    assert observation.reading.read_as == "Kim did nothing wrong"


def test_the_same_action_without_what_allowed_it_is_refused_as_saying_both():
    assert "says both" in refused("Kim looked at the top 2 cards. All legal, no infraction.",
                                  header="policy: dci\nplayer: Kim\nplayer: Lee\n").message


def test_the_judges_own_clause_after_a_claim_in_one_run_on_sentence_gives_the_verdict():
    """A dictated run-on: the caller's reason, then the judge's own clause (`, I read the card`)
    and her verdict; the verdict is the judge's, not the caller's claim."""
    obs = read("lee called me over because kim took two actions in one turn, I read the card and it "
               "allows that so it was legal, no infraction")
    assert (obs.subject, obs.kind) == ("Kim", "played_legally")


def test_a_judges_clause_inside_the_claim_is_still_the_claim():
    with pytest.raises(ReportError):
        read("Lee asked me if I thought it was legal")


def test_the_judges_own_clause_is_read_for_what_it_says_beside_the_verdict():
    error = refused("Kim thought Lee drew an extra card, and I found that Lee drew 2 extra cards, otherwise "
                    "all legal")
    assert "says both" in str(error) or "nothing was wrong" in str(error)


@pytest.mark.parametrize("note", [
    # the whole line reads as an infraction of both players beside the verdict (dci r16 probes)
    "lee and kim already finished, waiting for time to run out at the feature table, no infraction",
    "Kim drew 2 extra cards and mixed them into her hand, no infraction"])
def test_a_note_read_as_an_infraction_beside_the_verdict_is_refused_for_saying_both(note):
    error = refused(note, "policy: dci\nplayer: Kim\nplayer: Lee\n")
    assert "says both" in error.message and "nothing was wrong" in error.message


def test_a_verdict_word_alone_at_the_end_of_the_line_is_the_judges():
    assert read("Kim cast a Shock for 1 mana, legal").reading.read_as == "Kim did nothing wrong"
    error = refused("kim cast 2nd copy of same legend on bf, put the old one in gy right away, legend rule done, legal",
                    "policy: dci\nplayer: Kim\nplayer: Lee\n")
    assert "says both" in error.message


@pytest.mark.parametrize("note", ["Kim drew 2 extra cards, not legal", "Kim drew 2 extra cards, legal or not"])
def test_a_verdict_word_unsaid_or_not_last_is_no_verdict(note):
    assert_no_verdict(note)


def test_a_relative_clause_of_a_thing_in_mid_sentence_is_no_verdict_on_the_play():
    assert_no_verdict("At the start of game one, Lee had presented a deck of 58 cards although her decklist, which "
                      "was legal, registered 60.")
    # (judge_notes_r11_fab.txt)
    assert read("At the start of game one, Player Lee had presented a deck of 58 cards although her decklist, which was "
                "legal, registered 60. Lee stated that two cards had been left in her sideboard pouch after the "
                "previous round. The judge confirmed the list and the card pool were correct, and the missing cards "
                "were returned to the deck before the game began.",
                HEADER + "rel: competitive\n").kind == "wrong_deck_size_at_start"


def test_a_verdict_is_matched_as_written_never_by_its_verbs_form():
    """`It was corrected` is what the judge did, not `was correct` (ffg round 16)."""
    assert_no_verdict("Kim drew an extra card. It was corrected in one minute.")
    assert read("Kim's play was checked, it was correct.").kind == "played_legally"
