"""The sdist holds every file the test suite reads, byte for byte as the checkout has it, so
the suite `.ci/run` ran on the checkout is the sdist's suite too (CI runs the sdist's own
`pytest` only for collection and three files: the whole of it again would double CI's time).

    python .ci/sdist_holds_the_suite.py SDIST_FOLDER      # run from the checkout
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# what the suite reads: the package, its packs and grammar, the tests and their data, the
# examples, the docs the doc tests read, the bench scripts the bench tests run
FOLDERS = ("ppgcheck/", "rules/", "grammar/", "tests/", "examples/", "docs/", "bench/")
FILES = ("pyproject.toml", "README.md", "CHANGELOG.md", "LICENSE", "mkdocs.yml", "build_hooks.py")


def main(sdist: Path) -> int:
    tracked = subprocess.run(["git", "ls-files", "-z"], check=True, capture_output=True).stdout.decode()
    wanted = [p for p in tracked.split("\0") if p and (p.startswith(FOLDERS) or p in FILES)]
    missing = [p for p in wanted if not (sdist / p).is_file()]
    differ = [p for p in wanted if p not in missing and (sdist / p).read_bytes() != Path(p).read_bytes()]
    for path in missing:
        print(f"the sdist lacks {path}", file=sys.stderr)
    for path in differ:
        print(f"the sdist's {path} differs from the checkout's", file=sys.stderr)
    if not wanted:
        print("no tracked files: run from a git checkout", file=sys.stderr)
    return 1 if missing or differ or not wanted else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
