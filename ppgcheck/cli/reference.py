"""Reference commands: the ids a policy defines (for history lines, judge calls and
golden files)."""
from __future__ import annotations

import json

import click

from ppgcheck import api
from ppgcheck.cli import cli
from ppgcheck.cli.common import check_rules_folder, complete_policy, fails_cleanly, rules_option
from ppgcheck.resources import policy_ids


@cli.command("ids")
@click.option("--policy", "-p", shell_complete=complete_policy,
              help="Only this policy (default: every bundled one).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@rules_option("List the packs under this rules folder (a `core/` and one folder per policy) instead of the "
              "bundled ones.")
@fails_cleanly
def ids_command(policy: str | None, fmt: str, rules) -> None:
    """List each policy's infraction ids with their sections, and its penalty ids, lightest first.

    These are the ids a `history:` line, a `judge call:` and a golden file name.

    \b
    Example:
      ppgcheck ids --policy yugioh
    """
    check_rules_folder(rules)
    listing = {}
    for policy_id in [policy] if policy else policy_ids(rules):
        reference = api.policy_reference(policy_id, rules)
        listing[policy_id] = {"infractions": reference["infractions"], "penalties": reference["penalties"]}
    if fmt == "json":
        click.echo(json.dumps(listing, indent=2, ensure_ascii=False))
        return
    for policy_id, table in listing.items():
        click.echo(f"policy: {policy_id}")
        click.echo("  penalties (lightest first): " + ", ".join(table["penalties"]))
        click.echo("  infractions:")
        width = max((len(i["id"]) for i in table["infractions"]), default=0)
        for item in table["infractions"]:
            click.echo(f"    {item['id']:<{width}}  {item['section']}")
