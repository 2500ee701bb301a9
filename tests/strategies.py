"""Hypothesis strategies: well-formed Reports built from the vocabulary."""
from __future__ import annotations

import re

from hypothesis import strategies as st

from ppgcheck.language.report import HistoryEntry, Modifier, Observation, Report
from ppgcheck.language.vocabulary import vocabulary

NAME_POOL = ["Alice", "Bob", "Carol_2", "round", "Drew O'Neil", "Player A", "Lee", "Lee Ann", "She",
             'say "hi"', "back\\slash", 'x). penalty(disqualification). #include "/etc/passwd". a(', "Émile"]


def _slots(text: str) -> list[str]:
    return re.findall(r"\{(\w+)\}", text)


@st.composite
def reports(draw, policy: str | None = "fab", with_history_ids: tuple[list[str], list[str]] | None = None):
    vocab = vocabulary()
    names = draw(st.lists(st.sampled_from(NAME_POOL), min_size=1, max_size=3, unique=True))
    report = Report(policy=policy)
    report.persons = [(n, draw(st.sampled_from(["player", "player", "spectator"]))) for n in names]
    report.rel = draw(st.none() | st.sampled_from(vocab.values["rel"]))
    report.tier = draw(st.none() | st.integers(1, 2))
    report.event_kind = draw(st.none() | st.sampled_from(vocab.values["event_kind"]))
    report.game_kind = draw(st.none() | st.sampled_from(vocab.values["game_kind"]))
    if draw(st.booleans()):
        report.round = draw(st.integers(1, 30))
        report.round_kind = draw(st.none() | st.sampled_from(["swiss", "playoff", "draft"]))
    report.best_of = draw(st.none() | st.integers(1, 7))
    report.day = draw(st.none() | st.integers(1, 7))
    report.table = draw(st.none() | st.integers(1, 9999))
    when = draw(st.none() | st.sampled_from(sorted(vocab.when)))
    if when:
        report.when = (when, draw(st.integers(1, 7)) if when in ("before_round", "during_game") else None)
    report.ruling_minutes = draw(st.none() | st.integers(0, 120))
    person = st.sampled_from(names)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(sorted(vocab.observations)))
        text = vocab.observations[kind][0].text
        obs = Observation(draw(person), kind)
        if "{Q}" in text:
            obs.other = draw(person)
        for slot in _slots(text):
            if slot not in ("P", "Q"):
                lo, hi = vocab.count_ranges[slot]
                obs.counts[slot] = draw(st.integers(lo, hi))
        groups: set[str] = set()        # one modifier of a group that excludes each other (a well-formed report)
        for mod_kind in draw(st.lists(st.sampled_from(sorted(vocab.modifiers)), max_size=3)):
            group = vocab.exclusive.get(mod_kind)
            if group in groups:
                continue
            if group is not None:
                groups.add(group)
            mod = Modifier(mod_kind)
            if mod_kind in vocab.person_modifiers:
                mod.person = draw(person)
            if mod_kind in vocab.counted_modifiers:
                lo, hi = vocab.count_ranges[vocab.counted_modifiers[mod_kind]]
                mod.number = draw(st.integers(lo, hi))
            obs.modifiers.append(mod)
        report.observations.append(obs)
    if with_history_ids:
        penalties, infractions = with_history_ids
        for _ in range(draw(st.integers(0, 3))):
            report.history.append(HistoryEntry(draw(person), draw(st.sampled_from(penalties)),
                                               draw(st.sampled_from(infractions)),
                                               draw(st.none() | st.integers(1, 7))))
    return report
