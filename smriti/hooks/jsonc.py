"""Minimal comment-preserving edits of JSON / JSONC settings files (for `smriti hooks install`).

Agents' settings files are hand-edited: comments (`//`, `/* */`), trailing commas, their own
indentation. A load-modify-dump round trip would destroy all of that, so this module parses the
text into nodes that remember their byte spans and edits the text in place:

- `insert_member(text, obj, key, value)` adds `"key": value` at the end of an object;
- `append_item(text, arr, value)` adds a value at the end of an array;
- `remove(text, node)` removes one member or item with its separating comma.

An insertion goes right after the container's last value (`,` + newline + indentation + value),
so everything else keeps its bytes; `remove` takes exactly that span out again. New values are
serialised with the file's own indentation unit (detected, default two spaces).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


class JsoncError(ValueError):
    pass


@dataclass
class Node:
    kind: str  # "object" | "array" | "string" | "number" | "literal"
    start: int
    end: int  # exclusive
    value: Any = None  # python value for scalars
    members: list[tuple[str, Node, int]] = field(default_factory=list)  # objects: (key, value, key_start)
    items: list[Node] = field(default_factory=list)  # arrays
    parent: Node | None = None

    def get(self, key: str) -> Node | None:
        for k, v, _ in reversed(self.members):  # JSON: the last duplicate key wins
            if k == key:
                return v
        return None

    def to_python(self) -> Any:
        if self.kind == "object":
            return {k: v.to_python() for k, v, _ in self.members}
        if self.kind == "array":
            return [i.to_python() for i in self.items]
        return self.value


class _Parser:
    def __init__(self, text: str):
        self.t = text
        self.i = 0

    def error(self, msg: str) -> JsoncError:
        line = self.t.count("\n", 0, self.i) + 1
        return JsoncError(f"{msg} at line {line}")

    def ws(self) -> None:
        t, n = self.t, len(self.t)
        while self.i < n:
            c = t[self.i]
            if c in " \t\r\n\ufeff":
                self.i += 1
            elif t.startswith("//", self.i):
                j = t.find("\n", self.i)
                self.i = n if j == -1 else j + 1
            elif t.startswith("/*", self.i):
                j = t.find("*/", self.i + 2)
                if j == -1:
                    raise self.error("unterminated comment")
                self.i = j + 2
            else:
                return

    def value(self, parent: Node | None) -> Node:
        self.ws()
        if self.i >= len(self.t):
            raise self.error("unexpected end of file")
        c = self.t[self.i]
        if c == "{":
            return self.obj(parent)
        if c == "[":
            return self.arr(parent)
        if c == '"':
            start = self.i
            s = self.string()
            return Node("string", start, self.i, s, parent=parent)
        start = self.i
        while self.i < len(self.t) and self.t[self.i] not in " \t\r\n,]}/":
            self.i += 1
        word = self.t[start : self.i]
        if word in ("true", "false", "null"):
            return Node("literal", start, self.i, {"true": True, "false": False, "null": None}[word], parent=parent)
        try:
            return Node("number", start, self.i, json.loads(word), parent=parent)
        except ValueError:
            raise self.error(f"unexpected {word[:20]!r}") from None

    def string(self) -> str:
        start = self.i
        self.i += 1
        t, n = self.t, len(self.t)
        while self.i < n:
            c = t[self.i]
            if c == "\\":
                self.i += 2
            elif c == '"':
                self.i += 1
                try:
                    return json.loads(t[start : self.i])
                except ValueError:
                    raise self.error("bad string") from None
            elif c == "\n":
                raise self.error("newline in string")
            else:
                self.i += 1
        raise self.error("unterminated string")

    def obj(self, parent: Node | None) -> Node:
        node = Node("object", self.i, -1, parent=parent)
        self.i += 1
        while True:
            self.ws()
            if self.i >= len(self.t):
                raise self.error("unterminated object")
            if self.t[self.i] == "}":
                self.i += 1
                node.end = self.i
                return node
            if self.t[self.i] != '"':
                raise self.error("expected a key")
            key_start = self.i
            key = self.string()
            self.ws()
            if self.i >= len(self.t) or self.t[self.i] != ":":
                raise self.error("expected ':'")
            self.i += 1
            val = self.value(node)
            node.members.append((key, val, key_start))
            self.ws()
            if self.i < len(self.t) and self.t[self.i] == ",":
                self.i += 1
            elif self.i < len(self.t) and self.t[self.i] != "}":
                raise self.error("expected ',' or '}'")

    def arr(self, parent: Node | None) -> Node:
        node = Node("array", self.i, -1, parent=parent)
        self.i += 1
        while True:
            self.ws()
            if self.i >= len(self.t):
                raise self.error("unterminated array")
            if self.t[self.i] == "]":
                self.i += 1
                node.end = self.i
                return node
            node.items.append(self.value(node))
            self.ws()
            if self.i < len(self.t) and self.t[self.i] == ",":
                self.i += 1
            elif self.i < len(self.t) and self.t[self.i] != "]":
                raise self.error("expected ',' or ']'")


def parse(text: str) -> Node:
    p = _Parser(text)
    root = p.value(None)
    p.ws()
    if p.i != len(text):
        raise p.error("trailing content")
    return root


def indent_unit(text: str) -> str:
    """The file's indentation step: the leading whitespace of its first indented line."""
    for line in text.splitlines():
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line) and not stripped.startswith(("//", "/*", "*")):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else " " * min(len(lead), 8)
    return "  "


def _line_indent(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    end = start
    while end < len(text) and text[end] in " \t":
        end += 1
    return text[start:end]


def _dump(value: Any, unit: str, base: str) -> str:
    out = json.dumps(value, indent=unit if unit != "\t" else "\t", ensure_ascii=False)
    return out.replace("\n", "\n" + base)


def _single_line(text: str, node: Node) -> bool:
    return "\n" not in text[node.start : node.end]


def _child_indent(text: str, node: Node, unit: str) -> str:
    children = [v for _, v, ks in node.members] if node.kind == "object" else node.items
    starts = [ks for _, _, ks in node.members] if node.kind == "object" else [c.start for c in children]
    for s in starts:
        if "\n" in text[node.start : s]:
            return _line_indent(text, s)
    return _line_indent(text, node.start) + unit


def _insert(text: str, node: Node, piece_multi: str, piece_inline: str, unit: str) -> str:
    last_end = (
        (node.members[-1][1].end if node.members else None)
        if node.kind == "object"
        else (node.items[-1].end if node.items else None)
    )
    if _single_line(text, node) and last_end is not None:
        return text[:last_end] + ", " + piece_inline + text[last_end:]
    if last_end is None and text[node.start + 1 : node.end - 1].strip() == "":
        # An empty container ("{}", "[ ]", "{\n}"): lay it out over lines.
        outer = _line_indent(text, node.start)
        inner = outer + unit
        block = piece_multi.replace("\n", "\n" + inner)
        return text[: node.start + 1] + "\n" + inner + block + "\n" + outer + text[node.end - 1 :]
    inner = _child_indent(text, node, unit)
    block = piece_multi.replace("\n", "\n" + inner)
    if last_end is None:  # only comments inside: the new value goes first
        return text[: node.start + 1] + "\n" + inner + block + text[node.start + 1 :]
    return text[:last_end] + ",\n" + inner + block + text[last_end:]


def insert_member(text: str, obj: Node, key: str, value: Any) -> str:
    unit = indent_unit(text)
    k = json.dumps(key, ensure_ascii=False)
    return _insert(text, obj, f"{k}: {_dump(value, unit, '')}", f"{k}: {json.dumps(value, ensure_ascii=False)}", unit)


def append_item(text: str, arr: Node, value: Any) -> str:
    unit = indent_unit(text)
    return _insert(text, arr, _dump(value, unit, ""), json.dumps(value, ensure_ascii=False), unit)


def remove(text: str, node: Node) -> str:
    """Remove `node` (a member's value, or an item) from its parent container, with its comma."""
    parent = node.parent
    if parent is None:
        raise JsoncError("cannot remove the top-level value")
    if parent.kind == "object":
        idx = next(i for i, (_, v, _) in enumerate(parent.members) if v is node)
        spans = [(ks, v.end) for _, v, ks in parent.members]
    else:
        idx = next(i for i, v in enumerate(parent.items) if v is node)
        spans = [(v.start, v.end) for v in parent.items]
    start, end = spans[idx]
    if idx > 0:
        return text[: spans[idx - 1][1]] + text[end:]  # ",<ws/comments> node" after the previous one
    if len(spans) > 1:
        return text[:start] + text[spans[1][0] :]  # "node,<ws>" before the next one
    # The only element: remove it and a comma after it; keep comments and whitespace around.
    rest = end
    j = rest
    while j < parent.end - 1 and text[j] in " \t":
        j += 1
    if text[j : j + 1] == ",":
        rest = j + 1
    before = text[:start]
    stripped = before.rstrip(" \t")
    if (
        stripped.endswith("\n")
        and text[parent.start + 1 : start].strip() == ""
        and text[rest : parent.end - 1].strip() == ""
    ):
        # "{\n    node\n}" -> "{}": nothing else lives in the container
        return text[: parent.start + 1] + text[parent.end - 1 :]
    return before + text[rest:]
