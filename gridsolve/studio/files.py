"""The served folder: which files the studio may read and write, and saving a level safely.

Every file name the page sends is resolved (symbolic links and ``..`` followed) and must stay
inside the served folder and end in ``.yaml`` or ``.yml``.  A save writes only a board that
exists there, refuses when the file changed on disk since the page opened it (its version,
a hash of its text, travels with the page), checks that the new text loads back to the
edited level, and replaces the file atomically (:func:`gridsolve.verify.update.write_atomic`).
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from ..errors import EXIT_INVALID, GridsolveError
from ..language.loader import load_board
from ..language.model import Board
from ..verify.update import write_atomic
from ..verify.verify import find_boards
from .level import level_of
from .leveltext import level_text

SUFFIXES = (".yaml", ".yml")


class StudioError(GridsolveError):
    """A request the studio refuses; ``status`` is the HTTP status it answers with."""

    status = 400
    exit_code = EXIT_INVALID       # on the command line: a request that cannot be served

    def __init__(self, message: str, hint: str | None = None, status: int | None = None):
        super().__init__(message, hint)
        if status is not None:
            self.status = status


def found(table: dict, key: str, what: str, hint: str):
    """``table[key]`` (a job, a playtest), else a 404 that says there is no such ``what``."""
    value = table.get(key)
    if value is None:
        raise StudioError(f"no {what} {str(key)[:20]}", hint, 404)
    return value


def version_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class Folder:
    """The served folder ``root``."""

    def __init__(self, root: Path):
        self.root = Path(root).resolve()

    def resolve(self, name, must_exist: bool = True) -> Path:
        """The file ``name`` (relative to the folder), checked: inside the folder, a YAML file."""
        if not isinstance(name, str) or not name or len(name) > 500 or "\0" in name:
            raise StudioError("board: expected a file name relative to the served folder", status=400)
        if Path(name).is_absolute() or name.startswith(("/", "\\")):
            raise StudioError(f"{name}: an absolute path", "name the file relative to the served folder", 403)
        path = (self.root / name).resolve()
        if not path.is_relative_to(self.root):
            raise StudioError(f"{name}: outside the served folder", "the studio reads and writes only "
                              f"files under {self.root}", 403)
        if path.suffix.lower() not in SUFFIXES:
            raise StudioError(f"{name}: not a .yaml or .yml file", "the studio opens board files only", 403)
        if must_exist and not path.is_file():
            raise StudioError(f"{name}: no such board file in the served folder", status=404)
        return path

    def relative(self, path: Path) -> str:
        return Path(path).resolve().relative_to(self.root).as_posix()

    def boards(self) -> list[str]:
        """The board files of the folder (hidden files and folders left out)."""
        return [self.relative(p) for p in find_boards([self.root])]

    def read(self, name: str) -> tuple[Path, str]:
        path = self.resolve(name)
        try:
            with open(path, encoding="utf-8", newline="") as handle:
                return path, handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise StudioError(f"{name}: cannot read the file: {exc}", status=400) from None


def load_text(path: Path, text: str) -> Board:
    """The board ``text`` describes, read as if it were the file ``path`` (its rule sets found
    from there): written to a hidden temporary file beside it, loaded, removed."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.studio-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        board = load_board(temporary)
    finally:
        os.unlink(temporary)
    return board


def save(folder: Folder, name: str, version: str, edited: Board, original: Board) -> tuple[str, str]:
    """Write the level of ``edited`` into the board file ``name``, opened at ``version`` as
    ``original``; returns the new text and its version."""
    path, text = folder.read(name)
    if version_of(text) != version:
        raise StudioError(f"{name} changed on disk since the studio opened it: not saved",
                          "reload the board (your edits are in the undo history and the link), or save "
                          "after merging by hand", 409)
    new_text = level_text(text, name, original, edited)
    written = load_text(path, new_text)
    if level_of(written) != level_of(edited):
        raise StudioError(f"{name}: the saved text would not load back to the edited level; the file was left "
                          "as it was (internal error: please report it)", status=500)
    if new_text != text:
        write_atomic(path, new_text)
    return new_text, version_of(new_text)
