"""`ppgcheck diff --base GITREV`: the rules folder as it is at a git revision."""
from __future__ import annotations

import io
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
        try:
            tar.extractall(into, filter="data")
        except TypeError:       # Python before 3.11.4: no extraction filters (git archive is trusted)
            tar.extractall(into)
    return into / folder


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
        return diff_rules(old, folder, policy, observations=observations, timeout=timeout,
                          max_models=max_models, old_label=f"{rel.as_posix()}@{rev}",
                          new_label=rel.as_posix())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
