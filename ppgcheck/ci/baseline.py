"""Known findings: a checked-in baseline of the published guides' own holes.

Like a linter's baseline: a finding listed here (policy, kind, message) with
the reason it is a hole of the source is reported as known and does not fail
`ppgcheck check --baseline FILE`; any other finding at or above --fail-on does.
Every entry must give its reason.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ppgcheck.analysis.findings import CheckFinding, CheckResult
from ppgcheck.errors import UsageError

_KEYS = {"policy", "kind", "message", "reason"}


@dataclass(frozen=True)
class KnownFinding:
    policy: str
    kind: str
    message: str
    reason: str

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.policy, self.kind, self.message)


def load_baseline(path: Path) -> list[KnownFinding]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"no such baseline file: `{path}`") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    if set(data) - {"known"}:
        raise UsageError(f"{path}: unknown top-level key(s): " + ", ".join(sorted(set(data) - {"known"})))
    entries = []
    for i, entry in enumerate(data.get("known", []), start=1):
        if not isinstance(entry, dict) or set(entry) != _KEYS:
            raise UsageError(f"{path}: [[known]] #{i} needs exactly the keys "
                             + ", ".join(f"`{k}`" for k in sorted(_KEYS)))
        if not all(isinstance(v, str) and v.strip() for v in entry.values()):
            raise UsageError(f"{path}: [[known]] #{i} has an empty value: every entry gives its reason")
        entries.append(KnownFinding(entry["policy"], entry["kind"], entry["message"], entry["reason"]))
    return entries


def split_known(results: list[CheckResult], known: list[KnownFinding]
                ) -> tuple[dict[str, list[CheckFinding]], dict[str, list[CheckFinding]], list[KnownFinding]]:
    """(new findings per policy, known findings per policy, baseline entries no longer found)."""
    table = {k.key: k for k in known}
    new: dict[str, list[CheckFinding]] = {}
    seen: set[tuple[str, str, str]] = set()
    hits: dict[str, list[CheckFinding]] = {}
    for r in results:
        for f in r.findings:
            key = (r.policy, f.kind, f.message)
            if key in table:
                seen.add(key)
                hits.setdefault(r.policy, []).append(f)
            else:
                new.setdefault(r.policy, []).append(f)
    checked = {r.policy for r in results}
    stale = [k for k in known if k.policy in checked and k.key not in seen]
    return new, hits, stale


# how the README names each bundled guide
GUIDE_TITLES = {"fab": "Flesh and Blood PPG", "dci": "DCI Universal Penalty Guide",
                "ffg": "FFG warning guidelines", "yugioh": "Yu-Gi-Oh! penalty guidelines"}


def render_markdown(known: list[KnownFinding]) -> str:
    """The baseline as docs/findings.md lists it: per guide, its
    conflicts then its gaps, each with the reason it is a hole of the source."""
    out: list[str] = []
    policies = sorted({k.policy for k in known}, key=lambda p: (list(GUIDE_TITLES).index(p)
                                                                 if p in GUIDE_TITLES else len(GUIDE_TITLES), p))
    for policy in policies:
        mine = [k for k in known if k.policy == policy]
        # the baseline's holes, not `check`'s counts (it also prints each hole once per witness)
        counts = ", ".join(f"{sum(1 for k in mine if k.kind == kind)} {kind}s" for kind in ("conflict", "gap"))
        dead = sum(1 for k in mine if k.kind == "dead-rule")
        counts += f"; {dead} dead rules verified" if dead else ""
        out += ["", f"### {GUIDE_TITLES.get(policy, policy)} (`{policy}`): known holes, {counts}", ""]
        for kind in ("conflict", "gap"):
            out += [f"- **{kind}** — {k.reason}." if not k.reason.endswith(".") else f"- **{kind}** — {k.reason}"
                    for k in mine if k.kind == kind]
        out += [f"- **{k.kind}** `{k.message.rpartition(' at ')[2]}` — {k.reason}" if k.kind == "dead-rule"
                else f"- **{k.kind}** — {k.reason}" for k in mine if k.kind not in ("conflict", "gap")]
    return "\n".join(out).lstrip("\n") + "\n"
