"""A position file's data checked before it is read (a step of :mod:`.posfile`): its sizes and nesting, and the
JSON Schema (a quick check of its own, the jsonschema validator for the message naming the field)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._packagedata import read_text
from .posfile_hexes import MAX_NESTING, MAX_PIECES, BadPositionFile

if TYPE_CHECKING:
    pass

__all__ = ["quick_valid"]


_SCHEMA: dict[str, Any] | None = None


def _schema() -> dict[str, Any]:
    global _SCHEMA
    if _SCHEMA is None:
        text = read_text("asl_vassal_bridge", "schema/position.schema.json")
        _SCHEMA = json.loads(text)
    return _SCHEMA


_IGNORED = frozenset(("description", "title", "$schema", "$id", "$defs", "$comment"))


_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict), "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str), "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool), "null": lambda v: v is None,
}


def _same(a: object, b: object) -> bool:
    return isinstance(a, bool) == isinstance(b, bool) and type(a) is type(b) and a == b


def quick_valid(value: object, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    """True only if *value* is valid against *schema*: a fast check of the JSON Schema keywords the position
    schema uses, so that a valid file needs no jsonschema import (slow to import).  Anything it does not
    know, or is unsure of, is False, and :func:`from_dict` then asks jsonschema, which also words the errors.

    >>> quick_valid({"a": [1, 2]}, {"type": "object", "properties": {"a": {"type": "array", "minItems": 2}}}, {})
    True
    """
    for key, rule in schema.items():
        if key in _IGNORED:
            continue
        if key == "$ref":
            if not (isinstance(rule, str) and rule.startswith("#/$defs/")):
                return False
            target = root.get("$defs", {}).get(rule[len("#/$defs/"):])
            if target is None or not quick_valid(value, target, root):
                return False
        elif key == "type":
            if not any(_TYPES[t](value) for t in ([rule] if isinstance(rule, str) else rule)):
                return False
        elif key == "enum":
            if not any(_same(value, x) for x in rule):
                return False
        elif key == "const":
            if not _same(value, rule):
                return False
        elif key in ("minimum", "maximum"):
            if not _TYPES["number"](value):
                continue
            assert isinstance(value, int | float)
            if (value < rule) if key == "minimum" else (value > rule):
                return False
        elif key in ("minLength", "pattern"):
            if not isinstance(value, str):
                continue
            if (key == "minLength" and len(value) < rule) or (key == "pattern" and not re.search(rule, value)):
                return False
        elif key in ("items", "minItems", "maxItems"):
            if not isinstance(value, list):
                continue
            if key == "items" and not all(quick_valid(v, rule, root) for v in value):
                return False
            if (key == "minItems" and len(value) < rule) or (key == "maxItems" and len(value) > rule):
                return False
        elif key == "required":
            if isinstance(value, dict) and any(r not in value for r in rule):
                return False
        elif key in ("properties", "patternProperties", "additionalProperties"):
            continue  # below, together
        else:
            return False
    if isinstance(value, dict) and any(k in schema for k in ("properties", "patternProperties",
                                                              "additionalProperties")):
        return _object_valid(value, schema, root)
    return True


def _object_valid(value: Mapping[str, Any], schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    props = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    extra = schema.get("additionalProperties", True)
    for k, v in value.items():
        if not isinstance(k, str):
            return False
        matched = False
        if k in props:
            matched = True
            if not quick_valid(v, props[k], root):
                return False
        for pat, sub in patterns.items():
            if re.search(pat, k):
                matched = True
                if not quick_valid(v, sub, root):
                    return False
        if not matched:
            if extra is False or (isinstance(extra, dict) and not quick_valid(v, extra, root)):
                return False
            if extra is not True and not isinstance(extra, dict):
                return False
    return True


def _depth(data: object) -> int:
    """How deeply *data*'s lists and tables nest (iteratively: a hostile file cannot exhaust the stack)."""
    deepest, todo = 0, [(data, 0)]
    while todo:
        item, d = todo.pop()
        if isinstance(item, Mapping):
            todo += [(v, d + 1) for v in item.values()]
        elif isinstance(item, list):
            todo += [(v, d + 1) for v in item]
        else:
            continue
        deepest = max(deepest, d + 1)
        if deepest > MAX_NESTING:
            break
    return deepest


def _check_sizes(data: Mapping[str, Any], source: str) -> None:
    """Refuse, before any validation or hex is made, what would take unbounded time or memory."""
    if _depth(data) > MAX_NESTING:
        raise BadPositionFile(f"{source}: arrays or tables nest more than {MAX_NESTING} deep (expected a position "
                              "file: see docs/position-files.md)")
    for key in ("fires", "wrecks", "smoke", "units", "buildings"):
        items = data.get(key)
        if isinstance(items, list) and len(items) > MAX_PIECES:
            raise BadPositionFile(f"{source}: {key}: {len(items):,} entries; a position file may list at most "
                                  f"{MAX_PIECES:,}")
    m = data.get("map")
    terrain = m.get("terrain") if isinstance(m, Mapping) else None
    if isinstance(terrain, list) and len(terrain) > MAX_PIECES:
        raise BadPositionFile(f"{source}: map.terrain: {len(terrain):,} entries; a position file may list at most "
                              f"{MAX_PIECES:,}")


def _validator(schema: Mapping[str, Any]) -> Any:
    """jsonschema's validator of the position schema, with TOML's integers only as ``integer`` (JSON Schema
    counts ``1.0`` as one; a position file's ``x = 1.0`` or ``turn = 3.0`` is not a count)."""
    import jsonschema

    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine("integer", lambda _checker, v: _TYPES["integer"](v))
    return jsonschema.validators.extend(base, type_checker=checker)(schema)  # type: ignore[no-untyped-call]
