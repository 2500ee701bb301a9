"""Catalogs of a policy for a judge or a report builder: its ids (infractions with their
sections, penalties lightest first), the report language's forms and the words it reads,
the modifiers its rules read, and what its observation search finds each observation by."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ppgcheck.api.ruling import engine, relevance
from ppgcheck.engine.ruling import RulingSet
from ppgcheck.language.report import report_language
from ppgcheck.language.vocabulary import Vocabulary, catalog, vocabulary
from ppgcheck.packs.pack import load_pack
from ppgcheck.resources import policy_ids


def report_vocabulary(policy: str | None = None, rules: Path | None = None) -> Vocabulary:
    """The report language's vocabulary: the core's, plus a policy's pack's own when given
    (a pack of `rules`, else the bundled one); an unknown policy is an error, not the core's."""
    if policy:
        load_pack(policy, rules)
    return vocabulary(policy, rules)


def policy_reference(policy_id: str, rules: Path | None = None) -> dict:
    """A policy's ids: its infractions with their sections, its penalties lightest first,
    and the headers whose values it tells apart (`ppgcheck ids`, the judge station)."""
    program = engine(policy_id, rules).program
    ranks = program.ranks
    return {
        "infractions": [{"id": i, "section": s} for i, s in sorted(program.sections.items())],
        "penalties": sorted(program.penalties, key=lambda p: (ranks.get(p.replace("-", "_"), -1), p)),
        "sections": sorted(set(program.sections.values())),
        "headers": program.header_values,
    }


def modifiers_read(policy_id: str, rules: Path | None = None) -> dict[str, list[str]]:
    """For each observation kind (the core's and the pack's own), the modifiers the policy's
    rules about it read (the modifiers a judge is asked about first)."""
    policy_engine = engine(policy_id, rules)
    read = relevance(policy_engine)
    return {kind: sorted(read(kind)) for kind in policy_engine.vocabulary.observations}


def vocabulary_catalog(policy: str | None = None, rules: Path | None = None) -> dict:
    """The report language's forms for a report builder (core's, plus the policy's own when
    given), with the words a name must be quoted to use (ppgcheck/language/vocabulary.py `catalog`)."""
    return {**catalog(vocabulary(policy, rules)), "keywords": sorted(report_language(policy, rules).must_quote),
            "policies": policy_ids(rules)}


def observation_search(policy_id: str, rules: Path | None = None,
                       rule: Callable[..., list[RulingSet]] | None = None) -> dict[str, dict]:
    """What a report builder's observation search reads of a policy (engine/finder.py): for
    each observation kind, the infractions its rules make it (with their sections and the
    infraction's words and initials, `hidden-card-error` -> HCE), those one more modifier makes
    it, and the first numbers that make it an infraction.  `rule`: how the samples are ruled
    (engine/finder.py; the judge station passes its batcher's)."""
    # (the finder rules sample reports: only a builder asks for it)
    from ppgcheck.engine.finder import observation_finder

    def named(infraction: dict) -> dict:
        parts = [part.split("-") for part in infraction["id"].split("/")]
        return {**infraction, "words": " / ".join(" ".join(words) for words in parts),
                "initials": ["".join(w[0] for w in words if w).upper() for words in parts]}
    return {kind: {**found, "infractions": [named(i) for i in found["infractions"]],
                   "with_more": [named(i) for i in found["with_more"]]}
            for kind, found in observation_finder(policy_id, rules, rule).items()}
