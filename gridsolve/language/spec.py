"""A small declarative type language for YAML files: one definition validates and documents.

The board format (``gridsolve.language.schema``) is written with these classes.  The same objects
check a parsed file (reporting the file and line of each mistake) and emit JSON Schema
(``gridsolve schema``), so the editor schema can never drift from the loader.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import NoReturn

from ..errors import BoardError


@dataclass
class Where:
    """Where a value sits: the file, the line, and the dotted key path (for messages)."""

    path: str
    line: int | None
    key: str

    def child(self, container, key) -> "Where":
        line = container.line_of(key) if hasattr(container, "line_of") else self.line
        name = f"{self.key}[{key}]" if isinstance(key, int) else (f"{self.key}.{key}" if self.key else str(key))
        return Where(self.path, line, name)

    def fail(self, message: str, hint: str | None = None) -> NoReturn:
        prefix = f"{self.key}: " if self.key else ""
        raise BoardError(self.path, self.line, prefix + message, hint)


def _type_name(value) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing" if value is None else type(value).__name__


class Spec:
    doc: str = ""

    def check(self, value, where: Where):
        raise NotImplementedError

    def schema(self) -> dict:
        raise NotImplementedError

    def _documented(self, schema: dict) -> dict:
        if self.doc:
            schema["description"] = self.doc
        return schema


@dataclass
class Num(Spec):
    """A number, whole or with decimals (a share, a probability), between ``low`` and ``high``."""

    low: float | None = None
    high: float | None = None
    doc: str = ""

    WHAT = "a number"           # what the error message says was expected
    JSON_TYPE = "number"
    TYPES = (int, float)

    def show(self, bound) -> str:
        """A bound as the error message writes it."""
        return f"{bound:g}"

    def check(self, value, where):
        if isinstance(value, bool) or not isinstance(value, self.TYPES):
            where.fail(f"expected {self.WHAT}, got {_type_name(value)}")
        if self.low is not None and value < self.low:
            where.fail(f"{value} is too small", f"use a number of at least {self.show(self.low)}")
        if self.high is not None and value > self.high:
            where.fail(f"{value} is too large", f"use a number of at most {self.show(self.high)}")
        return value

    def schema(self):
        out = {"type": self.JSON_TYPE}
        if self.low is not None:
            out["minimum"] = self.low
        if self.high is not None:
            out["maximum"] = self.high
        return self._documented(out)


@dataclass
class Int(Num):
    """A whole number between ``low`` and ``high``."""

    low: int | None = None
    high: int | None = None

    WHAT = "a whole number"
    JSON_TYPE = "integer"
    TYPES = (int,)

    def show(self, bound) -> str:
        return str(bound)


@dataclass
class Bool(Spec):
    doc: str = ""

    def check(self, value, where):
        if not isinstance(value, bool):
            where.fail(f"expected true or false, got {_type_name(value)}")
        return value

    def schema(self):
        return self._documented({"type": "boolean"})


@dataclass
class Str(Spec):
    doc: str = ""
    pattern: str | None = None

    def check(self, value, where):
        if not isinstance(value, str):
            where.fail(f"expected text, got {_type_name(value)}")
        return value

    def schema(self):
        out = {"type": "string"}
        if self.pattern:
            out["pattern"] = self.pattern
        return self._documented(out)


@dataclass
class Enum(Spec):
    values: tuple[str, ...] = ()
    doc: str = ""

    def check(self, value, where):
        if value not in self.values:
            where.fail(f"'{value}' is not one of: {', '.join(self.values)}")
        return value

    def schema(self):
        return self._documented({"enum": list(self.values)})


@dataclass
class Cell(Spec):
    """A cell as ``[x, y]``."""

    doc: str = "a cell as [x, y]; x grows east, y grows north, both from 1"

    def check(self, value, where):
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            where.fail(f"expected a cell [x, y], got {value!r}", "write it as [x, y], e.g. [3, 4]")
        return (value[0], value[1])

    def schema(self):
        return self._documented({"type": "array", "items": {"type": "integer", "minimum": 1},
                                 "minItems": 2, "maxItems": 2})


@dataclass
class ListOf(Spec):
    item: Spec = None
    min_items: int = 0
    doc: str = ""

    def check(self, value, where):
        if not isinstance(value, list):
            where.fail(f"expected a list, got {_type_name(value)}")
        if len(value) < self.min_items:
            where.fail(f"needs at least {self.min_items} item(s)")
        return [self.item.check(v, where.child(value, i)) for i, v in enumerate(value)]

    def schema(self):
        out = {"type": "array", "items": self.item.schema()}
        if self.min_items:
            out["minItems"] = self.min_items
        return self._documented(out)


@dataclass
class MapOf(Spec):
    """A mapping with free keys (role names, legend characters, ...)."""

    value: Spec = None
    key_doc: str = "name"
    doc: str = ""

    def check(self, value, where):
        if not isinstance(value, dict):
            where.fail(f"expected a mapping of {self.key_doc} to values, got {_type_name(value)}")
        return {str(k): self.value.check(v, where.child(value, k)) for k, v in value.items()}

    def lines(self, value) -> dict:
        return {str(k): value.line_of(k) for k in value} if hasattr(value, "line_of") else {}

    def schema(self):
        return self._documented({"type": "object", "additionalProperties": self.value.schema()})


@dataclass
class Field:
    spec: Spec
    required: bool = False
    default: object = None


@dataclass
class Object(Spec):
    """A mapping with fixed keys; an unknown key is an error that suggests the closest one."""

    fields: dict[str, Field] = field(default_factory=dict)
    doc: str = ""

    def check(self, value, where):
        if not isinstance(value, dict):
            where.fail(f"expected a mapping with keys {', '.join(self.fields)}, got {_type_name(value)}")
        for key in value:
            if key not in self.fields:
                near = difflib.get_close_matches(str(key), list(self.fields), n=1)
                hint = f"did you mean '{near[0]}'?" if near else f"known keys: {', '.join(self.fields)}"
                line = value.line_of(key) if hasattr(value, "line_of") else where.line
                Where(where.path, line, where.key).fail(f"unknown key '{key}'", hint)
        out = {}
        for name, fld in self.fields.items():
            if name in value:
                out[name] = fld.spec.check(value[name], where.child(value, name))
            elif fld.required:
                where.fail(f"missing key '{name}'")
            else:
                out[name] = fld.default
        return out

    def schema(self):
        return self._documented({
            "type": "object",
            "properties": {name: fld.spec.schema() for name, fld in self.fields.items()},
            "required": [name for name, fld in self.fields.items() if fld.required],
            "additionalProperties": False,
        })


@dataclass
class Either(Spec):
    """One of several shapes, chosen by the YAML type of the value."""

    choices: tuple[tuple[type, Spec], ...] = ()
    doc: str = ""

    def check(self, value, where):
        for kind, spec in self.choices:
            if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
                return spec.check(value, where)
        names = " or ".join(_type_name(k()) if k is not type(None) else "nothing" for k, _ in self.choices)
        where.fail(f"expected {names}, got {_type_name(value)}")

    def schema(self):
        return self._documented({"anyOf": [spec.schema() for _, spec in self.choices]})
