"""Rewrite a parsed policy so one grounding rules many reports.

Every predicate that depends on a report's input facts (directly or through
other rules) gets the report's index as a new first argument, and every rule
deriving one is restricted to the indexed reports:

    committed(O, P, I) :- infraction(O, P, I), not superseded(O, P, I).
 -> committed(R, O, P, I) :- report_index(R), infraction(R, O, P, I), not superseded(R, O, P, I).

Predicates that depend on no input (ladders, citations, vocabulary tables)
are left as they are, so they are grounded once for all the reports.  The
reports cannot see each other: every input-dependent atom carries its own
report's index.  Python only rewrites the program's shape here; what the
rules decide is unchanged (tests/test_indexing.py rules every golden report
both ways).
"""
from __future__ import annotations

from collections.abc import Iterable

import clingo
import clingo.ast as ast
from clingo.ast import ASTType

from ppgcheck.language.facts import INDEX_PREDICATE

INDEX_VARIABLE = "PpgReportIndex"

Signature = tuple[str, int]


class UnsupportedConstruct(Exception):
    """The policy uses a construct the rewrite does not handle (the pack contract excludes it)."""


def _atom_terms(atom: ast.AST) -> list[ast.AST]:
    term = atom.symbol
    if term.ast_type is ASTType.Pool:
        return list(term.arguments)
    return [term]


def _term_signature(term: ast.AST) -> Signature:
    if term.ast_type is ASTType.Function:
        return term.name, len(term.arguments)
    if term.ast_type is ASTType.SymbolicTerm and term.symbol.type is clingo.SymbolType.Function:
        return term.symbol.name, len(term.symbol.arguments)
    raise UnsupportedConstruct(f"atom `{term}`")


def _atom_signatures(atom: ast.AST) -> list[Signature]:
    return [_term_signature(t) for t in _atom_terms(atom)]


def _body_atoms(literal: ast.AST) -> Iterable[ast.AST]:
    """The symbolic atoms a body literal (or aggregate) reads."""
    kind = literal.ast_type
    if kind is ASTType.Literal:
        if literal.atom.ast_type is ASTType.SymbolicAtom:
            yield literal.atom
        elif literal.atom.ast_type is ASTType.BodyAggregate:
            for element in literal.atom.elements:
                for condition in element.condition:
                    yield from _body_atoms(condition)
        elif literal.atom.ast_type not in (ASTType.Comparison, ASTType.BooleanConstant):
            raise UnsupportedConstruct(f"body literal `{literal}`")
    else:
        raise UnsupportedConstruct(f"body literal `{literal}`")


def _head_atoms(rule: ast.AST) -> list[ast.AST]:
    head = rule.head
    if head.ast_type is ASTType.Literal:
        if head.atom.ast_type is ASTType.SymbolicAtom:
            if head.sign != ast.Sign.NoSign:
                raise UnsupportedConstruct(f"head `{head}`")
            return [head.atom]
        if head.atom.ast_type is ASTType.BooleanConstant:
            return []            # an integrity constraint
    raise UnsupportedConstruct(f"head `{head}`")


def dependent_signatures(statements: list[ast.AST], inputs: set[Signature]) -> set[Signature]:
    """The predicates whose atoms can change with a report's input facts."""
    edges: list[tuple[set[Signature], set[Signature]]] = []
    for statement in statements:
        if statement.ast_type is ASTType.Rule:
            heads = {sig for atom in _head_atoms(statement) for sig in _atom_signatures(atom)}
            reads = {sig for lit in statement.body for atom in _body_atoms(lit)
                     for sig in _atom_signatures(atom)}
            edges.append((heads, reads))
    dependent = set(inputs)
    changed = True
    while changed:
        changed = False
        for heads, reads in edges:
            if not heads <= dependent and reads & dependent:
                dependent |= heads
                changed = True
    return dependent


class _Indexer:
    def __init__(self, dependent: set[Signature]) -> None:
        self.dependent = dependent

    def _index_term(self, term: ast.AST) -> ast.AST:
        if _term_signature(term) not in self.dependent:
            return term
        variable = ast.Variable(term.location, INDEX_VARIABLE)
        if term.ast_type is ASTType.SymbolicTerm:   # a constant `p` written without arguments
            return ast.Function(term.location, term.symbol.name, [variable], 0)
        return term.update(arguments=[variable, *term.arguments])

    def atom(self, atom: ast.AST) -> ast.AST:
        term = atom.symbol
        if term.ast_type is ASTType.Pool:
            return atom.update(symbol=term.update(arguments=[self._index_term(t) for t in term.arguments]))
        return atom.update(symbol=self._index_term(term))

    def literal(self, literal: ast.AST) -> ast.AST:
        inner = literal.atom
        if inner.ast_type is ASTType.SymbolicAtom:
            return literal.update(atom=self.atom(inner))
        if inner.ast_type is ASTType.BodyAggregate:
            elements = [e.update(condition=[self.literal(c) for c in e.condition]) for e in inner.elements]
            return literal.update(atom=inner.update(elements=elements))
        return literal

    def rule(self, rule: ast.AST) -> ast.AST:
        heads = _head_atoms(rule)
        touches = any(sig in self.dependent for atom in heads for sig in _atom_signatures(atom)) or any(
            sig in self.dependent for lit in rule.body for atom in _body_atoms(lit)
            for sig in _atom_signatures(atom))
        if not touches:
            return rule
        location = rule.location
        guard = ast.Literal(location, ast.Sign.NoSign, ast.SymbolicAtom(
            ast.Function(location, INDEX_PREDICATE, [ast.Variable(location, INDEX_VARIABLE)], 0)))
        head = rule.head.update(atom=self.atom(rule.head.atom)) if heads else rule.head
        return rule.update(head=head, body=[guard, *(self.literal(lit) for lit in rule.body)])

    def signature(self, statement: ast.AST) -> ast.AST:
        if (statement.name, statement.arity) in self.dependent:
            return statement.update(arity=statement.arity + 1)
        return statement


def index_program(statements: list[ast.AST], inputs: set[Signature],
                  switches: frozenset[Signature] = frozenset()) -> tuple[list[ast.AST], set[Signature]]:
    """The rewritten statements (comments dropped) and the set of indexed signatures.
    A switch is an `#external` set from Python after grounding (core's `explore`): it
    becomes one external per report, `#external explore(R) : report_index(R).`"""
    dependent = dependent_signatures(statements, inputs | switches)
    names = {sig for st in statements if st.ast_type is ASTType.Rule
             for atom in _head_atoms(st) for sig in _atom_signatures(atom)}
    for name, arity in dependent:
        if (name, arity + 1) in names - dependent:   # the indexed atom would read as the other predicate
            raise UnsupportedConstruct(f"`{name}/{arity}` and `{name}/{arity + 1}` both exist")
    if (INDEX_PREDICATE, 1) in names:
        raise UnsupportedConstruct(f"the predicate `{INDEX_PREDICATE}/1` is reserved")
    indexer = _Indexer(dependent)
    out: list[ast.AST] = []
    for statement in statements:
        kind = statement.ast_type
        if kind is ASTType.Comment:
            continue
        if kind is ASTType.Rule:
            out.append(indexer.rule(statement))
        elif kind in (ASTType.ShowSignature, ASTType.Defined):
            out.append(indexer.signature(statement))
        elif kind in (ASTType.Program, ASTType.Definition):
            out.append(statement)
        elif kind is ASTType.External and not statement.body and set(_atom_signatures(statement.atom)) <= switches:
            location = statement.location
            guard = ast.Literal(location, ast.Sign.NoSign, ast.SymbolicAtom(
                ast.Function(location, INDEX_PREDICATE, [ast.Variable(location, INDEX_VARIABLE)], 0)))
            out.append(statement.update(atom=indexer.atom(statement.atom), body=[guard]))
        elif kind is ASTType.External and not statement.body and not (
                set(_atom_signatures(statement.atom)) & dependent):
            out.append(statement)
        else:
            raise UnsupportedConstruct(f"statement `{statement}`")
    return out, dependent
