"""Cue words, which make a reading refused where they say more than it does: a cue of several
words (`all lands`), never one denied (`no peeking`), never another guide's kind; a cue of a
modifier of another kind still refuses (it may say the note is about that kind)."""
from __future__ import annotations

import pytest

from ppgcheck.errors import ReportError
from ppgcheck.language.report import parse_report


def read(sentence: str, policy: str = "dci", players: tuple[str, str] = ("Kim", "Lee")):
    header = f"policy: {policy}\n" + "".join(f"player: {p}\n" for p in players)
    return parse_report(f"{header}{sentence}\n", tolerant=True).observations


def refused(sentence: str, policy: str = "dci", players: tuple[str, str] = ("Kim", "Lee")) -> ReportError:
    with pytest.raises(ReportError) as caught:
        read(sentence, policy, players)
    return caught.value


@pytest.mark.parametrize("sentence", ["Kim broke draft procedure, no peeking", "Kim broke draft procedure without peeking",
                                      "Kim broke draft procedure, she did not even peek"])
def test_a_denied_sign_of_another_situation_refuses_nothing(sentence):
    [obs] = read(sentence)
    assert obs.kind == "broke_draft_procedure" and obs.reading.not_read


def test_a_sign_of_another_situation_not_denied_still_refuses():
    assert "speaks of `looked_at_extra_cards`" in refused("Kim broke draft procedure and peeked").message



def test_a_cue_of_several_words_refuses_a_reading_that_does_not_say_it():
    # (dci: UPG 222 Marked Cards — Pattern; `all lands` is a pattern the plain reading leaves out)
    error = refused("Kim's sleeves are marked, all lands")
    assert error.suggestions[:2] == ["Kim has marked cards, with a pattern", "Kim has marked cards"]
    assert read("Kim's sleeves are marked")[0].kind == "marked_cards"


def test_a_cue_of_a_modifier_of_another_kind_still_refuses():
    # (fab: `equipment ... not on her list` beside a reading of a deck unlike its list: the list is
    # wrong, PPG 3.4, not the deck; refused, never read as the deck's mismatch)
    error = refused("Deck check R3. Sofia has worn the same legs equipment all day but it isn't on her list "
                    "anywhere; everything else matches.", "fab", players=("Sofia", "Lee"))
    assert "missing equipment" in error.message


def test_another_guides_observation_cue_refuses_no_note():
    # (`drew` is a cue of FaB's intellect draw; a Yu-Gi-Oh note that says it is not refused for it)
    try:
        read("Kim reached for her draw and saw the second card", "yugioh")
    except ReportError as error:
        assert "drew_above_intellect" not in error.message


@pytest.mark.parametrize("sentence", [
    "Kim ignored the announcement about life totals on paper, says she came in late and missed it.",
    "Kim ignored the announcement about life totals on paper and says she was late to the meeting."])
def test_a_cue_in_the_subjects_own_account_of_herself_is_hers_not_the_judges(sentence):
    [obs] = read(sentence)
    assert (obs.subject, obs.kind) == ("Kim", "ignored_announcement")
    assert any("late" in words for words in obs.reading.not_read)


@pytest.mark.parametrize("sentence", [
    "Kim ignored the announcement about life totals on paper, Lee says she was late.",   # another's account
    "Kim ignored the announcement about life totals on paper and was late."])            # the judge's own words
def test_a_cue_in_anothers_account_or_the_judges_words_still_refuses(sentence):
    refused(sentence)


def test_a_cue_of_intent_in_the_subjects_own_words_still_refuses():
    """`he said he wanted a smooth draw` may admit the intent that makes it cheating."""
    refused("Kai admitted he had sorted his lands and spells into alternating order between games. He then gave "
            "the deck a single cut and presented it, he said he wanted a smooth draw", players=("Kai", "Mei"))
