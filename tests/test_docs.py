"""Every rule cites its source; every command has help (tests/test_doc_outputs.py checks the
pages show what the commands print)."""
from __future__ import annotations

import re
from pathlib import Path

import clingo.ast
import pytest

from ppgcheck.cli import cli
from ppgcheck.resources import policy_ids, rules_dir

ROOT = Path(__file__).resolve().parent.parent
CITED_HEADS = {"base_penalty": 4, "adjustment": 7, "fix": 5, "note": 4, "because": 4,
               "not_infraction": 3, "head_judge": 3, "time_extension": 1, "supersedes": 2,
               "undefined_infraction": 1, "report_note": 1, "not_issued": 4}


def statements(policy: str) -> list[clingo.ast.AST]:
    out: list[clingo.ast.AST] = []
    clingo.ast.parse_files([str(p) for p in sorted((rules_dir() / policy).glob("*.lp"))], out.append)
    return out


def heads(stm: clingo.ast.AST) -> list[clingo.ast.AST]:
    if stm.ast_type != clingo.ast.ASTType.Rule:
        return []
    head = stm.head
    if head.ast_type == clingo.ast.ASTType.Literal and head.atom.ast_type == clingo.ast.ASTType.SymbolicAtom:
        return [head.atom.symbol]
    return []


@pytest.mark.parametrize("policy", policy_ids())
def test_every_rule_carries_a_section(policy):
    missing = []
    stms = statements(policy)
    string_constants = {stm.name for stm in stms if stm.ast_type == clingo.ast.ASTType.Definition
                        and stm.value.ast_type == clingo.ast.ASTType.SymbolicTerm
                        and stm.value.symbol.type == clingo.SymbolType.String}
    for stm in stms:
        for term in heads(stm):
            if term.ast_type != clingo.ast.ASTType.Function or term.name not in CITED_HEADS:
                continue
            arg = term.arguments[CITED_HEADS[term.name]] if len(term.arguments) > CITED_HEADS[term.name] else None
            is_string = (arg is not None and arg.ast_type == clingo.ast.ASTType.SymbolicTerm
                         and arg.symbol.type == clingo.SymbolType.String and arg.symbol.string.strip())
            is_variable = arg is not None and arg.ast_type == clingo.ast.ASTType.Variable
            is_constant = (arg is not None and arg.ast_type == clingo.ast.ASTType.SymbolicTerm
                           and arg.symbol.type == clingo.SymbolType.Function
                           and arg.symbol.name in string_constants)
            if not (is_string or is_variable or is_constant):
                missing.append(f"{stm.location.begin.filename}:{stm.location.begin.line} {term.name}")
    assert not missing


@pytest.mark.parametrize("policy", policy_ids())
def test_every_infraction_a_pack_derives_has_a_section_fact(policy):
    derived, cited = set(), set()
    for stm in statements(policy):
        for term in heads(stm):
            if term.ast_type != clingo.ast.ASTType.Function:
                continue
            args = term.arguments
            if term.name == "infraction" and len(args) == 3 and args[2].ast_type == clingo.ast.ASTType.SymbolicTerm:
                derived.add(str(args[2].symbol))
            if term.name == "section" and len(args) == 2 and args[0].ast_type == clingo.ast.ASTType.SymbolicTerm:
                cited.add(str(args[0].symbol))
    assert derived and derived <= cited, sorted(derived - cited)


@pytest.mark.parametrize("policy", policy_ids())
def test_every_pack_file_quotes_its_source(policy):
    for path in sorted((rules_dir() / policy).glob("*.lp")):
        text = path.read_text()
        assert re.search(r'^%.*"', text, re.M), f"{path.name} has no quoted source sentence"


@pytest.mark.parametrize("policy", policy_ids())
def test_every_pack_has_a_readme_naming_its_source(policy):
    readme = (rules_dir() / policy / "README.md").read_text()
    assert ".txt" in readme


def test_every_command_has_help():
    from conftest import all_commands
    for name, command in all_commands().items():
        assert command.help, name


def test_the_authoring_guide_s_commands_are_ppgcheck_s():
    """Each `ppgcheck ...` line of docs/authoring.md (its CI job too) names a command and
    options that exist: a renamed option cannot leave the guide behind."""
    import shlex

    import click
    import yaml
    guide = (ROOT / "docs" / "authoring.md").read_text()
    job = yaml.safe_load(re.search(r"```yaml\n(.*?)```", guide, re.S).group(1))
    assert job["jobs"]["rules"]["steps"]
    lines = re.findall(r"^\s*(?:- run: |run: )?(ppgcheck [^\n#`]*)", guide, re.M)
    assert len(lines) >= 8
    for line in lines:
        words = shlex.split(line.replace("${GITHUB_BASE_REF}", "main").replace("rules/*/golden", "rules/x/golden"))
        command = cli.get_command(click.Context(cli), words[1])
        assert command is not None, line
        known = {name for param in command.params for name in getattr(param, "opts", [])}
        assert [w for w in words[2:] if w.startswith("-") and w not in known] == [], line


def test_shell_completion_as_the_authoring_guide_turns_it_on():
    from click.testing import CliRunner
    script = CliRunner().invoke(cli, [], prog_name="ppgcheck", env={"_PPGCHECK_COMPLETE": "bash_source"})
    assert "_ppgcheck_completion" in script.output
    done = CliRunner().invoke(cli, [], prog_name="ppgcheck", env={
        "_PPGCHECK_COMPLETE": "bash_complete", "COMP_WORDS": "ppgcheck rule --policy yu", "COMP_CWORD": "3"})
    assert done.output.strip() == "plain,yugioh"
