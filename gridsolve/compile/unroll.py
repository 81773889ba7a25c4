"""Instantiate parameterised ``#program`` parts of an encoding as plain, single-shot ASP text.

gringo evaluates a program completely while grounding only when it is stratified.  A level
``d`` kept as a variable (``won_in(K,S,D)``, ``not won_in(K,S,E) : E = 0..D-1``) makes a cycle
through negation; the same rules with ``d`` replaced by a number, and the range conditions
spelled out literal by literal, are stratified level by level.  This module does exactly that
rewriting with clingo's own parser, so the encodings stay ordinary, readable ASP:

* the part's parameters are replaced by the given integers;
* a conditional literal ``L : V = A..B`` (A, B evaluable integers) becomes the literals
  ``L[V/A], ..., L[V/B]``;
* an aggregate element ``T : C1, ..., V = A..B`` becomes one element per value of V.

The rewritten program has the same answer sets as the original; it only grounds faster.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import clingo
from clingo import ast

from ..errors import EncodingError

_OPS = {
    ast.BinaryOperator.Plus: lambda a, b: a + b,
    ast.BinaryOperator.Minus: lambda a, b: a - b,
    ast.BinaryOperator.Multiplication: lambda a, b: a * b,
}


def _value(term, params: dict[str, int] | None = None) -> int | None:
    """Integer value of an arithmetic term over numbers and the part's parameters, or None."""
    if term.ast_type == ast.ASTType.SymbolicTerm:
        sym = term.symbol
        if sym.type == clingo.SymbolType.Number:
            return sym.number
        if params and sym.type == clingo.SymbolType.Function and not sym.arguments:
            return params.get(sym.name)
        return None
    if term.ast_type == ast.ASTType.UnaryOperation and term.operator_type == ast.UnaryOperator.Minus:
        inner = _value(term.argument, params)
        return None if inner is None else -inner
    if term.ast_type == ast.ASTType.BinaryOperation and term.operator_type in _OPS:
        left, right = _value(term.left, params), _value(term.right, params)
        if left is not None and right is not None:
            return _OPS[term.operator_type](left, right)
    return None


def _range_condition(lit, params: dict[str, int]):
    """(variable name, low term, high term) if ``lit`` is ``V = A..B`` with bounds over the
    parameters ``params`` (any values will do: they only show the bounds are evaluable)."""
    if lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign:
        return None
    atom = lit.atom
    if atom.ast_type != ast.ASTType.Comparison or len(atom.guards) != 1:
        return None
    guard = atom.guards[0]
    if atom.term.ast_type != ast.ASTType.Variable or guard.comparison != ast.ComparisonOperator.Equal:
        return None
    if guard.term.ast_type != ast.ASTType.Interval:
        return None
    low, high = guard.term.left, guard.term.right
    if _value(low, params) is None or _value(high, params) is None:
        return None
    return atom.term.name, low, high


class _Rename(ast.Transformer):
    """Replace variables by constants (the sentinels that rendering fills in)."""

    def __init__(self, variables: dict[str, str]):
        self.variables = variables

    def visit_Variable(self, node):
        if node.name in self.variables:
            return ast.SymbolicTerm(node.location, clingo.Function(self.variables[node.name]))
        return node


@dataclass
class _Range:
    marker: str           # the constant standing for the expansion in the template text
    sentinel: str         # the constant standing for the range variable in ``text``
    text: str             # one copy of the literal or aggregate element
    joiner: str           # ", " between literals, "; " between aggregate elements
    low: object           # bound terms, evaluated with the parameters
    high: object


class _Unroll(ast.Transformer):
    """Replace range-conditioned literals and aggregate elements by markers, recording them."""

    def __init__(self, params: dict[str, int]):
        self.params = params
        self.ranges: list[_Range] = []

    def _record(self, node, name, low, high, joiner) -> str:
        index = len(self.ranges)
        marker, sentinel = f"gsunroll_{index}", f"gsvar_{index}"
        text = str(_Rename({name: sentinel})(node))
        self.ranges.append(_Range(marker, sentinel, text, joiner, low, high))
        return marker

    def visit_Rule(self, node):
        body = [self._body_element(element) for element in node.body]
        return node.update(body=body)

    def _body_element(self, element):
        if element.ast_type == ast.ASTType.ConditionalLiteral and len(element.condition) == 1:
            spec = _range_condition(element.condition[0], self.params)
            if spec is not None:
                marker = self._record(element.literal, *spec, ", ")
                atom = ast.SymbolicAtom(ast.SymbolicTerm(element.location, clingo.Function(marker)))
                return ast.Literal(element.location, ast.Sign.NoSign, atom)
        if element.ast_type == ast.ASTType.Literal and element.atom.ast_type == ast.ASTType.BodyAggregate:
            atom = element.atom
            items = [self._aggregate_element(item) for item in atom.elements]
            return element.update(atom=atom.update(elements=items))
        return element

    def _aggregate_element(self, item):
        for index, lit in enumerate(item.condition):
            spec = _range_condition(lit, self.params)
            if spec is None:
                continue
            rest = list(item.condition[:index]) + list(item.condition[index + 1:])
            marker = self._record(item.update(condition=rest), *spec, "; ")
            return item.update(terms=[ast.SymbolicTerm(item.location, clingo.Function(marker))], condition=[])
        return item


_FOLD = re.compile(r"\((-?\d+)([+-])(\d+)\)")


def _fold(text: str) -> str:
    """``won_in(K,S,(3-1))`` -> ``won_in(K,S,2)``: fold the parameter arithmetic for readability."""
    def repl(match):
        left, op, right = int(match.group(1)), match.group(2), int(match.group(3))
        return str(left + right if op == "+" else left - right)
    previous = None
    while previous != text:
        previous, text = text, _FOLD.sub(repl, text)
    return text


@dataclass
class _Template:
    names: tuple[str, ...]
    text: str
    ranges: list[_Range]

    def render(self, values: tuple[int, ...]) -> str:
        params = {f"gsparam_{name}": value for name, value in zip(self.names, values)}
        text = self.text
        for name, value in params.items():
            text = text.replace(name, str(value))
        for rng in self.ranges:
            low, high = _value(rng.low, params), _value(rng.high, params)
            copies = [rng.text.replace(rng.sentinel, str(v)) for v in range(low, high + 1)]
            for name, value in params.items():
                copies = [c.replace(name, str(value)) for c in copies]
            expansion = rng.joiner.join(copies)
            if not expansion:   # an empty range: no literal, or no aggregate element
                expansion = "#true" if rng.joiner == ", " else ""
            text = text.replace(rng.marker, expansion)
        return _fold(text)


@lru_cache(maxsize=64)
def parse_parts(text: str, origin: str) -> dict[str, tuple[tuple[str, ...], tuple]]:
    """Split an encoding into its ``#program`` parts: name -> (parameters, statements)."""
    parts: dict[str, list] = {"base": []}
    params: dict[str, tuple[str, ...]] = {"base": ()}
    current = ["base"]

    def add(stm):
        if stm.ast_type == ast.ASTType.Program:
            current[0] = stm.name
            params[stm.name] = tuple(p.name for p in stm.parameters)
            parts.setdefault(stm.name, [])
            return
        parts[current[0]].append(stm)

    try:
        ast.parse_string(text, add)
    except RuntimeError as exc:
        raise EncodingError(f"{origin}: cannot parse encoding: {exc}") from exc
    return {name: (params[name], tuple(stms)) for name, stms in parts.items()}


class _Sentinels(ast.Transformer):
    """Replace the part's parameter constants by sentinel constants."""

    def __init__(self, names):
        self.names = set(names)

    def visit_SymbolicTerm(self, node):
        sym = node.symbol
        if sym.type == clingo.SymbolType.Function and not sym.arguments and sym.name in self.names:
            return ast.SymbolicTerm(node.location, clingo.Function(f"gsparam_{sym.name}"))
        return node


@lru_cache(maxsize=64)
def _template(text: str, origin: str, part: str) -> _Template:
    parts = parse_parts(text, origin)
    if part not in parts:
        raise EncodingError(f"{origin}: no #program {part}")
    names, statements = parts[part]
    sentinels = _Sentinels(names)
    unroll = _Unroll({f"gsparam_{name}": 1 for name in names})
    lines = [str(unroll(sentinels(stm))) for stm in statements]
    return _Template(names, "\n".join(lines), unroll.ranges)


def instantiate(text: str, origin: str, part: str, values: tuple[int, ...]) -> str:
    """Plain ASP text of ``#program part(params)`` with the parameters set to ``values``."""
    template = _template(text, origin, part)
    if len(template.names) != len(values):
        raise EncodingError(f"{origin}: #program {part} takes {len(template.names)} parameters")
    return template.render(tuple(values))


class Instances(Sequence):
    """The texts of a part for i = 0..count-1 (``render(i)``), each rendered when first read: the
    solver reads only the parts it grounds (the levels up to the fixpoint, the line up to its
    end), ``Program.text`` all of them."""

    def __init__(self, render: Callable[[int], str], count: int):
        self._render, self._count, self._texts = render, count, {}

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        if index not in self._texts:
            self._texts[index] = self._render(index)
        return self._texts[index]
