"""Teleporter pairs: a mark with exactly two cells is a pair; a listed role's piece whose move
leaves its cell and ends on one of the two is put on the other, in the same ply
(``teleporters: {pairs: [MARK, ...], pieces: [ROLE, ...]}``; docs/rule-language.md,
"Teleporters")."""
