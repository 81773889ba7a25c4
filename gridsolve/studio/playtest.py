"""Playtests: the page plays the level against the solver, as ``gridsolve play`` does.

The game of :mod:`gridsolve.play.game` runs in a thread: its input lines come from the page (a
move, ``hint``, ``quit``, or a placement of secret cells) and what it says goes to the
page's transcript.  The page sees the position as the human player sees it: marks hidden
from that role are left out of the picture until its piece bumps on them, and the computer's
secret placements are never sent (no peeking); the board with everything revealed comes
when the game ends, as in the terminal.
"""
from __future__ import annotations

import dataclasses
import queue
import secrets
import threading

from ..errors import GridsolveError
from ..language.model import Board
from ..language.position import Position
from ..play.game import target
from ..solve.common.limits import Limits
from .adapters import Game, new_game
from .answers import picture
from .files import StudioError, found

MAX_GAMES = 8
TRANSCRIPT = 400      # lines kept


class _WebGame(Game):
    """A game that tells its playtest what the human player is asked and sees."""

    playtest: "Playtest"

    def read_move(self, position: Position, role: str, names: list[str], can_undo: bool = False):
        self.playtest.waiting(position, {"kind": "move", "role": role, "can_undo": can_undo, "moves": [
            {"move": n, "to": list(target(self.board, position.cell(role), n))} for n in names]}, role)
        return super().read_move(position, role, names, can_undo)

    def read_placement(self, role: str, mark: str, count: int):
        self.playtest.waiting(None, {"kind": "placement", "role": role, "mark": mark, "count": count}, role)
        return super().read_placement(role, mark, count)

    def finish(self, position: Position, end: str, plies: int):
        outcome = super().finish(position, end, plies)
        self.playtest.over(position, outcome)
        return outcome


class _Lines:
    """The game's input: lines the page sends, one at a time (blocks until one comes)."""

    def __init__(self, waiting):
        self.queue: queue.Queue = queue.Queue()
        self.waiting = waiting            # called each time the game waits for a line

    def __iter__(self):
        return self

    def __next__(self) -> str:
        self.waiting()
        line = self.queue.get()
        if line is None:
            raise StopIteration
        return line


class Playtest:
    """One game on an edited level, the human playing ``humans``."""

    def __init__(self, board: Board, humans: set[str], seed: int, limits: Limits):
        self.id = secrets.token_hex(8)
        self.lines = _Lines(self._input_wanted)
        self.transcript: list[str] = []
        self.lock = threading.Lock()
        self.prompt: dict | None = None
        self.state = "thinking"          # thinking, waiting, over, error
        self.view: dict | None = None
        self.result: dict | None = None
        self.game = new_game(board, humans, self.lines, self.say, seed, limits, _WebGame)
        self.game.playtest = self
        self.thread: threading.Thread | None = None

    def start(self, start: Position) -> None:
        self.thread = threading.Thread(target=self._run, args=(start,), daemon=True)
        self.thread.start()

    def _run(self, start: Position) -> None:
        try:
            self.game.run(start)
        except GridsolveError as exc:
            with self.lock:
                self.state, self.result = "error", {"error": str(exc)}
        except Exception as exc:        # noqa: BLE001 - the page gets a message, never a traceback
            with self.lock:
                self.state, self.result = "error", {"error": f"internal error ({type(exc).__name__}: {exc})"}
        with self.lock:
            if self.state not in ("over", "error"):
                self.state = "over"

    def say(self, text: str) -> None:
        with self.lock:
            self.transcript = (self.transcript + str(text).split("\n"))[-TRANSCRIPT:]

    def _seen(self, viewer: str | None) -> Board:
        """The board as ``viewer`` sees it: the cells hidden from it left out."""
        board = self.game.board
        hidden = self.game.hidden(viewer)
        if not hidden:
            return board
        marks = {m: frozenset(c for c in cells if (m, c) not in hidden) for m, cells in board.marks.items()}
        return dataclasses.replace(board, marks=marks)

    def _input_wanted(self) -> None:
        with self.lock:
            if self.state == "thinking":
                self.state = "waiting"

    def waiting(self, position: Position | None, prompt: dict, role: str) -> None:
        """What the game asks the human now (``prompt``) and what it sees."""
        view = picture(self._seen(role), position) if position is not None else None
        with self.lock:
            self.prompt = prompt
            if view is not None:
                self.view = {**view, "pieces": {r: list(c) for r, c in position.pieces}}

    def over(self, position: Position, outcome) -> None:
        view = picture(self.game.board, position)
        with self.lock:
            self.prompt, self.state = None, "over"
            self.view = {**view, "pieces": {r: list(c) for r, c in position.pieces}}
            self.result = {"end": outcome.end, "scores": outcome.scores, "plies": outcome.plies}

    def send(self, line: str) -> None:
        with self.lock:
            if self.state != "waiting":
                raise StudioError(f"the game is {self.state}: it takes no input now", status=409)
            self.state = "thinking"
        self.lines.queue.put(line)

    def stop(self) -> None:
        self.lines.queue.put(None)

    def as_dict(self) -> dict:
        with self.lock:
            return {"id": self.id, "state": self.state, "prompt": self.prompt, "transcript": self.transcript,
                    "view": self.view, "result": self.result}


class Playtests:
    def __init__(self, limits: Limits):
        self.limits = limits
        self.games: dict[str, Playtest] = {}
        self.lock = threading.Lock()

    def start(self, board: Board, humans: set[str], seed: int, start: Position) -> Playtest:
        game = Playtest(board, humans, seed, self.limits)
        with self.lock:
            while len(self.games) >= MAX_GAMES:
                oldest = next(iter(self.games))
                self.games.pop(oldest).stop()
            self.games[game.id] = game
        game.start(start)
        return game

    def get(self, game_id: str) -> Playtest:
        return found(self.games, game_id, "playtest", "start a new one")
