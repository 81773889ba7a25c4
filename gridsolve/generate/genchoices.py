"""The choices of ``gridsolve generate``'s options, importable without loading the generator
(the command line reads them when it starts)."""

from ..language.kinds import RequireKind

REQUIREMENTS = tuple(kind.value for kind in RequireKind)   # the words --require accepts
DIFFICULTIES = ("easy", "medium", "hard")       # --difficulty (gridsolve/analysis/metrics.py: DIFFICULTY)
METHODS = ("auto", "asp", "loop")
SYMMETRIES = ("mirror", "turn")
DEFAULT_TIMEOUT = 600          # seconds: generate stops then (exit code 3) unless --timeout says otherwise
PROGRESS_EVERY = 10.0          # seconds between generate's progress lines on standard error
