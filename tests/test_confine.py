"""Confinement (ppgcheck/packs/confine.py) file by file and statement by statement, through
the one confined parser (packs/program.py's parse_files): what a pack may load and hold, and
the error (file, line, column) for what it may not."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from ppgcheck.errors import ConfinementError
from ppgcheck.packs import confine
from ppgcheck.packs.program import parse_files


def parse(path: Path) -> list[str]:
    out = list(parse_files([path]))
    return [str(st) for st in out if st.ast_type.name != "Program"]


@pytest.fixture
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "rules" / "evil"
    folder.mkdir(parents=True)
    return folder


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def refused(path: Path, where: str, message: str) -> None:
    with pytest.raises(ConfinementError) as raised:
        parse(path)
    assert str(raised.value).startswith(f"{where}: error: ") and message in str(raised.value), str(raised.value)


def test_an_include_inside_the_folder_loads_with_its_own_location(pack: Path) -> None:
    write(pack / "parts" / "more.lp", "b(1).\n")
    out = list(parse_files([write(pack / "a.lp", 'a(1).\n#include "parts/more.lp".\n')]))
    assert [(str(st), Path(st.location.begin.filename).name) for st in out if st.ast_type.name == "Rule"] == \
        [("a(1).", "a.lp"), ("b(1).", "more.lp")]


def test_a_dotdot_that_stays_inside_is_allowed_and_one_that_leaves_is_not(pack: Path) -> None:
    write(pack / "x.lp", "x(1).\n")
    assert parse(write(pack / "parts" / "in.lp", "")) == []
    assert "x(1)." in parse(write(pack / "a.lp", '#include "parts/../x.lp".\n'))
    write(pack.parent / "outside.lp", "secret(1).\n")
    refused(write(pack / "b.lp", 'ok.\n  #include "../outside.lp".\n'), "rules/evil/b.lp:2:3",
            '`#include "../outside.lp"` leaves the rules folder `rules/evil` by `..`')


def test_clingo_looks_in_the_current_folder_first_and_so_does_the_check(pack: Path, tmp_path: Path) -> None:
    write(pack / "same.lp", "inside(1).\n")
    write(tmp_path / "same.lp", "outside(1).\n")        # the current folder: clingo would load this one
    refused(write(pack / "a.lp", '#include "same.lp".\n'), "rules/evil/a.lp:1:1", "from the current folder")
    (tmp_path / "same.lp").unlink()
    assert "inside(1)." in parse(pack / "a.lp")


def test_includes_are_followed_through_included_files_and_cycles_end(pack: Path) -> None:
    write(pack / "p" / "one.lp", '#include "two.lp".\none(1).\n')
    up = "../" * len((pack / "p").resolve().parts)      # past the root, however deep the test's folder
    write(pack / "p" / "two.lp", f'#include "{up}etc/passwd".\n')
    refused(write(pack / "a.lp", '#include "p/one.lp".\n'), "rules/evil/p/two.lp:1:1", "leaves the rules folder")
    write(pack / "p" / "two.lp", '#include "one.lp".\ntwo(1).\n')
    approved = confine.check_files([pack / "a.lp"])
    assert sorted(p.name for p in approved.paths) == ["a.lp", "one.lp", "two.lp"]


@pytest.mark.parametrize("text, message", [
    ('#include "/etc/passwd".', "is an absolute path"),
    ("#include <incmode>.", "a built-in program carries a script"),
    ('#include "nowhere.lp".', "no such file"),
    ('#include "".', "empty file name"),
    ("% #include here, unreadable", "must be followed by a quoted file name"),
    ('#INCLUDE "x.lp"', "must be followed by a quoted file name"),
])
def test_includes_ppgcheck_refuses(pack: Path, text: str, message: str) -> None:
    refused(write(pack / "a.lp", f"ok.\n{text}\n"), f"rules/evil/a.lp:2:{text.index('#') + 1}", message)


def test_a_pack_file_that_is_not_a_regular_file_or_too_big_or_not_utf8(pack: Path, monkeypatch) -> None:
    (pack / "dir.lp").mkdir()
    with pytest.raises(ConfinementError, match="`rules/evil/dir.lp` is a folder, not a regular file"):
        confine.check_folders(pack)
    (pack / "dir.lp").rmdir()
    write(pack / "big.lp", "a.\n" * 100)
    with monkeypatch.context() as patched:
        patched.setattr(confine, "MAX_FILE_BYTES", 100)
        with pytest.raises(ConfinementError, match="is 300 bytes: a rules file may be at most 100 bytes"):
            confine.check_folders(pack)
    (pack / "big.lp").write_bytes(b"a.\n% caf\xe9\n")
    with pytest.raises(ConfinementError, match=r"^rules/evil/big\.lp:2:6: error: `rules/evil/big\.lp` is not UTF-8"):
        confine.check_folders(pack)


@pytest.mark.parametrize("text, where, message", [
    ("a.\n#script (lua)\nprint(1)\n#end.\n", "2:1", "`#script` is not allowed"),
    ("a(@f(1)).\n", "1:3", "`@f` is not allowed"),
    ("b :- X = @g, p(X).\n", "1:10", "`@g` is not allowed"),
    ("#external secret.\n", "1:1", "`#external secret/0` is not allowed"),
    ("#external observation(1, 1, late; 2).\n", "1:1", "`#external observation/1` is not allowed"),
])
def test_statements_ppgcheck_refuses(pack: Path, text: str, where: str, message: str) -> None:
    refused(write(pack / "a.lp", text), f"rules/evil/a.lp:{where}", message)


def test_what_the_contract_declares_and_an_at_sign_in_a_string_are_allowed(pack: Path) -> None:
    out = parse(write(pack / "a.lp", '#external observation(1, 1, late).\n#external explore.\n'
                                     'note("mail judge@example.org").\n'))
    assert len(out) == 3


def test_a_symlink_inside_the_folder_is_followed(pack: Path) -> None:
    write(pack / "real" / "x.lp", "x(1).\n")
    os.symlink("real/x.lp", pack / "link.lp")
    assert parse(pack / "link.lp") == ["x(1)."]


def test_a_readme_beside_the_rules_is_not_held_to_a_program_s_shape(pack: Path) -> None:
    """A pack README's table row of 100 `|` once failed `check`: "more than 64 operators"."""
    readme = write(pack / "README.md", "| " + " | ".join(f"cell {n}" for n in range(100)) + " |\n")
    confine.check_files([readme], rules=False)
    refused(write(pack / "wide.lp", "a(" + "|".join("1" for _ in range(100)) + ").\n"), "rules/evil/wide.lp:1:132",
            "operators")
