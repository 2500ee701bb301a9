"""A small on-disk cache of what ppgcheck derives from its own files.

Rewriting a policy for batch grounding and reading the report vocabulary take
longer than ruling a report, and their result only changes when a rule file
(or the code deriving it) changes.  Entries are JSON, keyed by a SHA-256 of
every input's bytes and of the package's code (code_digest: one hash of every
module, so no list of which code derives what can fall out of date), so an
edited file is simply a new key.  The folder is
$PPGCHECK_CACHE, else $XDG_CACHE_HOME/ppgcheck, else ~/.cache/ppgcheck;
PPGCHECK_CACHE=off turns the cache off, and a folder that cannot be written
only costs the time: nothing ever depends on the cache being there.

A wheel also carries, read only, the entries the first ruling of each bundled policy
needs (ppgcheck/prebuilt/, written at build time by ppgcheck/engine/prebuild.py): an
entry missing from the cache folder is looked for there before it is computed.  They
are keyed as any entry, so one built for other code, inputs or versions is a miss.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any, Callable

# the newest-used entries kept (~8 MB a 64): a pack's check keeps up to eight, and temporary
# packs (tests, `diff --base`) add theirs
MAX_ENTRIES = 256


def cache_dir() -> Path | None:
    configured = os.environ.get("PPGCHECK_CACHE")
    if configured == "off":
        return None
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "ppgcheck"


# the prebuilt folder's name in the package (build_hooks.py writes it into the wheel)
PREBUILT = "prebuilt"


def prebuilt_dir() -> Path:
    """The entries built with the wheel (none in a checkout or an editable install);
    PPGCHECK_PREBUILT=off ignores them (the test suite counts what a run computes)."""
    if os.environ.get("PPGCHECK_PREBUILT") == "off":
        return Path(os.devnull)         # no entry is ever found below it
    return Path(__file__).resolve().parent / PREBUILT


@cache
def code_digest() -> str:
    """A digest of the package's own code: every module's path and bytes, and its own ASP
    (`analysis/diff_view.lp`, ...; not the rule packs and grammar a wheel ships inside it, which
    key their entries as inputs) (once a process)."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for folder, subfolders, files in os.walk(package):
        top = folder == str(package)
        subfolders[:] = sorted(d for d in subfolders
                               if d != "__pycache__" and not (top and d in ("rules", "grammar", "examples")))
        for name in sorted(files):
            if name.endswith((".py", ".lp")):
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, package).encode() + b"\0")
                with open(path, "rb") as source:
                    digest.update(source.read())
    return digest.hexdigest()


def cache_key(kind: str, inputs: list[Path], salt: str = "") -> str:
    """The entry's name: the kind, and a digest of the package's code, of every input's name
    and bytes, and of `salt` (what else the value depends on)."""
    digest = hashlib.sha256(kind.encode())
    digest.update(code_digest().encode())
    if salt:
        digest.update(f"\0{salt}".encode())
    for path in inputs:
        data = path.read_bytes()
        digest.update(f"\0{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return f"{kind}-{digest.hexdigest()[:32]}"


def cached_json(kind: str, inputs: list[Path], compute: Callable[[], Any], salt: str = "") -> Any:
    """compute(), or the value it returned before for inputs with the same bytes (and salt)."""
    folder = cache_dir()
    if folder is None:
        return compute()
    entry = folder / f"{cache_key(kind, inputs, salt)}.json"
    found = _read(entry)
    if found is _MISSING:
        found = _read(prebuilt_dir() / entry.name, used=False)
    if found is not _MISSING:
        return found
    value = compute()
    if _write(folder, entry.name, value):
        with contextlib.suppress(OSError):      # (another process may be pruning the same entries)
            _prune(folder)
    return value


def _write(folder: Path, name: str, value: Any) -> bool:
    """The entry `name` holds value (JSON) in the folder, written whole: readers see the old
    entry or the new one.  False where the folder cannot be written (only time is lost)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, suffix=".tmp",
                                         delete=False) as out:
            json.dump(value, out, ensure_ascii=False)
        os.replace(out.name, folder / name)
    except OSError:
        return False
    return True


# the items a kept map holds at most (its newest): ~60 bytes each
MAX_MAP_ITEMS = 20_000


def kept_map(kind: str) -> dict[str, Any]:
    """The map `kind` kept across processes (keep_map), keyed by the package's code: the
    wheel's prebuilt one and the cache folder's, merged; {} where neither is there."""
    folder = cache_dir()
    if folder is None:
        return {}
    name = _map_name(kind)
    merged: dict[str, Any] = {}
    for found in (_read(prebuilt_dir() / name, used=False), _read(folder / name)):
        if isinstance(found, dict):
            merged.update(found)
    return merged


def keep_map(kind: str, values: dict[str, Any]) -> None:
    """Write the map `kind` (its newest MAX_MAP_ITEMS items) into the cache folder, whole
    (two processes writing at once each write a whole map: the later one's is kept)."""
    folder = cache_dir()
    if folder is not None:
        _write(folder, _map_name(kind), dict(list(values.items())[-MAX_MAP_ITEMS:]))


def _map_name(kind: str) -> str:
    """A kept map's entry: its kind and the package's code (its inputs are in its keys)."""
    return f"{kind}-{code_digest()[:32]}.json"


def is_cached(kind: str, inputs: list[Path]) -> bool:
    """Whether cached_json holds a value for inputs with these bytes (computed before: the
    computation did not fail)."""
    folder = cache_dir()
    if folder is None:
        return False
    name = f"{cache_key(kind, inputs)}.json"
    return _read(folder / name) is not _MISSING or _read(prebuilt_dir() / name, used=False) is not _MISSING


_MISSING = object()


def _read(entry: Path, used: bool = True) -> Any:
    try:
        found = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return _MISSING
    if used:    # (a prebuilt entry is never pruned, and its folder may be the system's)
        with contextlib.suppress(OSError):
            os.utime(entry)     # used now: the pruning drops the entries used longest ago
    return found


def _prune(folder: Path) -> None:
    entries = sorted([*folder.glob("*.json"), *folder.glob("grammar-*")], key=lambda p: p.stat().st_mtime,
                     reverse=True)
    for stale in entries[MAX_ENTRIES:]:
        stale.unlink(missing_ok=True)
