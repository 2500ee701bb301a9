"""A report parser kept in ppgcheck's cache folder (ppgcheck/cache.py), one file per
grammar text.

The parser is pickled whole, not kept in Lark's own cache format: Lark rebuilds its
objects from that one by one (~7,000 calls), which cost a cold `ppgcheck rule` ~40 ms;
pickle builds them in C.  The file name holds what the pickle depends on: the grammar
text and the options it was built with, Python's and Lark's versions.  A file that cannot be read, or that names anything
but Lark's own classes, is never used (nothing it names is called): the parser is built
again.
"""
from __future__ import annotations

import copy
import hashlib
import importlib
import os
import pickle
import sys
import tempfile
import types
from pathlib import Path

import lark
from lark.parsers.lalr_analysis import Reduce, Shift

from ppgcheck.cache import cache_dir


def path_for(text: str, options: str) -> Path | None:
    """Where the parser of this grammar text, built with these Lark options, is kept
    (None: the cache is off)."""
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256(f"{options}\0{text}".encode()).hexdigest()[:32]
    return folder / f"grammar-{digest}-py{sys.version_info[0]}{sys.version_info[1]}-lark{lark.__version__}.pickle"


class _Pickler(pickle.Pickler):
    """Names what must stay itself: modules (the lexer keeps `re`) and the LALR
    actions, which the parser tells apart by identity (`action is Shift`)."""

    def persistent_id(self, obj: object) -> tuple | None:
        if isinstance(obj, types.ModuleType):
            return ("module", obj.__name__)
        if obj is Shift:
            return ("action", "shift")
        if obj is Reduce:
            return ("action", "reduce")
        return None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: tuple) -> object:
        kind, name = pid
        if kind == "action":
            return Shift if name == "shift" else Reduce
        if kind == "module" and name in ("re", "regex"):
            return importlib.import_module(name)
        raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")

    def find_class(self, module: str, name: str) -> object:
        # Lark's own classes and functools.partial (its tree builder's callbacks) only:
        # a file naming anything else is not one this module wrote
        if module.split(".")[0] != "lark" and (module, name) != ("functools", "partial"):
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a Lark parser")
        return super().find_class(module, name)


def load(path: Path) -> lark.Lark | None:
    """The parser kept at path; None when there is none or it cannot be read."""
    try:
        with open(path, "rb") as kept:
            parser = _Unpickler(kept).load()
    except Exception:       # missing, truncated or foreign: the cache is only ever a shortcut
        return None
    return parser if isinstance(parser, lark.Lark) else None


def keep(parser: lark.Lark, path: Path) -> None:
    """Keep the parser at path (written whole, then renamed: a reader never sees half),
    without the grammar objects its tables were built from (a third of the file; parsing
    never reads them)."""
    kept = copy.copy(parser)
    kept.grammar = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, suffix=".tmp", delete=False) as out:
            _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(kept)
        os.replace(out.name, path)
    except (OSError, pickle.PicklingError):
        pass
