"""The threat model (docs/security.md), attack by attack: a hostile rules pack or report
gets a clear error and exit code 2, never a traceback, never a hang, never a file from
outside the rules folder read.  Every command runs in a process of its own under a
time bound of its own (a hang fails the test); a secret outside the folder is either a
regular file (whose text must never be printed) or a FIFO (which blocks whoever opens it)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ppgcheck.resources import rules_dir

HOSTILE = Path(__file__).parent / "fixtures" / "hostile"
CLEAN = Path(__file__).parent / "fixtures" / "packs" / "clean"
SECRET = "TOPSECRET-4242"

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


def run(cwd: Path, *args: str, bound: float = 60, env: dict | None = None, stdin=None
        ) -> subprocess.CompletedProcess:
    """`ppgcheck ARGS` in its own process, ended (and the test failed) past `bound` seconds."""
    environment = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "ppgcheck", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=bound, env=environment, stdin=stdin if stdin is not None else subprocess.DEVNULL)


def rules_with(tmp_path: Path, *attacks: str, name: str = "rules") -> Path:
    """A rules folder: the bundled core and pack `evil`, the clean fixture pack plus the attack files."""
    root = tmp_path / name
    pack = root / "evil"
    pack.mkdir(parents=True)
    (root / "core").symlink_to(rules_dir() / "core", target_is_directory=True)
    for f in CLEAN.glob("*.lp"):
        shutil.copy(f, pack / f.name)
    for attack in attacks:
        shutil.copy(HOSTILE / attack, pack / f"c_{attack}")
    return root


def golden(tmp_path: Path) -> Path:
    """A golden case under pack `evil`: the tardiness report, expected a Warning."""
    folder = tmp_path / "golden"
    folder.mkdir()
    shutil.copy(HOSTILE / "late.txt", folder / "late.txt")
    (folder / "late.expected.toml").write_text(
        'description = "tardiness"\nexit = 0\n\n[[ruling]]\nplayer = "Alice"\ninfraction = "tardiness"\n'
        'penalty = "warning"\nsection = "FIX 2"\n', encoding="utf-8")
    return folder


def secret_outside(tmp_path: Path, fifo: bool) -> Path:
    """The file outside the rules folder an attack reaches for: valid ASP holding the
    secret, or a FIFO no writer ever opens (reading it would block the command)."""
    path = tmp_path / "secret.lp"
    if fifo:
        os.mkfifo(path)
    else:
        path.write_text(f'secret("{SECRET}").\n', encoding="utf-8")
    return path


def commands(tmp_path: Path, rules: Path) -> dict[str, list[str]]:
    """Every command that loads a pack, on `rules` (diff: the clean pack, then `rules`)."""
    clean = rules_with(tmp_path, name="clean-rules")
    return {"rule": ["rule", str(HOSTILE / "late.txt"), "--rules", str(rules)],
            "check": ["check", str(rules / "evil")],
            "diff": ["diff", str(clean), str(rules)],
            "test": ["test", str(golden(tmp_path)), "--rules", str(rules)]}


def assert_refused(result: subprocess.CompletedProcess, *expected: str, code: int = 2) -> None:
    output = result.stdout + result.stderr
    assert result.returncode == code, output
    assert "Traceback" not in output and SECRET not in output
    for text in expected:
        assert text in output, output


# ---------------------------------------------------------------------------
# file read and leak
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["rule", "check", "diff", "test"])
def test_an_include_of_an_absolute_path_is_refused_by_every_command(tmp_path: Path, command: str) -> None:
    rules = rules_with(tmp_path, "include_absolute.lp")
    result = run(tmp_path, *commands(tmp_path, rules)[command])
    assert_refused(result, "c_include_absolute.lp:1:1: error:", '`#include "/etc/passwd"` is an absolute path')
    assert "root:" not in result.stdout + result.stderr


@needs_fifo
@pytest.mark.parametrize("fifo", [False, True], ids=["secret", "fifo"])
@pytest.mark.parametrize("command", ["rule", "diff"])
def test_an_include_leaving_the_folder_by_dotdot_is_refused_unread(tmp_path: Path, command: str, fifo: bool) -> None:
    secret_outside(tmp_path, fifo)
    rules = rules_with(tmp_path, "include_dotdot.lp", "leak.lp")
    result = run(tmp_path, *commands(tmp_path, rules)[command], bound=60)
    assert_refused(result, "c_include_dotdot.lp:1:1: error:", "leaves the rules folder", "by `..`")


@needs_fifo
def test_an_include_hidden_behind_a_comment_is_still_seen(tmp_path: Path) -> None:
    secret_outside(tmp_path, fifo=True)
    rules = rules_with(tmp_path, "include_hidden.lp", "leak.lp")
    result = run(tmp_path, "rule", str(HOSTILE / "late.txt"), "--rules", str(rules))
    assert_refused(result, "c_include_hidden.lp:2:1: error:", "must be followed by a quoted file name")


@needs_fifo
@pytest.mark.parametrize("fifo", [False, True], ids=["secret", "fifo"])
def test_an_include_of_a_symlink_out_of_the_folder_is_refused_unread(tmp_path: Path, fifo: bool) -> None:
    outside = secret_outside(tmp_path, fifo)
    rules = rules_with(tmp_path, "include_beside.lp", "leak.lp")
    (rules / "evil" / "parts").mkdir()
    (rules / "evil" / "parts" / "beside.lp").symlink_to(outside)
    result = run(tmp_path, "rule", str(HOSTILE / "late.txt"), "--rules", str(rules))
    assert_refused(result, "c_include_beside.lp:1:1: error:", "is a symlink to a file outside the rules folder")


@needs_fifo
@pytest.mark.parametrize("fifo", [False, True], ids=["secret", "fifo"])
@pytest.mark.parametrize("command", ["rule", "check", "diff", "test"])
def test_a_pack_file_that_is_a_symlink_out_of_the_folder_is_refused_unread(tmp_path: Path, command: str,
                                                                           fifo: bool) -> None:
    outside = secret_outside(tmp_path, fifo)
    rules = rules_with(tmp_path, "leak.lp")
    (rules / "evil" / "z_secret.lp").symlink_to(outside)
    result = run(tmp_path, *commands(tmp_path, rules)[command])
    assert_refused(result, "z_secret.lp:1:1: error:", "is a symlink to a file outside the rules folder")


@needs_fifo
def test_an_include_clingo_would_find_in_the_current_folder_is_refused_unread(tmp_path: Path) -> None:
    secret_outside(tmp_path, fifo=True)         # ./secret.lp: clingo looks here before the pack's folder
    rules = rules_with(tmp_path, "include_cwd.lp", "leak.lp")
    result = run(tmp_path, "rule", str(HOSTILE / "late.txt"), "--rules", str(rules))
    assert_refused(result, "c_include_cwd.lp:1:1: error:", "from the current folder")


def test_an_include_of_dev_stdin_does_not_block(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, "include_stdin.lp")
    with subprocess.Popen(["sleep", "120"], stdout=subprocess.PIPE) as never_ends:     # a stdin that never ends
        result = run(tmp_path, "rule", str(HOSTILE / "late.txt"), "--rules", str(rules), stdin=never_ends.stdout)
        never_ends.kill()
    assert_refused(result, "c_include_stdin.lp:1:1: error:", '`#include "/dev/stdin"` is an absolute path')


@needs_fifo
@pytest.mark.parametrize("where", ["pack file", "include"])
def test_a_fifo_in_the_folder_is_refused_unread(tmp_path: Path, where: str) -> None:
    rules = rules_with(tmp_path, *(["include_beside.lp"] if where == "include" else []))
    (rules / "evil" / "parts").mkdir()
    os.mkfifo(rules / "evil" / ("parts/beside.lp" if where == "include" else "z_fifo.lp"))
    result = run(tmp_path, "rule", str(HOSTILE / "late.txt"), "--rules", str(rules))
    assert_refused(result, "is a FIFO, not a regular file")


def test_an_include_inside_the_folder_still_loads(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, "include_beside.lp", "leak.lp")
    (rules / "evil" / "parts").mkdir()
    (rules / "evil" / "parts" / "beside.lp").write_text('secret("an allowed note").\n', encoding="utf-8")
    result = run(tmp_path, "rule", str(HOSTILE / "late.txt"), "--rules", str(rules))
    assert result.returncode == 0 and "an allowed note" in result.stdout, result.stderr


def vocabulary_commands(rules: Path) -> dict[str, list[str]]:
    """Commands that read a pack's own words (its vocabulary: the language of its reports)
    to parse a report or list its forms, before or without any ruling."""
    return {"rule": ["rule", str(HOSTILE / "late.txt"), "--rules", str(rules)],
            "print": ["print", str(HOSTILE / "late.txt"), "--rules", str(rules)],
            "vocab": ["vocab", "--policy", "evil", "--rules", str(rules)]}


@needs_fifo
@pytest.mark.parametrize("attack, message", [
    ("fifo", "z_secret.lp:1:1: error:"),
    ("vocabulary_term.lp", "`@system` is not allowed"),
    ("script.lp", "`#script` is not allowed"),
])
@pytest.mark.parametrize("command", ["rule", "print", "vocab"])
def test_the_words_a_pack_declares_are_read_confined(tmp_path: Path, command: str, attack: str,
                                                     message: str) -> None:
    """A pack's forms are in its files: reading them for the report language is held to
    the pack's confinement (a symlink out to a FIFO is not opened, no code runs)."""
    rules = rules_with(tmp_path, *([] if attack == "fifo" else [attack]))
    if attack == "fifo":
        (rules / "evil" / "z_secret.lp").symlink_to(secret_outside(tmp_path, fifo=True))
    result = run(tmp_path, *vocabulary_commands(rules)[command])
    assert_refused(result, message)
    assert not (tmp_path / "PWNED").exists()


# ---------------------------------------------------------------------------
# code
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["rule", "check", "diff", "test"])
def test_a_script_is_refused_by_every_command(tmp_path: Path, command: str) -> None:
    rules = rules_with(tmp_path, "script.lp")
    result = run(tmp_path, *commands(tmp_path, rules)[command])
    assert_refused(result, "c_script.lp:1:1: error: `#script` is not allowed")
    assert not (tmp_path / "PWNED").exists()


def test_a_script_is_refused_even_where_the_host_enabled_python_scripting(tmp_path: Path) -> None:
    """A host program that switched clingo's Python scripting on, then checks and rules a pack."""
    rules = rules_with(tmp_path, "script.lp")
    program = (
        "import clingo.script, sys\n"
        "clingo.script.enable_python()\n"
        "from ppgcheck import ConfinementError, check_policy, rule_report\n"
        "from pathlib import Path\n"
        "import ppgcheck.api as api\n"
        "for attempt in (lambda: check_policy(path=sys.argv[1] + '/evil'),\n"
        "                lambda: api.rule_prepared(api.prepare(api.parse_reports(Path(sys.argv[2]).read_text()),\n"
        "                                                      rules=Path(sys.argv[1])), Path(sys.argv[1]))):\n"
        "    try:\n"
        "        attempt()\n"
        "        print('NOT REFUSED')\n"
        "    except ConfinementError as exc:\n"
        "        print('refused:', exc)\n")
    result = subprocess.run([sys.executable, "-c", program, str(rules), str(HOSTILE / "late.txt")], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert result.stdout.count("refused: ") == 2 and "NOT REFUSED" not in result.stdout, result.stdout + result.stderr
    assert "`#script` is not allowed" in result.stdout
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("attack, message", [
    ("script_term.lp", "`@system` is not allowed"),
    ("incmode.lp", "`#include <incmode>` is not allowed"),
    ("external.lp", "`#external secret_switch/0` is not allowed"),
])
@pytest.mark.parametrize("command", ["rule", "check"])
def test_host_calls_builtin_scripts_and_foreign_externals_are_refused(tmp_path: Path, command: str, attack: str,
                                                                      message: str) -> None:
    rules = rules_with(tmp_path, attack)
    result = run(tmp_path, *commands(tmp_path, rules)[command])
    assert_refused(result, f"c_{attack}:", message)
    assert not (tmp_path / "PWNED").exists()


# ---------------------------------------------------------------------------
# resources
# ---------------------------------------------------------------------------

@pytest.mark.slow(24)
@needs_fork
@pytest.mark.parametrize("command", ["rule", "test"])
def test_a_runaway_grounding_stops_at_the_memory_limit_naming_the_file(tmp_path: Path, command: str) -> None:
    rules = rules_with(tmp_path, "boom.lp")
    result = run(tmp_path, *commands(tmp_path, rules)[command], "--memory-limit", "250", "--timeout", "120",
                 bound=400)
    assert_refused(result, "grounding exceeded 250 MB in rules/evil/c_boom.lp")
    assert result.stdout == ""


@needs_fork
@pytest.mark.parametrize("command", ["rule", "test", "check"])
def test_a_runaway_grounding_stops_at_the_time_limit_naming_the_file(tmp_path: Path, command: str) -> None:
    rules = rules_with(tmp_path, "boom.lp")
    result = run(tmp_path, *commands(tmp_path, rules)[command], "--timeout", "2", bound=120)
    assert_refused(result, "grounding exceeded 2 s in rules/evil/c_boom.lp")


@pytest.mark.slow(21)
@needs_fork
def test_diff_reports_a_new_version_whose_grounding_runs_away_as_a_change(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, "boom.lp")
    result = run(tmp_path, *commands(tmp_path, rules)["diff"], "--timeout", "2", bound=120)
    assert_refused(result, "the new version cannot rule: grounding exceeded 2 s in rules/evil/c_boom.lp")
    assert "no change" not in result.stdout


@needs_fork
@pytest.mark.parametrize("limit, message", [
    (["--memory-limit", "250", "--timeout", "120"], "grounding exceeded 250 MB in rules/evil/c_vocabulary_boom.lp"),
    (["--timeout", "2"], "grounding exceeded 2 s in rules/evil/c_vocabulary_boom.lp"),
], ids=["memory", "time"])
@pytest.mark.slow(22)
def test_a_runaway_grounding_of_the_words_a_pack_declares_is_bounded(tmp_path: Path, limit: list[str],
                                                                     message: str) -> None:
    rules = rules_with(tmp_path, "vocabulary_boom.lp")
    result = run(tmp_path, *vocabulary_commands(rules)["rule"], *limit, bound=400)
    assert_refused(result, message)
    assert result.stdout == ""


@pytest.mark.parametrize("command", ["rule", "test"])
def test_a_hard_search_stops_at_the_time_limit(tmp_path: Path, command: str) -> None:
    rules = rules_with(tmp_path, "hard.lp")
    result = run(tmp_path, *commands(tmp_path, rules)[command], "--timeout", "2", bound=120)
    assert_refused(result, "solving exceeded 2 s in rules/evil")


def test_diff_reports_a_new_version_that_can_no_longer_rule_tardiness_as_a_change(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, "hard.lp")
    result = run(tmp_path, *commands(tmp_path, rules)["diff"], "--timeout", "3", "--format", "json", bound=120)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    import json
    (pack,) = json.loads(result.stdout)
    (change,) = pack["changes"]
    assert change["what"] == "cannot_rule" and change["level"] == "error"
    assert "solving exceeded 3 s" in change["message"]


def test_without_fork_solving_still_stops_at_the_time_limit(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, "hard.lp")
    result = run(tmp_path, *commands(tmp_path, rules)["rule"], "--timeout", "2", bound=120,
                 env={"PPGCHECK_FORK": "off"})
    assert_refused(result, "solving exceeded 2 s in rules/evil")


def test_without_fork_a_runaway_grounding_stops_the_process(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, "boom.lp")
    result = run(tmp_path, *commands(tmp_path, rules)["rule"], "--timeout", "2", bound=120,
                 env={"PPGCHECK_FORK": "off"})
    assert_refused(result, "grounding exceeded 2 s in rules/evil", "no fork on this platform: the process is stopped")


# ---------------------------------------------------------------------------
# diff --base
# ---------------------------------------------------------------------------

def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t"})


@pytest.mark.skipif(shutil.which("git") is None, reason="no git")
@pytest.mark.parametrize("side", ["old", "new"])
def test_diff_base_with_an_absolute_symlink_under_rules_is_a_version_that_cannot_rule(tmp_path: Path,
                                                                                       side: str) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", ".")
    rules = repo / "rules"
    shutil.copytree(rules_dir() / "core", rules / "core")
    shutil.copytree(CLEAN, rules / "evil")
    link = rules / "evil" / "z_link.lp"
    outside = secret_outside(tmp_path, fifo=hasattr(os, "mkfifo"))
    if side == "old":
        link.symlink_to(outside)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    if side == "old":
        link.unlink()
    else:
        link.symlink_to(outside)
    result = run(repo, "diff", "--base", "HEAD", bound=120)
    assert_refused(result, f"the {side} version cannot rule", "z_link.lp:1:1: error:", "is a symlink to a file outside",
                   code=2 if side == "new" else 0)
    if side == "old":
        assert "rules@HEAD/evil/z_link.lp" in result.stdout     # not the temporary copy's path


# ---------------------------------------------------------------------------
# big and odd input
# ---------------------------------------------------------------------------

OBSERVATIONS = "policy: fab\nplayer: Alice\n" + "Alice stalled\n" * 12


def test_a_50_mb_report_fails_at_its_ninth_observation_having_read_little(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with big.open("w", encoding="utf-8") as out:
        out.write(OBSERVATIONS)
        while out.tell() < 50 * 2**20:
            out.write("Alice stalled\n" * 10_000)
    result = run(tmp_path, "rule", str(big), bound=60)
    assert_refused(result, "big.txt:11:1: error: too many observations: at most 8 in one report",
                   "the rest of the file is not read")
    assert result.stdout == ""


def test_a_report_on_stdin_is_read_only_as_far_as_its_limit(tmp_path: Path) -> None:
    """A never-ending report through a pipe: ppgcheck stops reading (and the writer is told
    so) long before the stream ends."""
    with subprocess.Popen([sys.executable, "-m", "ppgcheck", "rule", "-"], cwd=tmp_path, stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        written = 0
        try:
            proc.stdin.write(b"policy: fab\nplayer: Alice\n")
            chunk = b"Alice stalled, on purpose, " * 4096
            while written < 200 * 2**20:
                proc.stdin.write(chunk)
                written += len(chunk)
            proc.stdin.close()
        except BrokenPipeError:
            pass
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and b"is longer than 65536 bytes" in err and b"Traceback" not in err
    assert written < 16 * 2**20


def test_a_tab_in_a_quoted_name_is_an_error_at_its_column(tmp_path: Path) -> None:
    report = tmp_path / "tab.txt"
    report.write_text('policy: fab\nplayer: "Al\tice"\n"Al\tice" stalled\n', encoding="utf-8")
    result = run(tmp_path, "rule", str(report))
    assert_refused(result, "tab.txt:2:12: error: control character U+0009 is not allowed in a name",
                   '2 | player: "Al?ice"')


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    report = tmp_path / "bom.txt"
    report.write_bytes(b"\xef\xbb\xbfpolicy: fab\nplayer: Alice\nAlice stalled\n")
    result = run(tmp_path, "rule", str(report), "--format", "jsonl")
    assert result.returncode in (0, 1) and '"player":"Alice"' in result.stdout, result.stderr


def test_a_byte_order_mark_inside_a_file_is_named(tmp_path: Path) -> None:
    report = tmp_path / "bom.txt"
    report.write_text("policy: fab\nplayer: Alice\n\ufeffAlice stalled\n", encoding="utf-8")
    result = run(tmp_path, "rule", str(report))
    assert_refused(result, "bom.txt:3:1: error: a byte order mark (U+FEFF) is not allowed in a report")


@needs_fifo
def test_a_fifo_argument_is_read_as_a_stream(tmp_path: Path) -> None:
    fifo = tmp_path / "reports"
    os.mkfifo(fifo)
    with subprocess.Popen([sys.executable, "-m", "ppgcheck", "rule", str(fifo), "--format", "jsonl"], cwd=tmp_path,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        with fifo.open("w", encoding="utf-8") as writer:
            writer.write("policy: fab\nplayer: Alice\nAlice stalled\n---\npolicy: fab\nplayer: Bob\nBob stalled\n")
        out, err = proc.communicate(timeout=60)
    assert proc.returncode in (0, 1) and "Traceback" not in err, err
    assert [line.count('"player":') >= 1 for line in out.splitlines()] == [True, True]


def test_a_socket_argument_is_refused_clearly(tmp_path: Path) -> None:
    import socket
    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        result = run(tmp_path, "rule", str(path))
    assert_refused(result, "is not a file reports can be read from")


def test_every_test_the_threat_model_names_exists() -> None:
    """docs/security.md proves each promise by a named test: each name is a test of the suite."""
    import re
    doc = (Path(__file__).parent.parent / "docs" / "security.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_\w+)`", doc))
    defined = {m for f in Path(__file__).parent.glob("test_*.py")
               for m in re.findall(r"^def (test_\w+)", f.read_text(encoding="utf-8"), re.M)}
    assert named and not named - defined, sorted(named - defined)
