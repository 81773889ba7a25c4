"""clingo's model read as raw 64-bit symbols: every shown atom in one call, then one call an
atom for its arguments (the public Symbol API costs a Python object per symbol).  Equal terms
are one symbol in clingo, so equal raw symbols are equal terms.

The fast reader calls clingo's C bindings (``clingo._internal``), which clingo does not
promise to keep: :data:`FAST` holds them only where they are there and read what the public
API reads (checked once, at import, on a tiny program); else it is None and every reader of
raw symbols (here, :mod:`gridsolve.solve.graph.racegraph`, the generator's start graph) reads
them through the public API, with the same results.  pyproject.toml bounds clingo to the
versions the fast reader is tested with (tests/test_rawmodel.py runs both readers)."""
from __future__ import annotations

from typing import NamedTuple

import clingo

NUMBER_TAG = 1 << 48     # clingo's 64-bit symbol of a number: this tag, the int32 in the low bits
FUNCTION_TAG = 5        # ... and of a function term (a position term s(...)): this tag in the top 16 bits
NEEDED = ("clingo_model_symbols_size", "clingo_model_symbols", "clingo_symbol_arguments",
          "clingo_show_type_shown", "clingo_show_type_atoms")


class Internals(NamedTuple):
    """clingo's C bindings: the cffi module (``ffi``) and the library (``lib``)."""
    ffi: object
    lib: object


def checked(ffi, lib) -> Internals | None:
    """``Internals(ffi, lib)`` where ``lib`` has every function this reader calls, symbols have
    the layout it decodes and its reading of a tiny program equals the public API's; else None."""
    try:
        if not all(hasattr(lib, name) for name in NEEDED):
            return None
        if clingo.Number(-3)._rep != NUMBER_TAG | 0xFFFFFFFD or \
                clingo.Function("s", [clingo.Number(1)])._rep >> 48 != FUNCTION_TAG:
            return None
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], "p(s(1,2),-3). p(a,\"b\").")
        ctl.ground([("base", [])])
        public = sorted(tuple(a._rep for a in atom.symbol.arguments) for atom in ctl.symbolic_atoms)
        return Internals(ffi, lib) if sorted(_fast_arguments(ctl, ffi, lib)) == public else None
    except (AttributeError, TypeError, ValueError, RuntimeError):
        return None


def _internals() -> Internals | None:
    try:
        from clingo._internal import _ffi, _lib
    except ImportError:
        return None
    return checked(_ffi, _lib)


def model_arguments(ctl: clingo.Control) -> list[tuple[int, ...]]:
    """The arguments of every shown atom of ``ctl``'s one (choice-free) model, as raw clingo
    symbols (``clingo.symbol.Symbol(rep)`` is the term): every atom in one call, then one call
    an atom for its arguments (the public Symbol API costs a Python object per symbol)."""
    if FAST is None:
        out: list[tuple[int, ...]] = []
        ctl.solve(on_model=lambda model: out.extend(tuple(a._rep for a in sym.arguments)
                                                    for sym in model.symbols(shown=True)))
        return out
    return _fast_arguments(ctl, FAST.ffi, FAST.lib)


def _fast_arguments(ctl: clingo.Control, ffi, lib) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    found = []

    def on_model(model):
        size = ffi.new("size_t*")
        lib.clingo_model_symbols_size(model._rep, lib.clingo_show_type_shown, size)
        buffer = ffi.new("clingo_symbol_t[]", size[0])
        lib.clingo_model_symbols(model._rep, lib.clingo_show_type_shown, buffer, size[0])
        found.append(buffer)
    ctl.solve(on_model=on_model)
    argv, size, f_args = ffi.new("clingo_symbol_t**"), ffi.new("size_t*"), lib.clingo_symbol_arguments
    for rep in found[0] if found else ():
        f_args(rep, argv, size)
        out.append(tuple(argv[0][0:size[0]]))
    return out


FAST = _internals()
