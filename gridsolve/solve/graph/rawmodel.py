"""clingo's model read as raw 64-bit symbols: every shown atom in one call, then one call an
atom for its arguments (the public Symbol API costs a Python object per symbol).  Equal terms
are one symbol in clingo, so equal raw symbols are equal terms."""
from __future__ import annotations

import clingo

try:        # clingo's own C bindings: the graph is read without a Python object per atom
    from clingo._internal import _ffi, _lib
except ImportError:     # pragma: no cover - other clingo builds read it through the public API
    _ffi = _lib = None

NUMBER_TAG = 1 << 48     # clingo's 64-bit symbol of a number: this tag, the int32 in the low bits
FUNCTION_TAG = 5        # ... and of a function term (a position term s(...)): this tag in the top 16 bits


def model_arguments(ctl: clingo.Control) -> list[tuple[int, ...]]:
    """The arguments of every shown atom of ``ctl``'s one (choice-free) model, as raw clingo
    symbols (``clingo.symbol.Symbol(rep)`` is the term): every atom in one call, then one call
    an atom for its arguments (the public Symbol API costs a Python object per symbol)."""
    out: list[tuple[int, ...]] = []
    if _lib is None:
        ctl.solve(on_model=lambda model: out.extend(tuple(a._rep for a in sym.arguments)
                                                    for sym in model.symbols(shown=True)))
        return out
    found = []

    def on_model(model):
        size = _ffi.new("size_t*")
        _lib.clingo_model_symbols_size(model._rep, _lib.clingo_show_type_shown, size)
        buffer = _ffi.new("clingo_symbol_t[]", size[0])
        _lib.clingo_model_symbols(model._rep, _lib.clingo_show_type_shown, buffer, size[0])
        found.append(buffer)
    ctl.solve(on_model=on_model)
    argv, size, f_args = _ffi.new("clingo_symbol_t**"), _ffi.new("size_t*"), _lib.clingo_symbol_arguments
    for rep in found[0] if found else ():
        f_args(rep, argv, size)
        out.append(tuple(argv[0][0:size[0]]))
    return out
