"""``gridsolve verify --update``: write measured values into a board's ``expect:`` block.

Only the expected values change; every other character of the file stays as it was
(comments, key order, quoting, indentation, line endings).  ruamel.yaml's round-trip composer
gives the exact span of each value in the text, and only those spans are replaced; then the
new text is parsed again and must equal the old document with just those values changed.
The file is written to a temporary file beside it and renamed over it, so an interrupted
run leaves either the old file or the new one.
"""
from __future__ import annotations

import copy
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from ..errors import BoardError, GridsolveError
from .expect import Range
from ..language.yamlsrc import load_text, number_text


@dataclass(frozen=True)
class Change:
    """Write ``new`` over ``old`` as the value of ``expect[index].key``."""

    index: int
    key: str
    old: object        # bool, int, None or Range, as the file has it now
    new: object


def updated_value(old, measured):
    """The value to write: the measured one; a range is widened just enough to hold it."""
    if isinstance(old, Range) and isinstance(measured, (int, float)) and not isinstance(measured, bool):
        low = old.min if old.min is None or measured >= old.min else measured
        high = old.max if old.max is None or measured <= old.max else measured
        return Range(low, high)
    return measured


def update_file(path: str | Path, changes: list[Change]) -> None:
    """Rewrite ``path`` with ``changes`` applied, atomically."""
    path = Path(path)
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise BoardError(str(path), None, f"cannot read file: {exc}") from None
    new_text = rewrite(text, str(path), changes)
    if new_text != text:
        write_atomic(path, new_text)


def _render(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return number_text(value)       # a difficulty metric is a float (random_win: 5.656e-11)
    raise GridsolveError(f"cannot write {value!r} into an expect block (internal error: please report it)")


def _as_yaml(value):
    """A value as the YAML loader returns it (for comparing documents)."""
    return value.as_dict() if isinstance(value, Range) else value


def rewrite(text: str, name: str, changes: list[Change]) -> str:
    """``text`` with the changed expected values written in place."""
    before = load_text(text, name)
    for change in changes:
        current = _raw_value(before, change)
        if current != _as_yaml(change.old):
            raise BoardError(name, None, f"expect[{change.index}].{change.key} changed while it was verified",
                             "run gridsolve verify again")
    try:
        root = YAML(typ="rt").compose(text)
    except YAMLError as exc:
        raise GridsolveError(f"{name}: ruamel.yaml cannot read the file to update it: {exc}") from None
    edits: list[tuple[int, int, str]] = []
    for change in changes:
        node = _child(_child(_child(root, "expect"), change.index), change.key)
        if isinstance(change.old, Range) and isinstance(change.new, Range):
            for bound in ("min", "max"):
                if getattr(change.old, bound) != getattr(change.new, bound):
                    edits.append(_span(_child(node, bound), _render(getattr(change.new, bound))))
        else:
            edits.append(_span(node, _render(change.new)))
    new_text = text
    for start, end, replacement in sorted(edits, reverse=True):
        new_text = new_text[:start] + replacement + new_text[end:]
    # The new document must be the old one with exactly these values changed.
    wanted = copy.deepcopy(before)
    for change in changes:
        wanted["expect"][change.index][change.key] = _as_yaml(change.new)
    after = load_text(new_text, name)
    if after != wanted:
        raise GridsolveError(f"{name}: updating the expect block would change more than its values; "
                             "the file was left as it was (internal error: please report it)")
    return new_text


def _raw_value(document, change: Change):
    try:
        return document["expect"][change.index][change.key]
    except (KeyError, IndexError, TypeError):
        return _Missing


class _Missing:
    pass


def _child(node, key):
    """The value node under a mapping key or at a sequence index."""
    if isinstance(node, SequenceNode) and isinstance(key, int) and key < len(node.value):
        return node.value[key]
    if isinstance(node, MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode) and key_node.value == key:
                return value_node
    raise GridsolveError(f"cannot find {key!r} in the file to update it (internal error: please report it)")


def node_end(node) -> int:
    """Where a node's text ends (a block collection: at the end of its last value)."""
    if isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        return node_end(last[1] if isinstance(last, tuple) else last)
    return node.end_mark.index


def _span(node, replacement: str) -> tuple[int, int, str]:
    return node.start_mark.index, node_end(node), replacement


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path`` and rename it over ``path``."""
    mode = stat.S_IMODE(os.stat(path).st_mode)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
