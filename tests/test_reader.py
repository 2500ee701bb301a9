"""The tolerant reader (issue 36): free sentences read as canonical lines, the words not
read kept, and refusals (with whole-line suggestions that parse) instead of guesses."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ppgcheck.errors import ReportError
from ppgcheck.language.facts import build_facts
from ppgcheck.language.printer import print_report
from ppgcheck.language.report import parse_report, parse_reports

HEADER = "policy: fab\nplayer: Kim\nplayer: Lee\n"


def read(*sentences: str, header: str = HEADER):
    return parse_report(header + "\n".join(sentences) + "\n", tolerant=True)


def refusal(*sentences: str, header: str = HEADER) -> ReportError:
    with pytest.raises(ReportError) as caught:
        read(*sentences, header=header)
    return caught.value


def facts(report) -> list[str]:
    return sorted(str(s) for s in build_facts(report).symbols)


def test_a_canonical_report_parses_as_the_strict_parse_does_with_no_reading():
    text = HEADER + "Kim drew 1 extra card, mixed into her hand\n"
    tolerant, strict = parse_report(text, tolerant=True), parse_report(text)
    assert tolerant == strict and tolerant.observations[0].reading is None


def test_leading_and_trailing_context_is_kept_as_not_read():
    obs = read("In game 2, Kim drew an extra card while resolving a card's effect").observations[0]
    assert (obs.subject, obs.kind, obs.counts) == ("Kim", "drew_extra_cards", {"cards": 1})
    assert obs.reading.read_as == "Kim drew 1 extra card"
    assert obs.reading.not_read == ["In game 2", "while resolving a card's effect"]


def test_inflections_numbers_as_words_and_typos_are_read():
    obs = read("Kim accidentaly drew two extra cards").observations[0]
    assert obs.reading.read_as == "Kim drew 2 extra cards, not on purpose"


def test_a_number_said_in_two_words_is_their_sum_and_other_pairs_are_no_number():
    obs = read("Kim got to her table twenty-two minutes after the round started").observations[0]
    assert obs.counts == {"minutes": 22}
    assert read("Kim got to her table fifty-nine minutes late").observations[0].counts == {"minutes": 59}
    assert read("Kim was twenty two minutes late").observations[0].counts == {"minutes": 22}    # not 2
    assert read("Kim was 20 2 minutes late").observations[0].counts != {"minutes": 22}         # digits: no words
    assert read("Kim was five-minutes late").observations[0].counts == {"minutes": 5}          # as `5-minutes`
    assert read("Kim forgot to de-side her deck").observations[0].kind == "failed_to_deside"   # a word stays one
    for not_a_number in ("twenty-twenty", "two-twenty", "forty-eleven", "one-two"):
        with pytest.raises(ReportError):
            read(f"Kim got to her table {not_a_number} minutes late")


def test_a_number_is_the_one_before_its_unit():
    obs = read("Kim got to table 40 seven minutes after the round started").observations[0]
    assert obs.counts == {"minutes": 7} and obs.reading.not_read == ["40"]


def test_a_negated_modifier_is_read_as_its_negation_where_the_language_has_one():
    obs = read("Kim drew an extra card, not deliberately").observations[0]
    assert [m.kind for m in obs.modifiers] == ["accidental"]


def test_a_negation_the_language_cannot_say_is_refused_with_suggestions():
    error = refusal("Kim drew an extra card, it was never caught within a turn cycle")
    assert "never" in error.message and error.line == 4
    assert error.suggestions[0] == "Kim drew 1 extra card"


def test_an_unread_cue_word_is_a_refusal_not_a_guess():
    error = refusal("Kim looked at 2 extra cards and drew one")
    assert "drew" in error.message


def test_a_joined_verb_is_another_statement_only_with_what_its_form_needs_next():
    # `kept` is the verb of `{P} kept notes`: `and kept notes` says more, `and kept it` does not
    assert "took_illegal_notes" in refusal("Kim stalled and kept notes").message
    obs = read("Kim stalled and kept it").observations[0]
    assert (obs.kind, obs.reading.not_read) == ("stalled", ["and kept it"])


def test_a_joined_clause_whose_signs_say_another_kind_is_refused():
    error = refusal("Kim stalled and then pocketed a booster from the prize table")
    assert "`pocketed`" in error.message and "stole_material" in error.message
    assert "Kim stalled" in error.suggestions


def test_the_person_a_sign_is_done_to_is_no_subject():
    # `Lee hit Kim in the face`: Kim is followed by what an object is, not by a verb of hers
    obs = read("Lee hit Kim in the face after the match").observations[0]
    assert (obs.subject, obs.kind) == ("Lee", "started_fight")


def test_reported_speech_suggests_what_the_reported_person_did_first():
    error = refusal("Kim told me Lee drew an extra card")
    assert error.suggestions[0] == "Lee drew 1 extra card"


def test_a_sign_right_after_an_owner_says_what_the_owner_did():
    obs = read("Kim's missed trigger was her own aura, Lee didn't create it").observations[0]
    assert (obs.subject, obs.kind) == ("Kim", "missed_trigger")


def test_a_suggestion_names_the_doer_the_signs_would_take():
    # reported speech is refused, and its suggestion is what the reported person did to the
    # reporter, not the reporter doing it
    assert refusal("Lee says Kim called her an idiot").suggestions[0] == "Kim insulted Lee"


def test_a_quoted_insult_after_told_is_said_by_the_teller():
    obs = read('Kim told Lee "go back to school, you clown" after the attack').observations[0]
    assert (obs.subject, obs.other, obs.kind) == ("Kim", "Lee", "insulted")


DCI = "policy: dci\nplayer: Ann\nplayer: Ben\n"


def test_a_statement_of_another_person_that_cannot_be_read_is_refused_not_left_out():
    error = refusal("Ann attacked with a creature that had summoning sickness. Ben didn't notice at all, "
                    "it came up three turns later", header=DCI)
    assert "`Ben didn't notice at all" in error.message
    assert "Ben did not notice Ann's error, caught later" in error.suggestions


def test_a_hint_of_another_kind_does_not_block_a_sign():
    # (`noticed` hints at an opponent who did not notice: no rival to a sign on its own)
    obs = read("Ann forgot to sacrifice her creature at the end of her turn, it was noticed during Ben's turn",
               header=DCI).observations[0]
    assert (obs.subject, obs.kind) == ("Ann", "missed_trigger")


YUGIOH = "policy: yugioh\nplayer: Kim\nplayer: Lee\n"


def test_two_scenes_of_a_situation_make_no_sign_but_a_scene_adds_to_a_hint():
    # (yugioh: `draw phase`, `draw for turn` are `read_scene`s of an extra card drawn; `second card` a hint)
    refusal("Kim drew for turn in her Draw Phase", header=YUGIOH)
    obs = read("A spectator saw Kim pull a second card during her Draw Phase", header=YUGIOH).observations[0]
    assert (obs.subject, obs.kind) == ("Kim", "drew_extra_cards")


@pytest.mark.parametrize("sentence, modifier", [
    ("Kim drew an extra card, nobody noticed until two turns later", "caught_later"),
    ("Kim drew an extra card, it was not noticed until her next turn", "caught_later"),
    ("Kim drew 3 cards instead of 2 and shuffled them into her hand", "mixed_into_hand"),
])
def test_a_judges_idiom_for_a_modifier_is_read_as_it(sentence, modifier):
    obs = read(sentence).observations[0]
    assert modifier in {m.kind for m in obs.modifiers}


def test_two_readings_are_refused_listing_both():
    error = refusal("Kim drew 1 extra card on purpose, by accident")
    assert error.suggestions[:2] == ["Kim drew 1 extra card, on purpose", "Kim drew 1 extra card, not on purpose"]


def test_a_pronoun_starting_a_sentence_is_the_previous_subject():
    report = read("Lee missed a trigger", "She drew an extra card by accident")
    assert report.observations[1].subject == "Lee"
    assert report.observations[1].reading.read_as == "Lee drew 1 extra card, not on purpose"


def test_the_opponent_is_the_other_of_two_players():
    obs = read("Kim gave advice to her opponent").observations[0]
    assert (obs.subject, obs.other) == ("Kim", "Lee")


def test_the_opponent_among_three_players_is_refused():
    error = refusal("Kim gave advice to her opponent", header=HEADER + "player: Max\n")
    assert "exactly two players" in error.message


def test_a_multiword_declared_name_is_read_and_printed_as_declared():
    obs = read('In game 2 Player A drew an extra card', header='policy: fab\nplayer: "Player A"\nplayer: Lee\n').observations[0]
    assert obs.subject == "Player A" and obs.reading.read_as == 'Player A drew 1 extra card'


def test_modifiers_alone_are_read_about_the_previous_observation():
    report = read("Kim drew an extra card", "She did it on purpose")
    assert [m.kind for m in report.observations[0].modifiers] == ["on_purpose"]


def test_a_reader_phrase_is_not_accepted_by_the_strict_parse():
    with pytest.raises(ReportError):
        parse_report(HEADER + "Kim saw the top card\n")
    assert read("Kim saw the top card").observations[0].kind == "looked_at_extra_cards"


def test_suggestions_are_only_forms_of_the_policy():
    error = refusal("Kim drew cards over her intellect by mistake somehow", header="policy: dci\nplayer: Kim\n")
    assert not any("intellect" in s for s in error.suggestions)


SENTENCES = st.lists(st.sampled_from(
    ["Kim", "Lee", "drew", "looked", "at", "extra", "two", "cards", "card", "late", "minutes", "ten", "not",
     "on", "purpose", "mixed", "into", "her", "hand", "trigger", "missed", "the", "opponent", "she", "deck",
     "shuffled", "caught", "later", "notes", "advice", "gave", "by", "accident", "sleeves", "marked"]),
    min_size=1, max_size=9).map(" ".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SENTENCES)
def test_every_suggestion_parses_and_every_reading_prints_back_as_a_report_that_rules_the_same(sentence):
    try:
        report = read(sentence)
    except ReportError as error:
        for line in error.suggestions:
            parse_report(HEADER + line + "\n")           # strictly: raises if it does not parse
        return
    again = parse_report(print_report(report))           # strictly
    assert facts(again) == facts(report)


def test_what_another_person_said_or_did_first_is_refused_not_read_as_the_subject():
    error = refusal("Kim said Lee drew an extra card")
    assert "Kim" in error.message


def test_a_typo_of_a_long_word_is_read_but_an_english_word_is_not_corrected():
    assert read("Kim shufled insufficiently").observations[0].kind == "insufficient_shuffle"
    refusal("Kim kept making comments about Lee")          # `making` is not a typo of `marking`


def test_a_negation_reaches_the_modifier_at_the_end_of_its_clause():
    """`She did not do it on purpose` once read as `on purpose`, the `not` kept as not read."""
    from ppgcheck.language.report import parse_report
    text = ("policy: fab\nplayer: Player A\nplayer: NAP\n"
            "Player A drew an extra card and it went into her hand. She did not do it on purpose.\n")
    [observation] = parse_report(text, tolerant=True).observations
    assert "not on purpose" in observation.reading.read_as
    assert not any("not" in run.split() for run in observation.reading.not_read)


def test_a_negation_past_a_clause_s_end_does_not_negate_a_later_modifier():
    from ppgcheck.language.report import parse_report
    text = "policy: fab\nplayer: Kim\nplayer: Lee\nKim drew an extra card and it was not noticed at first, mixed into her hand\n"
    try:
        [observation] = parse_report(text, tolerant=True).observations
    except ReportError:
        return                                  # refusing is never a misreading
    assert "not" not in observation.reading.read_as.split()


def test_a_suggestion_never_says_what_the_sentence_denies():
    # (`instead of` with no number: a count the reader cannot take, so refused)
    from ppgcheck.language.report import parse_report
    text = ("policy: fab\nplayer: Kim\nplayer: Lee\n"
            "Kim drew two cards instead of putting one back and both went into her hand. "
            "She did not do it on purpose.\n")
    with pytest.raises(ReportError) as refused:
        parse_report(text, tolerant=True)
    assert refused.value.suggestions
    for line in refused.value.suggestions:
        assert "not on purpose" in line or "on purpose" not in line


def test_a_number_too_long_to_read_is_refused_not_left_out():
    """It was read as no number at all, so `drew 9999… extra cards` became `drew 1 extra card`."""
    error = refusal("In game 2 Kim drew 99999999999999999999999 extra cards")
    assert "out of range" in error.message and error.column == 20       # at the number


@pytest.mark.parametrize("sentence, count", [
    ("Kim drew three cards instead of two", 1),
    ("Kim drew 4 cards at the start of her turn instead of just one", 3),
])
def test_a_count_written_as_instead_of_is_read_as_the_difference(sentence, count):
    obs = read(sentence).observations[0]
    assert (obs.kind, obs.counts) == ("drew_extra_cards", {"cards": count})
    assert not any("instead" in text for text in obs.reading.not_read)


def test_instead_of_a_larger_number_is_no_difference_and_refused():
    # (one card instead of two says no extra card: `instead` stays an unread cue)
    error = refusal("Kim drew 1 card instead of 2")
    assert "instead" in error.message or error.suggestions


def test_instead_of_doubts_only_a_count():
    # `instead of putting them on the bottom` says how, and a reading with no count stands
    obs = read("Kim shuffled her pitch zone cards into her deck instead of putting them on the bottom").observations[0]
    assert obs.kind == "shuffled_ordered_set" and any("instead" in text for text in obs.reading.not_read)
    assert "count" in refusal("Kim drew 1 extra card, instead of putting one back").message


def test_instead_of_with_no_number_is_no_count():
    error = refusal("Kim drew two cards instead of putting them on the bottom")
    assert "instead" in error.message


def test_an_opponent_who_did_not_notice_is_offered_as_the_guide_asks_of_them():
    error = refusal("Lee never noticed that Kim defended from arsenal")
    assert "starts with what Lee did" in error.message
    assert error.suggestions[:2] == ["Kim broke a game rule, by defending from arsenal, Lee had a fair chance to notice",
                                     "Lee did not notice Kim's error"]


def test_another_person_acting_first_is_not_offered_as_not_noticing():
    error = refusal("Lee rushed through her turn so that Kim defended from arsenal")
    assert "starts with what Lee did" in error.message
    assert not any("notice" in line for line in error.suggestions)


def test_a_players_opponent_is_the_other_of_two_players():
    obs = read("In game 3 Kim's opponent drew an extra card").observations[0]
    assert obs.subject == "Lee" and obs.reading.read_as == "Lee drew 1 extra card"


def test_a_players_opponent_among_three_players_is_refused_saying_why():
    error = refusal("Kim's opponent drew an extra card", header=HEADER + "player: Max\n")
    assert "exactly two players" in error.message and "declares 3" in error.message


@pytest.mark.parametrize("said", ["no intent", "without intent", "no intention", "It wasn't deliberate"])
def test_intent_denied_in_a_judges_words_is_read_as_not_on_purpose(said):
    obs = read(f"Kim drew an extra card, {said}").observations[0]
    assert [m.kind for m in obs.modifiers] == ["accidental"]


def test_intent_named_but_not_denied_is_refused_not_guessed():
    assert "`intent`" in refusal("Kim drew an extra card, intent unclear").message


def test_a_line_of_two_statements_is_read_as_both_the_main_one_first():
    report = read("Kim drew an extra card and Lee let it pass", "Lee was 3 minutes late")
    assert [(o.subject, o.kind) for o in report.observations] == [
        ("Kim", "drew_extra_cards"), ("Lee", "late"), ("Lee", "let_error_pass")]
    first, _, second = report.observations
    assert first.line == second.line == 4           # both said on the report's 4th line
    assert (first.reading.written, second.reading.written) == ("Kim drew an extra card", "Lee let it pass")
    printed = print_report(report)
    assert facts(parse_report(printed)) == facts(report)


def test_a_piece_of_modifiers_alone_adds_to_the_statement_before_it():
    report = read("Kim drew an extra card and Lee let it pass. It came up two turns later")
    assert report.observations[1].reading.read_as == "Lee let it pass, caught later"


def test_a_line_with_a_piece_the_reader_cannot_read_stays_refused():
    error = refusal("Kim drew an extra card and Lee let it pass, Kim juggled the dice")
    assert error.line == 4


def test_a_line_of_an_earlier_report_in_the_file_is_not_read_piece_by_piece():
    text = HEADER + "Kim drew an extra card and Lee let it pass\n---\n" + HEADER + "Kim was 3 minutes late\n"
    with pytest.raises(ReportError):
        parse_reports(text, tolerant=True)


def test_a_negation_does_not_reach_past_the_end_of_its_sentence():
    obs = read("Kim drew an extra card she couldn't hide; unintentional").observations[0]
    assert [m.kind for m in obs.modifiers] == ["accidental"]


def test_a_negation_does_not_reach_past_a_comma():
    obs = read("Kim drew an extra card she did not want, honest mistake").observations[0]
    assert [m.kind for m in obs.modifiers] == ["accidental"]


def test_an_owner_named_alone_is_the_subject_unless_it_was_done_to_her_things():
    obs = read("All of Kim's cards are in sleeves in a pattern").observations[0]
    assert obs.reading.read_as == "Kim has marked cards, with a pattern"
    assert "Kim" not in " ".join(obs.reading.not_read) and "'s" not in " ".join(obs.reading.not_read)
    assert "stole" not in " ".join(refusal("Kim's promo cards were stolen at the prize table").suggestions[:0] or [""])


def test_a_sign_reading_takes_the_count_before_its_unit_and_no_table_number():
    obs = read("At table 12 Kim came in 7 minutes into the round").observations[0]
    assert (obs.kind, obs.counts) == ("late", {"minutes": 7})


def test_a_sign_reading_with_a_count_said_without_a_number_is_refused():
    error = refusal("Kim came in a few minutes into the round")
    assert error.suggestions and error.suggestions[0].startswith("Kim was 1 minute late")


def test_a_line_read_whole_with_a_statement_left_unread_is_read_piece_by_piece():
    report = read("Kim drew an extra card, Lee saw it and let it pass")
    assert [o.reading.read_as for o in report.observations] == ["Kim drew 1 extra card", "Lee let it pass"]
    kept = read("Kim drew an extra card and Lee juggled the dice").observations     # no piece to read: as before
    assert len(kept) == 1 and kept[0].reading.not_read == ["and Lee juggled the dice"]


def test_a_coin_flip_decides_a_winner_only_where_the_note_says_so():
    assert read("Kim and Lee flipped a coin to see who wins").observations[0].kind == "decided_winner_randomly"
    refusal("Kim and Lee flipped a coin to see who goes first")          # the rules' own coin flip


def test_only_n_cards_for_the_opening_hand_is_too_few():
    assert read("Kim drew only 4 cards for her opening hand").observations[0].kind == "drew_too_few_at_start"
    assert read("Kim drew too many cards for her opening hand").observations[0].kind == "drew_too_many_at_start"
    # (a number alone says nothing of too many: seven is an opening hand, so not read as one)
    refusal("Kim drew 9 cards for her opening hand")


@pytest.mark.parametrize("sentence", ["Kim wrote down her life total", "Kim passed her pack to Lee",
                                      "Kim played an instant from her arsenal"])
def test_ordinary_play_is_not_read_as_an_infraction(sentence):
    refusal(sentence)


def test_defending_from_arsenal_is_still_read_as_the_rule_it_breaks():
    obs = read("Kim defended from her arsenal").observations[0]
    assert (obs.kind, [m.kind for m in obs.modifiers]) == ("broke_game_rule", ["defending_from_arsenal"])


def test_a_sign_of_a_two_person_kind_is_said_by_the_first_to_the_next_unless_reported():
    obs = read("In game 2 Kim called Lee an idiot").observations[0]
    assert (obs.kind, obs.subject, obs.other) == ("insulted", "Kim", "Lee")
    refusal("Lee says Kim called her an idiot")             # Kim did it, as Lee reports: not Lee
    refusal("Lee told me that Kim called her an idiot")


def test_a_signs_pronoun_stands_for_the_person_named_in_its_place():
    # the pack's sign is `called her a cheater`; the judge names the one called so
    obs = read("Kim called Lee a cheater after the game").observations[0]
    assert (obs.kind, obs.subject, obs.other) == ("insulted", "Kim", "Lee")
    assert obs.reading.not_read == ["after the game"]
    refusal("Lee says Kim called Lee a cheater")            # reported: still Kim's, not Lee's
    # a name where the sign has no pronoun is still no part of the sign
    refusal("Kim called Lee to the table")


def test_a_passive_sentence_of_a_players_own_things_is_the_owners():
    yugioh = "policy: yugioh\nplayer: Kim\nplayer: Lee\n"
    obs = read("Kim's Extra Deck monsters were marked with a pen dot", header=yugioh).observations[0]
    assert (obs.subject, obs.kind) == ("Kim", "marked_cards")
    # what was done to her things by no one named is still no one's act (`read_owned` lists
    # only kinds said of a player's own things)
    refusal("Kim's deck was stolen", header=yugioh)


def test_more_than_allowed_says_it_was_not_allowed():
    ffg = "policy: ffg\nplayer: Kim\nplayer: Lee\n"
    obs = read("Kim drew one more card than allowed", header=ffg).observations[0]
    assert obs.reading.read_as == "Kim drew 1 extra card"
    refusal("Kim drew one more card, as allowed", header=ffg)


def test_a_piece_of_the_line_that_says_nothing_the_language_reads_is_kept_as_not_read():
    report = read("Game 2, turn five. Lee drew an extra card and Kim let it pass.")
    first, second = report.observations
    assert first.reading.read_as == "Lee drew 1 extra card"
    assert first.reading.not_read == ["Game 2, turn five."]
    assert second.reading.read_as == "Kim let it pass"
    # a piece with a person or a word of the language is never context: it must be read
    refusal("Game 2, turn five. Lee drew an extra card. He shuffled. Kim let it pass.")


def test_who_acts_in_a_leading_clause_of_when_is_context_not_the_subject():
    obs = read("After Kim attacked, Lee drew an extra card").observations[0]
    assert (obs.subject, obs.reading.read_as) == ("Lee", "Lee drew 1 extra card")
    assert obs.reading.not_read == ["After Kim attacked"]
    # without its `after`, what Kim did is a piece of its own with nothing of the language in it:
    # what went before, kept as not read; tied on by a joiner it may say why, and is refused
    obs = read("Kim attacked, Lee drew an extra card").observations[0]
    assert (obs.subject, obs.reading.not_read) == ("Lee", ["Kim attacked"])
    refusal("Kim's trigger was never put on the stack because Lee's aura stopped it")
    # nor is the clause's person the doer of a sign reading (was read `Lee insulted Kim`)
    for sentence in ("After Lee attacked, Kim called Lee a cheater",
                     "Round 5, table 12. After Lee attacked, Kim called Lee a cheater"):
        obs = read(sentence).observations[0]
        assert (obs.kind, obs.subject, obs.other) == ("insulted", "Kim", "Lee")


def test_a_comparative_is_no_form_of_its_adjective():
    from ppgcheck.language.wordforms import lemmas
    assert "late" not in lemmas("later") and "wrong" not in lemmas("worse")
    assert "draw" in lemmas("drew") and "card" in lemmas("cards")
    # `later` was read as the cue of tardiness, and the note refused as two readings
    obs = read("Kim played slowly and a judge came back ten minutes later").observations[0]
    assert obs.reading.read_as == "Kim played slowly"


def test_a_suggestion_takes_a_count_said_by_its_own_name():
    # intellect has no unit word: its number stands by its name (it was the range's lowest, 1)
    error = refusal("Kim ended up with 5 cards, her hero's intellect is four")
    assert error.suggestions[0] == "Kim drew 5 cards with intellect 4"


def test_a_count_said_as_more_than_one_but_not_how_many_is_refused():
    # once read as `Kim drew 1 extra card` (`some` a filler, `few` left unread)
    for sentence in ("Kim drew some extra cards", "Kim drew a few cards too many",
                     "Kim drew several cards too many"):
        refusal(sentence)
    obs = read("Kim drew an extra card after shuffling her cards").observations[0]
    assert obs.counts == {"cards": 1}


def test_what_one_person_saw_of_anothers_is_never_read_as_the_seers():
    # the missed trigger is Kim's: once read as `Lee missed a trigger`; who saw it is context
    [obs] = read("Lee saw Kim's missed trigger").observations
    assert (obs.subject, obs.kind, obs.reading.not_read) == ("Kim", "missed_trigger", ["Lee saw"])
    [obs] = read("Lee noticed that Kim drew an extra card").observations
    assert (obs.subject, obs.kind) == ("Kim", "drew_extra_cards")
    # what the one who saw did next is theirs: refused, not left out
    for sentence in ("Lee saw Kim draw an extra card and kept quiet",
                     "Lee noticed Kim drew an extra card but said nothing"):
        assert "starts with what Lee did" in refusal(sentence).message


def test_a_count_said_as_a_difference_is_not_blurred_by_both():
    [obs] = read("Kim drew 2 for the turn instead of 1, both already in her hand",
                 header="policy: dci\nplayer: Kim\nplayer: Lee\n").observations
    assert obs.counts == {"cards": 1}
    refusal("Kim picked up two cards for her draw, both touched her hand", header="policy: dci\nplayer: Kim\nplayer: Lee\n")


def test_what_the_player_wanted_is_never_left_unread_beside_a_reading_without_intent():
    error = refusal("Kim drew an extra card because she wanted a better hand")
    assert "`wanted` may say `on purpose`" in error.message
    assert error.suggestions[0] == "Kim drew 1 extra card, on purpose"
    refusal("Kim drew an extra card, she hoped for a better hand")


# ordinary play that core phrases, synonyms and fillers once read as an infraction (found by
# probing each game's legal play): refused or read as no infraction, never ruled as one
ORDINARY_PLAY = [
    ("fab", "Kim took a note of her sideboard plan during the start of game procedure"),
    ("fab", "Lee asked the judge whether he could take notes of life totals"),
    ("fab", "Kim opted the top card to the bottom"),
    ("fab", "Lee looked at the top card of his deck with an opt effect"),
    ("fab", "Kim flipped over the top card of her deck with her hero ability"),
    ("fab", "Kim did not show her opponent her hand"),
    ("fab", "Kim swears she did not see it"),
    ("dci", "Kim drew seven cards for her opening hand"),
    ("dci", "Lee cursed his luck after the game"),
    ("dci", "Lee swore he had not seen the card"),
    ("dci", "Kim looked at the top card with her scry"),
    ("dci", "Kim, a spectator, pointed out Lee's missed trigger"),
    ("dci", "Kim drew one more card with her card's effect"),
    ("dci", "Kim was slow to sit down but the round had not started"),
    ("yugioh", "Kim asked the judge whether her card could be activated"),
]


def ordinary_play_files(*paths: Path) -> list[tuple[str, str]]:
    """tests/data/ordinary_play_*.txt (or the files given): `POLICY | SENTENCE` a line (players Kim
    and Lee), the legal play and neighbouring situations each new sign of a pack was probed with."""
    out = []
    for path in paths or sorted((Path(__file__).parent / "data").glob("ordinary_play_*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                policy, sentence = (part.strip() for part in line.split(" | ", 1))
                out.append((policy, sentence))
    return out


def ordinary_play_groups() -> list[tuple[str, list[tuple[str, str]]]]:
    """The probes above and each file's, a group each (ruled in one batch: a test per sentence
    cost 2,337 separate rulings)."""
    groups: dict[str, list[tuple[str, str]]] = {"test_reader.py": list(ORDINARY_PLAY)}
    for path in sorted((Path(__file__).parent / "data").glob("ordinary_play_*.txt")):
        groups[path.name] = ordinary_play_files(path)
    return sorted(groups.items())


@pytest.mark.parametrize("name, probes", ordinary_play_groups())
def test_ordinary_play_is_never_ruled_as_an_infraction(name, probes):
    from ppgcheck.engine.batches import prepare, rule_prepared
    from ppgcheck.language.report import parse_reports
    read: dict[str, list] = {}
    for policy, sentence in probes:
        try:
            [report] = parse_reports(f"policy: {policy}\nplayer: Kim\nplayer: Lee\n{sentence}\n", "<probe>",
                                     tolerant=True)
        except ReportError:
            continue                            # refused: never a misreading
        read.setdefault(policy, []).append((sentence, report))
    misread = {}
    for policy, reports in read.items():
        ruling_sets = rule_prepared(prepare([report for _, report in reports], policy), questions=False)
        misread.update({f"{policy} | {sentence}": [r.infraction for r in ruling_set.rulings]
                        for (sentence, _), ruling_set in zip(reports, ruling_sets) if ruling_set.rulings})
    assert not misread, misread


@pytest.mark.parametrize("header", [DCI, HEADER])
def test_stalling_signs_beside_slow_play_signs_read_as_stalling(header):
    """`read_over(stalled, played_slowly)`: slow play's words with stalling's say slow play on purpose."""
    who = "Ann" if header == DCI else "Kim"
    [obs] = read(f"{who} was taking ages on every shuffle to eat the clock", header=header).observations
    assert obs.kind == "stalled"
    [obs] = read(f"{who} was taking ages on every shuffle", header=header).observations
    assert obs.kind == "played_slowly"


def test_a_pronoun_after_two_persons_names_neither_and_is_refused():
    """`she` after `Kim's opponent asked her ...` may be Kim or Lee: it was read as Lee giving
    the wrong number, a silent misreading; now refused with a line for each."""
    error = refusal("Kim's opponent asked her life total and she gave the wrong number")
    assert "`she` may be" in error.message
    assert {"Lee gave incorrect game information", "Kim gave incorrect game information"} <= set(error.suggestions)
    # with one person named before it, `she` is that person, read as before
    [obs] = read("Kim shuffled her deck and she drew an extra card").observations
    assert (obs.subject, obs.kind) == ("Kim", "drew_extra_cards")


def test_an_allowed_action_refuses_a_reading_the_signs_made_too():
    """read_allowed (`from a card effect`) refuses a reading the signs or a modifier's implication
    made as it does a phrase's: both handed back the canonical form's pattern, which looked like a
    form's own words (this one was read as a deck with extra cards).  A negation a few words
    before (`no effect that allows it`) says the opposite."""
    error = refusal("Kim ended up with an extra card in her hand from a card effect")
    assert "may say it was allowed" in error.message
    [obs] = read("Kim set her equipment face down, she has no effect that allows it").observations
    assert obs.kind == "put_equipment_face_down"


@pytest.mark.parametrize("sentence, cards", [
    ("Kim drew two attack cards instead of one", 1),      # a word between the number and its unit
    ("Kim had an extra card in her hand after the draw", 1),   # `an extra card`: the article's count
])
def test_a_count_a_word_apart_from_its_unit_is_read(sentence, cards):
    [obs] = read(sentence).observations
    assert obs.kind == "drew_extra_cards" and obs.counts.get("cards") == cards

YGO = "policy: yugioh\nplayer: Odile\nplayer: Chidi\n"


def test_a_because_clause_with_a_person_is_a_statement_of_its_own():
    """`Odile called a judge because Chidi played slowly`: read as the state and Chidi's slow
    play; it was refused as two readings, and with an unreadable reason the reason was dropped."""
    report = read("Odile called a judge because Chidi played slowly", header=YGO)
    assert [(o.subject, o.kind) for o in report.observations] == [("Chidi", "played_slowly")]
    assert [s.kind for s in report.states] == ["called_judge"]


def test_a_state_read_with_words_it_did_not_read_is_refused_not_shown_bare():
    """A state of the match has no place in the ruling to show the words not read: refused,
    with the line it reads as to take."""
    error = refusal("time was called during Odile's turn, everyone stopped", header=YGO)
    assert "`everyone stopped` is not read" in error.message
    assert error.suggestions == ["time was called during Odile's turn"]


def test_a_second_count_of_what_was_read_is_refused_with_a_line_for_each():
    """`Kim was 2 minutes late, really more like 6 minutes`: the first count was read and the
    second left unread, silently; now refused, both lines offered."""
    error = refusal("Kim was 2 minutes late, really more like 6 minutes", header=DCI.replace("Ann", "Kim"))
    assert "`6 minutes` is a second count" in error.message
    assert {"Kim was 2 minutes late", "Kim was 6 minutes late"} <= set(error.suggestions)
    assert read("Kim drew 3 cards instead of 2").observations[0].counts == {"cards": 1}


def test_who_called_the_judge_over_is_where_the_note_starts_not_a_statement():
    first = read("Lee called me over: Kim had drawn two cards instead of one.").observations
    assert [o.reading.read_as for o in first] == ["Kim drew 1 extra card"]
    assert first[0].reading.not_read == ["Lee called me over"]
    after = read("Kim drew an extra card. Lee waved me over.").observations
    assert [(o.subject, o.reading.not_read) for o in after] == [("Kim", ["Lee waved me over"])]
    # a summons naming the judge is the language's own state (and `at once` a modifier): read as it
    called = read("Lee called a judge: Kim had drawn two cards instead of one.")
    assert [(s.kind, s.persons) for s in called.states] == [("called_judge", ["Lee"])]
    # anything more than the summons is a statement to read
    refusal("Lee called me over and shuffled: Kim had drawn two cards instead of one.")


def test_two_cards_taken_at_a_draw_step_are_no_draft_pick():
    header = "policy: ffg\nplayer: Ari\nplayer: Bea\n"
    obs = read("Ari took two cards for the draw step instead of one, an accident", header=header).observations[0]
    assert obs.kind == "drew_extra_cards"
    draft = read("Kim accidentally took two cards out of the booster in pick 4").observations[0]
    assert draft.kind == "broke_draft_procedure"


def test_the_spectator_is_the_one_spectator_the_report_declares():
    one = "policy: fab\nplayer: Ann\nplayer: Ben\nspectator: Max\n"
    obs = read("The spectator told Ben what to block with", header=one).observations[0]
    assert (obs.subject, obs.reading.read_as) == ("Max", "Max gave Ben advice")
    for header in ("policy: fab\nplayer: Ann\nplayer: Ben\n", one + "spectator: Sal\n"):    # none, or which?
        refusal("The spectator told Ben what to block with", header=header)


def test_a_pronoun_after_a_reporting_verb_may_be_the_speaker_or_another_and_is_refused():
    header = "policy: ffg\nplayer: Ari\nplayer: Bea\n"
    error = refusal("Bea says he drew two cards instead of one", header=header)   # was read as Bea's
    assert error.suggestions[:2] == ["Bea drew 1 extra card", "Ari drew 1 extra card"]


def test_a_sleeves_printed_design_is_no_mark_and_a_nick_is():
    header = "policy: dci\nplayer: Kim\nplayer: Lee\n"
    refusal("Kim's sleeves have a pattern on the back design", header=header)   # was: marked, with a pattern
    refusal("Kim's sleeves have a printed pattern on the back", header=header)
    assert read("Four of Kim's sleeves have a small nick in the back edge", header=header).observations[0].kind \
        == "marked_cards"


def test_a_sentence_with_no_statement_says_so_where_the_forms_stop_not_what_fits_there():
    """A judge's sentence the reader finds nothing in was shown the strict error of its first
    comma (`unexpected \\`,\\``, expected `with`): a template's next word, of no use to a sentence."""
    error = refusal("Kim drew a card, then a few seconds later she drew two more off the top")
    assert error.message.startswith("cannot read this sentence: no statement") and "stop at `,`" in error.message
    assert error.column == len("Kim drew a card,") and not error.expected
    assert error.suggestions


@pytest.mark.parametrize("typed", ["Kim drew 2 extar cards", "Kim drew 2 extar cards, mixed into her hand"])
def test_a_form_with_a_word_mistyped_keeps_the_strict_caret_and_what_fits_there(typed):
    error = refusal(typed)
    assert error.message.startswith("unexpected") and error.expected


JOINT = "policy: dci\nplayer: Kim\nplayer: Lee\n"


@pytest.mark.parametrize("sentence, line", [
    ("Kim and Lee were both 5 minutes late", "{} was 5 minutes late"),
    ("Both Kim and Lee were shouting at each other across the table", "{} caused a minor disturbance"),
])
def test_two_persons_as_one_subject_are_read_as_the_same_statement_of_each(sentence, line):
    report = read(sentence, header=JOINT)
    assert [o.reading.read_as for o in report.observations] == [line.format("Kim"), line.format("Lee")]
    assert all(o.reading.written == sentence for o in report.observations)
    assert "Lee" not in " ".join(report.observations[0].reading.not_read)   # `each other` shown as written


def test_a_form_of_two_persons_is_read_as_that_form_not_as_one_statement_of_each():
    [observation] = read("Kim and Lee rolled a die to decide the winner of the match", header=JOINT).observations
    assert observation.reading.read_as == "Kim and Lee decided the winner randomly"


def test_two_persons_as_one_subject_whose_statements_differ_are_not_read(monkeypatch):
    """One subject's statement must be the other's with the names swapped: where the reader
    reads them apart (here made to), neither is read."""
    from ppgcheck.language import sentences
    from ppgcheck.language.reader import Context
    from ppgcheck.language.vocabulary import vocabulary
    context, vocab = Context(["Kim", "Lee"], ["Kim", "Lee"]), vocabulary("dci")
    assert len(sentences.read_joint("Kim and Lee were both 5 minutes late", context, vocab)) == 2
    read_sentence = sentences.read_sentence

    def apart(sentence, context, vocab):
        result = read_sentence(sentence, context, vocab)
        return dataclasses.replace(result, line=result.line.replace("5", "6")) if sentence.startswith("Lee") \
            else result
    monkeypatch.setattr(sentences, "read_sentence", apart)
    assert sentences.read_joint("Kim and Lee were both 5 minutes late", context, vocab) is None


@pytest.mark.parametrize("sentence", ["Lee looked at an extra card from Kim's deck",
                                      "Lee saw the top card of Kim's deck while shuffling it"])
def test_another_player_s_cards_are_read_as_hers_not_left_unread(sentence):
    """`from Kim's deck` was left unread, and the card read as Lee's own (fab's Looking at Extra
    Cards rules from_cards_of(Q): the card goes back to Kim's zone)."""
    [observation] = read(sentence).observations
    assert observation.reading.read_as == "Lee looked at 1 extra card, from Kim's cards"


@pytest.mark.parametrize("sentence, line", [
    ("Kim drew an extra card, it was never mixed into her hand",
     "Kim drew 1 extra card, the extra cards can be identified"),
    ("Kim broke a game rule, nobody caught it right away", "Kim broke a game rule, caught later"),
])
def test_a_negated_modifier_reads_as_the_modifier_it_says(sentence, line):
    """Issue 36: `the card was never mixed into her hand` is read as the negated modifier where
    the language has one (`read_negates(mixed_into_hand, extras_identifiable)`), not refused."""
    [observation] = read(sentence).observations
    assert observation.reading.read_as == line


@pytest.mark.parametrize("summons", ["Called over by Lee.", "Judge call from Lee at table 4:",
                                     "Called by Lee during combat.", "Lee called a judge over."])
def test_who_called_the_judge_in_the_passive_or_naming_the_judge_is_context(summons):
    [observation] = read(f"{summons} Kim drew 2 extra cards, mixed into her hand").observations
    assert observation.reading.read_as == "Kim drew 2 extra cards, mixed into her hand"
    assert observation.reading.not_read == [summons]


def test_a_passive_summons_followed_by_more_than_where_and_when_is_no_summons():
    from ppgcheck.language.reader import Context
    from ppgcheck.language.sentences import summons
    from ppgcheck.language.vocabulary import vocabulary
    context, vocab = Context(["Kim", "Lee"], ["Kim", "Lee"]), vocabulary("fab")
    assert summons("Called over by Lee at table 4", context, vocab) == "Lee"
    assert summons("Called over by Lee after she drew an extra card", context, vocab) is None
    assert summons("Called a cheater by Lee", context, vocab) is None


def test_the_agent_of_a_passive_sentence_is_who_did_it():
    """`Kim was called a cheater by Lee` was read as `Kim insulted Lee`: the person after `by`
    in a passive sentence did it (signs.doers), whoever is named before."""
    [observation] = read("Kim was called a cheater by Lee").observations
    assert observation.reading.read_as == "Lee insulted Kim"
    error = refusal("Kim was shown Lee's picks by Lee")          # was `Kim broke draft procedure`
    assert "Kim broke draft procedure" not in error.suggestions[:1]


def test_a_pronoun_after_a_named_owner_may_be_the_owner_and_is_refused():
    """`Lee complained about Kim's pace. She took more than a minute ...` was read as Lee's slow
    play: the owner named (`Kim's`) is a person the pronoun may stand for."""
    error = refusal("Lee complained about Kim's pace. She took more than a minute for every play.")
    assert "`she` may be Lee or Kim" in error.message
    assert {"Lee played slowly", "Kim played slowly"} <= set(error.suggestions)


@pytest.mark.parametrize("sentence", ["Kim asked if she had underpaid; she had not.",
                                      "Kim asked the judge if her pitch zone had been shuffled; it had not."])
def test_what_a_question_asks_is_not_read_as_what_happened(sentence):
    """Both were ruled (a Game Rule Violation, a Shuffling Error): round 7's fab helper."""
    error = refusal(sentence)
    assert "asks a question" in error.message


def test_a_question_after_what_happened_leaves_it_read():
    [observation] = read("Kim underpaid her attack and asked if that was ok").observations
    assert observation.reading.read_as == "Kim broke a game rule, by not paying the full cost"


def test_a_refused_passive_sentence_suggests_the_agent_s_lines():
    """`Sara was called a cheater by Tomas` (yugioh has no sign of it) offered `Sara insulted
    Tomas` first: a judge taking it would rule the insulted player."""
    error = refusal("Sara was called a cheater by Tomas",
                    header="policy: yugioh\ntier: 2\nplayer: Sara\nplayer: Tomas\n")
    assert "Tomas insulted Sara" in error.suggestions and "Sara insulted Tomas" not in error.suggestions


@pytest.mark.parametrize("line", [",", " ; ", "..."])
def test_a_line_of_punctuation_alone_is_refused_cleanly(line):
    """A line with no piece to read (split finds none) is the strict error, not a crash."""
    refusal(line)


# --- clock times, ranges, counts said as less than a number, shorthand ---------------------

@pytest.mark.parametrize("note, minutes", [
    ("Round began 10:00. Kim sat down at 10:07.", 7),
    ("Round 3 started at 2:30 PM; Kim got to the table at 2:41 PM.", 11),
    ("Kim arrived at 10:08, round started 10:00", 8),
    ("Kim showed up at 10:12 for a 10:00 start.", 12),
    ("Round began 12:55. Kim arrived 1:04.", 9),                  # a 12-hour clock past noon
    ("Round began 10:00. Kim didn't arrive until 10:15.", 15),
    ("Round began 10:00. Kim came over at 10:12.", 12),            # `over` of the verb, no limit
])
def test_an_arrival_time_against_the_rounds_start_is_the_minutes_between(note, minutes):
    obs = read(note).observations[0]
    assert (obs.subject, obs.kind, obs.counts) == ("Kim", "late", {"minutes": minutes})
    assert obs.reading.written == note.rstrip(".").strip() or obs.reading.written in note
    # the judge's own words shown, never the reader's rewriting of them
    assert not any("after the round started" in text for text in obs.reading.not_read)


def test_the_rounds_start_on_a_line_before_counts_for_an_arrival_on_a_later_line():
    obs = read("Round began 10:00, table 12.", "Kim sat down at 10:07.").observations
    assert [(o.kind, o.counts) for o in obs] == [("late", {"minutes": 7})]


@pytest.mark.parametrize("note", [
    "Kim sat down at 10:07.",                                      # no start said: no count
    "Round began 10:00. Kim arrived at 9:58.",                     # on time: never late
    "Round began 10:00. Kim drew an extra card at 10:20.",         # no arrival: the time is context
])
def test_a_clock_time_is_no_lateness_without_a_start_or_an_arrival_after_it(note):
    try:
        observations = read(note).observations
    except ReportError:
        return
    assert all(o.kind != "late" for o in observations)


@pytest.mark.parametrize("note, counts", [
    ("Kim drew 2-3 extra cards", (2, 3)),
    ("Kim drew two or three extra cards", (2, 3)),
    ("Kim was 3 to 4 minutes late", (3, 4)),
])
def test_a_count_given_as_a_range_is_refused_with_the_line_for_each(note, counts):
    error = refusal(note)
    assert "is a range" in error.message
    assert [any(f" {n} " in s for s in error.suggestions[:2]) for n in counts] == [True, True]


def test_a_count_said_to_fall_short_of_its_number_is_refused_and_a_rough_one_is_read():
    assert "unsure" in refusal("Kim was almost 10 minutes late").message
    assert "unsure" in refusal("Kim drew nearly 3 extra cards").message
    assert read("Kim was a quarter of an hour late").observations[0].counts == {"minutes": 15}
    assert read("Kim was half an hour late").observations[0].counts == {"minutes": 30}
    assert read("Kim was ~3 min late").observations[0].counts == {"minutes": 3}


def test_a_judges_shorthand_reads_as_the_words_it_stands_for():
    obs = read("Kim drew 2 extra cards & shuffled them into her hand").observations[0]
    assert obs.reading.read_as == "Kim drew 2 extra cards, mixed into her hand"
    from ppgcheck.language.wordforms import tokenize
    assert [t.text for t in tokenize("w/o it b/c x&y w/ her")] == ["without", "it", "because", "x", "and", "y",
                                                                    "with", "her"]
    # `+1 card` is one extra card; a counter's `+1/+1` is no count of extras
    assert [t.text for t in tokenize("took +1 card, a +1/+1 counter")] == ["took", "1", "extra", "card", "a", "1", "1",
                                                                           "counter"]
    assert [t.text for t in tokenize("her hardware gives +1 click")] == ["her", "hardware", "gives", "1", "click"]
    assert read("Kim drew +2 cards, mixed into her hand").observations[0].reading.read_as == \
        "Kim drew 2 extra cards, mixed into her hand"


def test_a_line_of_context_alone_is_shown_as_not_read_by_the_statement_after_it():
    [obs] = read("Round 6, table 31.", "Kim was 7 minutes late").observations
    assert obs.reading.not_read[0] == "Round 6, table 31." and obs.counts == {"minutes": 7}
    [obs] = read("Kim drew an extra card", "Table 31.").observations      # none after it: the one before
    assert obs.reading.not_read[-1] == "Table 31." and obs.reading.read_as == "Kim drew 1 extra card"
    assert refusal("Round 6, table 31.").line == 4          # context of nothing: the line's own error
    # a line that says what happened, in words the reader does not know, is no context
    assert refusal("An extra card was drawn, round 6.", "Kim was 7 minutes late").line == 4


def test_the_erring_player_calling_a_judge_at_once_is_the_modifier_not_a_second_statement():
    for note in ("Kim drew an extra card and immediately called a judge",
                 "Kim drew an extra card and called a judge right away",
                 "Kim drew an extra card. She called a judge at once."):
        [obs] = read(note).observations
        assert [(m.kind, m.person) for m in obs.modifiers] == [("called_judge_at_once", "Kim")], note
    [obs] = read("Kim drew an extra card. Lee immediately called a judge.").observations
    assert [(m.kind, m.person) for m in obs.modifiers] == [("called_judge_at_once", "Lee")]


def test_another_persons_claim_of_a_modifier_is_refused_the_subjects_own_account_is_read():
    error = refusal("Kim drew an extra card. Lee said it was on purpose.")
    assert "Lee's account" in error.message
    assert error.suggestions[:2] == ["Kim drew 1 extra card, on purpose", "Kim drew 1 extra card"]
    [obs] = read("Kim drew an extra card. She said it was an accident.").observations
    assert [m.kind for m in obs.modifiers] == ["accidental"]


def test_a_sentence_naming_someone_is_hers_and_a_pronoun_after_it_the_one_named_before():
    """`Lee called me over: Kim called him an idiot.` was read `Lee insulted Kim`."""
    [obs] = read("Lee called me over: Kim called him an idiot.",
                 header="policy: yugioh\nplayer: Kim\nplayer: Lee\n").observations
    assert (obs.kind, obs.subject, obs.other) == ("insulted", "Kim", "Lee")


def test_a_negation_before_a_comma_does_not_negate_the_modifier_after_it():
    """`no riffle, on purpose` was read `not on purpose`: Insufficient Randomization, not Manipulation."""
    [obs] = read("Kim pile shuffled her deck only, no riffle, on purpose.",
                 header="policy: dci\nplayer: Kim\nplayer: Lee\n").observations
    assert [m.kind for m in obs.modifiers] == ["on_purpose"]


def test_two_subjects_joined_by_an_ampersand_and_a_count_of_another_sentence():
    report = read("Kim & Lee were both 5 minutes late")
    assert [(o.subject, o.counts) for o in report.observations] == [("Kim", {"minutes": 5}), ("Lee", {"minutes": 5})]
    [obs] = read("Kim was 6 minutes late for round 3. Gave them 3 minutes extra.").observations
    assert obs.counts == {"minutes": 6}


@pytest.mark.parametrize("note", ["Kim was over 3 minutes late", "Kim was more than 10 minutes late",
                                  "Kim was at least 5 minutes late"])
def test_a_limit_before_a_count_of_minutes_is_refused_not_read_as_the_count(note):
    """Yu-Gi-Oh's Game Loss is for "later than 3 minutes": `over 3 minutes` read as 3 was no penalty."""
    error = refusal(note, header="policy: yugioh\nplayer: Kim\nplayer: Lee\n")
    assert "a limit, not the count" in error.message


def test_a_count_of_cards_after_a_verbs_over_is_read_and_minutes_never_said_are_refused():
    assert read("Kim flipped over 2 extra cards").observations[0].counts == {"cards": 2}
    error = refusal("Kim arrived late.", header="policy: yugioh\nplayer: Kim\nplayer: Lee\n")
    assert "how many minutes" in error.message and error.suggestions[0] == "Kim was 1 minute late"
    assert refusal("Kim arrived late").suggestions[0] == "Kim was 1 minute late"


def test_a_card_seen_in_a_public_zone_is_not_read_as_an_extra_card_looked_at():
    error = refusal("Kim looked at the top card of her graveyard")
    assert "allowed" in error.message
    assert read("Kim looked at the top card of her deck").observations[0].kind == "looked_at_extra_cards"


def test_a_draw_counted_instead_of_another_without_its_unit_is_the_difference():
    assert read("Kim drew 3 instead of 2").observations[0].reading.read_as == "Kim drew 1 extra card"
    assert read("Kim drew three for her draw phase instead of two").observations[0].counts == {"cards": 1}


def test_a_modifier_said_twice_is_read_once_and_two_that_disagree_are_refused():
    [obs] = read("Kim drew an extra card. Nobody did it on purpose, it was an accident.").observations
    assert [m.kind for m in obs.modifiers] == ["accidental"]
    assert "says both" in refusal("Kim drew an extra card on purpose, it was an accident.").message


def test_a_negated_modifier_implies_no_observation():
    # (read as `Kim has marked cards, without a pattern`: the note says nothing was marked)
    header = "policy: dci\nplayer: Kim\nplayer: Lee\n"
    for sentence in ("None of Kim's sleeves are lighter than her spells.", "Kim's sleeves are not lighter than her spells"):
        refusal(sentence, header=header)
    assert read("Kim's lands have lighter sleeves than her spells", header=header).observations[0].kind == "marked_cards"


def test_an_ordinal_in_digits_is_no_count():
    [obs] = read("Kim drew 3 instead of 2, the 3rd card still face down",
                 header="policy: yugioh\ntier: 2\nplayer: Kim\nplayer: Lee\n").observations
    assert obs.counts == {"cards": 1}


def test_a_sign_s_doer_is_never_the_person_named_after_it_where_a_pronoun_did_it():
    header = "policy: yugioh\ntier: 2\nplayer: Kim\nplayer: Lee\n"
    # (both were read as Lee's: the one named after the sign, and the seer of Kim's sleeves)
    [obs] = read("Kim's activation was correct but she swore at Lee afterwards", header=header).observations
    assert (obs.subject, obs.kind) == ("Kim", "offensive_language")
    refusal("After the game she swore at Lee", header=header)
    refusal("kim's opp noticed her sleeves r double sleeved", header=header)


def test_a_sentence_whose_clauses_cannot_be_read_apart_is_read_whole():
    """`... but she only pitched one card` holds the sign only as one sentence: cut before `she`,
    neither clause reads; the sentence reads whole beside the next one."""
    from ppgcheck.api import rule_report
    [ruling_set] = rule_report("policy: fab\nplayer: Kim\nplayer: Lee\n\nKim played an attack but she only pitched "
                               "one card. Lee called a judge at once.\n", tolerant=True, questions=False)
    assert [(r.player, r.infraction) for r in ruling_set.rulings] == [("Kim", "game-rules-violation")]


def test_a_sentence_read_whole_never_leaves_another_persons_clause_unread():
    from ppgcheck.language.mentions import Context
    from ppgcheck.language.sentences import _reads_whole
    from ppgcheck.language.vocabulary import vocabulary
    vocab = vocabulary("fab")
    context = Context(["Kim", "Lee"], ["Kim", "Lee"])
    assert _reads_whole("Kim played an attack but she only pitched one card.", context, vocab)
    assert not _reads_whole("Kim drew 2 extra cards and Lee wrote down her life total.", context, vocab)


def test_a_history_entry_before_a_note_is_no_subject_of_it():
    """`Lee: none for slow-play` made Lee the previous subject, and the note after it, with no
    name first, was read as modifiers of nothing (`It was not on purpose`: a parse error)."""
    from ppgcheck.language.report import parse_reports
    [report] = parse_reports("policy: ffg\nplayer: Kim\nplayer: Lee\nhistory:\nLee: none for slow-play\n"
                             "asked lee to speed up earlier this rd, now again 3+ min on one decision, not on "
                             "purpose. NW for SP\n", tolerant=True)
    assert [(o.subject, o.kind) for o in report.observations] == [("Lee", "played_slowly")]



def test_a_pads_plus_between_two_names_is_the_pair_and_elsewhere_no_word():
    from ppgcheck.language.report import parse_report
    header = "policy: dci\nplayer: Kim\nplayer: Lee\nrel: competitive\n"
    observations = parse_report(header + "time called, kim + lee flipped coin for the match instead of draw\n",
                                tolerant=True).observations
    assert [(o.subject, o.kind) for o in observations] == [("Kim", "decided_winner_randomly")]
    assert observations[0].reading.read_as == "Kim and Lee decided the winner randomly"
