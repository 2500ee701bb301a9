"""Who did it: the persons of a judge's note as judges name them (`PA` for `Player A`), the
pair that was playing, a verb of seeing that says when an error was caught, and what one
player bade another do (never read as done)."""
from __future__ import annotations

import pytest

from ppgcheck.errors import ReportError
from ppgcheck.language.report import parse_report


def read(sentence: str, players: tuple[str, ...] = ("Kim", "Lee")):
    header = "policy: dci\n" + "".join(f"player: {p}\n" for p in players)
    return parse_report(header + sentence + "\n", tolerant=True).observations


def refused(sentence: str, players: tuple[str, ...] = ("Kim", "Lee")) -> ReportError:
    with pytest.raises(ReportError) as caught:
        read(sentence, players)
    return caught.value


@pytest.mark.parametrize("sentence", ["PA drew 2 cards instead of 1", "pa drew two cards instead of one"])
def test_a_player_declared_as_player_a_is_named_pa_too(sentence):
    obs = read(sentence, ("Player A", "Player B"))[0]
    assert (obs.subject, obs.kind) == ("Player A", "drew_extra_cards")


def test_pa_is_no_name_where_no_player_a_is_declared():
    refused("PA drew 2 cards instead of 1")         # no declared name: never read as Kim's or Lee's


def test_the_pair_that_was_playing_is_no_other_subject():
    obs = read("Kim and Lee were playing game 2 when Kim drew 2 cards instead of 1")[0]
    assert (obs.subject, obs.kind, obs.counts) == ("Kim", "drew_extra_cards", {"cards": 1})


def test_another_person_acting_first_is_still_refused():
    assert "starts with what Lee did" in refused("Lee distracted Kim and Kim drew 2 extra cards").message


@pytest.mark.parametrize("sentence, caught", [
    ("Kim drew 2 cards instead of 1, Lee notice two turn later", "caught_later"),
    ("Kim drew 2 cards instead of 1, Lee see it right away", "caught_at_once"),
])
def test_a_verb_of_seeing_in_the_present_says_when_the_error_was_caught(sentence, caught):
    obs = read(sentence)[0]
    assert obs.kind == "drew_extra_cards" and caught in {m.kind for m in obs.modifiers}


def test_what_another_saw_of_intent_is_still_their_account():
    assert "account" in refused("Kim drew 2 cards instead of 1, Lee saw she did it on purpose").message


@pytest.mark.parametrize("sentence", ["Kim told Lee to hurry up", "Kim asked him to play faster",
                                      "Kim told Lee to hurry up and Lee missed his trigger"])
def test_what_a_player_bade_another_do_is_never_read_as_done(sentence):
    try:
        observations = read(sentence)
    except ReportError:
        return
    assert all(o.kind != "played_slowly" for o in observations)


def test_a_verb_with_an_object_of_its_own_does_not_reach_a_person_after_it():
    for sentence in ("Lee pushed the cards toward Kim to show them", "Kim pushed her chair back and left"):
        try:
            observations = read(sentence)
        except ReportError:
            continue
        assert all(o.kind not in ("shoved", "aggressive") for o in observations)
    assert read("Lee shoved Kim hard")[0].kind == "shoved"


def test_player_before_a_declared_name_is_the_name_in_a_formal_write_up():
    obs = read("Player Kim drew 2 cards instead of 1 and Player Lee caught it at once")[0]
    assert (obs.subject, obs.kind) == ("Kim", "drew_extra_cards")


def test_a_passive_verb_of_seeing_names_who_was_seen_not_a_seer():
    obs = read("Before game two Kim had been observed drawing 2 cards instead of 1")[0]
    assert (obs.subject, obs.kind) == ("Kim", "drew_extra_cards")


@pytest.mark.parametrize("sentence", ["Kim was given a caution for slow play", "Kim was handed a caution for slow play"])
def test_a_player_given_a_penalty_for_what_she_did_is_its_doer(sentence):
    # (`was given` is no passive of what the signs say: Kim played slowly)
    assert [(o.subject, o.kind) for o in read(sentence)] == [("Kim", "played_slowly")]


def test_a_passive_of_the_act_itself_still_names_no_doer():
    with pytest.raises(ReportError):
        read("Kim's deck was stolen by someone")


def test_letting_an_error_pass_is_never_read_of_the_one_who_did_something_first():
    """`read_others_error`: `let it pass` is the opponent's share of another's error; after the
    subject's own unread act it may be her own error, refused (FaB reads `didn't notice it`)."""
    def fab(sentence: str):
        return parse_report(f"policy: fab\nplayer: Kim\nplayer: Lee\n{sentence}\n", tolerant=True).observations
    with pytest.raises(ReportError, match="another player's error"):
        fab("Kim put the wrong card in her arsenal and she didn't notice it")
    [obs] = fab("Lee didn't notice it")                 # the opponent's own sentence still reads
    assert (obs.subject, obs.kind) == ("Lee", "let_error_pass")


@pytest.mark.parametrize("policy, players, note, doer", [
    # the one who caught it or pointed it out is no doer (a sign reading named them)
    ("ffg", ("Mona", "Nico"), "Mona's TIE was moved with a 2 straight though the dial showed a 3 turn, caught by Nico "
                              "before anything else happened", "Mona"),
    ("dci", ("Kim", "Lee"), "Lee's Grizzly Bears that came down this turn is tapped and attacking, no haste; Kim "
                            "pointed it out right away", "Lee"),
    # whose turn or phase it was, in a leading clause with no comma, is no doer either
    ("dci", ("Hugo", "Priya"), "During Hugo's combat step Priya cast a sorcery", "Priya"),
    ("yugioh", ("Elin", "Dario"), "While Elin was still in Main Phase 1 Dario gathered up his field and graveyard, "
                                  "thinking the duel was over", "Dario"),
    # who tells the judge what she thinks another does (fab round 18: read as Max advising Kim)
    ("fab", ("Kim", "Lee", "Max"), "Spectator Max told me quietly he thinks Kim gets advice from her friend behind "
                                   "her. I watched two turns, the friend said nothing, only watching.", "Kim"),
])
def test_a_sign_reading_never_names_the_seer_or_the_one_a_leading_clause_is_about(policy, players, note, doer):
    """These were ruled for the wrong player (bench/phrasings' player check): read for the doer
    now, or refused, their first suggestion the right player's line."""
    assert _subjects(policy, players, note) in ({doer}, None)


def test_who_acts_in_the_main_clause_after_a_leading_one_is_still_read():
    header = "policy: ffg\nplayer: Mads\nplayer: Nia\n"
    [obs] = parse_report(header + "After deployment Mads had two units set up outside his deployment zone, Nia "
                         "didnt catch it until round 2\n", tolerant=True).observations
    assert obs.subject == "Mads"


def _subjects(policy: str, players: tuple[str, ...], note: str) -> set[str] | None:
    """Whom the note's statements are about; None where it is refused."""
    header = f"policy: {policy}\n" + "".join(f"player: {p}\n" for p in players)
    try:
        return {obs.subject for obs in parse_report(header + note + "\n", tolerant=True).observations}
    except ReportError:
        return None


@pytest.mark.parametrize("policy, players, note, doer", [
    # who a racial slur was said to is no subject of what the modifier implies
    ("dci", ("Kim", "Lee"), "Kim called Lee a racial slur", "Kim"),
    # a write-up's later part names whose deck it is; the caller of its first part did nothing
    ("yugioh", ("Kim", "Lee"), "Call: Lee says Kim's deck looks thick / Found: Kim's Main Deck has 41 cards, her "
                               "list says 40 / Fix: GL, deck fixed to the list", "Kim"),
    # who pointed it out, or reports it, is no owner of what a modifier implies
    ("yugioh", ("Odile", "Bram"), "Odile pointed out that every one of Bram's hand traps has a crease in the sleeve",
     "Bram"),
    ("dci", ("Jo", "Ben"), "Ben said Jo's sleeves looked off. All 4 of Jo's foil fetchlands curl in their sleeves and "
                           "you can pick them out from across the table, the rest lie flat", "Jo"),
    # the scene a hint names is no act: the sign's sentence names the doer
    ("yugioh", ("Lucas", "Juno"), "With Juno still at 800 LP and the Battle Phase not over, Lucas gave up in his head "
                                  "and swept his whole board into his deck; the duel cannot be put back", "Lucas"),
    # who called the judge over is no doer
    ("dci", ("Jonah", "Mei"), "I was called over by Mei, who explained to me that her opponent Jonah had been "
                              "following her around the hall between rounds and making unwanted comments about her "
                              "appearance", "Jonah"),
    ("ffg", ("Kim", "Lee"), "Lee called me over: half the room had turned to watch.", "Kim"),
    # a pronoun after what the reporter says may be either
    ("dci", ("Kim", "Lee"), "Lee told me she kept glancing at his picks", "Kim"),
    ("dci", ("Kim", "Lee"), "Lee says she kept glancing at his picks", "Kim"),
    # no one acts before the signs: whose things they are said of, not who acts after them
    ("ffg", ("Kim", "Lee"), "Kim's hero shows 6 damage on the board but her dial says 3; she admitted turning the "
                            "dial down while Lee looked away.", "Kim"),
    ("fab", ("Kim", "Lee"), "I timed Kim's start of game for g1: 7 mins, sideboarding and reading her guide. Lee was "
                            "ready after 2.", "Kim"),
    # what an undeclared person did to a player is no act of hers (nobody declared did it: refused)
    ("dci", ("Pam", "Rex"), "Game 2. Pam's friend on the rail told her to attack with everything, and she did. "
                            "Rex called me over.", None),
])
def test_a_note_is_never_ruled_for_who_called_reported_or_owned_the_scene(policy, players, note, doer):
    """Each was ruled for the wrong player (bench/phrasings' player check): read for the doer, or refused."""
    assert _subjects(policy, players, note) in ({doer}, None) if doer else _subjects(policy, players, note) is None


@pytest.mark.parametrize("note, subject, kind", [
    ('Kim: "I drew an extra card by mistake."', "Kim", "drew_extra_cards"),
    ('Kim told me: "I drew an extra card by mistake."', "Kim", "drew_extra_cards"),
    ("Lee called me over: her opponent Kim had drawn 2 extra cards.", "Kim", "drew_extra_cards"),
    ("Lee called me over after Kim's second attack: Kim missed a trigger.", "Kim", "missed_trigger"),
    ("Lee called: Kim drew 2 extra cards.", "Kim", "drew_extra_cards"),
    # a few words set off by commas between the caller and her call; `flagged` is a call too
    ("Lee, watching, flagged table 4 to me. Kim drew 2 extra cards.", "Kim", "drew_extra_cards"),
    # a name after a write-up's part starts it: no object of the part before (`chk / Lee:`)
    ("r1 decklist chk / Lee: list has 56, deck 60 -> 4x Psychatog not listed / added to list", "Lee",
     "wrong_decklist"),
])
def test_who_a_quote_a_name_or_a_summons_names_is_read_as_the_judge_means(note, subject, kind):
    [obs] = read(note)
    assert (obs.subject, obs.kind) == (subject, kind)


def test_a_quoted_pronoun_of_two_players_is_the_other_one():
    [obs] = parse_report("policy: yugioh\nplayer: Chidi\nplayer: Esme\ntier: 2\nChidi's account: \"She kept calling "
                         "me a brain-dead clown, the whole match\"\n", tolerant=True).observations
    assert (obs.subject, obs.kind, obs.other) == ("Esme", "insulted", "Chidi")


def test_what_a_player_says_in_quotes_of_the_other_is_still_her_claim():
    assert "starts with what Lee did" in refused('Lee said "she drew two cards instead of one."').message


@pytest.mark.parametrize("policy, note, doer", [
    # a comma-closed clause of when is about someone else
    ("yugioh", "With Kim still at 1200 LP, Lee scooped up his cards and left.", "Lee"),
    # who reports it
    ("yugioh", 'Lee says Kim kept whispering "I know where you live" to her during the game.', "Kim"),
    # who called the judge
    ("fab", "The round had been running for 5 minutes when Kim waved me over; her opponent Lee only sat down "
            "then, out of breath.", "Lee"),
])
def test_a_refused_notes_suggestions_name_the_one_who_acts(policy, note, doer):
    header = f"policy: {policy}\nplayer: Kim\nplayer: Lee\n"
    with pytest.raises(ReportError) as caught:
        parse_report(header + note + "\n", tolerant=True)
    assert caught.value.suggestions
    assert all(line.startswith(doer + " ") for line in caught.value.suggestions)


@pytest.mark.parametrize("note", ["Lee said he was at 8 life but he was at 5.",
                                  "Lee told Kim she was at 8 life when she was actually at 5."])
def test_what_is_done_by_saying_it_is_the_speakers_whoever_the_pronoun_is(note):
    [obs] = read(note)
    assert (obs.subject, obs.kind) == ("Lee", "gave_incorrect_information")


@pytest.mark.parametrize("note", ["Kim asked Lee his life, he said 8 but he was at 5.",  # the pronoun of a clause
                                  "Lee says she drew 2 cards but she drew 3."])           # drawing is no saying
def test_a_pronoun_after_a_verb_of_saying_is_still_refused_where_it_may_be_either(note):
    refused(note)


@pytest.mark.parametrize("note, players, line", [
    ("Kim asked her friend Max in the crowd what she should pitch and he told her", ("Kim", "Lee"),
     "Max gave Kim advice"),
    ("Player A turned round and asked Sam, who was watching, what to pitch, and Sam told him.",
     ("Player A", "Player B"), "Sam gave Player A advice"),
])
def test_what_a_player_asked_another_about_is_the_answer_of_the_one_asked(note, players, line):
    """These were read as the asker advising the one asked (bench/phrasings' `PLAYER` lines)."""
    header = "policy: fab\n" + "".join(f'player: "{p}"\n' for p in players) + \
        f"spectator: {line.split()[0]}\nrel: competitive\n"
    [obs] = parse_report(header + note + "\n", tolerant=True).observations
    assert obs.reading.read_as.startswith(line)


def test_a_question_to_someone_no_one_declared_is_no_act_of_the_asker():
    """`Kim asked her friend in the crowd which monster to summon ...` was read as Kim advising Lee."""
    with pytest.raises(ReportError):
        parse_report("policy: yugioh\nplayer: Kim\nplayer: Lee\ntier: 2\nKim asked her friend in the crowd which "
                     "monster to summon and he pointed at one. Lee saw it and called me.\n", tolerant=True)



@pytest.mark.parametrize("sentence", ["Lee said long games make players forget triggers, just table talk",
                                      "Kim said everyone takes too long in this format"])
def test_talk_of_what_people_in_general_do_is_no_act_of_the_speaker(sentence):
    assert "people in general" in refused(sentence).message



@pytest.mark.parametrize("sentence, kind", [
    ("Kim cast Counterspell without paying for it", "broke_game_rule"),
    ("Kim took a booster from the prize wall without paying for it", "stole_material"),
    ("Kim took two packs without paying for them", "stole_material"),
])
def test_without_paying_is_a_cost_unpaid_unless_product_was_taken(sentence, kind):
    assert read(sentence)[0].kind == kind


@pytest.mark.parametrize("sentence", ["Kim called me over. Lee's sleeves are reflective",
                                      "Kim called me over. The backs of Lee's sleeves are reflective"])
def test_who_called_the_judge_is_no_owner_of_what_the_judge_found(sentence):
    header = "policy: yugioh\ntier: 2\nplayer: Kim\nplayer: Lee\n"
    (obs,) = parse_report(header + sentence + "\n", tolerant=True).observations
    assert (obs.subject, obs.kind) == ("Lee", "illegal_sleeves")


def test_what_the_one_asked_said_is_his_answer_not_the_askers_act():
    header = "policy: fab\nplayer: Kim\nplayer: Lee\n"
    note = "Kim asked Lee how much life he had and Lee said 12, but his life counter showed 10\n"
    (obs,) = parse_report(header + note, tolerant=True).observations
    assert (obs.subject, obs.kind) == ("Lee", "gave_incorrect_information")


def test_an_asker_before_what_another_did_otherwise_is_still_refused():
    assert "starts with what Kim did" in refused("Kim asked Lee to shuffle and Lee drew 2 extra cards").message


@pytest.mark.parametrize("sentence", ["Lee noticed that some of Kim's sleeves had a small ink mark on the back",
                                      "Lee noticed that one of Kim's sleeves was marked"])
def test_who_saw_some_of_anothers_things_is_context(sentence):
    (obs,) = read(sentence)
    assert (obs.subject, obs.kind) == ("Kim", "marked_cards")


def test_who_called_the_judge_over_is_context_before_what_another_did():
    (obs,) = read("Lee called me at the start of his turn. His opponent, Kim, had passed the turn holding "
                  "nine cards and had not discarded down to seven")
    assert (obs.subject, obs.kind) == ("Kim", "failed_to_discard")


def test_what_a_caller_claims_is_no_finding():
    refused("Lee called me saying Kim missed her upkeep trigger")


def test_cards_picked_up_against_those_due_are_extra_cards_drawn():
    (obs,) = read("Kim picked up four cards instead of three")
    assert (obs.subject, obs.kind, obs.counts) == ("Kim", "drew_extra_cards", {"cards": 1})


@pytest.mark.parametrize("sentence", ["Lee called me over, the player drew 2 extra cards",
                                      "Lee called me over: the player had not discarded down to seven"])
def test_what_an_undeclared_person_did_after_a_call_is_never_the_callers(sentence):
    assert "does not say who did" in refused(sentence).message


def test_the_caller_named_again_by_a_pronoun_is_still_read():
    (obs,) = read("Lee called me over because he drew 2 extra cards")
    assert (obs.subject, obs.kind) == ("Lee", "drew_extra_cards")
