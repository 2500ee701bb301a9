"""The package's shape: imports go down the layers and never in a cycle, a function-level
import says why, and the ASP contract's predicate names are declared once
(ppgcheck/contract.py), agreeing with rules/core/ and used by Python only as declared."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import clingo
import clingo.ast as cast
import pytest

from ppgcheck import contract, resources

PACKAGE = Path(contract.__file__).resolve().parent
# installed, the rules folder is inside the package; in a checkout, beside it
RULES = resources.rules_dir()

# bottom to top: a module imports only from its own layer or those below it
LAYERS = [
    {"errors", "resources", "cache", "contract", "version"},
    {"packs"},
    {"language"},
    {"engine"},
    {"analysis"},
    {"ci", "event", "scaffold"},
    {"api"},
    {"cli", "server"},
    {"console", "__main__", "__init__"},
]


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(module: str, path: Path) -> list[tuple[str, ast.stmt, bool]]:
    """(imported ppgcheck module, the import statement, inside a function) of a module."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, ast.stmt, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - child.level + 1] + ([base] if base else []))
                targets = [f"{base}.{a.name}" for a in child.names if f"{base}.{a.name}" in MODULES] or [base]
                found.extend((t, child, inner) for t in targets if t in MODULES)
            elif isinstance(child, ast.Import):
                found.extend((a.name, child, inner) for a in child.names if a.name in MODULES)
            visit(child, inner)
    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return [(target, node, inner) for target, node, inner in found if target != module]


def _layer(module: str) -> int:
    parts = module.split(".")
    name = parts[1] if len(parts) > 1 else "__init__"
    return next(i for i, layer in enumerate(LAYERS) if name in layer)


def test_every_module_has_a_layer():
    for module in MODULES:
        _layer(module)


def test_no_import_cycle_anywhere_in_the_package():
    edges = {m: {t for t, _, _ in _imports(m, p) if not m.startswith(t + ".")} for m, p in MODULES.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                cycle = stack[stack.index(target):] + [target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[module] = 2
    for module in sorted(MODULES):
        if module not in state:
            visit(module)


def test_imports_go_down_the_layers():
    upward = [f"{m} imports {t}" for m, p in MODULES.items() for t, _, _ in _imports(m, p)
              if _layer(t) > _layer(m)]
    assert upward == []


def test_the_packs_layer_knows_no_report_and_the_language_no_ruling():
    for module, path in MODULES.items():
        below = {"packs": LAYERS[0], "language": LAYERS[0] | {"packs"}}.get(module.split(".")[1:2][0]
                                                                              if "." in module else "")
        if below is None:
            continue
        for target, _, _ in _imports(module, path):
            name = target.split(".")[1]
            assert name in below or target.startswith(module.rpartition(".")[0]), f"{module} imports {target}"


def test_a_function_level_import_says_why():
    """Imports sit at the top of a module, except where importing later saves start-up time:
    such an import (or the run of imports it is in) carries a comment saying so, on one of its
    lines or on the line above the run."""
    silent = []
    for module, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    first = last = inner.lineno - 1
                    while first > 0 and re.match(r"\s*(from \S+ )?import ", lines[first - 1]):
                        first -= 1
                    while last + 1 < len(lines) and re.match(r"\s*(from \S+ )?import ", lines[last + 1]):
                        last += 1
                    run = lines[first:last + 1]
                    if not any("#" in line for line in run) and not lines[first - 1].strip().startswith("#"):
                        silent.append(f"{path.relative_to(PACKAGE.parent)}:{inner.lineno}: {lines[inner.lineno - 1].strip()}")
    assert sorted(set(silent)) == []


# ---------------------------------------------------------------------------
# the contract
# ---------------------------------------------------------------------------

def _statements(path: Path) -> list:
    out: list = []
    cast.parse_files([str(path)], out.append)
    return out


def _signature(term) -> tuple[str, int] | None:
    if term.ast_type is cast.ASTType.Function:
        return term.name, len(term.arguments)
    if term.ast_type is cast.ASTType.SymbolicTerm and term.symbol.type is clingo.SymbolType.Function:
        return term.symbol.name, len(term.symbol.arguments)
    return None


def test_the_inputs_are_the_externals_the_core_declares():
    externals = {_signature(st.atom.symbol) for st in _statements(RULES / "core" / "inputs.lp")
                 if st.ast_type is cast.ASTType.External}
    assert externals == contract.INPUTS


def test_the_outputs_are_what_the_core_shows():
    shown = {(st.name, st.arity) for st in _statements(RULES / "core" / "output.lp")
             if st.ast_type is cast.ASTType.ShowSignature}
    assert shown == contract.OUTPUTS
    assert contract.EXPLORED <= contract.OUTPUTS
    assert contract.QUESTION_SHOWN <= contract.OUTPUT_NAMES


def test_the_language_facts_are_those_the_core_vocabulary_states():
    heads = set()
    for st in _statements(RULES / "core" / "vocabulary.lp"):
        if st.ast_type is cast.ASTType.Rule and st.head.ast_type is cast.ASTType.Literal:
            symbol = st.head.atom.symbol
            heads.add(_signature(symbol.arguments[0] if symbol.ast_type is cast.ASTType.Pool else symbol))
    assert heads <= (contract.LANGUAGE | contract.VOCABULARY_TABLES | contract.CORE_TABLES
                     | contract.STATE_DECLARATIONS)
    assert contract.LANGUAGE - {("adverb_form", 2), ("state_asks", 1), ("state_group", 2)} <= heads


def _contract_table_signatures(heading: str) -> set[tuple[str, int]]:
    """The `name(Args)` signatures of the first column of a table under a heading of CONTRACT.md."""
    text = (RULES / "core" / "CONTRACT.md").read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    out = set()
    for row in section.splitlines():
        if not row.startswith("| `"):
            continue
        first = row.split("|")[1]
        for name, args in re.findall(r"`([a-z_]+)\(([^`]*)\)`", first):
            depth, arity = 0, 1
            for ch in args:
                depth += (ch == "(") - (ch == ")")
                arity += ch == "," and depth == 0
            out.add((name, arity))
    return out


def test_what_a_pack_defines_is_the_contract_documents_table():
    documented = (_contract_table_signatures("## What a pack must define")
                  | _contract_table_signatures("## Procedures besides penalties: outcomes"))
    assert documented == contract.PACK_DEFINES


def test_the_shared_sets_are_made_of_declared_names():
    assert contract.DECISIVE <= contract.PACK_DEFINED_NAMES
    assert {name for name, _ in contract.CHOICES} <= contract.PACK_DEFINED_NAMES
    assert {name for name, _ in contract.NAMES_INFRACTION} <= contract.PACK_DEFINED_NAMES
    assert contract.DIFF_COMPARED <= contract.OUTPUT_NAMES | contract.PACK_DEFINED_NAMES | {"pen"}
    assert contract.MATCH_STATE <= contract.INPUT_NAMES | {name for name, _ in contract.CORE_HELPERS}


def _predicate_names() -> set[str]:
    """Every predicate name the bundled rules and the package's own programs use."""
    names: set[str] = set()

    class Atoms(cast.Transformer):
        def visit_SymbolicAtom(self, node):
            signature = _signature(node.symbol)
            if signature:
                names.add(signature[0])
            return node
    for path in sorted(RULES.rglob("*.lp")) + sorted(PACKAGE.rglob("*.lp")):
        for st in _statements(path):
            Atoms()(st)
    return names


_ATOM_TEXT = re.compile(r"(?<![\w.])([a-z_][A-Za-z0-9_]*)\(|#show ([a-z_]\w*)/")


def test_every_predicate_name_python_uses_is_declared_in_the_contract():
    """A name Python hands to clingo or reads back (by_signature, Function, a symbol's `.name`
    compared, ASP text in a string) that is a predicate of the rules is declared in
    ppgcheck/contract.py: the contract module is the one list."""
    names = _predicate_names()
    used: dict[str, set[str]] = {}

    def use(value: object, where: str) -> None:
        if isinstance(value, str) and value in names and not contract.declared(value):
            used.setdefault(value, set()).add(where)
    for module, path in MODULES.items():
        if module == "ppgcheck.contract":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            where = f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call):
                called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if called in ("by_signature", "Function") and node.args and isinstance(node.args[0], ast.Constant):
                    use(node.args[0].value, where)
            elif isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(isinstance(side, ast.Attribute) and side.attr == "name" for side in sides):
                    for side in sides:
                        for item in side.elts if isinstance(side, (ast.Set, ast.Tuple, ast.List)) else [side]:
                            if isinstance(item, ast.Constant):
                                use(item.value, where)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                for found in _ATOM_TEXT.finditer(node.value):
                    use(found.group(1) or found.group(2), where)
    assert {name: sorted(where) for name, where in used.items()} == {}


def test_the_layout_table_names_every_module_in_its_folder_s_row():
    table = (Path(__file__).resolve().parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(ppgcheck/(?:\w+/)?)` \| (.*) \|$", table, re.M)}
    for folder in [PACKAGE, *sorted(p.parent for p in PACKAGE.glob("*/__init__.py"))]:
        key = folder.relative_to(PACKAGE.parent).as_posix() + "/"
        assert key in rows, f"docs/architecture.md has no row for {key}"
        files = [p.name for p in folder.iterdir() if p.suffix in (".py", ".lp") and p.name != "__init__.py"]
        missing = [name for name in files if f"`{name}`" not in rows[key]]
        assert not missing, f"docs/architecture.md's row for {key} misses {missing}"


# the CLI and the judge station see the package through ppgcheck.api only (and the bottom
# modules they report with); `serve` starts the station
FACES = {"cli": {"api", "errors", "resources", "version", "cli", "server"},
         "server": {"api", "errors", "resources", "version", "server"}}


def _runtime_imports(path: Path) -> list[tuple[str, int]]:
    """(module, line) of every ppgcheck import of a file that runs: not one under `if TYPE_CHECKING:`."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for inner in child.orelse:
                    visit(ast.Module(body=[inner], type_ignores=[]))
                continue
            if isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                names = [child.module] if child.module != "ppgcheck" else [f"ppgcheck.{a.name}" for a in child.names]
                found.extend((name, child.lineno) for name in names if name.split(".")[0] == "ppgcheck")
            elif isinstance(child, ast.ImportFrom) and child.level:
                found.append(("ppgcheck.<relative>", child.lineno))
            elif isinstance(child, ast.Import):
                found.extend((a.name, child.lineno) for a in child.names if a.name.split(".")[0] == "ppgcheck")
            visit(child)
    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def test_the_cli_and_the_server_import_only_the_api():
    """`ppgcheck.api` is the only face of the package the CLI and the station use: neither
    imports the engine, the language, the packs, the analysis, ci or the event record at run
    time (a type under `if TYPE_CHECKING:` is no import)."""
    strays = []
    for module, path in MODULES.items():
        face = module.split(".")[1:2]
        if not face or face[0] not in FACES:
            continue
        for target, line in _runtime_imports(path):
            name = target.split(".")[1] if "." in target else ""
            if name not in FACES[face[0]] and target != "ppgcheck.api":
                strays.append(f"{path.relative_to(PACKAGE.parent)}:{line}: imports {target}")
    assert strays == []


def test_importing_the_api_loads_the_ruling_job_only():
    """The `rule` path's start-up (issue 41): the api's other jobs load on first use."""
    import subprocess
    import sys
    code = ("import sys, ppgcheck.api as api\n"
            "print(sorted(m for m in sys.modules if m.startswith('ppgcheck.')))\n"
            "api.policy_reference\nprint('ppgcheck.api.catalogs' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=PACKAGE.parent)
    loaded, catalogs = done.stdout.strip().splitlines()
    for heavy in ("ppgcheck.api.event", "ppgcheck.api.authoring", "ppgcheck.api.catalogs", "ppgcheck.api.cards",
                  "ppgcheck.event", "ppgcheck.analysis", "ppgcheck.ci", "ppgcheck.packs.resident",
                  "ppgcheck.engine.finder"):
        assert f"'{heavy}'" not in loaded, heavy
    assert catalogs == "True"
