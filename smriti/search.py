"""Search: index hits aggregated per session or team knowledge item, resolved through the store,
with snippets. Sessions and the team's (active) knowledge items rank together by BM25; `kind`
narrows to one of them."""

from __future__ import annotations

from smriti.errors import InvalidInput
from smriti.index import INACTIVE_STATUSES, Filters, Index
from smriti.store import KnowledgeRow, Store
from smriti.utf8 import utf8_text

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    import re
    from datetime import datetime
    from typing import NamedTuple
else:
    from smriti.records import NamedTuple  # typing.NamedTuple's classes, without importing typing

# A session is more than its best line: further matching messages add a damped share.
EXTRA_HIT_WEIGHTS = (0.25, 0.15, 0.1)
CANDIDATES_PER_RESULT = 20


KINDS = ("session", "knowledge")


class SearchHit(NamedTuple):
    session_id: str | None  # None for a knowledge item
    native_id: str | None  # a knowledge item's: the agent's id of the session it was shared from
    agent: str | None
    project: str | None
    category: str
    score: float
    snippet: str
    timestamp: str | None
    title: str | None
    message: int  # seq of the best-matching message, for `smriti show ID` (0 for a knowledge item)
    kind: str = "session"  # "session" | "knowledge"
    id: str = ""  # what `smriti show` takes: the session id, or the knowledge item's id
    path: str | None = None  # a knowledge item's file in its repo
    author: str | None = None  # a knowledge item's author (as written in the file, unverified)
    committed_by: str | None = None  # git's author of the commit that added or last changed the file

    def to_json(self) -> dict:
        return self._asdict()


def parse_since(value: str | None, now: datetime | None = None) -> int | None:
    """`2026-11-01`, an ISO timestamp, or a relative `7d` / `12h` / `2w` → epoch seconds."""
    if not value:
        return None
    import re  # here, as datetime: `re` costs a search process ~8 ms (with `enum`)
    from datetime import UTC, datetime, timedelta  # here: most searches have no --since

    now = now or datetime.now(UTC)
    m = re.fullmatch(r"\s*(\d+)\s*([hdw])\s*", value)
    if m:
        n, unit = int(m.group(1)), m.group(2)
        delta = {"h": timedelta(hours=n), "d": timedelta(days=n), "w": timedelta(weeks=n)}[unit]
        return int((now - delta).timestamp())
    try:
        dt = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise InvalidInput(
            f"cannot read --since {value!r}: use a date (2026-11-01), an ISO time, or 7d / 12h / 2w"
        ) from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return int(dt.timestamp())


def project_keys(store: Store, value: str | None) -> tuple[str, ...] | None:
    """What `--project` names: a key, a display name, or a path (resolved like a cwd)."""
    if value is None:
        return None
    keys = set(store.resolve_projects(value))
    resolved = None
    if value.startswith(("/", "~", ".")):
        from smriti import project as projects  # here: its pathlib flavours are off the usual search's path

        resolved = projects.resolve(value)
    if resolved:
        keys.add(resolved.key)
    return tuple(sorted(keys))


def asking_project(store: Store, value: str | None, cwd: str | None = None) -> tuple[str, ...]:
    """The project a recall is for: what --project names, else the repo around `cwd` (or the cwd)."""
    if value:
        return project_keys(store, value) or ()
    import os

    from smriti import project as projects

    here = projects.resolve(cwd or os.getcwd())
    return (here.key,) if here else ()


def category_filter(store: Store, value: str | None) -> tuple[str, ...]:
    """A category matches itself and its children (`bug` matches `bug/fix`)."""
    if not value:
        return ()
    value = value.strip("/")
    return tuple(sorted({value} | {c for c in store.categories_in_use() if c.startswith(value + "/")}))


def terms_pattern(terms: list[str]) -> re.Pattern[str] | None:
    """One pattern for the first place any of `terms` starts a word (the leftmost match of the
    alternation is the earliest of the terms'). What `TermFinder` answers without `re` where it can."""
    if not terms:
        return None
    import re

    return re.compile(r"(?i)\b(?:" + "|".join(re.escape(t) for t in terms) + ")")


# What `(?i)` lets an ASCII letter or digit match: its other case, and these four (the only other
# characters `re` folds onto one; tests/test_search_snippet.py checks every code point against `re`).
_FOLD = {
    **{c: c + 32 for c in range(ord("A"), ord("Z") + 1)},
    0x130: ord("i"),  # LATIN CAPITAL LETTER I WITH DOT ABOVE
    0x131: ord("i"),  # LATIN SMALL LETTER DOTLESS I
    0x17F: ord("s"),  # LATIN SMALL LETTER LONG S
    0x212A: ord("k"),  # KELVIN SIGN
}


class TermFinder:
    """Where the first of a search's terms starts a word in a text: `terms_pattern`'s first match,
    found with str methods when every term is ASCII letters and digits (what the analyzer makes of
    ASCII words), with the pattern (compiled once, on the first text that needs it) for anything
    else. `import re` costs a `smriti search` process ~8 ms with `enum`; tests/test_search_snippet.py
    holds the two equal over arbitrary texts and terms."""

    def __init__(self, terms: list[str]):
        self.terms = terms
        # With such terms, `(?i)` is a comparison with the text folded by _FOLD (one character for
        # one, so positions stay), and `\b` before a term (a word character) means "at the start,
        # or after a character that is not one of `re`'s word characters (alphanumeric or `_`)".
        self._plain = [t.lower() for t in terms] if all(t.isascii() and t.isalnum() for t in terms) else None
        self._pattern: re.Pattern[str] | None = None

    def start(self, flat: str) -> int:
        """The position of the first match in `flat`, or 0 when nothing matches."""
        if not self.terms:
            return 0
        if self._plain is not None:
            low = flat.lower() if flat.isascii() else flat.translate(_FOLD)  # the same on ASCII, faster
            best = -1
            for term in self._plain:
                at = low.find(term)
                while at > 0 and (flat[at - 1].isalnum() or flat[at - 1] == "_"):
                    at = low.find(term, at + 1)
                if at != -1 and (best == -1 or at < best):
                    best = at
            return max(best, 0)
        if self._pattern is None:
            self._pattern = terms_pattern(self.terms)
        m = self._pattern.search(flat) if self._pattern is not None else None
        return m.start() if m else 0


def snippet(text: str, terms: list[str], width: int = 220, *, finder: TermFinder | None = None) -> str:
    flat = " ".join(text.split())
    pos = (finder or TermFinder(terms)).start(flat)
    start = max(0, pos - width // 3)
    end = min(len(flat), start + width)
    out = flat[start:end]
    return ("…" if start > 0 else "") + out + ("…" if end < len(flat) else "")


def search(
    store: Store,
    index: Index,
    query: str,
    *,
    project: str | None = None,
    agents: tuple[str, ...] = (),
    category: str | None = None,
    since: str | None = None,
    files: tuple[str, ...] = (),
    limit: int = 10,
    kind: str | None = None,
) -> list[SearchHit]:
    """`kind`: "session", "knowledge", or None for both. Knowledge items are the team's active ones
    (superseded and withdrawn items are left out); `files` narrows to sessions."""
    if limit < 1:
        raise InvalidInput("--limit must be at least 1")
    query = utf8_text(query)  # an argument's undecodable byte: Tantivy takes UTF-8 only
    if kind is not None and kind not in KINDS:
        raise InvalidInput(f"unknown kind {kind!r}: use one of {', '.join(KINDS)}")
    if files and kind == "knowledge":
        raise InvalidInput("--file narrows sessions: it cannot be used with --kind knowledge")
    tiers = {"session": ("own",), "knowledge": ("team",)}.get(kind or "", ("own",) if files else ())
    filters = Filters(
        agents=agents,
        projects=project_keys(store, project),
        categories=category_filter(store, category),
        sessions=tuple(store.sessions_touching(files)) if files else None,
        since=parse_since(since),
        tiers=tiers,
        exclude_statuses=INACTIVE_STATUSES,
    )
    terms = index.analyze(query)
    hits = index.search(query, filters, limit=max(limit * CANDIDATES_PER_RESULT, 100))
    per_key: dict[tuple[str, int], list] = {}
    for hit in hits:
        key = ("knowledge", hit.knowledge_rowid) if hit.knowledge_rowid else ("session", hit.session_rowid)
        per_key.setdefault(key, []).append(hit)
    scored = []
    for key, key_hits in per_key.items():
        if len(key_hits) == 1:  # most: nothing to add
            scored.append((key_hits[0].score, key, key_hits[0]))
            continue
        best = max(key_hits, key=lambda h: h.score)
        others = sorted((h.score for h in key_hits if h is not best), reverse=True)
        score = best.score + sum(w * s for w, s in zip(EXTRA_HIT_WEIGHTS, others, strict=False))
        scored.append((score, key, best))
    scored.sort(key=lambda t: (-t[0], t[1]))
    top = scored[:limit]
    sessions = store.sessions_by_rowid(key[1] for _, key, _ in top if key[0] == "session")
    items = store.knowledge_by_rowid(key[1] for _, key, _ in top if key[0] == "knowledge")
    texts = store.message_texts(best.message_rowid for _, _, best in top if best.message_rowid > 0)
    texts.update({best.message_rowid: store.digest_text(key[1]) for _, key, best in top if best.message_rowid < 0})
    seqs = store.message_seqs(best.message_rowid for _, _, best in top if best.message_rowid > 0)
    finder = TermFinder(terms)
    out = []
    for score, key, best in top:
        if key[0] == "knowledge":
            k = items.get(key[1])
            if k is not None:
                out.append(_knowledge_hit(k, score, terms, finder))
            continue
        s = sessions.get(key[1])
        if s is None:  # removed since the index was written; the next sync drops it
            continue
        out.append(
            SearchHit(
                session_id=s.session_id,
                native_id=s.native_id,
                agent=s.agent,
                project=s.project_name,
                category=s.category or "uncategorized",
                score=round(score, 4),
                snippet=snippet(texts.get(best.message_rowid, ""), terms, finder=finder),
                timestamp=s.ended_at or s.started_at,
                title=s.title,
                message=seqs.get(best.message_rowid, 0),
                kind="session",
                id=s.session_id,
            )
        )
    return out


def _knowledge_hit(k: KnowledgeRow, score: float, terms: list[str], finder: TermFinder) -> SearchHit:
    return SearchHit(
        session_id=None,
        native_id=k.session,
        agent=k.agent,
        project=k.project,
        category=k.category or "uncategorized",
        score=round(score, 4),
        snippet=snippet(k.body, terms, finder=finder),
        timestamp=k.shared or k.created,
        title=k.title,
        message=0,
        kind="knowledge",
        id=k.id,
        path=k.path,
        author=k.author,
        committed_by=k.committed_by,
    )
