"""The docs cannot drift: every command output the README and docs/ show is what the
command prints now, and docs/cli.md is the commands' own help.

Two ways a page shows an output: "`ppgcheck ARGS` prints:" (or "`ppgcheck ARGS`:") with
the output in the next code block, and a code block of `$ ppgcheck ARGS` lines, each
followed by its output. A line `...` in a shown output stands for any lines."""
from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from ppgcheck.cli import cli

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PROSE = re.compile(r"`(ppgcheck [^`\n]+)`(?: prints)?[^`\n]{0,60}:\n\n```\n(.*?)```", re.S)
CONSOLE = re.compile(r"```\n(\$ ppgcheck .*?)```", re.S)


def shown_outputs() -> list[tuple[str, str, str]]:
    """(page, command, shown output) of every page."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for command, shown in PROSE.findall(text):
            out.append((page.name, command, shown))
        for block in CONSOLE.findall(text):
            for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
                command, _, shown = chunk.partition("\n")
                out.append((page.name, command, shown))
    return out


def matches(shown: str, printed: str) -> bool:
    pattern = "".join(r"(?:.*\n)*?" if line == "..." else re.escape(line) + r"\n"
                        for line in shown.rstrip("\n").split("\n"))
    return re.fullmatch(pattern + r"(?:.*\n?)*" if shown.rstrip("\n").endswith("...") else pattern,
                        printed.rstrip("\n") + "\n") is not None


CASES = shown_outputs()


def test_the_pages_show_outputs():
    assert len(CASES) >= 6
    assert any(page == "README.md" for page, _, _ in CASES)


@pytest.mark.parametrize("page,command,shown", CASES, ids=[f"{p}:{c}" for p, c, _ in CASES])
def test_a_shown_output_is_what_the_command_prints(page, command, shown, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, shlex.split(command)[1:])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert matches(shown, result.output), f"{page}: `{command}` prints\n{result.output}"


def test_the_command_reference_is_the_commands_help():
    spec = importlib.util.spec_from_file_location("gen_cli_reference", ROOT / "docs" / "gen_cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == module.reference(), \
        "docs/cli.md is stale: run `python docs/gen_cli_reference.py`"


def test_every_command_is_in_the_reference_and_every_page_is_linked():
    reference = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    from conftest import all_commands
    for name, command in all_commands().items():
        assert command.hidden or f"## `ppgcheck {name}`" in reference
    linked = set(re.findall(r"\(docs/([\w-]+\.md)\)", (ROOT / "README.md").read_text(encoding="utf-8")))
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert pages <= linked | {"index.md"}, sorted(pages - linked)


def test_no_page_cites_a_file_outside_the_repository():
    for page in [*PAGES, ROOT / "rules" / "core" / "CONTRACT.md"]:
        text = page.read_text(encoding="utf-8")
        assert "../shared" not in text and "shared/design" not in text, page.name
