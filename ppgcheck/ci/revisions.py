"""`ppgcheck diff --base GITREV`: the rules folder as it is at a git revision."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from ppgcheck.analysis.diff import DiffResult, diff_rules
from ppgcheck.errors import UsageError


def git_toplevel(cwd: Path | None = None) -> Path:
    proc = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                          cwd=cwd)
    if proc.returncode != 0:
        raise UsageError("--base needs a git repository: " + (proc.stderr.strip() or "git failed"))
    return Path(proc.stdout.strip())


def export_revision(rev: str, folder: str, into: Path, cwd: Path | None = None) -> Path | None:
    """Write `folder` as it is at git revision `rev` under `into`; None when the revision lacks it."""
    check = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                           capture_output=True, text=True, cwd=cwd)
    if check.returncode != 0:
        raise UsageError(f"unknown git revision `{rev}`")
    proc = subprocess.run(["git", "archive", "--format=tar", rev, "--", folder], capture_output=True,
                          cwd=cwd)
    if proc.returncode != 0:
        return None
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
        _extract(tar, into)
    return into / folder


def _extract(tar: tarfile.TarFile, into: Path) -> None:
    """Extract a revision's files under `into`, nothing outside it.  A symlink pointing
    outside (which the `data` filter refuses) is made after everything else, so nothing is
    written through it, and the pack's confinement then refuses it like any other."""
    if not hasattr(tarfile, "data_filter"):      # Python before 3.11.4 (git archive is trusted)
        tar.extractall(into)
        return
    outward: list[tarfile.TarInfo] = []

    def data_or_later(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
        try:
            return tarfile.data_filter(member, dest)
        except tarfile.FilterError:
            if member.issym() and not os.path.isabs(member.name) and ".." not in Path(member.name).parts:
                outward.append(member)
            return None     # anything else git archive never writes: left out
    tar.extractall(into, filter=data_or_later)
    for member in outward:
        link = into / member.name
        if link.parent.is_dir() and not link.parent.is_symlink() and not os.path.lexists(link):
            os.symlink(member.linkname, link)


def diff_base(rev: str, policy: str | None = None, *, rules: str = "rules", observations: int = 1,
              timeout: float = 120.0, max_models: int = 200_000, cwd: Path | None = None) -> list[DiffResult]:
    """Compare the working tree's rules folder with the same folder at a git revision."""
    top = git_toplevel(cwd)
    here = (Path(cwd) if cwd else Path.cwd()).resolve()
    folder = (here / rules).resolve()
    try:
        rel = folder.relative_to(top.resolve())
    except ValueError:
        raise UsageError(f"`{rules}` is not inside the git repository {top}") from None
    if not folder.is_dir():
        raise UsageError(f"no rules folder `{rules}` in the working tree")
    tmp = Path(tempfile.mkdtemp(prefix="ppgcheck-base-"))
    try:
        old = export_revision(rev, rel.as_posix(), tmp, cwd=top)
        if old is None or not old.is_dir():
            old = tmp / "empty"
            old.mkdir()
        results = diff_rules(old, folder, policy, observations=observations, timeout=timeout,
                             max_models=max_models, old_label=f"{rel.as_posix()}@{rev}",
                             new_label=rel.as_posix())
        for change in (c for r in results for c in r.changes if c.what == "cannot_rule"):
            change.message = change.message.replace(str(old), f"{rel.as_posix()}@{rev}")   # not the temporary copy
        return results
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
