"""A first ingest builds its index while it writes the store (`index.DirectBuild`), and the index
it commits is the one a rebuild of the final store makes; whenever that cannot be promised (a
session written twice in the run, a write the build did not see, a store or index that was not
empty) the build is dropped and the index is synced as before."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from smriti.adapters import load_registry
from smriti.config import UserConfig
from smriti.index import DirectBuild, Index
from smriti.ingest import ingest
from smriti.store import Store

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
from snapshot import index_lines  # noqa: E402


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("direct") / "corpus"
    subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "corpus.py"), str(out), "--sessions", "12", "--seed", "5"],
        check=True,
        capture_output=True,
    )
    return out


def _files(corpus: Path) -> list[Path]:
    return sorted(load_registry().get("claude-code").discover(corpus))


def _run(data: Path, paths: list[Path]) -> int:
    store = Store(data / "smriti.db")
    index = Index(data / "index")
    try:
        result = ingest(store, index, load_registry(), UserConfig(), ["claude-code"], paths)
        assert not result.errors, result.errors[:3]
        assert store.outbox_size() == 0
        return result.indexed
    finally:
        store.close()


def _rebuilt(data: Path, tmp_path: Path) -> list[str]:
    """The index dump of a copy of `data` whose index was thrown away and rebuilt from its store."""
    copy = tmp_path / f"rebuilt-{data.name}"
    shutil.copytree(data, copy)
    store = Store(copy / "smriti.db")
    try:
        Index(copy / "index").rebuild(store)
    finally:
        store.close()
    return list(index_lines(copy))


@pytest.mark.parametrize("built", [False, True], ids=["new index", "built empty index"])
def test_a_first_ingest_indexes_what_a_rebuild_of_its_store_does(corpus: Path, tmp_path: Path, built: bool) -> None:
    data = tmp_path / "data"
    data.mkdir()
    store = Store(data / "smriti.db")
    index = Index(data / "index")
    if built:  # as `smriti ingest` finds it: the CLI builds the empty index before ingesting
        index.rebuild(store)
    build = index.direct_build(store)
    assert isinstance(build, DirectBuild)
    build.close()
    store.close()
    indexed = _run(data, _files(corpus))
    docs = list(index_lines(data))
    assert len(docs) > 100
    assert docs == _rebuilt(data, tmp_path)
    # What the run reports is what the path it replaced reported: a rebuild counts messages, a
    # drain of the outbox counts its changes (one per new session, category and digest).
    store = Store(data / "smriti.db")
    try:
        messages = store.count_indexable()
    finally:
        store.close()
    assert indexed == (3 * 12 if built else messages)


def test_a_session_written_twice_in_the_run_falls_back_to_the_rebuild(corpus: Path, tmp_path: Path) -> None:
    files = _files(corpus)
    # The same transcript under a second name: its session is written (and digested) twice.
    twin = tmp_path / "twin" / files[0].parent.name / files[0].name
    twin.parent.mkdir(parents=True)
    twin.write_bytes(files[0].read_bytes())
    data = tmp_path / "data"
    data.mkdir()
    _run(data, [*files, twin.parent.parent])
    assert list(index_lines(data)) == _rebuilt(data, tmp_path)


def test_a_write_the_build_did_not_see_drops_it_and_sync_indexes_the_store(corpus: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    store = Store(data / "smriti.db")
    index = Index(data / "index")
    try:
        build = index.direct_build(store)
        assert build is not None
        # Another writer adds a session meanwhile (here: written straight into the store, as another
        # process's ingest would: its sync would then wait for this build's lock).
        session = load_registry().get("claude-code").parse(_files(corpus)[0], None).sessions[0]
        store.write_session(session, None, None)
        assert build.finish(store) is None
        assert store.outbox_size() > 0  # its changes are still queued: nothing was marked done
        assert index.sync(store) > 0
    finally:
        store.close()
    assert list(index_lines(data)) == _rebuilt(data, tmp_path)


def test_no_direct_build_into_a_store_or_index_that_holds_something(corpus: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    _run(data, _files(corpus)[:2])
    store = Store(data / "smriti.db")
    try:
        assert Index(data / "index").direct_build(store) is None  # the store holds messages
        other = tmp_path / "other-index"
        index = Index(other)
        index.rebuild(store)
        with Store(tmp_path / "empty.db") as empty:
            assert index.direct_build(empty) is None  # the index holds documents
    finally:
        store.close()


def test_no_direct_build_while_another_process_holds_the_index_lock(tmp_path: Path) -> None:
    store = Store(tmp_path / "smriti.db")
    index = Index(tmp_path / "index")
    try:
        with open(index.lock_path, "a+") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            # flock locks belong to an open file: a second open of the file in this process
            # conflicts with it as another process's would.
            assert index.direct_build(store) is None
        build = index.direct_build(store)
        assert build is not None
        build.close()
    finally:
        store.close()
