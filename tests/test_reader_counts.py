"""How many: the count due said after the one done (`drew 2 when she should have drawn 1`),
read as their difference where the verb is the count's own, and never across another verb."""
from __future__ import annotations

import pytest

from ppgcheck.errors import ReportError
from ppgcheck.language.report import parse_report

HEADER = "policy: dci\nplayer: Kim\nplayer: Lee\n"


def read(sentence: str):
    return parse_report(HEADER + sentence + "\n", tolerant=True).observations[0]


@pytest.mark.parametrize("sentence, count", [
    ("Kim drew 2 cards when she should have drawn 1", 1),
    ("Kim drew 3 cards but should only draw 2", 1),
    ("Kim drew 4 cards rather than 1", 3),
    ("Kim drew 2 cards, she was supposed to draw 1", 1),
    ("Kim drew two card when she must draw one", 1),
    ("Kim drew 2 cards, should have been 1", 1),
    ("Kim drew two extra cards instead of one", 1),     # `extra` said loosely: two were drawn for one
])
def test_the_count_due_after_the_count_drawn_is_read_as_their_difference(sentence, count):
    obs = read(sentence)
    assert (obs.kind, obs.counts) == ("drew_extra_cards", {"cards": count})
    assert obs.reading.not_read == []        # the words of the contrast are read with the count


@pytest.mark.parametrize("sentence", [
    "Kim drew 2 cards and had to discard 1",             # another verb's count: the card's own effect
    "Kim drew 1 card when she should have drawn 2",      # fewer than due: no extra card
])
def test_a_second_count_of_another_verb_or_a_larger_one_is_no_difference(sentence):
    try:
        obs = read(sentence)
    except ReportError:
        return                  # refused: fine, nothing was guessed
    assert obs.kind != "drew_extra_cards" or obs.counts != {"cards": 1}


def test_a_pattern_without_a_count_never_skips_a_number():
    # (`looked at the top card` read over `top 3 w/ her card` as 1 extra card, the 3 unread)
    try:
        obs = read("kim looked at top 3 w/ her card")
    except ReportError:
        return
    assert obs.counts != {"cards": 1}


@pytest.mark.parametrize("sentence, count", [("kim drew 2 extra, mixed in hand", 2), ("Kim drew an extra, mixed in", 1),
                                             ("kim drew 1 extra", 1), ("Kim drew 2 extra at end of turn", 2)])
def test_a_draw_counted_as_extra_without_its_unit_is_extra_cards(sentence, count):
    obs = read(sentence)
    assert (obs.kind, obs.counts) == ("drew_extra_cards", {"cards": count})


def test_extra_before_another_noun_is_no_card():
    with pytest.raises(ReportError):
        read("Kim drew 3 extra damage")


@pytest.mark.parametrize("policy, sentence, count", [
    ("fab", "Kim drew two cards stuck together for her turn", 1),
    ("yugioh", "Kim drew for turn and two cards stuck together", 1),
    ("yugioh", "Kim drew 3 cards stuck together", 2),
])
def test_cards_stuck_together_are_one_draw_with_one_card_due(policy, sentence, count):
    """`read_together`: N cards that came as one draw are N-1 extra, the words read with the count."""
    obs = parse_report(f"policy: {policy}\nplayer: Kim\nplayer: Lee\n{sentence}\n", tolerant=True).observations[0]
    assert (obs.kind, obs.counts) == ("drew_extra_cards", {"cards": count})
    assert not any("stuck" in text for text in obs.reading.not_read)


@pytest.mark.parametrize("sentence, count", [
    ("Kim drew 2 extra cards stuck together", 2),        # said as extra already: as written
    ("Kim drew 2 extra cards, her sleeves stuck together", 2),
])
def test_a_count_said_as_extra_stays_as_written_beside_stuck_cards(sentence, count):
    obs = read(sentence)
    assert (obs.kind, obs.counts) == ("drew_extra_cards", {"cards": count})


@pytest.mark.parametrize("policy, sentence, minutes", [
    ("ffg", "Kim arrives 4' late, no word to anyone", 4),        # a pad's minute mark
    ("yugioh", "Kim arrived 5\u2032 late", 5),
])
def test_a_minute_mark_after_a_number_is_minutes(policy, sentence, minutes):
    obs = parse_report(f"policy: {policy}\nplayer: Kim\nplayer: Lee\n{sentence}\n", tolerant=True).observations[0]
    assert (obs.kind, obs.counts) == ("late", {"minutes": minutes})


def test_a_possessive_after_a_number_is_no_minute_mark():
    from ppgcheck.language.wordforms import tokenize
    assert [t.text for t in tokenize("the 90's deck, Kim's 4' wait")] == ["the", "90", "'s", "deck", "kim", "'s",
                                                                           "4", "min", "wait"]


def test_a_synonym_that_means_a_number_says_that_number():
    """A dictation slip read as the number it stands for (`won extra` = `one extra`): the
    count is the synonym's number, never left out and taken as 1 by default."""
    import copy

    from ppgcheck.language.matching import patterns
    from ppgcheck.language.vocabulary import vocabulary
    compiled = copy.copy(patterns(vocabulary("dci")))      # (the cached one stays as it is)
    slips = {("to", "extra"): ("two", "extra"), ("free", "more"): ("three", "more")}
    compiled.synonyms_longest_first = [(w, m, tuple(frozenset({x}) for x in w)) for w, m in slips.items()]
    words = compiled.words("Kim drew to extra cards, free more", [(0, 3, "Kim")])
    assert [w.number for w in words if w.number is not None] == [2, 3]
