"""The ASP contract's predicate names: the one list Python uses.

rules/core/CONTRACT.md is the contract in prose; tests/test_contract.py holds this
module to it (its tables, the externals of rules/core/inputs.lp, the `#show`s of
rules/core/output.lp, the facts of rules/core/vocabulary.lp), and fails on a
predicate name that Python uses and this module does not declare.
"""
from __future__ import annotations

Signature = tuple[str, int]

# --- inputs: what a report states (rules/core/inputs.lp declares each as an external) ---
INPUTS: frozenset[Signature] = frozenset({
    ("person", 2), ("rel", 1), ("tier", 1), ("event_kind", 1), ("game_kind", 1), ("round", 1),
    ("round_kind", 1), ("best_of", 1), ("day", 1), ("when", 1), ("ruling_minutes", 1),
    ("judge_call", 2), ("observation", 3), ("other_person", 2), ("count", 3), ("modifier", 2),
    ("modifier", 3), ("history", 5), ("match_state", 2), ("tally", 3), ("event_day", 1),
    ("history_day", 1)})
INPUT_NAMES = frozenset(name for name, _ in INPUTS)

# the fact naming each report of a batch (engine/indexing.py adds it to every rule reading an input)
INDEX_PREDICATE = "report_index"
INDEX_VARIABLE = "PpgReportIndex"

# the core's switch for the exploring solve, one per report in a batch (rules/core/penalties.lp)
EXPLORE: Signature = ("explore", 0)
SWITCHES: frozenset[Signature] = frozenset({EXPLORE})
# the check's search hooks (rules/core/scenarios.lp): the second copy's exploring switch too,
# and its mirroring of the first copy's move
CHECK_HOOKS: frozenset[Signature] = frozenset({("chk_still_unfired", 1), ("chk_open", 1), ("b__explore", 0),
                                                 ("mono_mirror", 0)})
# the only `#external`s a pack's files may declare
ALLOWED_EXTERNALS: frozenset[Signature] = INPUTS | SWITCHES | CHECK_HOOKS

# --- what a pack defines for the core (CONTRACT.md: "What a pack must define", "outcomes") ---
PACK_DEFINES: frozenset[Signature] = frozenset({
    ("penalty_rank", 2), ("next_penalty", 2), ("section", 2), ("rel_covered", 1), ("scope_section", 1),
    ("infraction", 3), ("supersedes", 3), ("not_infraction", 4), ("base_penalty", 5), ("adjustment", 8),
    ("combine_related", 1), ("related_infractions", 3), ("discretion", 9), ("base_choice", 5),
    ("assumption", 5), ("report_assumption", 2), ("header_matters", 2), ("fix", 6), ("note", 5),
    ("because", 5), ("head_judge", 4), ("time_extension", 2), ("report_note", 2),
    ("undefined_infraction", 2), ("repeat_cap", 2), ("finding", 5), ("not_recorded", 3), ("gap_stated", 3),
    ("outcome", 2), ("outcome_option", 4), ("outcome_note", 2), ("ends_match", 1), ("not_issued", 5)})
PACK_DEFINED_NAMES = frozenset(name for name, _ in PACK_DEFINES)

# the core helpers a pack may read (CONTRACT.md: "Core helpers a pack may use")
CORE_HELPERS: frozenset[Signature] = frozenset({
    ("today", 1), ("prior", 5), ("prior_today", 3), ("prior_event", 3), ("committed", 3), ("penalty", 4),
    ("pen", 5), ("time_called", 0), ("opponent", 2), ("tally_more", 2), ("tally_tied", 1)})

# the core's own tables a pack and Python read (rules/core/vocabulary.lp, penalties.lp, output.lp)
CORE_TABLES: frozenset[Signature] = frozenset({
    ("obs_id", 1), ("person_id", 1), ("history_nth", 1), ("role", 1), ("stage", 1), ("penalty_id", 1),
    ("infraction_id", 1), ("header", 2), ("observation_kind", 1), ("modifier_kind", 1)})
# what a pack's rules read of a report, as facts Python builds from its program (engine/unread.py;
# rules/core/findings.lp: a fact no rule reads is an `input` finding)
READS_INPUT: Signature = ("reads_input", 2)

# what a pack says of its own match-state forms (CONTRACT.md: outcomes)
STATE_DECLARATIONS: frozenset[Signature] = frozenset({
    ("state_asks", 1), ("state_follows", 2), ("state_group", 2), ("state_excludes", 2)})

# --- outputs: what rules/core/output.lp shows, and the Python decoding them reads ---
OUTPUTS: frozenset[Signature] = frozenset({
    ("committed", 3), ("cited", 2), ("base_penalty", 5), ("penalty", 4), ("applied", 8), ("issued", 4),
    ("absorbed", 4), ("fix", 6), ("note", 5), ("because", 5), ("head_judge", 4), ("time_extension", 2),
    ("time_extension_total", 1), ("report_note", 2), ("not_infraction", 4), ("finding", 5),
    ("judge_call_verdict", 1), ("today", 1), ("report_assumption", 2), ("assumption", 5), ("absorbed_by", 4),
    ("open_choice", 3), ("outcome", 2), ("outcome_option", 4), ("outcome_note", 2), ("base_choice", 5),
    ("permitted", 4), ("option", 7), ("judge_call_permitted", 2), ("not_issued", 5)})
OUTPUT_NAMES = frozenset(name for name, _ in OUTPUTS)
# what only the exploring solve derives (the default solve never does)
EXPLORED: frozenset[Signature] = frozenset({("permitted", 4), ("option", 7), ("judge_call_permitted", 2)})

# --- the report language's facts (rules/core/vocabulary.lp; a pack may add to them) ---
LANGUAGE: frozenset[Signature] = frozenset({
    ("observation_form", 2), ("modifier_form", 2), ("adverb_form", 2), ("number_word", 2), ("unit", 3),
    ("word_class", 2), ("person_modifier", 1), ("counted_modifier", 2), ("two_person_observation", 1),
    ("exclusive", 2), ("count_range", 3), ("header_range", 3), ("rel_value", 1), ("event_kind_value", 1),
    ("game_kind_value", 1), ("round_kind_value", 1), ("when_form", 2), ("state_form", 2), ("tally_form", 2),
    ("tally_range", 3), ("state_asks", 1), ("state_group", 2)})
# --- the tolerant reader's words (rules/core/reading.lp; a pack adds its game's in its reading.lp) ---
READING: frozenset[Signature] = frozenset({
    ("read_synonym", 2), ("read_phrase", 2), ("read_cue", 2), ("read_negates", 2), ("read_negation", 1),
    ("read_filler", 1), ("read_pronoun", 1), ("read_opponent", 1), ("read_implies", 2), ("read_number", 2),
    ("read_sign", 2), ("read_hint", 2), ("read_scene", 2), ("read_instead", 2), ("read_instead_of", 1),
    ("read_context", 1), ("read_reporting", 1), ("read_doubt", 1), ("read_allowed", 1), ("read_over", 2),
    ("read_says", 2), ("read_owned", 1), ("read_summons", 1), ("read_summoned", 1),
    ("read_round_began", 1), ("read_arrived", 1), ("read_bound", 1),
    ("read_counted", 2), ("read_legal", 1), ("read_suspicion", 1), ("read_fix_word", 1), ("read_together", 1),
    ("read_others_error", 1), ("read_spoken", 1), ("read_speaking", 1), ("read_receiver", 1), ("read_legal_alone", 1)})
# the core vocabulary's own tables (not read by the grammar; rules and `vocab` read them)
VOCABULARY_TABLES: frozenset[Signature] = frozenset({("header_form", 3)})
# a header value's fact, and the header it is a value of
VALUE_FACTS = {"rel_value": "rel", "event_kind_value": "event_kind", "game_kind_value": "game_kind",
               "round_kind_value": "round_kind"}

# --- the check's own predicates (rules/core/scenarios.lp), read back by analysis/ ---
CHECK_OUTPUTS: frozenset[Signature] = frozenset({
    ("chk_finding", 5), ("chk_finding_named", 4), ("chk_uncited", 1), ("chk_cap", 4), ("chk_fired", 1),
    ("chk_rel", 1)})

# the check's and the diff's own predicates (rules/core/scenarios.lp, analysis/*.lp, and what
# analysis/ writes): every name with one of these prefixes is theirs, and the copies a search
# compares side by side are the program renamed with one of COPY_PREFIXES
ANALYSIS_PREFIXES = ("chk_", "scen_", "mono_", "dif_", "odif_")
COPY_PREFIXES = ("b__", "o__")

# --- the sets the engine and the analyses compare by (each a subset of the above) ---
# what a question may change: the infraction and the default penalty
DECISIVE = frozenset({"infraction", "supersedes", "not_infraction", "base_penalty", "base_choice", "adjustment"})
# the shown atoms a question's variant is read from: its infractions, base and default
# penalties, open base sets, not-infractions and findings
QUESTION_SHOWN = frozenset({"committed", "base_penalty", "penalty", "base_choice", "not_infraction", "finding"})
# the guide's choices a judge makes (the heaviest permitted penalty searches them)
CHOICES: tuple[Signature, ...] = (("discretion", 9), ("base_choice", 5))
# what the words of an adjustment's kind and target are: shared by every adjustment
ADJUSTMENT_WORDS = frozenset({"upgrade", "downgrade", "repeat", "cap", "replace", "to", "up", "down",
                              "head_judge", "judge"})
# contract heads that name the infraction they are about, and where (argument positions)
NAMES_INFRACTION: dict[Signature, tuple[int, ...]] = {
    ("infraction", 3): (2,), ("base_penalty", 5): (2,), ("adjustment", 8): (2,), ("fix", 6): (2,),
    ("note", 5): (2,), ("because", 5): (2,), ("head_judge", 4): (2,), ("section", 2): (0,),
    ("undefined_infraction", 2): (0,), ("supersedes", 3): (0, 1), ("discretion", 9): (2,),
    ("base_choice", 5): (2,)}
# the predicates `diff` compares two versions by: when none of them differs, nothing can
DIFF_COMPARED = frozenset({"committed", "not_infraction", "pen", "penalty", "issued", "fix", "finding", "note",
                           "head_judge", "time_extension", "report_note", "outcome", "outcome_note", "discretion",
                           "base_choice"})
# inputs and core helpers that hold only when the report states the match
MATCH_STATE = frozenset({"match_state", "tally", "time_called", "tally_more", "tally_tied"})

# every predicate name Python may use
ALL_NAMES = frozenset(
    name for table in (INPUTS, SWITCHES, CHECK_HOOKS, PACK_DEFINES, CORE_HELPERS, STATE_DECLARATIONS, OUTPUTS,
                       LANGUAGE, READING, VOCABULARY_TABLES, CHECK_OUTPUTS, CORE_TABLES, [READS_INPUT])
    for name, _ in table) | {INDEX_PREDICATE} | DECISIVE | QUESTION_SHOWN | DIFF_COMPARED | MATCH_STATE


def declared(name: str) -> bool:
    """Whether Python may use this predicate name: one of the contract's, an analysis's own
    (by its prefix), or a contract name in a copy a search compares (`b__committed`)."""
    for prefix in COPY_PREFIXES:
        name = name.removeprefix(prefix)
    return name in ALL_NAMES or name.startswith(ANALYSIS_PREFIXES)
