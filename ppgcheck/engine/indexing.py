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

import clingo.ast as ast
from clingo.ast import ASTType

from ppgcheck.contract import INDEX_PREDICATE, INDEX_VARIABLE, INPUTS, SWITCHES
from ppgcheck.errors import PolicyError
from ppgcheck.packs.pack import Pack
from ppgcheck.packs.program import (Program, Signature, Statement, UnsupportedConstruct, as_program, reachable,
                                     term_signature)

__all__ = ["INDEX_VARIABLE", "UnsupportedConstruct", "dependent_signatures", "index_pack", "index_program",
           "unneeded_statements"]


def index_pack(pack: Pack, statements: Program | None = None) -> tuple[list, set]:
    """The one contract check: the pack's runtime program (or `statements`, an instrumented
    copy of it) rewritten to rule a batch of reports in one grounding, with the signatures
    that carry the report's index.  What the rewrite cannot read (a choice or disjunctive
    head, a `#show` term, a `#minimize`, a classically negated atom, the reserved names) is
    an error at its file:line."""
    for path in pack.runtime_files:
        if INDEX_VARIABLE in pack.text(path):
            raise PolicyError(f"policy file `{path}` uses the reserved variable `{INDEX_VARIABLE}`")
    program = statements if statements is not None else pack.parsed(pack.runtime_files, order="files")
    try:
        return index_program(program, INPUTS, SWITCHES)
    except UnsupportedConstruct as exc:
        raise UnsupportedConstruct(f"policy `{pack.id}` uses a construct ppgcheck cannot batch: "
                                   f"{exc.message}", exc.file, exc.line) from None


def _rule_signatures(rule: Statement) -> tuple[set[Signature], set[Signature]]:
    """(the predicates a rule defines, those it reads): the rewrite keeps a rule
    with one plain head (or none: a constraint) over literals and #count/#sum
    aggregates, its predicates written out (no classical negation)."""
    if rule.unsupported:
        raise rule.unsupported
    if rule.head_form not in ("atom", "constraint") or rule.head_sign != ast.Sign.NoSign:
        raise UnsupportedConstruct.at(rule.node.head, "head")
    if any(r.where not in ("body", "aggregate") for r in rule.reads):
        raise UnsupportedConstruct.at(rule.node, "body literal in")
    if any(a.name.startswith("-") for a in [*rule.heads, *(r.atom for r in rule.reads)]):
        raise UnsupportedConstruct.at(rule.node, "classically negated atom in")
    return {a.signature for a in rule.heads}, {r.atom.signature for r in rule.reads}


def _rules(program: Program) -> list[tuple[Statement, set[Signature], set[Signature]]]:
    return [(st, *_rule_signatures(st)) for st in program.statements if st.kind is ASTType.Rule]


def dependent_signatures(statements: Program | list[ast.AST], inputs: set[Signature]) -> set[Signature]:
    """The predicates whose atoms can change with a report's input facts."""
    edges: dict[Signature, set[Signature]] = {}
    for _, heads, reads in _rules(as_program(statements)):
        for read in reads:
            edges.setdefault(read, set()).update(heads)
    return reachable(inputs, edges)


class _Indexer:
    def __init__(self, dependent: set[Signature]) -> None:
        self.dependent = dependent

    def _index_term(self, term: ast.AST) -> ast.AST:
        if term_signature(term) not in self.dependent:
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

    def rule(self, statement: Statement, heads: set[Signature], reads: set[Signature]) -> ast.AST:
        rule = statement.node
        if not (heads | reads) & self.dependent:
            return rule
        location = rule.location
        guard = ast.Literal(location, ast.Sign.NoSign, ast.SymbolicAtom(
            ast.Function(location, INDEX_PREDICATE, [ast.Variable(location, INDEX_VARIABLE)], 0)))
        head = rule.head.update(atom=self.atom(rule.head.atom)) if statement.heads else rule.head
        return rule.update(head=head, body=[guard, *(self.literal(lit) for lit in rule.body)])

    def signature(self, statement: ast.AST) -> ast.AST:
        if (statement.name, statement.arity) in self.dependent:
            return statement.update(arity=statement.arity + 1)
        return statement


def index_program(statements: Program | list[ast.AST], inputs: set[Signature],
                  switches: frozenset[Signature] = frozenset()) -> tuple[list[ast.AST], set[Signature]]:
    """The rewritten statements (comments dropped) and the set of indexed signatures.
    A switch is an `#external` set from Python after grounding (core's `explore`): it
    becomes one external per report, `#external explore(R) : report_index(R).`"""
    program = as_program(statements)
    rules = {id(st): (st, heads, reads) for st, heads, reads in _rules(program)}
    dependent = dependent_signatures(program, inputs | switches)
    names = {sig for _, heads, _ in rules.values() for sig in heads}
    for name, arity in dependent:
        if (name, arity + 1) in names - dependent:   # the indexed atom would read as the other predicate
            raise UnsupportedConstruct(f"`{name}/{arity}` and `{name}/{arity + 1}` both exist")
    if (INDEX_PREDICATE, 1) in names:
        raise UnsupportedConstruct(f"the predicate `{INDEX_PREDICATE}/1` is reserved")
    indexer = _Indexer(dependent)
    out: list[ast.AST] = []
    for statement in program.statements:
        kind, node = statement.kind, statement.node
        if kind is ASTType.Comment:
            continue
        if kind is ASTType.Rule:
            out.append(indexer.rule(*rules[id(statement)]))
        elif kind in (ASTType.ShowSignature, ASTType.Defined):
            out.append(indexer.signature(node))
        elif kind in (ASTType.Program, ASTType.Definition):
            out.append(node)
        elif kind is ASTType.External and not node.body and _signatures(statement) <= switches:
            location = node.location
            guard = ast.Literal(location, ast.Sign.NoSign, ast.SymbolicAtom(
                ast.Function(location, INDEX_PREDICATE, [ast.Variable(location, INDEX_VARIABLE)], 0)))
            out.append(node.update(atom=indexer.atom(node.atom), body=[guard]))
        elif kind is ASTType.External and not node.body and not _signatures(statement) & dependent:
            out.append(node)
        else:
            raise UnsupportedConstruct.at(node, "statement")
    return out, dependent


def unneeded_statements(statements: Program | list[ast.AST]) -> set[int]:
    """The places, among the statements that are not comments, of the facts and
    positive rules whose atoms no shown atom, constraint or other rule needs: the
    vocabulary's forms and the tables derived from them, which Python reads when the
    pack is prepared.  Dropped from the program a ruling grounds, they change no shown
    atom, nor the number of answer sets: a rule without `not` or an aggregate adds
    exactly one way to extend an answer set (the splitting set theorem).  Every
    other statement stays, and so does what it reads."""
    program = as_program(statements)
    droppable: dict[int, set[Signature]] = {}
    needed: set[Signature] = set()
    edges: dict[Signature, set[Signature]] = {}
    place = 0
    for statement in program.statements:
        kind, node = statement.kind, statement.node
        if kind is ASTType.Comment:
            continue
        if kind is ASTType.ShowSignature:
            needed.add((node.name, node.arity))
        elif kind is ASTType.Rule:
            reads = {r.atom.signature for r in statement.reads}
            heads = {a.signature for a in statement.heads}
            if (statement.head_form == "atom" and heads
                    and all(r.positive and r.where == "body" for r in statement.reads)):
                droppable[place] = heads
                for head in heads:
                    edges.setdefault(head, set()).update(reads)
            else:
                needed |= reads | heads
        elif kind is ASTType.External:
            needed |= {r.atom.signature for r in statement.reads} | {a.signature for a in statement.heads}
        place += 1
    needed = reachable(needed, edges)
    return {at for at, heads in droppable.items() if not heads & needed}


def _signatures(external: Statement) -> set[Signature]:
    """The predicates an `#external` declares (its atom written out, or a pool's alternatives)."""
    if external.unsupported or any(a.name.startswith("-") for a in external.heads):
        raise UnsupportedConstruct.at(external.node, "external")
    return {a.signature for a in external.heads}
