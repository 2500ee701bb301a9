"""The wheel's prebuilt cache entries (ppgcheck/prebuilt/, built by build_hooks.py with
ppgcheck/engine/prebuild.py) are the ones a first ruling looks for: built into a copy of the
package laid out as a wheel installs it, a cold process with an empty cache folder rules the
example computing nothing, and once the copy's code changes the same entries are a miss."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import ppgcheck
from ppgcheck import resources
from ppgcheck.cache import PREBUILT

EXAMPLE = resources.examples_dir() / "fab" / "hidden-card-error.txt"


def _installed_layout(site: Path) -> Path:
    """The package as the wheel installs it (grammar, rules and examples inside), without
    bytecode or prebuilt entries."""
    package = site / "ppgcheck"
    shutil.copytree(Path(ppgcheck.__file__).parent, package,
                    ignore=shutil.ignore_patterns("__pycache__", PREBUILT, "grammar", "rules", "examples"))
    for folder in (resources.grammar_dir(), resources.rules_dir(), resources.examples_dir()):
        shutil.copytree(folder, package / folder.name, ignore=shutil.ignore_patterns("__pycache__"))
    return package


def _run(site: Path, cache: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if k != "PPGCHECK_PREBUILT"},    # (the suite turns it off)
           "PYTHONPATH": str(site), "PPGCHECK_CACHE": str(cache), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, *args], env=env, cwd=site.parent, capture_output=True, text=True,
                          timeout=300)


def test_a_first_ruling_finds_every_entry_prebuilt_and_other_code_misses_them(tmp_path):
    site = tmp_path / "site"
    package = _installed_layout(site)
    built = _run(site, tmp_path / "unused", "-m", "ppgcheck.engine.prebuild", str(package / PREBUILT), "fab")
    assert built.returncode == 0, built.stderr
    prebuilt = sorted(p.name for p in (package / PREBUILT).iterdir())
    assert {name.split("-")[0] for name in prebuilt} == {"grammar", "policy", "vocabulary", "shapes"}
    assert not (tmp_path / "unused").exists()       # computed in a scratch folder, not the cache's

    cold = tmp_path / "cold-cache"
    first = _run(site, cold, "-m", "ppgcheck", "rule", str(EXAMPLE))
    assert first.returncode == 0, first.stderr
    assert "Alice: hidden-card-error (PPG 2.5)\n    penalty: WARNING" in first.stdout
    assert not cold.exists() or not any(cold.iterdir())     # nothing computed: every entry was prebuilt

    # just missed: other code (one comment more) is another key, so the prebuilt entries are not
    # used and the first ruling computes its own, the same ruling
    with open(package / "version.py", "a", encoding="utf-8") as module:
        module.write("# another build\n")
    other = tmp_path / "other-cache"
    again = _run(site, other, "-m", "ppgcheck", "rule", str(EXAMPLE))
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    computed = sorted(p.name for p in other.iterdir())
    assert {name.split("-")[0] for name in computed} == {"grammar", "policy", "vocabulary", "shapes"}
    assert not set(computed) & set(prebuilt)


def test_a_prebuilt_entry_answers_after_a_miss_and_a_damaged_one_is_computed(tmp_path, monkeypatch):
    from ppgcheck import cache
    source = tmp_path / "input.lp"
    source.write_text("a.\n")
    monkeypatch.setenv("PPGCHECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "prebuilt_dir", lambda: tmp_path / PREBUILT)
    (tmp_path / PREBUILT).mkdir()
    name = f"{cache.cache_key('demo', [source])}.json"
    (tmp_path / PREBUILT / name).write_text('{"from": "the wheel"}')
    computed = []

    def compute() -> dict:
        computed.append(1)
        return {"from": "computed"}
    assert cache.is_cached("demo", [source])
    assert cache.cached_json("demo", [source], compute) == {"from": "the wheel"}
    assert computed == [] and not (tmp_path / "cache").exists()     # read in place, not copied
    (tmp_path / PREBUILT / name).write_text('{"from": ')              # damaged: computed and kept
    assert not cache.is_cached("demo", [source])
    assert cache.cached_json("demo", [source], compute) == {"from": "computed"}
    assert computed == [1] and (tmp_path / "cache" / name).is_file()
    monkeypatch.setenv("PPGCHECK_CACHE", "off")                        # the cache off: never read
    (tmp_path / PREBUILT / name).write_text('{"from": "the wheel"}')
    assert cache.cached_json("demo", [source], compute) == {"from": "computed"}
    assert not cache.is_cached("demo", [source])
