"""Which unstated modifiers a question asks about: those the rules deciding an observation's
infraction or penalty read (ppgcheck/engine/variants.py, Relevance)."""
from __future__ import annotations

from ppgcheck.engine.variants import Relevance

# the program text as the engine keeps it: one statement a line, as clingo prints it
TABLE = """gpe_category(clerical_error,1).
gpe_category(broke_game_rule,5).
gpe_observation(O,P,N) :- observation(O,P,K); gpe_category(K,N).
infraction(O,P,fraud) :- gpe_observation(O,P,_); modifier(O,on_purpose).
infraction(O,P,grv) :- gpe_observation(O,P,5); not modifier(O,on_purpose).
base_penalty(O,P,clerical,warning,"S") :- observation(O,P,clerical_error); modifier(O,caught_at_once).
"""


def test_a_kind_listed_in_a_table_of_facts_is_followed_to_the_rules_reading_the_table():
    """Three audits of the packs found 'on purpose?' never asked where a pack lists its
    observation kinds in a table of facts: the search followed rules only."""
    relevant = Relevance(TABLE, frozenset(), set())
    assert "on_purpose" in relevant("broke_game_rule")


def test_a_table_does_not_join_the_kinds_it_lists():
    """A table naming several kinds leads from each to its predicate, not to the other kinds'
    own rules: a modifier only clerical errors read is not asked of a broken game rule."""
    relevant = Relevance(TABLE, frozenset(), set())
    assert "caught_at_once" in relevant("clerical_error")
    assert "caught_at_once" not in relevant("broke_game_rule")


def test_a_rule_pinned_to_another_observation_kind_is_not_followed():
    """Fraud is derived from many kinds; the rule deriving it from a draft's `announcing picks`
    names the draft's kind: its modifier is not asked of a broken game rule (a dci game play
    error was ruled again with 29 modifiers, most of them other kinds' own)."""
    text = ("infraction(O,P,fraud) :- observation(O,P,broke_game_rule); modifier(O,on_purpose).\n"
            "infraction(O,P,fraud) :- observation(O,P,broke_draft_procedure); modifier(O,announcing_picks).\n"
            "adjustment(O,P,fraud,1,upgrade,up,\"R\",\"S\") :- committed(O,P,fraud); modifier(O,in_public).\n")
    relevant = Relevance(text, frozenset(), set())
    assert "announcing_picks" not in relevant("broke_game_rule")
    assert "announcing_picks" in relevant("broke_draft_procedure")
    assert {"on_purpose", "in_public"} <= relevant("broke_game_rule")      # what fraud's own rules read stays
