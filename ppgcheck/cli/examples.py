"""`ppgcheck example`: the example reports the package carries, listed, printed or written
out, so a wheel user has a report to rule before writing one."""
from __future__ import annotations

from pathlib import Path

import click

from ppgcheck.cli import cli
from ppgcheck.cli.common import fails_cleanly
from ppgcheck.errors import UsageError
from ppgcheck.resources import examples_dir


def bundled_examples() -> dict[str, Path]:
    """Each example by name: its path under examples/ without `.txt` (`fab/hidden-card-error`)."""
    root = examples_dir()
    return {p.relative_to(root).with_suffix("").as_posix(): p for p in sorted(root.rglob("*.txt"))}


@cli.command("example")
@click.argument("name", required=False)
@click.option("--write", "target", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the example to this file instead of printing it.")
@fails_cleanly
def example(name: str | None, target: Path | None) -> None:
    """List the bundled example reports, or print (or --write) the one NAME names.

    \b
    Examples:
      ppgcheck example
      ppgcheck example fab/hidden-card-error --write report.txt && ppgcheck rule report.txt
    """
    found = bundled_examples()
    if name is None:
        for known, path in found.items():
            first = path.read_text(encoding="utf-8").splitlines()[0]
            click.echo(f"{known:32} {first}")
        return
    path = found.get(name.removesuffix(".txt").removeprefix("examples/"))
    if path is None:
        raise UsageError(f"no example {name!r}; the examples are: {', '.join(found)}")
    text = path.read_text(encoding="utf-8")
    if target is None:
        click.echo(text, nl=False)
        return
    if target.exists():
        raise UsageError(f"{target} exists; not overwritten")
    target.write_text(text, encoding="utf-8")
    click.echo(f"wrote {target}", err=True)
