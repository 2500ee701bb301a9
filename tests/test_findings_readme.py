"""docs/findings.md, "What ppgcheck found in the published guides", is the check baseline
(rules/known-findings.toml) as ci.baseline.render_markdown writes it, so it never goes
stale: `python tests/test_findings_readme.py` rewrites it after the baseline changes."""
from __future__ import annotations

import sys
from pathlib import Path

from ppgcheck.ci.baseline import load_baseline, render_markdown

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "docs" / "findings.md"
START = "## What ppgcheck found in the published guides\n"
INTRO = """
`ppgcheck check` over the four bundled packs finds these holes in the sources
themselves: `rules/known-findings.toml` keeps them as CI's baseline, each with
the reason below (a heading counts these known holes; `check` prints a finding
for each witness, so its counts are larger). Conflicts and gaps of level error fail a pack; a guide that
narrows a penalty to a set without naming one is a gap of level warning. Run
`ppgcheck check --policy P` for each one's witness report.

The procedures besides penalties (time called, play-off tiebreaks, concessions,
draws, feature matches) are searched too, over every state of a match the pack
reads: a state the guide gives no outcome for is a gap of level warning ("the
guide gives no outcome for this state of the match: KIND", the state named the
latest one of the report); two outcomes for one report, and an outcome that
gives the match to a player whose penalty in the same report ends it (or a draw
when one does), are conflicts of level error.

A rule no scenario fires is a `dead-rule` warning. Each one the bundled packs
have is listed too, verified: either no report of these sources can reach it
(the reason says why), or a golden case fires it through a history the check's
scenarios do not generate.

"""


def section() -> str:
    return START + INTRO + render_markdown(load_baseline(ROOT / "rules" / "known-findings.toml")) + "\n"


def current() -> tuple[str, int, int]:
    text = README.read_text(encoding="utf-8")
    start = text.index(START)
    end = text.find("\n## ", start + len(START)) + 1 or len(text)
    return text, start, end


def test_the_readme_lists_the_baseline():
    text, start, end = current()
    assert text[start:end] == section(), "README findings are stale: run `python tests/test_findings_readme.py`"


if __name__ == "__main__":
    text, start, end = current()
    README.write_text(text[:start] + section() + text[end:], encoding="utf-8")
    sys.exit(0)
