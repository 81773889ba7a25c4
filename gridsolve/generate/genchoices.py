"""The choices of ``gridsolve generate``'s options, importable without loading the generator
(the command line reads them when it starts)."""

REQUIREMENTS = ("win", "survive", "lose")
METHODS = ("auto", "asp", "loop")
SYMMETRIES = ("mirror", "turn")
