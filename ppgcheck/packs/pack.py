"""A policy pack: found by one resolver, its files read and parsed once.

A pack is a folder of `*.lp` files beside a core folder (rules/core).  Every
command takes one: `rule` and `test` (PolicyEngine), `check`, `diff` and
`test --coverage`.  Every file of a pack, its own and the core's, is read
through its Pack and nowhere else: a rules folder given on the command line is
untrusted input, and what a pack may read is decided here.  Each file is
confined (ppgcheck/packs/confine.py) the first time the Pack is asked for it,
before anything reads a byte: a regular UTF-8 file inside its own folder, its
`#include`s too; its statements are checked as the one program reader parses
them (no `#script`, no `@` term, only the contract's `#external`s).
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ppgcheck.packs import confine
from ppgcheck.errors import UsageError
from ppgcheck.resources import core_dir, pack_dir, policy_ids, rules_dir

if TYPE_CHECKING:       # clingo.ast is imported only to parse: ruling one report from the cache skips it
    from ppgcheck.packs.program import Program

# the core a report is ruled with, and the core the scenario searches add scenarios.lp to
RUNTIME_CORE = ("vocabulary.lp", "penalties.lp", "findings.lp", "output.lp")
SCENARIO_CORE = ("vocabulary.lp", "scenarios.lp", "penalties.lp", "findings.lp", "output.lp")

# a section banner, `% --- PPG 2.5 Hidden Card Error ---`: the section is the text
_BANNER = re.compile(r"^%\s*-{3}\s*(.*?)\s*-*\s*$")


class Pack:
    """One policy pack: its id, its folder and its core folder."""

    def __init__(self, id: str, folder: Path, core: Path) -> None:
        self.id, self.folder, self.core = id, folder, core
        self.files: list[Path] = pack_files(folder)
        self._texts: dict[Path, str] = {}
        self._parsed: dict[Path, "Program"] = {}
        self._approved: dict[Path, confine.Approved] = {}    # each file asked for: it and its includes, checked
        self._folders: dict[Path, str] = {}                  # the real path of each folder they are in
        self._size = confine.PackSize()                       # its files' bytes and statements, capped
        # what the layers above derive from the pack once (its vocabulary, ...): kept with it
        self.derived: dict[str, object] = {}

    def __repr__(self) -> str:
        return f"Pack({self.id!r}, {str(self.folder)!r}, core={str(self.core)!r})"

    def __reduce__(self):
        # to another process (a check's worker) as where it is: what was read stays here
        return Pack, (self.id, self.folder, self.core)

    def core_files(self, names: tuple[str, ...] = RUNTIME_CORE) -> list[Path]:
        return [self.core / name for name in names]

    @property
    def every_file(self) -> list[Path]:
        """Every rules file of its core folder and of its own, loaded or not (what a version is)."""
        return [*sorted(self.core.glob("*.lp")), *self.files]

    @property
    def runtime_files(self) -> list[Path]:
        """What a report is ruled with: the core, then the pack's files."""
        return self.core_files() + self.files

    @property
    def root(self) -> Path:
        """The folder holding the pack's rules folder: the output names the pack's files
        relative to it (`rules/fab/s3_1_tardiness.lp`, wherever the rules folder is)."""
        return self.folder.parent.parent

    @property
    def where(self) -> str:
        """The pack's folder as the user knows it (in a message about its files)."""
        return confine.shown(self.folder)

    def confined(self, files: Iterable[Path]) -> list[Path]:
        """The files and every file they include, each confined once (packs/confine.py),
        before anything reads them; a ConfinementError names the first breach."""
        out: list[Path] = []
        for path in files:
            if path not in self._approved:
                self._approved[path] = confine.check_files([path], rules=path.suffix == ".lp", folders=self._folders,
                                                           size=self._size)
            out.extend(self._approved[path].paths)
        return out

    def text(self, path: Path) -> str:
        """A file of the pack or of its core (a rules file, or its README), confined, read once."""
        if path not in self._texts:
            self.confined([path])
            self._texts[path] = path.read_text(encoding="utf-8")
        return self._texts[path]

    def parsed(self, files: list[Path], order: str = "clingo", keep: bool = True) -> "Program":
        """The statements of the files, each file parsed once.  `clingo` lists them
        as one clingo.ast.parse_files call over the files does (the last file's
        first: the order the scenario searches were tuned with); `files`, in
        the order given (the runtime's).  keep=False: parsed for the caller
        only (the runtime's rewrite, which keeps only its text).  Each file is
        confined and its statements checked as they are read."""
        # (clingo.ast only when a file is parsed)
        from ppgcheck.packs.program import Program, parse_files
        parsed = self._parsed if keep else dict(self._parsed)
        for path in files:
            if path not in parsed:
                self.confined([path])
                parsed[path] = parse_files([path], self._approved[path])
        ordered = files if order == "files" else list(reversed(files))
        return Program.join(parsed[path] for path in ordered)

    @cached_property
    def program(self) -> "Program":
        """The pack's own statements (no core), as the scenario searches read them."""
        return self.parsed(self.files)

    def core_program(self, names: tuple[str, ...] = SCENARIO_CORE) -> "Program":
        return self.parsed(self.core_files(names))

    @cached_property
    def banners(self) -> dict[str, list[tuple[int, str]]]:
        """The section banners of each pack file (by its name as parsed): (line, section)."""
        out: dict[str, list[tuple[int, str]]] = {}
        for path in self.files:
            rows = []
            for number, line in enumerate(self.text(path).splitlines(), start=1):
                banner = _BANNER.match(line)
                if banner:
                    rows.append((number, banner.group(1)))
            out[str(path)] = rows
        return out

    def first_banner(self, file: str) -> int:
        """The line of the file's first banner, 0 when it has none."""
        rows = self.banners.get(file, [])
        return rows[0][0] if rows else 0

    def section_at(self, file: str, line: int) -> str:
        """The section of the last banner above a line ("" when none names one)."""
        above = [text for number, text in self.banners.get(file, []) if number < line and text]
        return above[-1] if above else ""


def _unknown_policy(policy: str, root: Path) -> UsageError:
    known = policy_ids(root)
    # (only to suggest a close match)
    import difflib
    close = difflib.get_close_matches(policy, known, n=1)
    hint = f" (did you mean `{close[0]}`?)" if close else ""
    return UsageError(f"unknown policy `{policy}`{hint}: known policies are "
                      + ", ".join(f"`{k}`" for k in known))


def pack_files(folder: Path) -> list[Path]:
    """The files of a pack folder, in the order they are read."""
    return sorted(folder.glob("*.lp"))


def language_files(policy: str | None, rules: Path | None = None) -> tuple[Path, list[Path]]:
    """The files the report language of a policy is read from (the core's vocabulary
    file and the pack's files; the core's alone for no policy or an unknown one)."""
    folder = pack_dir(policy, rules) if policy else None
    return core_dir(rules) / "vocabulary.lp", pack_files(folder) if folder else []


def _is_pack(folder: Path) -> bool:
    return folder.is_dir() and folder.name != "core" and any(folder.glob("*.lp"))


def load_pack(policy: str, rules: Path | None = None) -> Pack:
    """The pack of a policy under a rules folder (its `core/` and one folder per
    policy), the bundled one by default."""
    root = rules or rules_dir()
    if not _is_pack(root / policy):
        raise _unknown_policy(policy, root)
    return Pack(policy, root / policy, core_dir(rules))


def find_packs(policy: str | None = None, path: str | Path | None = None) -> list[Pack]:
    """A bundled policy's pack, the pack of a pack folder, or every pack of a
    rules folder; every bundled pack when neither is given.  A pack folder
    uses the core beside it when there is one, else the bundled core."""
    if policy and path:
        raise UsageError("give either --policy or a RULES_DIR, not both")
    if policy:
        return [load_pack(policy)]
    if path is None:
        root = rules_dir()
        return [Pack(p, root / p, root / "core") for p in policy_ids(root)]
    folder = Path(path)
    if not folder.is_dir():
        raise UsageError(f"no such rules folder: `{path}`")
    if any(folder.glob("*.lp")):
        return [Pack(folder.name, folder, core_dir(folder.parent))]
    core = core_dir(folder)
    packs = [Pack(p.name, p, core) for p in sorted(folder.iterdir()) if _is_pack(p)]
    if not packs:
        raise UsageError(f"`{path}` holds no policy pack (*.lp files, or folders of them)")
    return packs


def packs_in(path: Path) -> dict[str, Pack]:
    """The packs of a rules folder (or the one pack of a pack folder) by id; none
    for a folder without packs (a revision before the first pack)."""
    if not (path.is_dir() and any(path.rglob("*.lp"))):
        return {}
    try:
        return {pack.id: pack for pack in find_packs(None, path)}
    except UsageError:
        return {}


def shown_path(path: str | Path, root: Path | None = None) -> str:
    """A file as the output names it: relative to root (a pack's `Pack.root`; the working
    folder by default) when inside it, else relative to the folder holding its own rules
    folder (`rules/core/findings.lp` of a core elsewhere): never where it is installed."""
    file, base = Path(os.path.abspath(path)), Path(os.path.abspath(root or Path.cwd()))
    for inside, top in ((file, base), (file.resolve(), base.resolve())):
        if inside.is_relative_to(top):
            return inside.relative_to(top).as_posix()
    return file.relative_to(file.parent.parent.parent).as_posix()
