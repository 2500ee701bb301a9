"""Read a clingo program once: what each statement defines and reads.

Every analysis of a pack (the batch rewrite, the scenario space, slicing,
history scoping, the diff's bounds, coverage) asks the same questions of a
statement: which atoms its head defines, which its body reads (with their
sign, and the positive atoms beside them that guard the read), which terms it
compares, where it is.  A `Statement` answers them, walking the statement on
clingo's own ast.Transformer once (its head when made, its body when first
asked); a Program keeps its statements' answers, so a statement shared by
several programs (the core, the pack) is read once.  A construct no analysis
reads is an UnsupportedConstruct, located at its file and line.

An atom is kept as plain data, its arguments compiled to tuples (walking
clingo's AST is slow): ("v", name) a variable, ("s", symbol) a symbol,
("f", name, args) a function or tuple, ("a",) anything else (arithmetic,
intervals, `_`: any value).  Pools are expanded into their alternatives and a
classically negated atom's name starts with `-`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

import clingo
from clingo import ast
from clingo.ast import ASTType

from ppgcheck.packs import confine
from ppgcheck.packs.messages import error_logger
from ppgcheck.packs.closure import reachable    # noqa: F401 (the analyses import it from here)
from ppgcheck.errors import ConfinementError, PolicyError, ProgramError

Term = tuple
Signature = tuple[str, int]


class UnsupportedConstruct(ProgramError):
    """A construct outside what the analyses read (rules/core/CONTRACT.md excludes it)."""

    @classmethod
    def at(cls, node: ast.AST, what: str) -> "UnsupportedConstruct":
        begin = node.location.begin
        return cls(f"{what} `{node}`", begin.filename, begin.line)


def parse_files(paths: Iterable[Path], approved: confine.Approved | None = None) -> "Program":
    """The statements of the files, each file parsed on its own, in the order given,
    confined (packs/confine.py): the files checked first unless `approved` holds them
    (a Pack's), the statements checked as they are read (no `#script`, no `@` term,
    only the contract's `#external`s)."""
    paths = list(paths)
    approved = approved or confine.check_files(paths)
    nodes: list[ast.AST] = []
    messages: list[str] = []

    def logger(code: clingo.MessageCode, message: str) -> None:
        messages.append(" ".join(message.split()))

    for path in paths:
        try:
            ast.parse_files([str(path)], nodes.append, logger=logger)
        except RuntimeError:
            raise ProgramError.unparsed(path, messages) from None
    confine.check_statements(nodes, approved)
    return Program(nodes)


def parse_text(text: str) -> "Program":
    """A program ppgcheck writes itself (a scenario's facts, a search's helper rules), held to
    what a pack's files are: no `#include` (clingo would open the file), no `#script`, no `@`
    term, only the contract's `#external`s."""
    found = confine.INCLUDE.search(text)
    if found:
        line = text.count("\n", 0, found.start()) + 1
        raise ConfinementError(f"<program>:{line}: error: `#include` in a program ppgcheck writes: refused")
    nodes: list[ast.AST] = []
    ast.parse_string(text, nodes.append)
    confine.check_statements(nodes, None, "@" in text)
    return Program(nodes)


# ---------------------------------------------------------------------------
# terms and atoms
# ---------------------------------------------------------------------------

def compile_term(term: ast.AST) -> Term:
    kind = term.ast_type
    if kind is ASTType.Variable:
        return ("a",) if term.name == "_" else ("v", term.name)
    if kind is ASTType.SymbolicTerm:
        return ("s", term.symbol)
    if kind is ASTType.Function and not term.external:
        return ("f", term.name, tuple(compile_term(a) for a in term.arguments))
    return ("a",)


def constant(term: ast.AST):
    """A ground term's value: str for a name, int for a number (negative ones
    too), the clingo.Symbol of anything else ground (a string); None if not ground."""
    kind = term.ast_type
    if kind is ASTType.SymbolicTerm:
        return symbol_value(term.symbol)
    if kind is ASTType.Function and not term.arguments:
        return term.name
    if kind is ASTType.UnaryOperation and term.argument.ast_type is ASTType.SymbolicTerm:
        number = term.argument.symbol
        if number.type is clingo.SymbolType.Number:
            return -number.number
    return None


def symbol_value(symbol: clingo.Symbol):
    """A number or a name as its Python value; any other symbol as itself."""
    if symbol.type is clingo.SymbolType.Number:
        return symbol.number
    if symbol.type is clingo.SymbolType.Function and not symbol.arguments:
        return symbol.name
    return symbol


def name_of(term: ast.AST) -> str | None:
    """The name a term is, when it is a constant name."""
    value = constant(term)
    return value if isinstance(value, str) else None


def text_of(term: ast.AST) -> str | None:
    """A constant name, or a string's text."""
    value = constant(term)
    if isinstance(value, clingo.Symbol) and value.type is clingo.SymbolType.String:
        return value.string
    return value if isinstance(value, str) else None


class Atom(NamedTuple):
    """One atom of a statement: its predicate (`-p` classically negated), its
    compiled arguments and their AST terms; pooled: one alternative of a pool."""

    name: str
    args: tuple[Term, ...]
    terms: tuple[ast.AST, ...]
    pooled: bool = False

    @property
    def signature(self) -> Signature:
        return self.name, len(self.args)

    @property
    def plain(self) -> bool:
        """Neither negated nor from a pool: a predicate written out."""
        return not self.pooled and not self.name.startswith("-")


def atom_parts(symbol: ast.AST, sign: str = "", pooled: bool = False) -> list[Atom]:
    """The atoms a symbolic atom's term stands for (one per alternative of a pool)."""
    kind = symbol.ast_type
    if kind is ASTType.Pool:
        return [part for alternative in symbol.arguments for part in atom_parts(alternative, sign, True)]
    if kind is ASTType.UnaryOperation and not sign:
        return atom_parts(symbol.argument, "-", pooled)
    if kind is ASTType.Function and not symbol.external:
        terms = tuple(symbol.arguments)
        return [Atom(sign + symbol.name, tuple(compile_term(a) for a in terms), terms, pooled)]
    if kind is ASTType.SymbolicTerm and symbol.symbol.type is clingo.SymbolType.Function:
        loc = symbol.location
        terms = tuple(ast.SymbolicTerm(loc, a) for a in symbol.symbol.arguments)
        return [Atom(sign + symbol.symbol.name, tuple(("s", a) for a in symbol.symbol.arguments), terms, pooled)]
    raise UnsupportedConstruct.at(symbol, "atom")


def term_signature(term: ast.AST) -> Signature:
    """The predicate of one alternative of an atom: a function, not negated."""
    if term.ast_type is ASTType.Function:
        return term.name, len(term.arguments)
    if term.ast_type is ASTType.SymbolicTerm and term.symbol.type is clingo.SymbolType.Function:
        return term.symbol.name, len(term.symbol.arguments)
    raise UnsupportedConstruct.at(term, "atom")


# ---------------------------------------------------------------------------
# statements
# ---------------------------------------------------------------------------

class Read(NamedTuple):
    """An atom a statement reads, with its literal's sign and where it sits:
    `body` a literal of the body, `aggregate` a #count/#sum element's
    condition, `condition` a conditional literal, `set` an element of a
    `{ ... }` in the body, `head` a condition of a choice head, `other` any
    other statement's atom.  guards: the positive atoms beside it (its own
    condition's, then the body's for a nested read)."""

    atom: Atom
    sign: ast.Sign
    where: str
    guards: tuple[Atom, ...]

    @property
    def positive(self) -> bool:
        return self.sign == ast.Sign.NoSign


class Statement:
    """What one statement defines and reads, read once: its head when it is
    made (what every analysis asks first), its body when first asked."""

    __slots__ = ("node", "kind", "heads", "head_sign", "head_form", "_reads", "_comparisons", "_pooled",
                 "_unsupported", "_body_read", "_identifiers", "_begin")

    def __init__(self, node: ast.AST) -> None:
        self.node = node
        self.kind: ASTType = node.ast_type
        self.heads: list[Atom] = []
        self.head_sign = ast.Sign.NoSign
        self.head_form = ""         # atom | constraint | choice | other (rules); "" otherwise
        self._reads: list[Read] = []
        self._comparisons: list[tuple[ast.AST, ...]] = []
        self._pooled = False
        self._unsupported: UnsupportedConstruct | None = None
        self._body_read = False
        self._identifiers: frozenset[str] | None = None
        self._begin = None
        _Reader(self).head()

    @property
    def file(self) -> str:
        return self._location().filename

    @property
    def line(self) -> int:
        return self._location().line

    def _location(self):
        if self._begin is None:
            self._begin = self.node.location.begin
        return self._begin

    def _body(self) -> None:
        if not self._body_read:
            self._body_read = True
            if not self._unsupported:
                _Reader(self).body()

    @property
    def reads(self) -> list[Read]:
        """Every atom read: the head's conditions', then the body's, in the order written."""
        self._body()
        return self._reads

    @property
    def comparisons(self) -> list[tuple[ast.AST, ...]]:
        """The terms of each comparison of a rule's body (and of its aggregates' guards)."""
        self._body()
        return self._comparisons

    @property
    def pooled(self) -> bool:
        self._body()
        return self._pooled

    @property
    def unsupported(self) -> UnsupportedConstruct | None:
        """The construct an analysis cannot read, if the statement holds one."""
        self._body()
        return self._unsupported

    @property
    def body(self) -> list[Read]:
        return [r for r in self.reads if r.where != "head"]

    @property
    def outer(self) -> list[Atom]:
        """The positive atoms of the body's own literals."""
        return [r.atom for r in self.reads if r.where == "body" and r.positive]

    def head_atom(self) -> Atom | None:
        """The one atom a rule's head is, written out; None for any other head."""
        if self.head_form == "atom" and len(self.heads) == 1 and self.heads[0].plain:
            return self.heads[0]
        return None

    def positive_atoms(self) -> list[Atom]:
        """The atoms of the body's own positive literals, written out."""
        return [r.atom for r in self.reads if r.where == "body" and r.positive and r.atom.plain]

    def read_atoms(self) -> list[Atom]:
        """Every atom read, head conditions first (what a slice of the program follows)."""
        return [r.atom for r in self.reads]

    def defined_names(self) -> set[str]:
        """The predicates written out in the head (not pooled, not negated)."""
        return {a.name for a in self.heads if a.plain}

    def names(self, where: str = "") -> set[str]:
        """The predicates the reads name (of the head's conditions: `head`; of the body: `body`),
        those in a pool too and a classically negated one under its own name."""
        return {r.atom.name.lstrip("-") for r in self.reads if not where or (r.where == "head") == (where == "head")}

    def with_head(self, node: ast.AST, head: Atom) -> "Statement":
        """The reading of `node`, a rule with this rule's body and the one plain `head`."""
        body = [r for r in self.reads if r.where != "head"]
        twin = Statement.__new__(Statement)
        for slot in Statement.__slots__:
            setattr(twin, slot, getattr(self, slot))
        twin.node, twin._identifiers, twin._begin = node, None, None
        twin.heads, twin.head_form, twin.head_sign = [head], "atom", ast.Sign.NoSign
        twin._reads, twin._pooled = body, any(r.atom.pooled for r in body)
        return twin

    def identifiers(self) -> frozenset[str]:
        """Every lower-case identifier of the statement outside strings: the
        predicates it reads, and function symbols and constants (a harmless surplus)."""
        if self._identifiers is None:
            self._identifiers = frozenset(_IDENTIFIER.findall(str(self.node))) - {""}
        return self._identifiers


_IDENTIFIER = re.compile(r'"(?:[^"\\]|\\.)*"|\b([a-z_][A-Za-z0-9_\']*)')


class _Reader(ast.Transformer):
    """A walk of a statement, filling in its Statement: its head, or its body."""

    def __init__(self, out: Statement) -> None:
        self.out = out
        self.where = "other"
        self.in_body = False                  # comparisons are collected from a rule's body only
        self.scopes: list[list[int]] = []     # the open conditions: the indices of their reads

    def head(self) -> None:
        node, out = self.out.node, self.out
        try:
            if out.kind is ASTType.Rule:
                self._head(node.head)
            elif out.kind is ASTType.External:
                out.heads.extend(self._parts(node.atom.symbol))
        except UnsupportedConstruct as exc:
            out._unsupported = exc

    def body(self) -> None:
        node, out = self.out.node, self.out
        try:
            if out.kind in (ASTType.Rule, ASTType.External):
                self.in_body = True
                self._scope("body", node.body)
            else:
                self(node)
        except UnsupportedConstruct as exc:
            out._unsupported = exc

    def _parts(self, symbol: ast.AST) -> list[Atom]:
        parts = atom_parts(symbol)
        self.out._pooled = self.out._pooled or any(a.pooled for a in parts)
        return parts

    def _head(self, head: ast.AST) -> None:
        out = self.out
        kind = head.ast_type
        if kind is ASTType.Literal:
            if head.atom.ast_type is ASTType.SymbolicAtom:
                out.head_form, out.head_sign = "atom", head.sign
                out.heads.extend(self._parts(head.atom.symbol))
            else:
                out.head_form = "constraint" if head.atom.ast_type is ASTType.BooleanConstant else "other"
            return
        if kind in (ASTType.Disjunction, ASTType.Aggregate, ASTType.HeadAggregate):
            out.head_form = "choice"
            for element in head.elements:
                literal, condition = ((element.condition.literal, element.condition.condition)
                                      if kind is ASTType.HeadAggregate else (element.literal, element.condition))
                if literal.atom.ast_type is ASTType.SymbolicAtom:
                    out.heads.extend(self._parts(literal.atom.symbol))
                self._scope("head", condition)
            return
        raise UnsupportedConstruct.at(head, "head")

    def _scope(self, where: str, literals: Iterable[ast.AST]) -> None:
        """The reads of the body or of a condition, each guarded by the positive
        atoms of its own literals (a nested read's consumer adds the body's)."""
        outer = self.where
        self.where = where
        self.scopes.append([])
        for literal in literals:
            self(literal)
        indices = self.scopes.pop()
        reads = self.out._reads
        own = tuple(reads[i].atom for i in indices if reads[i].positive)
        for i in indices:
            reads[i] = reads[i]._replace(guards=own)
        self.where = outer

    def _add(self, atom_node: ast.AST, sign: ast.Sign) -> None:
        reads = self.out._reads
        for atom in self._parts(atom_node.symbol):
            if self.scopes:
                self.scopes[-1].append(len(reads))
            reads.append(Read(atom, sign, self.where, ()))

    def visit_Literal(self, literal: ast.AST) -> ast.AST:
        atom = literal.atom
        kind = atom.ast_type
        if kind is ASTType.SymbolicAtom:
            self._add(atom, literal.sign)
        elif kind is ASTType.Comparison:
            if self.in_body and self.where != "set":
                self.out._comparisons.append((atom.term, *(g.term for g in atom.guards)))
        elif kind is ASTType.BodyAggregate:
            if self.in_body:
                self.out._comparisons.extend((g.term,) for g in (atom.left_guard, atom.right_guard) if g is not None)
            for element in atom.elements:
                self._scope("aggregate", element.condition)
        elif kind is ASTType.Aggregate:
            for element in atom.elements:
                self._scope("set", [element.literal, *element.condition])
        elif kind is ASTType.TheoryAtom:
            raise UnsupportedConstruct.at(atom, "theory atom")
        return literal

    def visit_ConditionalLiteral(self, node: ast.AST) -> ast.AST:
        self._scope("condition", [node.literal, *node.condition])
        return node

    def visit_SymbolicAtom(self, atom: ast.AST) -> ast.AST:
        self._add(atom, ast.Sign.NoSign)     # an atom outside a literal (#heuristic, #project, ...)
        return atom

    def visit_TheoryAtom(self, atom: ast.AST) -> ast.AST:
        raise UnsupportedConstruct.at(atom, "theory atom")


# ---------------------------------------------------------------------------
# programs
# ---------------------------------------------------------------------------

class Program:
    """Statements (clingo AST nodes), each read into a Statement once, when first asked."""

    def __init__(self, nodes: Iterable[ast.AST] = (), *, parts: Iterable["Program"] | None = None,
                 statements: list[Statement] | None = None) -> None:
        self._parts = list(parts) if parts is not None else None
        if self._parts is not None:
            self.nodes = [node for part in self._parts for node in part.nodes]
        elif statements is not None:
            self.nodes = [s.node for s in statements]
        else:
            self.nodes = list(nodes)
        self._statements = statements

    @classmethod
    def join(cls, programs: Iterable["Program"]) -> "Program":
        return cls(parts=programs)

    @classmethod
    def of(cls, statements: list[Statement]) -> "Program":
        return cls(statements=list(statements))

    def __add__(self, other: "Program") -> "Program":
        return Program.join([self, other])

    def __iter__(self) -> Iterator[ast.AST]:
        return iter(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    @property
    def statements(self) -> list[Statement]:
        if self._statements is None:
            self._statements = ([s for part in self._parts for s in part.statements] if self._parts is not None
                                else [Statement(node) for node in self.nodes])
        return self._statements

    def where(self, keep) -> "Program":
        """The statements `keep(statement)` holds for."""
        return Program.of([s for s in self.statements if keep(s)])

    def add_to(self, control: clingo.Control) -> None:
        with ast.ProgramBuilder(control) as builder:
            for node in self.nodes:
                builder.add(node)


def as_program(statements: "Program | Iterable[ast.AST]") -> Program:
    return statements if isinstance(statements, Program) else Program(statements)


class Rename(ast.Transformer):
    """Rename predicates `prefix + name`: every one, or only those in `only`; each
    alternative of a pool too (`rel_covered(a; b)` is a pool of two atoms).  A
    negated atom's predicate is left as it is."""

    def __init__(self, prefix: str, only: set[str] | None = None) -> None:
        self.prefix, self.only = prefix, only

    def _renames(self, name: str) -> bool:
        return self.only is None or name in self.only

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:
        sym = node.symbol
        if sym.ast_type is ASTType.Pool:
            return node.update(symbol=sym.update(arguments=[self._atom_term(a) for a in sym.arguments]))
        return node.update(symbol=self._atom_term(sym))

    def _atom_term(self, sym: ast.AST) -> ast.AST:
        """The term of an atom, its predicate renamed (where it is one to rename)."""
        if sym.ast_type is ASTType.Function and self._renames(sym.name):
            return sym.update(name=self.prefix + sym.name)      # (its arguments are terms: no atom)
        if (sym.ast_type is ASTType.SymbolicTerm and sym.symbol.type is clingo.SymbolType.Function
                and self._renames(sym.symbol.name)):
            s = sym.symbol
            return ast.SymbolicTerm(sym.location, clingo.Function(self.prefix + s.name, s.arguments, s.positive))
        return sym

    def visit_Defined(self, node: ast.AST) -> ast.AST:
        return node.update(name=self.prefix + node.name) if self._renames(node.name) else node

    def _term(self, node: ast.AST) -> ast.AST:
        """A term holds no atom: not visited further (most of a statement's nodes are terms)."""
        return node

    visit_Variable = visit_SymbolicTerm = visit_Function = visit_Pool = _term
    visit_UnaryOperation = visit_BinaryOperation = visit_Interval = visit_Comparison = _term


def ground_facts(program: Program | Iterable[ast.AST]) -> dict[Signature, list[clingo.Symbol]]:
    """Ground only a program's facts (rules without a body, with a plain head) and
    its constants: helper tables like `grv_observation(broke_game_rule; left_state_illegal)`."""
    messages: list[str] = []
    ctl = clingo.Control(["--warn=none"], logger=error_logger(messages))
    with ast.ProgramBuilder(ctl) as builder:
        for node in as_program(program).nodes:
            if (node.ast_type is ASTType.Rule and not node.body and node.head.ast_type is ASTType.Literal) \
                    or node.ast_type is ASTType.Definition:
                builder.add(node)
    try:
        ctl.ground([("base", [])])
    except RuntimeError:        # (a fact with a variable, `committed(O, P, x).`: unsafe)
        raise PolicyError("the pack's facts do not ground: " + "; ".join(messages)) from None
    out: dict[Signature, list[clingo.Symbol]] = {}
    for a in ctl.symbolic_atoms:
        if a.is_fact:
            out.setdefault((a.symbol.name, len(a.symbol.arguments)), []).append(a.symbol)
    return out


# statements a renamed copy of a program leaves out: they show, minimise or declare for the whole program
_NOT_RENAMED = (ASTType.ShowSignature, ASTType.ShowTerm, ASTType.External, ASTType.Minimize, ASTType.Definition)


def renamed(program: Program | Iterable[ast.AST], prefix: str) -> Program:
    """A copy of the program with every predicate renamed `prefix + name`
    (shows, externals, constants and minimize statements are left out).  A
    statement's reading is renamed with it, without reading it again."""
    rename = Rename(prefix)
    return Program.of([_RenamedStatement(st, rename(st.node), prefix) for st in as_program(program).statements
                       if st.kind not in _NOT_RENAMED])


class _RenamedStatement(Statement):
    """The reading of a renamed copy of a statement: the source's, renamed as
    Rename renames the node (a negated atom's predicate stays);
    its body renamed when first asked."""

    __slots__ = ("_source", "_prefix")

    def __init__(self, source: Statement, node: ast.AST, prefix: str) -> None:
        for slot in Statement.__slots__:
            setattr(self, slot, getattr(source, slot))
        self.node, self._identifiers = node, None
        self._source, self._prefix = source, prefix
        self.heads = [self._atom(a) for a in source.heads]
        self._reads, self._body_read = [], False

    def _atom(self, atom: Atom) -> Atom:
        return atom if atom.name.startswith("-") else atom._replace(name=self._prefix + atom.name)

    def _body(self) -> None:
        if not self._body_read:
            self._body_read = True
            source = self._source
            self._reads = [r._replace(atom=self._atom(r.atom), guards=tuple(self._atom(g) for g in r.guards))
                           for r in source.reads]
            self._comparisons, self._pooled, self._unsupported = source.comparisons, source.pooled, source.unsupported
