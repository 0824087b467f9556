"""A canonical dump of a data dir (store tables and index documents), to show that a faster ingest
stores exactly what the old one did.

    python benchmarks/snapshot.py DATA_DIR          # prints the dump's sha256
    python benchmarks/snapshot.py DATA_DIR --full   # prints the dump itself (JSON lines)

The store part is every row of every table, in a fixed order, without the columns that hold the
wall-clock time of a write (`ingested_at`, `updated_at`, ...) and without the outbox (transient work).
The index stores no text, so its part is what a search can observe: every document's fast fields,
which documents hold each value of the keyword fields, the document frequency of every term of the
indexed texts, and the scored hits of a sample of those terms (a score depends on the term's
frequency in the document and the document's length, so it pins each document's text).

Run by tests/test_ingest_equality.py and benchmarks/bench_ingest_equality.py; imports only the
smriti modules that read, so it also runs against an older checkout.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import apsw
import tantivy

# Columns whose value is the time of the write, not the content written.
CLOCK_COLUMNS = {"applied_at", "ingested_at", "updated_at", "at", "synced_at", "shared_at"}
# share_files: a cache of this machine's file stats (inodes, times), not content.
# _smriti_migrations: which schema steps ran, not content (a newer checkout has more of them).
SKIP_TABLES = {"outbox", "sqlite_sequence", "share_files", "_smriti_migrations"}
KEYWORD_FIELDS = ("agent", "project", "category", "role", "kind", "tier", "status")
SCORED_TERM_EVERY = 7  # every 7th distinct term (sorted) gets its full scored hit list


def _jsonable(value: object) -> object:
    return value.hex() if isinstance(value, bytes) else value


def store_lines(db: Path) -> Iterator[str]:
    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    tables = [
        n
        for (n,) in conn.execute("select name from sqlite_master where type = 'table' order by name")
        if n not in SKIP_TABLES and not n.startswith("sqlite_")
    ]
    for table in tables:
        cols = [r[1] for r in conn.execute(f"pragma table_info({table})") if r[1] not in CLOCK_COLUMNS]
        if not cols:
            continue
        names = ", ".join(f'"{c}"' for c in cols)
        yield json.dumps({"table": table, "columns": cols})
        for row in conn.execute(f"select {names} from {table} order by {names}"):
            yield json.dumps([table, *map(_jsonable, row)], ensure_ascii=False)
    conn.close()


def index_lines(data: Path) -> Iterator[str]:
    from smriti.index import Index

    index = Index(data / "index")
    searcher = index._index.searcher()
    schema = index.schema
    n = searcher.num_docs
    yield json.dumps({"index_docs": n})
    if not n:
        return
    everything = tantivy.Query.all_query()
    addrs = [addr for _, addr in searcher.search(everything, limit=n, count=False).hits]
    fields = ("mid", "sid", "kid", "pid", "ts")
    columns = [searcher.fast_field_values(f, addrs) for f in fields]
    for row in sorted(zip(*columns, strict=True)):
        yield json.dumps(["doc", *row])

    def mids_of(query: tantivy.Query) -> list[int]:
        found = [addr for _, addr in searcher.search(query, limit=n, count=False).hits]
        return sorted(searcher.fast_field_values("mid", found)) if found else []

    conn = apsw.Connection(str(data / "smriti.db"), flags=apsw.SQLITE_OPEN_READONLY)
    values: dict[str, set[str]] = {f: set() for f in KEYWORD_FIELDS}
    for agent, project, category in conn.execute("select agent, coalesce(project, ''), category from sessions"):
        values["agent"].add(agent)
        values["project"].add(project)
        values["category"].add(category or "uncategorized")
    for role, kind in conn.execute("select distinct role, kind from messages"):
        values["role"].add(role)
        values["kind"].add(kind)
    values["role"].add("system")
    values["kind"].update(("digest", "knowledge"))
    values["tier"].update(("own", "team"))
    values["status"].update(s for (s,) in conn.execute("select distinct status from knowledge"))
    values["status"].add("")
    for field in KEYWORD_FIELDS:
        for value in sorted(values[field]):
            query = tantivy.Query.term_query(schema, field, value, index_option="basic")
            yield json.dumps(["keyword", field, value, mids_of(query)], ensure_ascii=False)

    terms: set[str] = set()
    for (text,) in conn.execute("select b.text from messages m join blobs b on b.id = m.blob"):
        terms.update(index.analyzer.analyze(text))
    for row in conn.execute("select title, summary, entities from digests"):
        for value in row:
            terms.update(index.analyzer.analyze(value))
    conn.close()
    for i, term in enumerate(sorted(terms)):
        yield json.dumps(["df", term, searcher.doc_freq("text", term)], ensure_ascii=False)
        if i % SCORED_TERM_EVERY == 0:
            query = tantivy.Query.term_query(schema, "text", term, index_option="freq")
            result = searcher.search(query, limit=n, count=False)
            found = [addr for _, addr in result.hits]
            mids = searcher.fast_field_values("mid", found) if found else []
            pids = searcher.fast_field_values("pid", found) if found else []
            hits = sorted((m, p, round(score, 4)) for (score, _), m, p in zip(result.hits, mids, pids, strict=True))
            yield json.dumps(["hits", term, hits], ensure_ascii=False)


def dump(data: Path) -> Iterator[str]:
    yield from store_lines(data / "smriti.db")
    yield from index_lines(data)


def digest(data: Path) -> str:
    h = hashlib.sha256()
    for line in dump(data):
        h.update(line.encode("utf-8", "surrogatepass") + b"\n")
    return h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", type=Path)
    ap.add_argument("--full", action="store_true")
    args = ap.parse_args()
    if args.full:
        for line in dump(args.data):
            print(line)
    else:
        print(digest(args.data))


if __name__ == "__main__":
    main()
