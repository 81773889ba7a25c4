"""Read YAML while remembering the line of every key and list item, for error messages."""
from __future__ import annotations

from pathlib import Path

import yaml

from ..errors import BoardError


class LineDict(dict):
    """A mapping that knows the line of each of its keys (``lines[key]``) and its own ``line``."""

    line: int = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.lines: dict = {}

    def line_of(self, key) -> int:
        return self.lines.get(key, self.line)


class LineList(list):
    """A sequence that knows the line of each item (``lines[i]``) and its own ``line``."""

    line: int = 0

    def __init__(self, *args):
        super().__init__(*args)
        self.lines: list[int] = []

    def line_of(self, index: int) -> int:
        return self.lines[index] if index < len(self.lines) else self.line


def number_text(value: int | float) -> str:
    """A number as YAML text that this reader reads back as the same number: a float's shortest
    repr, with a point in its mantissa (YAML 1.1 reads ``1e-05`` as a string, ``1.0e-05`` as a float)."""
    text = repr(value)
    if isinstance(value, float) and "e" in text and "." not in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


class _Lines:
    """A loader whose mappings and sequences carry line numbers; duplicate keys are errors."""

    path = "<string>"

    def construct_object(self, node, deep=False):
        """A value its explicit tag cannot hold (``!!int true``) is an error at its line."""
        try:
            return super().construct_object(node, deep)
        except (ValueError, TypeError, OverflowError) as exc:
            raise BoardError(self.path, node.start_mark.line + 1,
                             f"the value {str(node.value)[:40]!r} cannot be read as {node.tag}: {exc}",
                             "remove the tag (the text starting with '!'); board files need no tags") from None

    def resolve(self, kind, value, implicit):
        """A plain decimal number (most of a board's scalars: cells) is an int, as YAML's own
        resolver finds after trying its patterns in turn; other scalars are resolved by it."""
        if kind is yaml.ScalarNode and implicit[0] and value.isascii() and value.isdigit() \
                and (value[0] != "0" or value == "0"):
            return _INT_TAG
        return super().resolve(kind, value, implicit)


def _mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if key in result:
            raise BoardError(loader.path, line, f"duplicate key '{key}'",
                             f"it is already set on line {result.lines[key]}; keep one of them")
        try:
            hash(key)
        except TypeError:
            raise BoardError(loader.path, line, "a key must be a plain word or number") from None
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = line
    return result


_INT_TAG = "tag:yaml.org,2002:int"


_SEQUENCE_TAG = "tag:yaml.org,2002:seq"


def _number(node) -> int | None:
    """A plain decimal number (a cell's coordinate), read at once; else None."""
    value = node.value
    if node.tag == _INT_TAG and isinstance(value, str) and value.isascii() and value.isdigit() \
            and (value[0] != "0" or value == "0"):
        return int(value)
    return None


def _item(loader: _Loader, node):
    """A list item: a plain decimal number, or a list of them (a cell), read at once; else constructed."""
    number = _number(node)
    if number is not None:
        return number
    if node.tag == _SEQUENCE_TAG and isinstance(node.value, list):
        numbers = [_number(child) for child in node.value]
        if None not in numbers:
            return _lines(LineList(numbers), node)
    return loader.construct_object(node, deep=True)


def _lines(result: LineList, node: yaml.SequenceNode) -> LineList:
    result.line = node.start_mark.line + 1
    result.lines = [child.start_mark.line + 1 for child in node.value]
    return result


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    return _lines(LineList(_item(loader, child) for child in node.value), node)


class _Loader(_Lines, yaml.SafeLoader):
    """The loader in Python: its errors are the ones reported."""


_FastLoader = type("_FastLoader", (_Lines, yaml.CSafeLoader), {}) if getattr(yaml, "__with_libyaml__", False) else None
"""The same on libyaml's parser, several times faster; used for files that parse without an
error (on any, the file is read again by :class:`_Loader`, whose messages are the ones reported)."""

for _loader in filter(None, (_Loader, _FastLoader)):
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


def _unreadable_character(text: str, path: str, exc: yaml.reader.ReaderError) -> BoardError:
    """A character YAML refuses (a NUL byte, a control character): where it is and what to do."""
    before = text[:exc.position]
    line, column = before.count("\n") + 1, exc.position - (before.rfind("\n") + 1) + 1
    code = f"U+{exc.character:04X}" if isinstance(exc.character, int) else repr(exc.character)
    what = "a NUL byte" if exc.character == 0 else f"the character {code}"
    return BoardError(path, line, f"{what} at column {column}: YAML files may not contain it",
                      "remove it; a board file is plain UTF-8 text (is this a binary file, "
                      "or one saved in another encoding?)")


def load_text(text: str, path: str):
    """Parse YAML text; syntax errors become :class:`BoardError` with the file and line."""
    if _FastLoader is not None and not yaml.reader.Reader.NON_PRINTABLE.search(text):
        loader = _FastLoader(text)
        loader.path = path
        try:
            return loader.get_single_data()
        except yaml.YAMLError:
            pass            # read again below, for the error message
        finally:
            loader.dispose()
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:
        raise _unreadable_character(text, path, exc) from None
    loader.path = path
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        hint = "indent with spaces: YAML does not allow tabs there" if "'\\t'" in problem \
            else "check the indentation and quoting on this line"
        raise BoardError(path, line, f"invalid YAML: {problem}", hint) from None
    except yaml.YAMLError as exc:
        raise BoardError(path, None, f"invalid YAML: {exc}") from None
    finally:
        loader.dispose()


def load_file(path: str | Path):
    """Read and parse a YAML file; a missing or unreadable file is a :class:`BoardError`."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BoardError(str(path), None, "no such file", "check the path") from None
    except OSError as exc:
        raise BoardError(str(path), None, f"cannot read file: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise BoardError(str(path), line, f"the byte 0x{data[exc.start]:02x} is not UTF-8 text",
                         "save the file as UTF-8") from None
    return load_text(text, str(path))
