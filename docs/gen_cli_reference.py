"""Write docs/cli.md, the command reference, from the click commands themselves
(`python docs/gen_cli_reference.py`); tests/test_doc_outputs.py fails when it is stale."""
from __future__ import annotations

import sys
from pathlib import Path

import click

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))      # conftest.all_commands: the lazy groups too

HEAD = """# Command reference

Generated from the commands' own help by `python docs/gen_cli_reference.py`; the test suite
fails when this page and `ppgcheck COMMAND --help` disagree.
"""


def _help(command: click.Command, path: list[str]) -> str:
    # as `ppgcheck` builds it (-h too); click keeps the help option it made first, which a
    # test invoking a command on its own may have made without -h
    command._help_option = None
    with click.Context(command, info_name=" ".join(path), terminal_width=100, max_content_width=100,
                       help_option_names=["-h", "--help"]) as ctx:
        return command.get_help(ctx)


def reference() -> str:
    from conftest import all_commands
    out = [HEAD]
    for name, command in all_commands().items():
        if command.hidden:
            continue
        out.append(f"## `ppgcheck {name}`\n\n```\n{_help(command, ['ppgcheck', name])}\n```\n")
        if isinstance(command, click.Group):
            for sub_name in command.list_commands(click.Context(command)):
                sub = command.get_command(click.Context(command), sub_name)
                out.append(f"### `ppgcheck {name} {sub_name}`\n\n```\n{_help(sub, ['ppgcheck', name, sub_name])}\n```\n")
    return "\n".join(out)


if __name__ == "__main__":
    (HERE / "cli.md").write_text(reference(), encoding="utf-8")
