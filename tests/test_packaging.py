"""The wheel carries the grammar and every rules folder."""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_rules_folder_is_a_listed_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {p.name for p in (ROOT / "rules").iterdir() if p.is_dir()}
    listed = {name.removeprefix("ppgcheck.rules.") for name in config["packages"]
              if name.startswith("ppgcheck.rules.")}
    assert folders <= listed, sorted(folders - listed)
    assert config["package-dir"]["ppgcheck.rules"] == "rules"
    assert config["package-dir"]["ppgcheck.grammar"] == "grammar"


def test_every_python_subpackage_is_a_listed_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    subpackages = {"ppgcheck." + p.parent.name for p in (ROOT / "ppgcheck").glob("*/__init__.py")}
    assert subpackages <= set(config["packages"]), sorted(subpackages - set(config["packages"]))
