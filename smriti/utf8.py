"""Text that UTF-8 can hold, from text Python can.

A Python string may hold a lone surrogate: JSON's escape of half a pair (`"\\ud800"`) decodes to
one, and so does an undecodable byte of a file name or of a command-line argument. UTF-8 cannot
encode it, so neither SQLite nor Tantivy takes it. Such a text is kept as the escape JSON writes
for it (`\\ud800`, six characters): what the source said, readable, and two different ones stay
different. Imports nothing: the prompt hook's recall passes its query through here.
"""

from __future__ import annotations


def encodes(text: str) -> bool:
    """Whether `text` can be written as UTF-8: no lone surrogate in it."""
    if text.isascii():  # O(1) in CPython: most texts end here
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def utf8_text(text: str) -> str:
    """`text` itself when UTF-8 can hold it, else with each lone surrogate as its escape."""
    return text if encodes(text) else text.encode("utf-8", "backslashreplace").decode("utf-8")
