"""Citations you can check: every sentence a pack quotes is in its source (analysis/quotes.py)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ppgcheck.analysis.quotes import misquotes, quotes_in
from ppgcheck.cli import cli
from ppgcheck.resources import policy_ids, rules_dir

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT.parent / "shared" / "sources"        # beside the checkout, as in CI
ACME = ROOT / "tests" / "fixtures" / "packs" / "acme"


@pytest.mark.skipif(not SOURCES.is_dir(), reason="the guides' text is not beside this checkout")
@pytest.mark.parametrize("policy", policy_ids())
def test_every_quoted_sentence_of_a_bundled_pack_is_in_its_source(policy):
    files = sorted((rules_dir() / policy).glob("*.lp"))
    assert sum(len(quotes_in(f)) for f in files) > 10
    found = [f"{m.quote.file.name}:{m.quote.line}: `{m.missing}` not in {', '.join(m.sources)}"
             for m in misquotes(files, SOURCES)]
    assert found == []


def test_no_file_names_a_path_of_the_machine_it_was_written_on():
    machine = ("/" + "work/", "/" + "home/", "/" + "Users/", "/" + "root/", "C:" + "\\")
    named = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts     # not .git, .hypothesis, build output
        if any(p.startswith(".") or p in ("build", "dist") or p.endswith(".egg-info") for p in parts) \
                or not path.is_file() or path.suffix not in (".lp", ".md", ".py", ".lark", ".toml",
                                                                              ".txt", ".yml", ".yaml", ".cfg"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        named += [f"{path.relative_to(ROOT)}: {m}" for m in machine if m in text]
    assert named == []


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_quote_is_found_modulo_whitespace_typographic_quotes_and_footnotes(tmp_path: Path):
    sources = tmp_path / "sources"
    sources.mkdir()
    write(sources / "guide.txt", "A player\u2019s  deck must be\nrandomized^[2.1] before   each game.\n"
                                 "Then the player draws seven cards.")
    rule = write(tmp_path / "s1.lp", '% Source: guide.txt, "A player\'s deck"\n'
                                     '% --- G 1 ---\n'
                                     '% "A player’s deck must be randomized before each game. … draws seven\n'
                                     '%  cards."\n'
                                     'a.\n')
    assert [q.text for q in quotes_in(rule)] == [
        "A player's deck", "A player’s deck must be randomized before each game. … draws seven  cards."]
    assert misquotes([rule], sources) == []


def test_a_piece_missing_from_the_source_is_a_misquote_at_its_line(tmp_path: Path):
    sources = tmp_path / "sources"
    sources.mkdir()
    write(sources / "guide.txt", "Tardiness is a Warning. Slow play is a Caution.")
    rule = write(tmp_path / "s1.lp", '% --- G 1 ---\n% a note, "not a quote" inside it\n'
                                     '% "Tardiness is a Warning. ... Slow play is a Game Loss."\nb.\n')
    [found] = misquotes([rule], sources)
    assert (found.quote.line, found.missing, found.sources) == (3, "Slow play is a Game Loss.", ("guide.txt",))


def test_check_sources_reports_a_rule_that_quotes_words_gone_from_the_edited_guide(tmp_path: Path):
    pack = tmp_path / "acme"
    shutil.copytree(ACME, pack)
    runner = CliRunner()
    clean = runner.invoke(cli, ["check", str(pack), "--sources", str(pack / "source"), "--no-monotonicity"])
    assert clean.exit_code == 0, clean.output
    guide = pack / "source" / "acme-snack-policy.txt"
    guide.write_text(guide.read_text().replace("Coffee Excess is a Caution.", "Coffee Excess is a Warning."))
    result = runner.invoke(cli, ["check", str(pack), "--sources", str(pack / "source"), "--no-monotonicity",
                                 "--format", "json"])
    assert result.exit_code == 1
    [found] = [f for f in json.loads(result.output)[0]["findings"] if f["kind"] == "misquote"]
    assert found["message"] == "the quote `Coffee Excess is a Caution.` is not in `acme-snack-policy.txt`"
    assert found["locations"][0]["file"].endswith("c_coffee.lp") and found["sections"] == ["ACME 3 Coffee Excess"]
