"""The part of a program some atoms depend on.

`needed_only` leaves out the rules whose predicates nothing shown, wanted,
constrained or minimised reads (predicates told apart by name).  `Slicer`
tells the rules apart by the constants their atoms name too: the rules
deriving penalty(_, _, sleeves, _) are not those deriving
penalty(_, _, sleeves_c3, _) when their heads name the infraction.  A
pattern is an atom's predicate and arguments, each argument a symbol, ANY
(whatever value), or a function pattern (name, arguments).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

import clingo
from clingo import ast

from ppgcheck.packs.program import Program, Term, as_program, compile_term, ground_facts, reachable

ANY = None


def needed_only(program: Program | list[ast.AST], wanted: set[str]) -> Program:
    """The statements less the rules (and externals) whose predicates nothing
    needs.  A predicate is needed when it is wanted, read by a constraint,
    show, minimize or heuristic statement, or read by a rule defining a needed
    predicate (by name, any identifier of the rule counting as read).  The
    rules left out cannot change the rest (pack rules are stratified and never
    reject input), and leaving them out makes the program smaller to ground
    and to search."""
    statements = as_program(program).statements
    defines = [st.defined_names() if st.kind in (ast.ASTType.Rule, ast.ASTType.External) else set()
               for st in statements]
    edges: dict[str, set[str]] = {}
    start = set(wanted)
    for st, names in zip(statements, defines):
        if not names:
            start |= st.identifiers()
        for name in names:
            edges.setdefault(name, set()).update(st.identifiers())
    needed = reachable(start, edges)
    return Program.of([st for st, names in zip(statements, defines) if not names or names & needed])


def statement_parts(program: Program | list[ast.AST], values: dict[str, Term] | None = None
                    ) -> list[tuple[list, list, bool]] | None:
    """(head atoms defined, atoms read, whether it holds a pool) of each
    statement as (predicate, compiled arguments, a `#const` name as its value:
    `values`, else the program's own); None when some atom is of a form the
    slicer cannot read."""
    statements = as_program(program).statements
    if any(st.unsupported for st in statements):
        return None
    values = constants(statements) if values is None else values

    def atoms(found) -> list:
        return [(a.name, tuple(with_constants(t, values) for t in a.args)) for a in found]
    return [(atoms(st.heads), atoms(st.read_atoms()), st.pooled) for st in statements]


def constants(statements) -> dict[str, Term]:
    """The value of each `#const` name, compiled."""
    return {st.node.name: compile_term(st.node.value) for st in statements if st.kind == ast.ASTType.Definition}


def with_constants(term: Term, values: dict[str, Term]) -> Term:
    """The compiled term with each `#const` name as its value: a fact `p(upg40)` under
    `#const upg40 = "UPG 40".` is the atom the grounder derives, p("UPG 40")."""
    if not values:
        return term
    tag = term[0]
    if tag == "s" and term[1].type == clingo.SymbolType.Function and not term[1].arguments:
        return values.get(term[1].name, term)
    if tag == "f":
        if not term[2] and term[1] in values:
            return values[term[1]]
        return ("f", term[1], tuple(with_constants(a, values) for a in term[2]))
    return term


def _term_pattern(term: Term, binding: dict):
    """The pattern of a compiled term under a binding of its variables (unbound: ANY)."""
    tag = term[0]
    if tag == "v":
        return binding.get(term[1], ANY)
    if tag == "s":
        return term[1]
    if tag == "f":
        args = tuple(_term_pattern(a, binding) for a in term[2])
        if all(isinstance(a, clingo.Symbol) for a in args):
            return clingo.Function(term[1], list(args))
        return (term[1], args)
    return ANY


def _unify(term: Term, pattern, binding: dict) -> bool:
    """Whether some instance of the compiled term can match pattern; binds its
    variables (in place) to the parts of pattern they stand for."""
    if pattern is ANY:
        return True
    tag = term[0]
    if tag == "v":
        old = binding.get(term[1], ANY)
        if old is ANY:
            binding[term[1]] = pattern
            return True
        return old == pattern or _compatible(old, pattern)
    if tag == "s":
        return _compatible(term[1], pattern)
    if tag == "f":
        name, args = _fn_pattern(pattern)
        if name is None or name != term[1] or len(args) != len(term[2]):
            return False
        return all(_unify(a, p, binding) for a, p in zip(term[2], args))
    return True


def _fn_pattern(pattern):
    if isinstance(pattern, tuple):
        return pattern
    if pattern.type == clingo.SymbolType.Function:
        return pattern.name, tuple(pattern.arguments)
    return None, ()


def _compatible(a, b) -> bool:
    """Whether two patterns have a common instance."""
    if a is ANY or b is ANY:
        return True
    if isinstance(a, clingo.Symbol) and isinstance(b, clingo.Symbol):
        return a == b
    (na, aa), (nb, ab) = _fn_pattern(a), _fn_pattern(b)
    return na is not None and na == nb and len(aa) == len(ab) and all(map(_compatible, aa, ab))


class Slicer:
    """Slices of one program (its statements read once): `rules(wanted)` is
    the statements less the rules no wanted atom depends on, told apart by
    predicate and by the constants of the atoms.  An atom wanted or read is a
    pattern, and a rule is kept when its head can match a needed pattern; what
    its body reads, with the head's variables bound to that pattern's values,
    is needed in turn.  A body atom of a predicate only facts define binds the
    rule's other variables to the values of the facts it matches (none: the
    rule cannot derive the pattern).  Statements defining nothing
    (constraints, #minimize, #show, #heuristic) are kept, and read every atom
    they mention, except those of the `ignore` types, which are left out
    (#minimize for a search that does not optimise).

    Every ground rule deriving a needed atom is an instance of a kept rule, and
    its body atoms are needed: the needed atoms are closed under dependencies,
    so they are true in an answer set of the slice exactly where they are in
    one of the program (the same scenario space: its inputs must be wanted).
    Atoms outside that closure may be missing or different in the slice."""

    EXPAND = 64     # at most this many bindings a rule is split into by its facts

    def __init__(self, program: Program | list[ast.AST], ignore: Iterable[ast.ASTType] = ()) -> None:
        program = as_program(program)
        self.program = program
        self.statements = program.nodes
        self.ignore = set(ignore)
        values = constants(program.statements)
        parts = statement_parts(program, values)
        self.whole = parts is None      # an atom it cannot read: no slicing
        self.parts = parts or [([], [], False) for _ in self.statements]
        self.by_head: dict[tuple[str, int], list[int]] = {}
        only_facts = self._index_heads()
        facts = ground_facts([st for st, (defined, *_) in zip(self.statements, self.parts)
                              if defined and all(only_facts[(n, len(a))] for n, a in defined)]
                             + [st for st in self.statements if st.ast_type == ast.ASTType.Definition])
        self.facts = {key: facts.get(key, []) for key, only in only_facts.items() if only}
        # the positive body atoms of each rule over predicates only facts define (or none defines)
        self.joins = [[(r.atom.name, tuple(with_constants(t, values) for t in r.atom.args)) for r in st.reads
                       if r.where == "body" and r.positive and not r.atom.pooled
                       and (r.atom.signature in self.facts or r.atom.signature not in self.by_head)]
                      if st.kind == ast.ASTType.Rule else [] for st in program.statements]
        self.always = [i for i, (st, (defined, *_)) in enumerate(zip(self.statements, self.parts))
                       if not defined and st.ast_type not in self.ignore]

    def _index_heads(self) -> dict[tuple[str, int], bool]:
        """Fills by_head; returns whether each predicate is defined by facts (of base) only."""
        only_facts: dict[tuple[str, int], bool] = {}
        program = "base"
        for i, (st, (defined, *_)) in enumerate(zip(self.statements, self.parts)):
            if st.ast_type == ast.ASTType.Program:
                program = st.name
            fact = (st.ast_type == ast.ASTType.Rule and not st.body and st.head.ast_type == ast.ASTType.Literal
                    and program == "base")
            for name, args in defined:
                key = (name, len(args))
                self.by_head.setdefault(key, []).append(i)
                only_facts[key] = only_facts.get(key, True) and fact
        return only_facts

    def _bindings(self, i: int, binding: dict) -> list[dict]:
        """The binding split by the facts the rule's fact atoms can match ([]: none)."""
        out = [binding]
        for name, args in self.joins[i]:
            nxt = []
            for b in out:
                for fact in self.facts.get((name, len(args)), ()):
                    b2 = dict(b)
                    if all(_unify(a, v, b2) for a, v in zip(args, fact.arguments)):
                        nxt.append(b2)
            if len(nxt) > self.EXPAND:
                return out
            out = nxt
            if not out:
                return []
        return out

    def closure(self, wanted: Iterable[tuple[str, tuple]], stop: Callable[[str, tuple], bool] | None = None,
                known: dict[tuple[str, int], set] | None = None
                ) -> tuple[set[int], dict[tuple[str, int], set]] | None:
        """(indices of the statements kept, the needed patterns by predicate);
        None as soon as a needed pattern meets `stop(name, arguments)`.  known:
        the needed patterns of earlier closures that did not stop, whose own
        needs are known not to (they are left out of this one)."""
        needed: dict[tuple[str, int], set] = {}
        todo: list[tuple[str, tuple]] = []
        stopped: list[bool] = []

        def need(name: str, args: tuple) -> None:
            key = (name, len(args))
            if known and (args in known.get(key, ()) or (ANY,) * len(args) in known.get(key, ())):
                return
            if stop is not None and stop(name, args):
                stopped.append(True)
            have = needed.setdefault(key, set())
            if args in have or (ANY,) * len(args) in have:
                return
            if all(a is ANY for a in args):
                have.clear()
            have.add(args)
            todo.append((name, args))

        for name, args in wanted:
            need(name, tuple(args))
        kept: set[int] = set(self.always)
        for i in self.always:
            for name, args in self.parts[i][1]:
                need(name, tuple(_term_pattern(a, {}) for a in args))
        while todo and not stopped:
            name, pattern = todo.pop()
            for i in self.by_head.get((name, len(pattern)), []):
                for hname, hargs in self.parts[i][0]:
                    if hname != name or len(hargs) != len(pattern):
                        continue
                    binding: dict = {}
                    if not all(_unify(a, p, binding) for a, p in zip(hargs, pattern)):
                        continue
                    for b in self._bindings(i, binding):
                        kept.add(i)
                        for rname, rargs in self.parts[i][1]:
                            need(rname, tuple(_term_pattern(a, b) for a in rargs))
        return None if stopped else (kept, needed)

    def rules(self, wanted: Iterable[tuple[str, tuple]]) -> Program:
        statements = self.program.statements
        if self.whole:
            return Program.of([st for st in statements if st.kind not in self.ignore])
        kept, _ = self.closure(wanted)  # (no stop: never None)
        keep = (ast.ASTType.Program, ast.ASTType.Definition, ast.ASTType.Defined, ast.ASTType.ShowSignature)
        return Program.of([st for i, st in enumerate(statements)
                           if i in kept or (st.kind in keep and st.kind not in self.ignore)])


def sliced(program: Program | list[ast.AST], wanted: Iterable[tuple[str, tuple]],
           ignore: Iterable[ast.ASTType] = ()) -> Program:
    """Slicer(program, ignore).rules(wanted): the rules wanted atoms depend on."""
    return Slicer(program, ignore).rules(wanted)
