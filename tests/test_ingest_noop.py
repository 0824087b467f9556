"""A no-op ingest's shortcuts (issue #18): Claude Code hands ingest the stat it took to sort its
transcripts, the store counts each source's sessions instead of listing them, and the cyclic
collector rests while sources are listed. None of them may change what a run reads or stores.

Real store and index, real files; the adapters below wrap the built-in one the way a third-party
adapter would be written, to change what it is seen to do between listing and reading."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from conftest import claude_code_line as line

from smriti.adapters import Registered, Registry
from smriti.adapters.claude_code import ClaudeCodeAdapter
from smriti.config import UserConfig
from smriti.index import Index
from smriti.ingest import IngestResult, ingest
from smriti.models import ParseResult
from smriti.store import Store

ADAPTER = ClaudeCodeAdapter()


def _run(data: Path, adapter: Any, root: Path) -> IngestResult:
    store = Store(data / "smriti.db")
    try:
        registry = Registry({"claude-code": Registered(adapter, "test")}, [])
        return ingest(store, Index(data / "index"), registry, UserConfig(), ["claude-code"], [root])
    finally:
        store.close()


def _counts(r: IngestResult) -> tuple[int, ...]:
    return (r.sessions_found, r.messages_added, r.files_seen, r.files_read, r.files_unchanged, len(r.errors))


def _transcript(path: Path, session: str, turns: int, mtime: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(
        line("user", f"{session}-u{i}", f"question {i} about the {session} build", session=session)
        + line("assistant", f"{session}-a{i}", f"answer {i}", session=session, parent=f"{session}-u{i}")
        for i in range(turns)
    )
    path.write_text(text)
    os.utime(path, (mtime, mtime))


def _rglob_discover(root: Path) -> list[Path]:
    """What Claude Code's discover found before it walked folders itself (its definition)."""

    def excluded(parts: tuple[str, ...]) -> bool:
        return "tool-results" in parts[:-1] or any(
            a == "subagents" and b == "workflows" for a, b in zip(parts, parts[1:], strict=False)
        )

    def mtime(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0

    found = [p for p in root.rglob("*.jsonl") if not excluded(p.relative_to(root).parts)]
    return sorted(found, key=lambda p: (mtime(p), str(p)))


def test_discover_stats_finds_what_rglob_found_with_each_files_own_stat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "projects"
    for n, rel in enumerate(
        [
            "-a/s1.jsonl",
            "-a/s1/subagents/agent-1.jsonl",
            "-a/s1/subagents/workflows/run/journal.jsonl",  # not a transcript
            "-a/s1/tool-results/t.jsonl",  # not a transcript
            "-b/.hidden/s2.jsonl",
            "-b/deep/er/s3.jsonl",
            "top.jsonl",
            "-b/notes.txt",
        ]
    ):
        _transcript(root / rel, f"s{n}", 1, 1_700_000_000 + (n % 3))  # ties: path order decides
    (root / "-b" / "folder.jsonl").mkdir()  # found (ingest vets it), as rglob found it
    outside = tmp_path / "outside"
    _transcript(outside / "linked.jsonl", "l", 1, 1_700_000_009)
    (root / "-c").symlink_to(outside, target_is_directory=True)  # a linked folder is not walked
    (root / "-a" / "file-link.jsonl").symlink_to(outside / "linked.jsonl")  # a linked file is found
    (root / "-a" / "dangling.jsonl").symlink_to(tmp_path / "nowhere.jsonl")  # found, with no stat

    found = ADAPTER.discover_stats(root)
    assert [p for p, _ in found] == _rglob_discover(root) == list(ADAPTER.discover(root))
    assert len(found) == 8
    for path, st in found:
        if path.name == "dangling.jsonl":
            assert st is None
            continue
        assert st is not None
        own = os.stat(path)  # links followed, as ingest's own stat did
        assert (st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode) == (
            own.st_ino,
            own.st_size,
            own.st_mtime_ns,
            own.st_mode,
        )
    for cwd, relative in ((root, Path(".")), (tmp_path, Path("projects"))):  # rglob's path text, too
        monkeypatch.chdir(cwd)
        assert [p for p, _ in ADAPTER.discover_stats(relative)] == _rglob_discover(relative)
    assert ADAPTER.discover_stats(root / "-a" / "s1.jsonl") == [(root / "-a" / "s1.jsonl", None)]
    assert ADAPTER.discover_stats(tmp_path / "nowhere") == []


class _ChangedAfterListing(ClaudeCodeAdapter):
    """Claude Code, with one transcript appended to after the listing took its stat and after
    the run read it: the stat ingest stores as the fingerprint predates both."""

    def __init__(self, target: Path, session: str) -> None:
        self.target, self.session, self.appends = target, session, 0

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        result = super().parse(path, resume)
        if path == self.target and self.appends == 0:
            self.appends += 1
            with path.open("a") as fh:
                fh.write(line("user", "late-u", "a late question after the read", session=self.session))
        return result


def test_a_change_after_the_listing_stat_is_read_by_the_next_run(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    target = root / "-a" / "s-1.jsonl"
    _transcript(target, "s-1", 2, 1_700_000_000)
    _transcript(root / "-a" / "s-2.jsonl", "s-2", 1, 1_700_000_001)
    adapter = _ChangedAfterListing(target, "s-1")
    first = _run(tmp_path / "data", adapter, root)
    assert (first.messages_added, first.files_read) == (6, 2)
    assert adapter.appends == 1
    second = _run(tmp_path / "data", adapter, root)  # the late line: its file no longer matches
    assert (second.messages_added, second.files_read, second.files_unchanged) == (1, 1, 1)
    third = _run(tmp_path / "data", adapter, root)
    assert (third.messages_added, third.files_read, third.files_unchanged) == (0, 0, 2)


class _WithoutStats:
    """A third-party adapter as written before `discover_stats` existed: ingest stats its sources."""

    name = "claude-code"

    def default_roots(self) -> list[Path]:
        return []

    def discover(self, root: Path) -> Iterable[Path]:
        return ADAPTER.discover(root)

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        return ADAPTER.parse(path, resume)


def test_an_adapter_without_discover_stats_reads_and_skips_the_same(tmp_path: Path) -> None:
    seen: dict[str, list[tuple[int, ...]]] = {}
    for label, adapter in (("builtin", ADAPTER), ("plain", _WithoutStats())):
        root = tmp_path / label / "projects"
        for n in range(5):
            _transcript(root / f"-p{n % 2}" / f"s-{n}.jsonl", f"s-{n}", n + 1, 1_700_000_000 + n)
        (root / "-p0" / "empty.jsonl").write_text("")
        runs = [_counts(_run(tmp_path / label / "data", adapter, root))]
        with (root / "-p1" / "s-1.jsonl").open("a") as fh:  # appended between the runs
            fh.write(line("user", "late-u", "one more question", session="s-1"))
        runs += [_counts(_run(tmp_path / label / "data", adapter, root)) for _ in range(2)]
        seen[label] = runs
    assert seen["builtin"] == seen["plain"]
    assert seen["plain"] == [(5, 30, 6, 5, 0, 0), (5, 1, 6, 1, 4, 0), (5, 0, 6, 0, 5, 0)]


@pytest.mark.parametrize("enabled", [True, False])
def test_ingest_leaves_the_cyclic_collector_as_it_found_it(tmp_path: Path, enabled: bool) -> None:
    root = tmp_path / "projects"
    _transcript(root / "-a" / "s-1.jsonl", "s-1", 1, 1_700_000_000)
    was, thresholds = gc.isenabled(), gc.get_threshold()
    try:
        (gc.enable if enabled else gc.disable)()
        gc.set_threshold(900, 11, 12)  # a caller's own (a run raises the first one while it stores)
        for _ in range(2):  # a run that reads, then a no-op one
            _run(tmp_path / "data", ADAPTER, root)
            assert gc.isenabled() is enabled
            assert gc.get_threshold() == (900, 11, 12)
    finally:
        (gc.enable if was else gc.disable)()
        gc.set_threshold(*thresholds)


def test_source_fingerprints_count_what_source_state_lists(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    _transcript(root / "-a" / "s-1.jsonl", "s-1", 2, 1_700_000_000)
    _run(tmp_path / "data", ADAPTER, root)
    store = Store(tmp_path / "data" / "smriti.db")
    try:
        prints = store.source_fingerprints()
        states = store.all_source_states()
        assert prints.keys() == states.keys() and len(prints) == 1
        for path, fp in prints.items():
            state = states[path]
            assert fp == (state.path, state.agent, state.size, state.mtime_ns, state.inode, len(state.sessions))
    finally:
        store.close()
