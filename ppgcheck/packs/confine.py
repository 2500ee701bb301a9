"""Confinement of a rules pack: which files it may load, which statements it may hold.

A rules pack is untrusted input: CI runs `check`, `diff` and `test` on pull
requests that edit rules/.  Before clingo opens anything, every file a pack
loads is checked here: a regular file (not a FIFO, a device or a folder), at
most MAX_FILE_BYTES, UTF-8, inside the folder it belongs to (its policy folder,
or core/) once symlinks are followed.  clingo opens an `#include`d file itself,
so every `#include` is found in the text first and resolved the way clingo
resolves it (the path from the current directory, else from the including
file's folder: libgringo's `check_file`); an absolute path, a `..` or a symlink
leaving the folder, `<incmode>` (it carries a script) or a form this scan
cannot read is an error naming the file and line.  The scan is deliberately
cruder than clingo's lexer: it reads `#include` even inside a comment or a
string, so it can only refuse too much, never let an include through.

After parsing, the statements are checked too: no `#script` (ppgcheck runs no
code from a pack, whatever scripting the host enabled), no `@function` term,
no `#external` the contract does not declare, and no statement from a file
the scan did not approve.
"""
from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path

from ppgcheck.cache import keep_map, kept_map
from ppgcheck.errors import ConfinementError
from ppgcheck.contract import ALLOWED_EXTERNALS

MAX_FILE_BYTES = 4 * 2**20
# a pack whole (its policy folder and its core): files each under MAX_FILE_BYTES held millions of
# facts (22 s and 1 GB to parse, outside any job); the bundled packs hold at most 300 KB, 1,500 statements
MAX_PACK_BYTES = 16 * 2**20
MAX_PACK_STATEMENTS = 100_000
# clingo's parser and its AST recurse in C++ (a term nested a million deep, or a chain of a
# million `+`, is a segmentation fault when parsed or freed): the text is held to a nesting
# depth, a statement length and a count of operators in a statement far beyond any real rule (the
# bundled packs: 3, 3,152 and 2), which also keeps the analyses' recursive walks of a term shallow
MAX_NESTING = 32
MAX_STATEMENT_CHARS = 32_768
MAX_OPERATORS = 64
_BLANKS = re.compile(r"\s*")
_OPERATORS = frozenset("-+*/\\^&|?~")
_SHAPE = re.compile(r'"(?:[^"\\\n]|\\.)*"|%\*.*?\*%|%[^\n]*|\.\.|:-|[-+*/\\^&|?~]|[()\[\]{}.]', re.DOTALL)

INCLUDE = re.compile(r"#include", re.IGNORECASE)
_INCLUDE_TARGET = re.compile(r'[ \t\r\n]*(?:"([^"\\\n\r]*)"|<([^>\n]*)>)[ \t\r\n]*\.')


def _error(file: str, line: int, column: int, message: str) -> ConfinementError:
    return ConfinementError(f"{file}:{line}:{column}: error: {message}")


def shown(path: str | Path) -> str:
    """A path as the user knows it: relative to the current folder when inside it."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class Approved:
    """The files a list of rules files loads, each checked; their real paths."""

    def __init__(self) -> None:
        self.paths: list[Path] = []          # in the order found (top-level file, then its includes)
        self.real: set[str] = set()
        self.with_at: set[str] = set()       # real paths of files with an `@` in their text
        self.bytes = 0                        # of every file, includes too
        self.statements = 0                   # statements (periods ending one) of every file


def check_files(files: Iterable[Path], rules: bool = True, folders: dict[Path, str] | None = None,
                size: "PackSize | None" = None) -> Approved:
    """Check each rules file and everything it includes; raise ConfinementError at the first
    breach.  rules=False: files that are not rules (a pack's README), whose includes are not
    looked for.  folders: each folder's real path, found once (kept by the caller across calls).
    size: the pack's bytes and statements so far, each file counted in (and capped)."""
    approved = Approved()
    folders = {} if folders is None else folders
    for path in files:
        folder = folders.get(path.parent)
        if folder is None:
            folder = folders[path.parent] = os.path.realpath(path.parent)
        name = str(path)
        # a file that is no symlink is where its folder really is (realpath's walk of every
        # part of the path, ~6 lstat calls a file, only for a symlink)
        real = None if path.name in ("", ".", "..") or os.path.islink(name) else os.path.join(folder, path.name)
        before = approved.bytes, approved.statements
        _check_file(name, folder, approved, rules=rules, real=real)
        if size is not None:
            size.add(path, approved.bytes - before[0], approved.statements - before[1])
    _keep_shapes_passed()
    return approved


def check_folders(*folders: Path) -> Approved:
    """Check every rules file (*.lp) of these folders (a pack's policy folder and its core)."""
    return check_files(f for folder in folders for f in sorted(folder.glob("*.lp")))


def _check_file(name: str, folder: str, approved: Approved, include: tuple | None = None,
                rules: bool = True, real: str | None = None) -> None:
    """`name` as clingo will open it, inside `folder`; `include` the (file, line, column,
    path as written) of the `#include` naming it, None for a file of the pack itself;
    `real` its real path where the caller knows it."""
    real = real or os.path.realpath(name)
    if real in approved.real:
        return

    def fail(message: str) -> ConfinementError:
        file, line, column, _ = include or (shown(name), 1, 1, None)
        return _error(file, line, column, message)
    written = include[3] if include else None
    if not _inside(real, folder):
        raise fail(_breach(name, folder, written))
    try:        # opened without blocking (a FIFO would wait for a writer), then looked at
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise fail(f"`{shown(name)}` cannot be read: {(exc.strerror or 'error').lower()}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise fail(f"`{shown(name)}` is {_kind(info.st_mode)}, not a regular file: a pack loads only regular files")
    if info.st_size > MAX_FILE_BYTES:
        os.close(fd)
        raise fail(f"`{shown(name)}` is {info.st_size} bytes: a rules file may be at most {MAX_FILE_BYTES} bytes")
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[:exc.start].decode("utf-8", "replace")
        raise _error(shown(name), *_position(before, len(before)), f"`{shown(name)}` is not UTF-8 text") from None
    if rules:       # (a README or a source text read beside the rules is no program)
        approved.statements += _shape_checked(data, text, shown(name))
    approved.bytes += len(data)
    approved.real.add(real)
    approved.paths.append(Path(name))
    if "@" in text:
        approved.with_at.add(real)
    for match in INCLUDE.finditer(text) if rules else ():
        target, written_target = _include_target(text, match, name)
        _check_file(target, folder, approved, (shown(name), *_position(text, match.start()), written_target))


# a file's digest -> its statements, once it passed: kept across processes (ppgcheck/cache.py),
# so a cold ruling does not walk its pack's ~400 KB of rules again (~35 ms of it)
_shapes_passed: dict[str, int] | None = None
_shapes_added = False


def _shape_checked(data: bytes, text: str, file: str) -> int:
    """_check_shape(text), once for the same bytes: a file that passed is remembered by its
    digest (a ruling confines its pack's files twice, for its language and its program, and
    every later run confines them again).  Only a file that passed is remembered."""
    global _shapes_passed, _shapes_added
    if _shapes_passed is None:
        _shapes_passed = {digest: count for digest, count in kept_map("shapes").items()
                          if isinstance(count, int) and not isinstance(count, bool)}
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    if digest not in _shapes_passed:
        _shapes_passed[digest] = _check_shape(text, file)
        _shapes_added = True
    return _shapes_passed[digest]


def _keep_shapes_passed() -> None:
    """Write the digests of the files that passed, where new ones were added."""
    global _shapes_added
    if _shapes_added and _shapes_passed is not None:
        keep_map("shapes", _shapes_passed)
        _shapes_added = False


def _check_shape(text: str, file: str) -> int:
    """Refuse brackets nested deeper than MAX_NESTING, a statement longer than
    MAX_STATEMENT_CHARS or with more than MAX_OPERATORS operators (comments and strings
    skipped whole), before clingo parses the text.  Returns the number of statements."""
    depth, start, skipped, operators, statements = 0, 0, 0, 0, 0
    for token in _SHAPE.finditer(text):
        char = token.group()
        if char in _OPERATORS:
            operators += 1
            if operators > MAX_OPERATORS:
                raise _error(file, *_position(text, token.start()),
                             f"more than {MAX_OPERATORS} operators in one statement: a rules file's terms are "
                             "at most that long")
        elif char in "([{":
            depth += 1
            if depth > MAX_NESTING:
                raise _error(file, *_position(text, token.start()),
                             f"brackets nested more than {MAX_NESTING} deep: a rules file nests terms at most "
                             f"{MAX_NESTING} deep")
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif char == ".":
            if token.start() - start - skipped > MAX_STATEMENT_CHARS:
                raise _too_long(text, start, file)
            start, skipped, operators, statements = token.end(), 0, 0, statements + 1
        elif char[0] == "%":
            skipped += len(char)
    if len(text) - start - skipped > MAX_STATEMENT_CHARS:
        raise _too_long(text, start, file)
    return statements


def _too_long(text: str, start: int, file: str) -> ConfinementError:
    """The error of a statement past MAX_STATEMENT_CHARS, at its first character."""
    return _error(file, *_position(text, _BLANKS.match(text, start).end()),
                  f"a statement of more than {MAX_STATEMENT_CHARS} characters: a rules file's statements are at "
                  "most that long")


class PackSize:
    """The bytes and statements of a pack's files so far: past MAX_PACK_BYTES or
    MAX_PACK_STATEMENTS the file that went over is named."""

    def __init__(self) -> None:
        self.bytes, self.statements = 0, 0

    def add(self, path: Path, size: int, statements: int) -> None:
        """Count a file (and what it includes) of `size` bytes and `statements` statements."""
        self.bytes += size
        self.statements += statements
        if self.bytes > MAX_PACK_BYTES:
            raise _error(shown(path), 1, 1, f"`{shown(path)}` takes the pack past {MAX_PACK_BYTES // 2**20} MB "
                         "(a pack, its core included, may hold at most that)")
        if self.statements > MAX_PACK_STATEMENTS:
            raise _error(shown(path), 1, 1, f"`{shown(path)}` takes the pack past {MAX_PACK_STATEMENTS:,} "
                         "statements (a pack, its core included, may hold at most that)")


def _breach(name: str, folder: str, written: str | None) -> str:
    """Why a file outside the folder would be loaded: a symlink, a `..`, or clingo's look in the current folder."""
    where = f"the rules folder `{shown(folder)}`"
    if written is None:
        return f"`{shown(name)}` is a symlink to a file outside {where}: a pack loads only files inside its own folders"
    if ".." in Path(written).parts:
        return f"`#include \"{written}\"` leaves {where} by `..`: a pack includes only files inside its own folder"
    if name == written:
        return (f"`#include \"{written}\"` loads `{shown(name)}` from the current folder (where clingo looks "
                f"first), outside {where}")
    return f"`#include \"{written}\"` is a symlink to a file outside {where}"


def _include_target(text: str, match: re.Match, including: str) -> tuple[str, str]:
    """(the file an `#include` makes clingo open, the path as written), found the way
    libgringo's check_file finds it: from the current folder, else beside the including file."""
    line, column = _position(text, match.start())

    def fail(message: str) -> ConfinementError:
        return _error(shown(including), line, column, message)
    form = _INCLUDE_TARGET.match(text, match.end())
    if form is None:
        raise fail("`#include` must be followed by a quoted file name and a period "
                   "(ppgcheck reads every `#include`, even in a comment)")
    quoted, builtin = form.groups()
    if builtin is not None:
        raise fail(f"`#include <{builtin}>` is not allowed: a built-in program carries a script, "
                   "and a pack runs no code")
    if not quoted:
        raise fail("`#include` of an empty file name")
    if os.path.isabs(quoted):
        raise fail(f"`#include \"{quoted}\"` is an absolute path: a pack includes only files inside "
                   "its own folder, by a relative path")
    if os.path.exists(quoted):
        return quoted, quoted
    beside = os.path.join(os.path.dirname(including) or ".", quoted)
    if not os.path.exists(beside):
        raise fail(f"`#include \"{quoted}\"`: no such file")
    return beside, quoted


def _inside(real: str, folder: str) -> bool:
    return real == folder or real.startswith(folder.rstrip(os.sep) + os.sep)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


# ---------------------------------------------------------------------------
# statements
# ---------------------------------------------------------------------------

def check_statements(statements: Sequence, approved: Approved | None, text_has_at: bool = True) -> None:
    """No `#script`, no `@` term, only the contract's `#external`s, every statement from an
    approved file (approved None: a program ppgcheck wrote, parsed from a text, which holds
    an `@` somewhere when text_has_at)."""
    # (only when a program is parsed: a pack read from the cache needs no clingo.ast)
    from clingo.ast import ASTType
    real: dict[str, str] = {}
    for st in statements:
        begin = st.location.begin
        name = begin.filename
        if approved is None:
            if text_has_at:
                _no_script_terms(st, name)
        elif name not in real:
            real[name] = os.path.realpath(name)
            if real[name] not in approved.real:
                raise _error(shown(name), begin.line, begin.column,
                             "a statement from a file ppgcheck did not check: refused")
        if st.ast_type is ASTType.Script:
            raise _error(shown(name), begin.line, begin.column,
                         "`#script` is not allowed: ppgcheck runs no code from a rules pack")
        if st.ast_type is ASTType.External:
            for signature in _signatures(st.atom.symbol):
                if signature not in ALLOWED_EXTERNALS:
                    shown_sig = "/".join(map(str, signature)) if signature else str(st.atom.symbol)
                    raise _error(shown(name), begin.line, begin.column,
                                 f"`#external {shown_sig}` is not allowed: a pack declares no "
                                 "externals besides the contract's inputs (rules/core/CONTRACT.md)")
        if approved is not None and real[name] in approved.with_at:
            _no_script_terms(st, shown(name))


def _signatures(term) -> list[tuple]:
    # (only when a program is parsed: a pack read from the cache needs no clingo.ast)
    from clingo import SymbolType
    from clingo.ast import ASTType
    if term.ast_type is ASTType.Function:
        return [(term.name, len(term.arguments))]
    if term.ast_type is ASTType.Pool:
        return [s for t in term.arguments for s in _signatures(t)]
    if term.ast_type is ASTType.SymbolicTerm and term.symbol.type is SymbolType.Function:
        return [(term.symbol.name, len(term.symbol.arguments))]
    return [()]


def _no_script_terms(node, file: str) -> None:
    """Refuse an `@f(...)` term anywhere under a statement (it calls host code while grounding)."""
    # (only when a program is parsed: a pack read from the cache needs no clingo.ast)
    from clingo.ast import AST, ASTType
    stack = [node]
    while stack:
        item = stack.pop()
        if item.ast_type is ASTType.Function and item.external:
            begin = item.location.begin
            raise _error(file, begin.line, begin.column,
                         f"`@{item.name}` is not allowed: ppgcheck calls no code from a rules pack")
        for key in item.child_keys:
            child = getattr(item, key)
            if isinstance(child, AST):
                stack.append(child)
            elif child is not None and not isinstance(child, (str, int)):
                stack.extend(c for c in child if isinstance(c, AST))
