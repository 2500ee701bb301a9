"""A report parser kept in ppgcheck's cache folder (ppgcheck/cache.py) with its forms (plain
strings), one file per grammar (named by what its text is generated from).

The parser is pickled whole, not kept in Lark's own cache format: Lark rebuilds its
objects from that one by one (~7,000 calls), which cost a cold `ppgcheck rule` ~40 ms;
pickle builds them in C.  The file name holds what the pickle depends on: what the grammar
text is generated from and the options it was built with, Python's and Lark's versions.  A file that cannot be read, or that names anything
but Lark's own classes, is never used (nothing it names is called): the parser is built
again.

The contextual lexer's scanners (one regular expression per set of words a parser
state accepts: ~300, ~40 of them met by a report) are built before the parser is kept,
and each compiled expression is kept as what Python's `re` compiled it to: its code,
given back to `_sre.compile` when the file is read.  Compiling the ~40 a report meets
was ~35-45 ms of a cold `ppgcheck rule`.  `_sre.compile` checks the code it is given
(CPython's `_validate`): a damaged file raises and the parser is built again.  Where
this Python's `re` does not work this way, the scanners are left to be built on first
use, as Lark does.
"""
from __future__ import annotations

import array
import copy
import hashlib
import importlib
import io
import os
import pickle
import re
import sys
import tempfile
import types
from pathlib import Path

import lark
from lark.parsers.lalr_analysis import Reduce, Shift

from ppgcheck.cache import cache_dir, prebuilt_dir


def path_for(text: str, options: str) -> Path | None:
    """Where the parser of this grammar (`text`: what it is generated from), built with
    these Lark options, is kept (None: the cache is off)."""
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256(f"{_FORMAT}\0{options}\0{text}".encode()).hexdigest()[:32]
    return folder / f"grammar-{digest}-py{sys.version_info[0]}{sys.version_info[1]}-lark{lark.__version__}.pickle"


# what a kept file holds (part of its name): 4 = the parser, its scanners built (their expressions
# as code), its actions as Lark's globals, and its forms
_FORMAT = 4


def _code_type() -> str | None:
    """The array type of `re`'s compiled code words, when `_sre.compile` takes them."""
    try:
        # (only when a kept parser is written or read)
        import _sre
        from re import _compiler, _parser      # noqa: F401 (what _compiled_form uses)
    except ImportError:
        return None
    found = [kind for kind in "IL" if array.array(kind).itemsize == _sre.CODESIZE]
    return found[0] if found and hasattr(_sre, "compile") else None


_CODE = _code_type()


def _compiled_form(pattern: re.Pattern) -> tuple:
    """What `_sre.compile` takes to make `pattern` again: `re.compile`'s own steps
    (re/_compiler.py, compile), the code as machine words."""
    # (only when a kept parser is written or read)
    from re import _compiler, _parser
    parsed = _parser.parse(pattern.pattern, pattern.flags)
    code = _compiler._code(parsed, pattern.flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (pattern.pattern, pattern.flags | parsed.state.flags, array.array(_CODE, code).tobytes(),
            parsed.state.groups - 1, groupindex, tuple(indexgroup))


def _compiled(form: tuple) -> re.Pattern:
    # (only when a kept parser is written or read)
    import _sre
    source, flags, code, groups, groupindex, indexgroup = form
    return _sre.compile(source, flags, array.array(_CODE, code).tolist(), groups, groupindex, indexgroup)


def _build_scanners(parser: lark.Lark) -> None:
    """Build every scanner of the parser's contextual lexer now (Lark builds them on first
    use); nothing when its lexer is not one, or this Python's compiled code cannot be kept."""
    lexer = getattr(parser.parser, "lexer", None)
    states = getattr(lexer, "lexers", None)
    if _CODE is None or not isinstance(states, dict):
        return
    for state_lexer in {id(s): s for s in [*states.values(), lexer.root_lexer]}.values():
        state_lexer.scanner      # noqa: B018 (built and kept on the lexer)


def _unbuild_scanners(parser: lark.Lark) -> None:
    """Leave every scanner (and the callbacks built with it) to be built on first use again."""
    lexer = parser.parser.lexer
    for state_lexer in [*getattr(lexer, "lexers", {}).values(), *[getattr(lexer, "root_lexer", None)]]:
        if state_lexer is not None:
            state_lexer._scanner = None
            vars(state_lexer).pop("callback", None)


# an action by the name pickle finds it under (a global of Lark's module)
_ACTIONS = {Shift: "Shift", Reduce: "Reduce"}


class _Pickler(pickle.Pickler):
    """Names what must stay itself: modules (the lexer keeps `re`) and the LALR
    actions, which the parser tells apart by identity (`action is Shift`): kept as
    Lark's own globals, read once and then by reference (a persistent id would cost a
    call for each of the ~4,700 actions); a compiled expression is kept as its code."""

    def persistent_id(self, obj: object) -> tuple | None:
        if isinstance(obj, re.Pattern):
            return ("pattern", _compiled_form(obj))
        if isinstance(obj, types.ModuleType):
            return ("module", obj.__name__)
        return None

    def reducer_override(self, obj: object):
        if obj is Shift or obj is Reduce:
            return _ACTIONS[obj]
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: tuple) -> object:
        kind, name = pid
        if kind == "pattern" and _CODE is not None:
            return _compiled(name)
        if kind == "module" and name in ("re", "regex"):
            return importlib.import_module(name)
        raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")

    def find_class(self, module: str, name: str) -> object:
        # Lark's own classes and functools.partial (its tree builder's callbacks) only:
        # a file naming anything else is not one this module wrote
        if module.split(".")[0] != "lark" and (module, name) != ("functools", "partial"):
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a Lark parser")
        return super().find_class(module, name)


def load(path: Path) -> tuple[lark.Lark, list[tuple[str, ...]]] | None:
    """The parser kept at path and its forms; None when there is none or it cannot be read."""
    try:
        with open(path, "rb") as kept:
            found = _Unpickler(kept).load()
    except Exception:       # missing, truncated or foreign: the cache is only ever a shortcut
        return None
    if not (isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], lark.Lark)
            and isinstance(found[1], list) and all(isinstance(f, tuple) and all(isinstance(x, str) for x in f)
                                                   for f in found[1])):
        return None
    return found


def load_kept(path: Path) -> tuple[lark.Lark, list[tuple[str, ...]]] | None:
    """The parser kept at path, else the one the wheel carries under its name (ppgcheck/cache.py:
    built with the package, read only); None when neither can be read."""
    return load(path) or load(prebuilt_dir() / path.name)


def keep(parser: lark.Lark, forms: list[tuple[str, ...]], path: Path) -> None:
    """Keep the parser and its forms at path (written whole, then renamed: a reader never
    sees half), without the grammar objects its tables were built from (a third of the
    file; parsing never reads them)."""
    kept = copy.copy(parser)
    kept.grammar = None
    data = _with_scanners(kept, forms)
    if data is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, suffix=".tmp", delete=False) as out:
            out.write(data)
        os.replace(out.name, path)
    except OSError:
        pass


def _with_scanners(kept: lark.Lark, forms: list[tuple[str, ...]]) -> bytes | None:
    """The parser and its forms pickled with its scanners built; without them (built on first
    use) where this Python's `re` cannot keep them; None where it cannot be pickled at all."""
    try:
        _build_scanners(kept)
        return _dumps((kept, forms))
    except Exception:
        _unbuild_scanners(kept)
    try:
        return _dumps((kept, forms))
    except Exception:
        return None


def _dumps(kept: tuple) -> bytes | None:
    buffer = io.BytesIO()
    try:
        _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(kept)
    except pickle.PicklingError:
        return None
    return buffer.getvalue()
