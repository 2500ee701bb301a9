"""The `ppgcheck` command: a thin layer over the library; every PpgError becomes a
clear message and exit code 2, never a traceback.  One module per group of commands."""
from __future__ import annotations

import importlib
import os
import sys

import click


class CommandGroup(click.Group):
    """The commands; those a judge rarely needs in the same run as `rule` (the event log,
    the policy author's commands, the server) are imported only when asked for, so a
    cold `ppgcheck rule` does not pay for them."""

    lazy = {"event": "ppgcheck.cli.event", "test": "ppgcheck.cli.authoring", "check": "ppgcheck.cli.authoring",
            "diff": "ppgcheck.cli.authoring", "new-pack": "ppgcheck.cli.authoring",
            "ids": "ppgcheck.cli.reference", "serve": "ppgcheck.cli.serve", "example": "ppgcheck.cli.examples"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command's whole first sentence, wrapped (click cuts it at the width)."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=1000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy and name not in self.commands:
            importlib.import_module(self.lazy[name])        # it registers itself on `cli`
        return super().get_command(ctx, name)


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.version_option(package_name="ppgcheck")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Rule on tournament incidents and check penalty guides, with every step cited.

    \b
    Example:
      ppgcheck rule examples/fab/hidden-card-error.txt
    """
    if ctx.invoked_subcommand is None:      # `ppgcheck` alone: the help, as asked for
        click.echo(ctx.get_help())


def main() -> None:
    """The console entry point.  Once a command has finished and its output is flushed,
    the process ends without the interpreter's teardown: freeing clingo's and Lark's
    objects one by one took ~13 ms, a sixth of a cold `ppgcheck rule` beyond the imports.
    (Commands clean up their temporary folders themselves; nothing relies on atexit.)"""
    code: object = 0
    try:
        cli(prog_name="ppgcheck")       # click's standalone mode ends in SystemExit
    except SystemExit as done:
        code = done.code
    if code is None:
        code = 0
    elif not isinstance(code, int):     # sys.exit("message"), as Python itself treats it
        print(code, file=sys.stderr)
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:             # the reader went away (`| head`): nothing more to say
        code = code or 1
    os._exit(code)


# the commands register themselves on `cli` (the lazy ones when first asked for)
from ppgcheck.cli import ruling  # noqa: E402,F401
