"""Which file of a pack makes grounding run past its limits.

clingo grounds a program whole and says nothing on the way, so when a job is
stopped the file to blame is found afterwards: the pack's files are grounded in
load order, core first, each prefix in turn (with the reports' facts, where
there were reports), in one bounded job that reports every prefix it finishes.
The first file whose prefix does not finish (parsed or grounded) is the one named.  Grounding a
prefix only adds rules as it goes (a rule's missing support grounds nothing),
so a file that runs away alone also runs away with what follows it.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from ppgcheck.packs import confine, isolation
from ppgcheck.errors import PolicyError

DIAGNOSIS_SECONDS = 5.0


def locate(files: Sequence[Path], fact_lists: Sequence[list] = (), limits: isolation.Limits | None = None,
           parse: Callable[[Path], Iterable] | None = None) -> str | None:
    """The file (as the user knows it) whose rules take grounding past the limits; None
    when every prefix grounds within them (the runaway needs the whole program).  `parse`
    reads a file's statements (a Pack's, packs/pack.py); by default, confined here."""
    finished: list[int] = []

    def ground_prefixes() -> int:
        # (only past a limit: a ruling from the cache imports neither clingo.ast nor the program reader)
        import clingo
        from clingo import ast
        from ppgcheck.packs.program import parse_files
        by_file: list[list[str]] = [[] for _ in files]
        index = {os.path.realpath(f): i for i, f in enumerate(files)}
        facts = {(name, tuple(arguments)) for facts in fact_lists for name, arguments in facts}
        for k, path in enumerate(files):
            # each file parsed just before its prefix is grounded: one whose parsing runs away is named
            statements: list = []
            if parse is None:
                statements.extend(parse_files([path]))
            else:
                statements.extend(parse(path))
            for st in statements:
                if st.ast_type is not ast.ASTType.Comment:
                    owner = index.get(os.path.realpath(st.location.begin.filename), k)
                    by_file[owner].append(str(st))
            ctl = clingo.Control(["--warn=none"])
            ctl.add("base", [], "\n".join(line for part in by_file[:k + 1] for line in part))
            with ctl.backend() as backend:
                for name, arguments in facts:
                    backend.add_rule([backend.add_atom(clingo.Function(name, list(arguments)))])
            ctl.ground([("base", [])])
            isolation.progress(k)
        return len(files)

    bound = limits or isolation.limits()
    # the prefixes before the culprit ground about as fast as the pack does: a quarter of
    # the limit tells them from a runaway, and an error does not take twice the limit
    seconds = min(bound.seconds, max(DIAGNOSIS_SECONDS, bound.seconds / 4))
    until = isolation.blame_until()         # the failed job's own deadline: the command stops by it
    if until is not None:
        seconds = min(seconds, until - time.monotonic() - isolation.GRACE)
        if seconds < 0.2:
            return None
    bound = isolation.Limits(seconds, bound.megabytes)
    child = isolation.Forked(ground_prefixes, bound)
    child.on_progress = finished.append       # type: ignore[method-assign]
    try:
        child.result(deadline=child.started + child.limits.seconds + isolation.GRACE)
        return None
    except PolicyError:         # stopped past a limit, after the prefixes it reported
        pass
    except RuntimeError:        # a bug: no file to blame
        return None
    culprit = finished[-1] + 1 if finished else 0
    return confine.shown(files[culprit]) if culprit < len(files) else None
