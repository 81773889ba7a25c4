"""Cells as bits of words in the position term: 30 to a word (clingo's integers are 32-bit)."""
from __future__ import annotations

from ..language.model import Cell

WORD_BITS = 30
NO_ITEM = 1 << WORD_BITS        # the "bit" of a cell without an item: never set in any word


class BitCells:
    """Cells numbered in ``cells`` order, 30 to a bit word."""

    cells: tuple[Cell, ...]

    @property
    def words(self) -> int:
        return max(1, -(-len(self.cells) // WORD_BITS))

    def bit(self, cell: Cell) -> tuple[int, int] | None:
        """(word, bit value) of ``cell``, None if it is not one of the cells."""
        if cell not in self.cells:
            return None
        index = self.cells.index(cell)
        return index // WORD_BITS, 1 << (index % WORD_BITS)

    def pack(self, cells) -> list[int]:
        """The bit words with the bits of ``cells`` (those among the cells) set."""
        words = [0] * self.words
        for cell in cells:
            found = self.bit(cell)
            if found:
                words[found[0]] |= found[1]
        return words

    def unpack(self, words) -> frozenset:
        return frozenset(c for c in self.cells if words[self.bit(c)[0]] & self.bit(c)[1])
