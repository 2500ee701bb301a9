"""The `ppgcheck` command's start: a one-report run should cost little more than
importing clingo and Lark."""
from __future__ import annotations

import gc


def run() -> None:
    # Importing the package, click and Lark's tables makes ~10^5 long-lived objects;
    # collecting cycles among them while they are made cost ~5 ms of a cold start.
    gc.disable()
    # (after the garbage collector is set up)
    from ppgcheck.cli import main
    gc.freeze()
    gc.enable()
    main()
