"""tests/data/judge_notes.txt is well formed: enough notes for every policy, every expected
infraction is one of its policy's ids (or `gap`), and every canonical statement parses in the
strict language and rules to the expected infraction (one batch per policy, so it stays quick)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from ppgcheck.api import policy_reference, rule_report
from ppgcheck.errors import ReportError

NOTES = Path(__file__).resolve().parent / "data" / "judge_notes.txt"
POLICIES = ("fab", "dci", "ffg", "yugioh")
GAP = "gap"
NOTHING = "nothing"     # legal play: no infraction, no finding


@dataclass(frozen=True)
class Note:
    line: int
    policy: str
    header: list[str]
    note: str
    expected: str
    canonical: list[str]    # the statements, one report line each (`; ` in the file)

    def report(self) -> str:
        """The canonical report: policy, header lines, a blank line, the statements."""
        return "\n".join([f"policy: {self.policy}", *self.header, "", *self.canonical]) + "\n"


def parse_notes(text: str) -> list[Note]:
    notes = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        fields = raw.split(" | ")
        assert len(fields) == 5, f"judge_notes.txt:{number}: 5 fields separated by ` | `, got {len(fields)}"
        policy, header, note, expected, canonical = (f.strip() for f in fields)
        notes.append(Note(number, policy, [h.strip() for h in header.split("; ")], note, expected,
                          [s.strip() for s in canonical.split("; ")] if canonical else []))
    return notes


NOTES_LIST = parse_notes(NOTES.read_text(encoding="utf-8"))
# the notes written per guide apart from the reader's words, a round each (its signs were then
# written from the guides and measured on them; judge_notes_ROUND_POLICY.txt): checked the same way
NEW_NOTES = {path.name: parse_notes(path.read_text(encoding="utf-8"))
             for path in sorted(NOTES.parent.glob("judge_notes_*_*.txt"))}
ROUNDS = sorted({name.split("_")[2] for name in NEW_NOTES})
ALL_NOTES = NOTES_LIST + [n for notes in NEW_NOTES.values() for n in notes]


def ruled_as(ruling_set) -> str:
    """What the ruling gives for the first statement (the note's main subject): the infraction
    ids ruled for it (or for the whole report, observation 0, such as FFG's Too Many Penalty
    Points), or `gap` when nothing is ruled for it and a gap finding names it."""
    ruled = {r.infraction for r in ruling_set.rulings if r.observation in (0, 1)}
    gap = any(f.kind == "gap" and f.observation == 1 for f in ruling_set.findings)
    return " ".join(sorted(ruled)) if ruled else (GAP if gap else "nothing")


def test_the_file_holds_enough_notes_for_every_policy():
    per_policy = Counter(n.policy for n in NOTES_LIST)
    assert len(NOTES_LIST) >= 200
    assert set(per_policy) == set(POLICIES)
    assert min(per_policy.values()) >= 40, per_policy


def test_every_note_is_written_out_with_its_players_declared():
    for n in ALL_NOTES:
        assert n.note and any(h.startswith("player: ") for h in n.header), f"line {n.line}"
    assert len({(n.policy, n.note) for n in ALL_NOTES}) == len(ALL_NOTES), "a note is listed twice"


def test_each_guide_has_its_notes_written_apart():
    assert {"new", "r3"} <= set(ROUNDS), ROUNDS
    for round_ in ROUNDS:
        names = {name for name in NEW_NOTES if name.startswith(f"judge_notes_{round_}_")}
        assert {name.removeprefix(f"judge_notes_{round_}_").removesuffix(".txt") for name in names} == set(POLICIES)
    for name, notes in NEW_NOTES.items():
        assert len(notes) >= (40 if "_new_" in name else 25) and len({n.policy for n in notes}) == 1, name


def test_every_expected_infraction_is_one_of_its_policys_ids_or_a_gap_or_nothing():
    ids = {p: {i["id"] for i in policy_reference(p)["infractions"]} | {GAP, NOTHING} for p in POLICIES}
    wrong = [(n.line, n.policy, n.expected) for n in ALL_NOTES if n.expected not in ids[n.policy]]
    assert not wrong


def test_the_notes_include_gaps_and_notes_the_language_cannot_say_yet():
    assert any(n.expected == GAP for n in NOTES_LIST)
    assert sum(1 for n in NOTES_LIST if n.canonical) >= len(NOTES_LIST) // 2


@pytest.mark.parametrize("policy", POLICIES)
def test_every_canonical_statement_rules_to_the_expected_infraction(policy):
    notes = [n for n in ALL_NOTES if n.policy == policy and n.canonical]
    ruled = rule_report("---\n".join(n.report() for n in notes), policy=policy, source="judge_notes.txt",
                        tolerant=False)
    assert len(ruled) == len(notes)
    wrong = [(n.line, n.expected, ruled_as(rs)) for n, rs in zip(notes, ruled)
             if n.expected not in ruled_as(rs).split()]
    assert not wrong, "line, expected, ruled: " + repr(wrong)


def test_a_wrong_expectation_or_an_unreadable_canonical_is_caught():
    note = Note(0, "fab", ["player: Kim", "player: Lee"], "x", "tardiness", ["Kim drew 1 extra card"])
    assert "tardiness" not in ruled_as(rule_report(note.report(), policy="fab", tolerant=False)[0]).split()
    with pytest.raises(ReportError):
        rule_report(Note(0, "fab", note.header, "x", "gap", ["Kim drew two cards instead of one"]).report(),
                    tolerant=False)
