"""What smriti distils from every shared fixture: title, category and the first summary line.

    python benchmarks/fixture_digests.py > /tmp/digests.md

Ingests each agent's shared fixture folder through the real pipeline into a throw-away data dir
and prints one markdown row per stored session, so a reader can judge titles and categories.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from fixtures import sources  # noqa: E402

from smriti.adapters import load_registry  # noqa: E402
from smriti.config import UserConfig  # noqa: E402
from smriti.index import Index  # noqa: E402
from smriti.ingest import ingest  # noqa: E402
from smriti.store import Store  # noqa: E402


def cell(text: str | None, limit: int = 110) -> str:
    flat = " ".join((text or "").split()).replace("|", "\\|")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def main() -> None:
    registry = load_registry()
    data = Path(tempfile.mkdtemp(prefix="smriti-digests-"))
    store, index = Store(data / "smriti.db"), Index(data / "index")
    # The first prompt beside the title: a reader sees at once whether an "Untitled session" is a
    # fault or a fixture with nothing to go on (redacted or trimmed text, no prompt at all).
    print("| agent | session | title | first prompt | category | first summary line |")
    print("|---|---|---|---|---|---|")
    for name in registry.names:
        paths = sources(registry.get(name), shared_only=True)
        if not paths:
            continue
        ingest(store, index, registry, UserConfig(), [name], paths)
        for row in sorted(store.list_sessions(agent=name, limit=100_000), key=lambda r: r.native_id):
            digest = store.get_digest(row.rowid) or {}
            first = (digest.get("summary") or [""])[0]
            prompt = next((m.text for m in store.messages(row.rowid) if m.kind == "prompt"), "(no prompt)")
            print(
                f"| {name} | {cell(row.native_id, 40)} | {cell(row.title)} | {cell(prompt, 60)} | {row.category} "
                f"| {cell(first)} |"
            )


if __name__ == "__main__":
    main()
