"""The text ruling's words where the audit of 2 Dec found them wrong: an option's article,
a players' option with no outcome to choose "instead" of, a question asked twice."""
from __future__ import annotations

from ppgcheck import api
from ppgcheck.engine.render import option_text, render_text
from ppgcheck.engine.ruling import Option


def test_an_option_takes_the_article_its_penalty_needs():
    assert "may make it an INTELLECT PENALTY" in option_text(Option("intellect-penalty", "head-judge", "", "PPG 1.2"))
    assert "may make it a GAME LOSS" in option_text(Option("game-loss", "head-judge", "", "PPG 1.2"))


BETWEEN_GAMES = """policy: yugioh
tier: 1
round: 3, swiss
player: Alice
player: Bob
time was called between games
score: Alice {a}, Bob 1
"""


def test_a_players_option_with_no_outcome_is_not_chosen_instead_of_one():
    """Equal wins between games: the guide gives the players' option and no outcome (a gap);
    with more wins it gives the outcome, and nothing to choose instead."""
    tied = render_text(api.rule_report(BETWEEN_GAMES.format(a=1))[0])
    assert "match — the players may choose: both players continue using their side deck" in tied
    assert "instead" not in tied
    ahead = render_text(api.rule_report(BETWEEN_GAMES.format(a=2))[0])
    assert "match — result: Alice wins the match" in ahead


TWICE = """policy: fab
rel: competitive
day: 1
player: Alice
player: Bob
Alice drew 1 extra card, mixed into her hand.
Alice drew 1 extra card, mixed into her hand.
"""


def test_two_observations_written_alike_ask_each_question_once():
    [ruled] = api.rule_report(TWICE)
    asked = [(q.player, q.add, q.infraction, q.penalty) for q in ruled.questions]
    assert asked and len(asked) == len(set(asked))
    [single] = api.rule_report(TWICE.rsplit("Alice drew", 1)[0])
    assert {q.asks for q in ruled.questions} == {q.asks for q in single.questions}


TWO_OBSERVATIONS = """policy: fab
rel: competitive
round: 4, swiss
player: Alice
player: Bob

Alice drew 2 extra cards, mixed into her hand, the extra cards cannot be identified.
Alice looked at 1 extra cards, from a randomized deck, caught at once.
"""


def test_a_question_of_a_report_with_several_observations_names_the_one_it_adds_to():
    """`mixed into her hand?` asked of the second observation, while the first already says
    it, names the observation it adds to; a report of one observation asks without."""
    several = render_text(api.rule_report(TWO_OBSERVATIONS)[0])
    assert "- [observation 2] mixed into her hand? → Alice: hidden-card-error" in several
    alone = render_text(api.rule_report(TWO_OBSERVATIONS.replace(
        "Alice drew 2 extra cards, mixed into her hand, the extra cards cannot be identified.\n", ""))[0])
    assert "- mixed into her hand? → Alice: hidden-card-error" in alone
    assert "[observation" not in alone.split("questions that would change this ruling:")[1].split("FINDING")[0]


def test_the_stations_card_names_the_observation_a_question_adds_to_as_the_text_does():
    from ppgcheck.engine.render import ruling_dict
    from ppgcheck.server.card import card
    data = ruling_dict(api.rule_report(TWO_OBSERVATIONS)[0])
    stored_before = {key: value for key, value in data.items() if key != "observations"}     # an older event's
    for ruling in (data, stored_before):
        texts = [q["text"] for q in card(ruling)["questions"]]
        assert "[observation 2] mixed into her hand? → Alice: hidden-card-error, WARNING" in texts


def test_the_json_ruling_lists_the_observations_its_rulings_count():
    from ppgcheck.engine.render import ruling_dict
    data = ruling_dict(api.rule_report(TWO_OBSERVATIONS)[0])
    assert [o["read_as"] for o in data["observations"]] == [
        "Alice drew 2 extra cards, mixed into her hand, the extra cards cannot be identified",
        "Alice looked at 1 extra card, from a randomized deck, caught at once"]
    # canonical sentences: written as read, nothing left unread
    assert all(o["written"] == o["read_as"] and o["not_read"] == [] for o in data["observations"])
    assert {r["observation"] for r in data["rulings"]} == {1, 2}
