"""What the first ruling of each bundled policy reads from the cache, built ahead of it.

The wheel's build step (build_hooks.py) runs this module over the package it stages, so an
installed ppgcheck finds in ppgcheck/prebuilt/ (ppgcheck/cache.py) what a first `ppgcheck
rule` would otherwise compute into the user's cache folder: each pack's vocabulary, its
report parser and its prepared program (~1.5-2 s, against ~0.2 s for a later run).

    python -m ppgcheck.engine.prebuild FOLDER [POLICY ...]

computes them (every bundled policy by default) in a fresh cache folder and copies its
entries into FOLDER, replacing what FOLDER held.  Run it in a process of its own: what a
process has built once (engines, parsers) is not built, nor cached, again.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from ppgcheck.engine.policy import engine
from ppgcheck.language.grammar import language
from ppgcheck.language.vocabulary import vocabulary
from ppgcheck.resources import policy_ids


def build(folder: Path, policies: list[str] | None = None) -> list[str]:
    """The cache entries ruling a report of each policy needs, computed and copied into
    `folder` (emptied first); their names."""
    if folder.exists():     # first: the package's own prebuilt entries would be found, not computed
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="ppgcheck-prebuild-") as scratch:
        os.environ["PPGCHECK_CACHE"] = scratch     # what cache_dir() reads at each entry
        for policy in policies or policy_ids():
            ruling_engine = engine(policy)
            ruling_engine.program       # noqa: B018 (prepared: the `policy-*` entry)
            language(vocabulary(policy))     # the `vocabulary-*` and `grammar-*` entries a report is read with
        language(vocabulary(None))          # a report that names no policy is read with the core's
        names = sorted(p.name for p in Path(scratch).iterdir() if not p.name.endswith(".tmp"))
        for name in names:
            # copied, not moved: the cache writes its entries private to the user (0600)
            shutil.copyfile(Path(scratch) / name, folder / name)
    return names


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m ppgcheck.engine.prebuild FOLDER [POLICY ...]", file=sys.stderr)
        return 2
    names = build(Path(argv[0]), argv[1:] or None)
    print(f"{len(names)} entries prebuilt in {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
