"""One contract check when a pack loads (engine/indexing.py: index_pack): what `rule` cannot run, every
command refuses, naming the file and line, with exit code 2 — never a check or a diff
that passes a pack `rule` and `test` then refuse."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ppgcheck.cli import cli

PACKS = Path(__file__).parent / "fixtures" / "packs"
CHOICE = '''
% --- FIX 2 Tardiness ---
% "A late player may get a Game Loss."
{ base_penalty(O, P, tardiness, game_loss, "FIX 2") } :- committed(O, P, tardiness).
'''
SHOW_TERM = '''
#show late_player(P) : committed(_, P, tardiness).
'''


def pack_with(tmp_path: Path, extra: str) -> tuple[Path, int]:
    """A rules folder holding the clean fixture pack with `extra` appended; the line it starts on."""
    rules = tmp_path / "rules"
    shutil.copytree(PACKS / "clean", rules / "late")
    path = rules / "late" / "b_tardiness.lp"
    text = path.read_text()
    path.write_text(text + extra)
    line = len(text.splitlines()) + next(n for n, row in enumerate(extra.splitlines(), 1)
                                         if row and not row.startswith("%"))
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "late.txt").write_text("policy: late\nplayer: Alice\nAlice was 3 minutes late\n")
    (cases / "late.expected.toml").write_text('description = "a warning"\n[[ruling]]\nplayer = "Alice"\n'
                                              'infraction = "tardiness"\npenalty = "warning"\n')
    return rules, line


@pytest.mark.parametrize("extra, what", [(CHOICE, "head `{ base_penalty"), (SHOW_TERM, "statement `#show")])
def test_every_command_refuses_what_rule_cannot_run(tmp_path, extra, what):
    rules, line = pack_with(tmp_path, extra)
    cases = tmp_path / "cases"
    where = f"b_tardiness.lp:{line}: policy `late` uses a construct ppgcheck cannot batch: {what}"
    commands = {"rule": ["rule", "--rules", str(rules), str(cases / "late.txt")],
                "test": ["test", "--rules", str(rules), str(cases)],
                "coverage": ["test", "--rules", str(rules), str(cases), "--coverage"],
                "check": ["check", str(rules)],
                "diff": ["diff", str(PACKS / "clean"), str(rules / "late")]}
    for name, args in commands.items():
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2, (name, result.output)
        assert where in result.output, (name, result.output)
        assert "Traceback" not in result.output
