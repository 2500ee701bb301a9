"""`ppgcheck new-pack NAME`: the files of a new policy pack, ready to be checked.

The scaffold is a pack `ppgcheck check` finds clean and `ppgcheck test` passes: a
README naming the source, the ladder, one section file with its banner, a
vocabulary file for the pack's own words, and a golden case.  Every quote in it is a
placeholder that says what to quote: `ppgcheck check --sources DIR` reports each one
as a misquote until the author replaces it with the guide's own sentence
(docs/authoring.md walks through it).
"""
from __future__ import annotations

import re
from pathlib import Path
from string import Template

from ppgcheck.errors import UsageError

_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*\Z")


# the files of a new pack: $name the policy id, $sec its section prefix, $source the guide's file
_TEMPLATES = {
    "README.md": """# ${name}: ${title}

The guide this pack encodes: `${source}`. Keep its text in a sources folder beside
the rules (`ppgcheck check ${name} --sources ../sources` looks up every quoted
sentence in it).

| file | section of the source |
| --- | --- |
| `s00_penalties.lp` | ${sec} 1: the penalties, lightest first, and the RELs the guide is written for |
| `s01_tardiness.lp` | ${sec} 2: an example section; replace it with the guide's own sections, one file each |
| `vocabulary.lp` | the words this pack adds to the report language (none yet) |
| `golden/` | golden cases: a report, and the ruling it must get |

Every infraction, penalty, upgrade, fix and exclusion sits under the sentence
of the guide it implements, and cites its section. Where the guide says nothing
or contradicts itself, `ppgcheck check` reports it: never invent policy.

```
ppgcheck check ${name}
ppgcheck test ${name}/golden --rules .
```
""",
    "s00_penalties.lp": """% ============================================================================
% ${sec} 1 Penalties: the ladder and the scope
% Source: ${source}, "Replace with the heading of the section on penalties"
% ============================================================================

% --- ${sec} 1 Penalties --------------------------------------------------------
% "Replace with the sentence of the guide that lists its penalties, lightest first."
penalty_rank(caution, 0).
penalty_rank(warning, 1).
penalty_rank(game_loss, 2).
penalty_rank(disqualification, 3).
next_penalty(caution, warning).
next_penalty(warning, game_loss).
next_penalty(game_loss, disqualification).

% --- ${sec} 1 Penalties --------------------------------------------------------
% "Replace with the sentence that says which Rules Enforcement Levels the guide is for."
rel_covered(casual; regular; competitive; professional).
scope_section("${sec} 1").
""",
    "s01_tardiness.lp": """% ============================================================================
% ${sec} 2 Tardiness (an example section: replace it with the guide's own)
% Source: ${source}, "Replace with the section's heading"
% Observations read: late.
% ============================================================================

section(tardiness, "${sec} 2").

% --- ${sec} 2 Tardiness --------------------------------------------------------
% "Replace with the sentence that says who commits Tardiness."
infraction(O, P, tardiness) :- observation(O, P, late).

% --- ${sec} 2 Tardiness --------------------------------------------------------
% "Replace with the sentence that gives Tardiness its penalty."
base_penalty(O, P, tardiness, warning, "${sec} 2") :- committed(O, P, tardiness).
""",
    "vocabulary.lp": """% ============================================================================
% The words the ${name} pack adds to the report language (docs/authoring.md).
% Read like rules/core/vocabulary.lp: `ppgcheck vocab --policy ${name} --rules .`
% lists them beside the core's. The first form of a kind is the one printed.
% ============================================================================

% An observation: its subject {P}, perhaps a second person {Q} (then declare
% two_person_observation/1) and numbers {key} (with a count_range/3):
%   observation_form(ate_food, "{P} ate food at the table").
%   observation_form(ate_food, "{P} ate at the table").        % a synonym
% A modifier, after a comma or on an `It ...` line; {Q} makes it a person
% modifier (declare person_modifier/1):
%   modifier_form(spilled_on_cards, "the food spilled on {Q}'s cards").
%   person_modifier(spilled_on_cards).
""",
    "golden/late.txt": """# ${sec} 2: a player late for the match
policy: ${name}
player: Alice
Alice was 5 minutes late
""",
    "golden/late.expected.toml": """description = "${sec} 2: Tardiness (the example section)"

[[ruling]]
player = "Alice"
infraction = "tardiness"
penalty = "warning"
section = "${sec} 2"

# the example rule does not read how late: the ruling says so (an `input` finding) until a
# rule of the pack reads count(O, minutes, N)
[[finding]]
kind = "input"
message_contains = "reads the number (minutes)"
""",
}


def _files(name: str, source: str, title: str) -> dict[str, str]:
    values = {"name": name, "sec": name.upper().replace("-", " "), "source": source, "title": title}
    return {path: Template(text).substitute(values) for path, text in _TEMPLATES.items()}


def new_pack(name: str, into: Path, source: str | None = None, title: str | None = None) -> list[Path]:
    """Write the scaffold of pack `name` under the rules folder `into`; the files written."""
    if not _NAME.match(name) or name == "core":
        raise UsageError(f"`{name}` cannot name a policy: use lowercase letters and digits, words joined by `-` "
                         "(e.g. `acme-snacks`), and not `core`")
    pack = into / name
    if pack.exists() and any(pack.iterdir()):
        raise UsageError(f"`{pack}` already exists and is not empty")
    source = Path(source).name if source else f"{name}-guide.txt"
    written = []
    for relative, text in _files(name, source, title or f"the policy of `{source}`").items():
        path = pack / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
