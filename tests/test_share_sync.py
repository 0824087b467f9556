"""Team sharing end to end through the real CLI: alice and bob, two data dirs, real git clones of
one bare "origin", `smriti init / share / unshare / sync / hooks install --git`.

Every assertion on a knowledge file is on its bytes; assertions on a teammate's store go through
`sync --json` (and, where the CLI does not expose it yet, a read-only look at the store).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import claude_code_line, invoke, run_smriti
from hypothesis import given, settings
from hypothesis import strategies as hst

from smriti.store import KnowledgeRow

# ---------------------------------------------------------------------------------------------
# Helpers: git, tiny Claude Code transcripts, actors with their own data dir


def git(cwd: Path, *args: str, check: bool = True) -> str:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}
    proc = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, env=env)
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stdout}{proc.stderr}")
    return proc.stdout


def transcript(session: str, cwd: Path, turns: list[tuple[str, object]], title: str | None = None) -> str:
    """A transcript of (kind, content) turns: "user" / "assistant" text, "tool_use" (name, input),
    "tool_result" text. A `title` becomes a custom-title record (the title the user set)."""
    out, parent = [], None
    for i, (kind, content) in enumerate(turns):
        uuid = f"{session}-{i}"
        if kind == "tool_use":
            name, tool_input = content  # type: ignore[misc]
            line = claude_code_line(
                "assistant",
                uuid,
                [{"type": "tool_use", "id": f"tu-{session}-{i}", "name": name, "input": tool_input}],
                session,
                parent,
                str(cwd),
            )
        elif kind == "tool_result":
            line = claude_code_line(
                "user",
                uuid,
                [{"type": "tool_result", "tool_use_id": f"tu-{session}-{i - 1}", "content": content}],
                session,
                parent,
                str(cwd),
            )
        else:
            line = claude_code_line(kind, uuid, content, session, parent, str(cwd))
        out.append(line)
        parent = uuid
    if title is not None:
        out.append(json.dumps({"type": "custom-title", "customTitle": title, "sessionId": session}) + "\n")
    return "".join(out)


@dataclass
class Actor:
    """A teammate: a clone of origin, a data dir (SMRITI_HOME) and a home dir of their own."""

    name: str
    clone: Path
    data: Path
    home: Path
    runner: object
    monkeypatch: pytest.MonkeyPatch
    sessions: dict[str, Path] = field(default_factory=dict)

    def _env(self) -> None:
        self.monkeypatch.setenv("SMRITI_HOME", str(self.data))
        self.monkeypatch.setenv("HOME", str(self.home))

    def run(self, *args: str, expect: int | None = 0):
        self._env()
        return invoke(self.runner, *args, expect=expect)

    def json(self, *args: str, expect: int | None = 0):
        out = self.run(*args, "--json", expect=expect)
        return json.loads(out.stdout)

    def sub(self, *args: str) -> subprocess.CompletedProcess:
        """The real console script in a subprocess, as this actor."""
        return run_smriti(*args, env={"SMRITI_HOME": str(self.data), "HOME": str(self.home)})

    def git(self, *args: str, check: bool = True) -> str:
        return git(self.clone, *args, check=check)

    def session(self, native_id: str, turns: list[tuple[str, object]], title: str | None = None) -> str:
        """Write (or rewrite) a transcript whose cwd is this actor's clone and ingest it."""
        path = self.home / "transcripts" / f"{native_id}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(transcript(native_id, self.clone, turns, title))
        self.sessions[native_id] = path
        out = self.json("ingest", "--path", str(path))
        assert out["errors"] == [], out
        return native_id

    def share(self, *args: str, expect: int = 0) -> dict:
        return self.json("share", "--repo", str(self.clone), *args, expect=expect)

    def sync(self, *args: str) -> dict:
        return self.json("sync", "--repo", str(self.clone), *args)

    def commit_push(self, message: str, branch: str = "main") -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        self.git("push", "-q", "origin", f"HEAD:{branch}")

    def store(self):
        """A read-only look at this actor's store (the CLI has no knowledge listing yet)."""
        from smriti import paths
        from smriti.store import Store

        return Store(paths.db_path(self.data))

    def knowledge_items(self) -> list[KnowledgeRow]:
        st = self.store()
        try:
            ids = [r[0] for r in st.conn.execute("select item_id from knowledge order by item_id")]
            return [st.knowledge_item(i) for i in ids]
        finally:
            st.close()


def zorblax(actor: Actor, native_id: str = "sess-zorblax", extra: str = "") -> str:
    """A bug-fix session about a distinctive topic, so recall-to-be has something to find."""
    return actor.session(
        native_id,
        [
            (
                "user",
                "The zorblax cache keeps evicting hot entries under load; please fix the eviction bug in src/cache.py",
            ),
            (
                "assistant",
                "The root cause was the LRU size: zorblax entries were evicted because the limit was 10. "
                "Fixed it by raising the limit to 10000 in src/cache.py; the tests pass now." + extra,
            ),
        ],
    )


@pytest.fixture
def team(tmp_path: Path, runner, monkeypatch: pytest.MonkeyPatch):
    """origin (bare, main, with `.smriti/` committed by `smriti init`), and clones for alice and bob."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    seed = tmp_path / "seed"
    git(tmp_path, "clone", "-q", str(origin), str(seed))
    git(seed, "config", "user.name", "seed")
    git(seed, "config", "user.email", "seed@example.com")
    (seed / "README.md").write_text("# payments\n")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "initial")
    git(seed, "push", "-q", "origin", "main")

    actors = {}
    for name in ("alice", "bob"):
        clone = tmp_path / name
        git(tmp_path, "clone", "-q", str(origin), str(clone))  # origin/HEAD -> origin/main
        git(clone, "config", "user.name", name)
        git(clone, "config", "user.email", f"{name}@example.com")
        home = tmp_path / f"home-{name}"
        home.mkdir()
        actors[name] = Actor(name, clone, tmp_path / f"data-{name}", home, runner, monkeypatch)
    alice, bob = actors["alice"], actors["bob"]
    created = alice.json("init", "--repo", str(alice.clone))["created"]
    assert ".smriti/config.toml" in created and ".gitattributes" in created
    alice.commit_push("smriti init")
    bob.git("pull", "-q", "origin", "main")
    return alice, bob


def knowledge_files(clone: Path) -> list[Path]:
    return sorted((clone / ".smriti" / "knowledge").rglob("*.md"))


def only_file(clone: Path) -> Path:
    files = knowledge_files(clone)
    assert len(files) == 1, files
    return files[0]


# ---------------------------------------------------------------------------------------------
# Share → review → sync


def test_alice_shares_bob_syncs(team) -> None:
    alice, bob = team
    zorblax(alice)
    out = alice.share("--session", "sess-zorblax")
    assert out["skipped"] == [] and out["unchanged"] == 0 and len(out["written"]) == 1
    rel = out["written"][0]
    assert rel.startswith(".smriti/knowledge/bug/") and rel.endswith(".md")
    data = (alice.clone / rel).read_bytes()
    assert b"zorblax" in data and b'author: "alice"' in data and b'agent: "claude-code"' in data
    assert b"\r" not in data and data.endswith(b"\n") and not data.endswith(b"\n\n")
    alice.commit_push("share the zorblax fix")

    bob.git("pull", "-q", "origin", "main")
    first = bob.sync()
    assert (first["imported"], first["updated"], first["removed"], first["unchanged"], first["rejected"]) == (
        1,
        0,
        0,
        0,
        [],
    )
    assert first["ref"] == "origin/main" and first["commit"] == bob.git("rev-parse", "origin/main").strip()
    again = bob.sync()
    assert (again["imported"], again["updated"], again["removed"], again["unchanged"]) == (0, 0, 0, 1)
    [item] = bob.knowledge_items()
    assert "zorblax" in item.body and item.author == "alice" and item.origin == "sync"
    assert item.path == rel and item.category.startswith("bug")
    # the text output says the same
    assert (
        "0 imported, 0 updated, 0 removed, 1 unchanged from origin/main"
        in bob.run("sync", "--repo", str(bob.clone)).stdout
    )


def test_a_fetch_is_enough_without_origin_head(team, tmp_path: Path) -> None:
    """A clone without origin/HEAD (cloned while empty, or `git init` + push) reads origin/main,
    the reviewed state, not a stale local main: `git fetch` is enough."""
    alice, bob = team
    bob.git("remote", "set-head", "origin", "--delete")
    zorblax(alice)
    alice.share("--session", "sess-zorblax")
    alice.commit_push("share")
    bob.git("fetch", "-q", "origin")  # local main is now behind
    out = bob.sync()
    assert out["ref"] == "origin/main" and out["imported"] == 1
    # and through the console script, as a git hook would run it
    proc = bob.sub("sync", "--repo", str(bob.clone), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["unchanged"] == 1


def test_sync_fetches_what_a_teammate_pushed(team) -> None:
    """bob never runs git himself: sync fetches origin, so alice's push is imported; --no-fetch reads
    the clone as it is (and says nothing new arrived)."""
    alice, bob = team
    zorblax(alice)
    alice.share("--session", "sess-zorblax")
    alice.commit_push("share the zorblax fix")
    before = bob.git("rev-parse", "origin/main").strip()

    stale = bob.sync("--no-fetch")
    assert (stale["imported"], stale["fetched"], stale["warnings"]) == (0, None, [])
    assert stale["commit"] == before

    out = bob.sync()
    assert (out["imported"], out["fetched"], out["warnings"]) == (1, "origin", [])
    assert out["commit"] == bob.git("rev-parse", "origin/main").strip() != before
    assert "zorblax" in bob.knowledge_items()[0].body
    # the local branch is untouched: a fetch moves only the remote-tracking refs
    assert bob.git("rev-parse", "main").strip() == before


def test_sync_offline_or_without_a_remote_warns_and_reads_the_local_ref(team, tmp_path: Path) -> None:
    alice, bob = team
    zorblax(alice)
    alice.share("--session", "sess-zorblax")
    alice.commit_push("share")
    bob.git("fetch", "-q", "origin")
    bob.git("remote", "set-url", "origin", str(tmp_path / "gone.git"))  # the remote is unreachable
    result = bob.run("sync", "--repo", str(bob.clone), "--json")
    out = json.loads(result.stdout)
    assert out["imported"] == 1 and out["ref"] == "origin/main" and out["fetched"] is None
    [warning] = out["warnings"]
    assert "git fetch origin failed" in warning and "local origin/main" in warning
    assert f"warning: {warning}" in result.stderr
    text = bob.run("sync", "--repo", str(bob.clone))
    assert "1 unchanged from origin/main" in text.stdout and "git fetch origin failed" in text.stderr
    assert bob.run("sync", "--repo", str(bob.clone), "--quiet").stderr == ""  # git hooks: silence

    # a repo that never had a remote: nothing to fetch, said once, and its main is read
    solo = tmp_path / "solo"
    git(tmp_path, "init", "-q", "-b", "main", str(solo))
    git(solo, "config", "user.name", "solo")
    git(solo, "config", "user.email", "solo@example.com")
    (solo / "README.md").write_text("solo\n")
    git(solo, "add", "-A")
    git(solo, "commit", "-q", "-m", "initial")
    out = json.loads(alice.run("sync", "--repo", str(solo), "--json").stdout)
    assert out["ref"] == "main" and out["warnings"] == ["no remote named origin to fetch; importing the local main"]
    assert json.loads(alice.run("sync", "--repo", str(solo), "--no-fetch", "--json").stdout)["warnings"] == []


def test_own_share_synced_back_is_the_same_item(team) -> None:
    alice, _ = team
    zorblax(alice)
    alice.share("--session", "sess-zorblax")
    alice.commit_push("share")
    assert alice.sync()["imported"] == 1
    again = alice.sync()
    assert (again["imported"], again["unchanged"]) == (0, 1)
    assert len(alice.knowledge_items()) == 1
    # re-sharing after the sync changes nothing either
    assert alice.share("--session", "sess-zorblax")["unchanged"] == 1
    assert alice.git("status", "--porcelain") == ""


def test_reshare_unchanged_is_byte_identical(team) -> None:
    alice, _ = team
    zorblax(alice)
    path = alice.clone / alice.share("--session", "sess-zorblax")["written"][0]
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    again = alice.share("--session", "sess-zorblax")
    assert (again["written"], again["unchanged"], again["skipped"]) == ([], 1, [])
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime
    # --dry-run writes nothing, and says what it would do
    dry = alice.share("--session", "sess-zorblax", "--dry-run")
    assert dry["dry_run"] is True and dry["unchanged"] == 1


def _without_share_time(data: bytes) -> bytes:
    lines = data.splitlines(keepends=True)
    assert sum(line.startswith(b"shared: ") for line in lines) == 1
    return b"".join(line for line in lines if not line.startswith(b"shared: "))


def test_reshare_of_unchanged_inputs_skips_redaction_and_still_rewrites_a_deleted_file(team, monkeypatch) -> None:
    """A re-share whose inputs (messages, digest, tags, settings, rules) and file are as recorded
    redacts and renders nothing; a file deleted from the working tree, or a record made before
    inputs were recorded, takes the full path again."""
    from smriti.team import redact

    alice, _ = team
    zorblax(alice)
    rel = alice.share("--session", "sess-zorblax")["written"][0]
    path = alice.clone / rel
    original = path.read_bytes()
    real_redact = redact.redact

    def no_redaction(*args, **kwargs):
        raise AssertionError("an unchanged item was redacted again")

    monkeypatch.setattr(redact, "redact", no_redaction)
    assert alice.share("--session", "sess-zorblax")["unchanged"] == 1
    # the same bytes written back by someone else (a checkout) are still the recorded file
    path.write_bytes(original)
    assert alice.share("--session", "sess-zorblax")["unchanged"] == 1

    monkeypatch.setattr(redact, "redact", real_redact)
    path.unlink()
    assert alice.share("--session", "sess-zorblax")["written"] == [rel]
    # Shared again, so stamped with this share's time (a second later than the first, sometimes):
    # otherwise the same bytes.
    assert _without_share_time(path.read_bytes()) == _without_share_time(original)
    rewritten = path.read_bytes()

    # A record from before the inputs column: the full path once (byte-identical, unchanged), and
    # it records the inputs, so the next run skips.
    st = alice.store()
    try:
        with st.conn:
            st.conn.execute("update shares set inputs = null")
    finally:
        st.close()
    assert alice.share("--session", "sess-zorblax")["unchanged"] == 1
    monkeypatch.setattr(redact, "redact", no_redaction)
    assert alice.share("--session", "sess-zorblax")["unchanged"] == 1
    assert path.read_bytes() == rewritten  # (`original` if the re-share fell in the same second)


def test_file_cache_skips_opening_unchanged_files_and_sees_every_change(team, monkeypatch) -> None:
    """A re-share reads no file whose lstat is what the last share recorded (`share_files`), and
    any change of a file (an edit of the same size, a move, a copy, a deletion) is read again: the
    outcome is the one without the cache."""
    from smriti.team import share as share_mod

    alice, _ = team
    zorblax(alice)
    zorblax(alice, "sess-other", extra=" Other.")
    # Files are cached only once their mtime is safely past (a coarse clock can hide a later write);
    # the edits below set distinct mtimes themselves, so the test need not wait.
    monkeypatch.setattr(share_mod, "RACY_NS", -(10**12))
    written = alice.share()["written"]
    assert len(written) == 2
    path = alice.clone / written[0]
    original = path.read_bytes()
    st = alice.store()
    try:
        cached = {p: (item_id, sha) for p, (_, item_id, sha) in st.share_files(str(path.parents[2])).items()}
    finally:
        st.close()
    assert sorted(cached) == sorted(w.removeprefix(".smriti/knowledge/") for w in written)
    assert cached[written[0].removeprefix(".smriti/knowledge/")][1] == hashlib.sha256(original).hexdigest()

    real_read = share_mod._read_id
    opened: list[Path] = []

    def spy(p: Path):
        opened.append(p)
        return real_read(p)

    monkeypatch.setattr(share_mod, "_read_id", spy)
    assert alice.share()["unchanged"] == 2 and opened == []

    def touch_later(p: Path, seconds: int) -> None:
        st = p.stat()
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 10**9))

    # an edit of the same size is read again: a person's edit
    edited = original.replace(b"zorblax", b"ZORBLAX", 1)
    assert len(edited) == len(original)
    path.write_bytes(edited)
    touch_later(path, 5)
    out = alice.share()
    assert opened == [path] and "edited by a person" in out["skipped"][0]["reason"]
    # the original bytes back: unchanged again, and cached again
    path.write_bytes(original)
    touch_later(path, 10)
    opened.clear()
    assert alice.share()["unchanged"] == 2 and opened == [path]
    opened.clear()
    assert alice.share()["unchanged"] == 2 and opened == []
    # a move: found by id in its new place
    moved = path.with_name("moved-" + path.name)
    path.rename(moved)
    assert alice.share()["unchanged"] == 2 and opened == [moved]
    # a copy that sorts first takes the id (as without a cache): not where recorded, so the full
    # path decides, and what it finds matches
    copy = moved.parent / ("a-copy-" + path.name)
    copy.write_bytes(original)
    with_cache = share_mod.scan_items(alice.clone, alice.store().share_files(str(path.parents[2])))
    without = share_mod.scan_items(alice.clone)
    assert (with_cache.found, with_cache.shas, with_cache.rel) == (without.found, without.shas, without.rel)
    assert copy in with_cache.found.values()
    copy.unlink()
    moved.unlink()
    [gone] = alice.share()["skipped"]  # deleted: a sweep does not bring it back; naming it does
    assert alice.share("--session", gone["id"])["written"] == [written[0]] and path.exists()


def test_person_edit_is_skipped_and_refresh_overwrites(team) -> None:
    alice, _ = team
    zorblax(alice)
    path = alice.clone / alice.share("--session", "sess-zorblax")["written"][0]
    original = path.read_bytes()
    edited = original.replace(b"## Summary", b"## Summary\n\nReviewer note: also check the TTL.")
    path.write_bytes(edited)
    out = alice.share("--session", "sess-zorblax")
    assert out["written"] == [] and out["unchanged"] == 0
    [skip] = out["skipped"]
    assert "edited by a person" in skip["reason"] and "--refresh" in skip["reason"]
    assert path.read_bytes() == edited
    refreshed = alice.share("--session", "sess-zorblax", "--refresh")
    assert refreshed["written"] == [str(path.relative_to(alice.clone))]
    assert b"Reviewer note" not in path.read_bytes() and b"zorblax" in path.read_bytes()
    # a frontmatter-only edit (a reviewer fixing the title) is a person's edit too
    text = path.read_bytes().replace(b'title: "', b'title: "Reviewed: ', 1)
    path.write_bytes(text)
    assert "edited by a person" in alice.share("--session", "sess-zorblax")["skipped"][0]["reason"]
    assert path.read_bytes() == text


def test_reviewer_move_is_found_by_id(team) -> None:
    alice, _ = team
    zorblax(alice)
    old = alice.clone / alice.share("--session", "sess-zorblax")["written"][0]
    alice.commit_push("share")
    new = alice.clone / ".smriti" / "knowledge" / "caching" / "zorblax-eviction.md"
    new.parent.mkdir(parents=True)
    alice.git("mv", str(old), str(new))
    alice.commit_push("review: move")
    assert alice.share("--session", "sess-zorblax")["unchanged"] == 1
    assert knowledge_files(alice.clone) == [new]
    # the session goes on: the re-share lands in the moved file, in place
    zorblax(alice, extra=" Also added a regression test for zorblax eviction.")
    out = alice.share("--session", "sess-zorblax")
    assert out["written"] == [str(new.relative_to(alice.clone))]
    assert knowledge_files(alice.clone) == [new] and b"regression test" in new.read_bytes()


def test_edit_merged_on_main_is_an_update_and_delete_is_a_removal(team) -> None:
    alice, bob = team
    zorblax(alice)
    rel = alice.share("--session", "sess-zorblax")["written"][0]
    alice.commit_push("share")
    assert alice.sync()["imported"] == 1

    bob.git("pull", "-q", "origin", "main")
    bob.git("checkout", "-q", "-b", "edit-zorblax")
    path = bob.clone / rel
    path.write_bytes(path.read_bytes() + b"\nBob: the limit is also configurable via ZORBLAX_LRU.\n")
    bob.git("commit", "-q", "-am", "clarify")
    bob.git("checkout", "-q", "main")
    bob.git("merge", "-q", "--no-ff", "-m", "merge review", "edit-zorblax")
    bob.git("push", "-q", "origin", "main")

    alice.git("pull", "-q", "origin", "main")
    out = alice.sync()
    assert (out["imported"], out["updated"], out["removed"], out["unchanged"]) == (0, 1, 0, 0)
    [item] = alice.knowledge_items()
    assert "ZORBLAX_LRU" in item.body
    # her own re-share now leaves the reviewed edit alone
    assert "edited by a person" in alice.share("--session", "sess-zorblax")["skipped"][0]["reason"]
    # `smriti check` accepts a person's edit
    assert alice.json("check", str(alice.clone))["problems"] == []

    alice.git("rm", "-q", rel)
    alice.commit_push("withdraw")
    out = alice.sync()
    assert (out["imported"], out["updated"], out["removed"], out["unchanged"]) == (0, 0, 1, 0)
    assert alice.knowledge_items() == []


def test_unshare_removes_the_file_and_sync_removes_the_item(team) -> None:
    alice, bob = team
    zorblax(alice)
    rel = alice.share("--session", "sess-zorblax")["written"][0]
    alice.commit_push("share")
    bob.git("pull", "-q", "origin", "main")
    assert bob.sync()["imported"] == 1
    item_id = bob.knowledge_items()[0].id
    out = alice.json("unshare", item_id[:8], "--repo", str(alice.clone))
    assert out == {"removed": [rel], "id": item_id}
    assert not (alice.clone / rel).exists()
    alice.commit_push("unshare")
    bob.git("pull", "-q", "origin", "main")
    assert bob.sync()["removed"] == 1
    assert "no knowledge file" in alice.run("unshare", item_id, "--repo", str(alice.clone), expect=1).stderr


# ---------------------------------------------------------------------------------------------
# Two teammates at once


def test_parallel_shares_merge_without_conflict(team) -> None:
    alice, bob = team
    zorblax(alice)
    bob.session(
        "sess-quux",
        [
            ("user", "Why does the quuxinator migration deadlock? fix the bug in migrations/0042.py"),
            ("assistant", "The root cause was two locks taken in opposite order. Fixed it; the tests pass."),
        ],
    )
    for actor, sid in ((alice, "sess-zorblax"), (bob, "sess-quux")):
        actor.git("checkout", "-q", "-b", f"share-{actor.name}")
        assert len(actor.share("--session", sid)["written"]) == 1
        actor.commit_push(f"share from {actor.name}", branch=f"share-{actor.name}")

    alice.git("checkout", "-q", "main")
    alice.git("fetch", "-q", "origin")
    alice.git("merge", "-q", "--no-ff", "-m", "merge alice", "origin/share-alice")
    alice.git("merge", "-q", "--no-ff", "-m", "merge bob", "origin/share-bob")  # raises on a conflict
    alice.git("push", "-q", "origin", "main")

    for actor in (alice, bob):
        actor.git("checkout", "-q", "main")
        actor.git("pull", "-q", "origin", "main")
        out = actor.sync()
        assert (out["imported"], out["rejected"]) == (2, []), out
        assert len(actor.knowledge_items()) == 2
    assert {i.author for i in bob.knowledge_items()} == {"alice", "bob"}


def test_edit_on_one_branch_and_recategorize_on_another_keep_one_identity(team) -> None:
    alice, bob = team
    zorblax(alice)
    rel = alice.share("--session", "sess-zorblax")["written"][0]
    alice.commit_push("share")
    assert bob.git("pull", "-q", "origin", "main") == "" and bob.sync()["imported"] == 1
    item_id = bob.knowledge_items()[0].id

    # alice edits the body on one branch
    alice.git("checkout", "-q", "-b", "edit")
    path = alice.clone / rel
    path.write_bytes(path.read_bytes() + b"\nEdited: the eviction window is now logged.\n")
    alice.commit_push("edit body", branch="edit")
    # bob re-categorizes on another: moves it to another category folder and says so
    bob.git("checkout", "-q", "-b", "recat")
    target = bob.clone / ".smriti" / "knowledge" / "architecture" / "decision" / Path(rel).name
    target.parent.mkdir(parents=True)
    bob.git("mv", rel, str(target))
    text = target.read_bytes()
    old_cat = text.split(b'category: "', 1)[1].split(b'"', 1)[0]
    target.write_bytes(text.replace(b'category: "' + old_cat + b'"', b'category: "architecture/decision"', 1))
    bob.commit_push("recategorize", branch="recat")

    bob.git("checkout", "-q", "main")
    bob.git("fetch", "-q", "origin")
    bob.git("merge", "-q", "--no-ff", "-m", "merge edit", "origin/edit")
    bob.git("merge", "-q", "--no-ff", "-m", "merge recat", "origin/recat")
    bob.git("push", "-q", "origin", "main")
    assert knowledge_files(bob.clone) == [target]
    merged = target.read_bytes()
    assert b"eviction window is now logged" in merged and b'category: "architecture/decision"' in merged

    out = bob.sync()
    assert (out["imported"], out["updated"], out["removed"], out["rejected"]) == (0, 1, 0, [])
    [item] = bob.knowledge_items()
    assert item.id == item_id and item.category == "architecture/decision"
    assert "eviction window" in item.body and item.path == str(target.relative_to(bob.clone))
    assert bob.json("check", str(bob.clone))["problems"] == []


# ---------------------------------------------------------------------------------------------
# Review state: only the default branch, unless asked


def test_unmerged_branch_is_not_imported_unless_asked(team) -> None:
    alice, bob = team
    zorblax(alice)
    alice.git("checkout", "-q", "-b", "draft")
    alice.share("--session", "sess-zorblax")
    alice.commit_push("draft share", branch="draft")

    bob.git("fetch", "-q", "origin")
    out = bob.sync()
    assert (out["imported"], out["ref"]) == (0, "origin/main")
    out = bob.sync("--ref", "origin/draft")
    assert (out["imported"], out["ref"]) == (1, "origin/draft")
    assert bob.sync("--ref", "origin/draft")["unchanged"] == 1
    # back to the default branch: the draft leaves the store again
    assert bob.sync()["removed"] == 1 and bob.knowledge_items() == []

    # alice's working tree (the draft branch checked out) on purpose
    out = alice.sync("--worktree")
    assert (out["imported"], out["ref"], out["commit"]) == (1, "worktree", None)
    assert alice.sync()["removed"] == 1  # main has nothing yet
    bad = alice.run("sync", "--repo", str(alice.clone), "--ref", "main", "--worktree", expect=2)
    assert "exclude each other" in bad.stderr
    assert "no such ref" in alice.run("sync", "--repo", str(alice.clone), "--ref", "nope", expect=1).stderr


def test_worktree_sync_then_committed_sync_is_unchanged(team) -> None:
    """The same bytes on disk and in a commit are the same blob: no spurious 'updated'."""
    alice, _ = team
    zorblax(alice)
    alice.share("--session", "sess-zorblax")
    assert alice.sync("--worktree")["imported"] == 1
    alice.commit_push("share")
    out = alice.sync()
    assert (out["imported"], out["updated"], out["unchanged"]) == (0, 0, 1), out
    assert alice.sync("--worktree")["unchanged"] == 1


# ---------------------------------------------------------------------------------------------
# Redaction: nothing secret reaches a file; look-alikes survive; residual findings fail closed

AWS = "AKIAQ3EGUMZXWPT7JH4N"
GHP = "ghp_" + "Zq8Lm2Rt6Vx0Bn4Cd8Fg2Hj6Kl0Mp4Qs8Tu2W"
OPENAI = "sk-proj-" + "T3BlbkFJx9Qw2Er5Ty8Ui1Op4As7Df0Gh3Jk6Lz9Xc2Vb5Nm8Qw1Er4Ty7Ui0Op3As6Df9"
SLACK = "xoxb-" + "2048151234567-4096281234567-Qx7Wz3Rk9Tp2Lm5Nv8Bc1Dy4"
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAx7Q2lPzK9wVd3mR8nT1yB6uJ4cF0hG5sE2aW7oL3kZ9qX1vN\n"
    "c2VjcmV0a2V5bWF0ZXJpYWxoZXJlMTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3Bx\n-----END RSA PRIVATE KEY-----"
)
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MjQyIiwibmFtZSI6IlphcmEgUXVpbm4iLCJhZG1pbiI6dHJ1ZX0"
    ".Xq3v9Rk2Lm8Tp5Wz1Nc7Bd4Fg6Hj0Ks2Lq9Mr3Tu5Vw"
)
DB_PASSWORD = "Tr0ub4dor-x9q"
PG = f"postgres://payments:{DB_PASSWORD}@db.internal.acme:5432/payments"
ENV_PASSWORD = "s3cretHorseBattery77"
EMAIL = "carol.ng@acme-payments.io"
HOME_PATH = "/home/dave/src/payments/app/cache.py"
SECRETS = [
    AWS,
    GHP,
    OPENAI,
    SLACK,
    "MIIEpAIBAAKCAQEAx7Q2lPzK9wVd3mR8nT1yB6uJ4cF0hG5sE2aW7oL3kZ9qX1vN",
    "c2VjcmV0a2V5bWF0ZXJpYWxoZXJl",
    JWT,
    JWT.split(".")[1],
    JWT.split(".")[2],
    DB_PASSWORD,
    ENV_PASSWORD,
    EMAIL,
    "/home/dave",
]
GIT_SHA = "9fceb02d0ae598e95dc970b74767f19372d61af8"
UUID = "3f2b8c1e-7d4a-4e9b-a2c6-5f1d8e7b9a30"
DIGEST = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
LOOKALIKES = [GIT_SHA, UUID, DIGEST]


def secret_session(actor: Actor) -> str:
    return actor.session(
        "sess-secrets",
        [
            (
                "user",
                f"The deploy bug: the job fails with key {AWS} and token {GHP}; also {OPENAI} is set. "
                f"Commit {GIT_SHA}, request id {UUID}, image {DIGEST}. Mail {EMAIL}, see {HOME_PATH}.",
            ),
            (
                "assistant",
                f"The root cause was the Slack notifier using {SLACK}; fixed the bug by reading it from the vault.",
            ),
            ("tool_use", ("Bash", {"command": f"psql {PG} -c 'select 1' && cat /home/dave/.env"})),
            ("tool_result", f"PASSWORD={ENV_PASSWORD}\nDATABASE_URL={PG}\n{PEM}\nsession cookie {JWT}\nok"),
            ("assistant", f"Fixed: the notifier no longer logs {SLACK}; the tests pass. Verified at {GIT_SHA}."),
        ],
        title=f"Fix deploy job leaking {GHP} for {EMAIL}",
    )


@pytest.mark.parametrize("mode", ["condensed", "full"])
def test_secrets_never_reach_the_file_while_lookalikes_survive(team, mode: str) -> None:
    alice, _ = team
    secret_session(alice)
    out = alice.share("--session", "sess-secrets", "--transcript", mode)
    assert out["skipped"] == [], out
    data = (alice.clone / out["written"][0]).read_bytes()
    for secret in SECRETS:
        assert secret.encode() not in data, secret
    assert b"BEGIN RSA PRIVATE KEY" not in data or mode == "condensed"
    for kind in ("aws-key", "github-token", "openai-key", "slack-token", "email"):
        assert f"[REDACTED:{kind}]".encode() in data, kind
    assert b"~/src/payments/app/cache.py" in data
    for lookalike in LOOKALIKES:
        assert lookalike.encode() in data, lookalike
    if mode == "full":  # the tool output is in the file, redacted
        assert b"[REDACTED:private-key]" in data and b"PASSWORD=[REDACTED:" in data
    # what was written passes the same scanner in CI
    assert alice.json("check", str(alice.clone))["problems"] == []


def test_a_secret_cut_by_condensing_is_still_redacted(team) -> None:
    """Messages are condensed to 4000 characters, tool calls to one 160-character line, titles to 120
    characters, and summaries quote the first 3000 characters of a response: a secret straddling
    any of these cuts used to leak its first half, which the redactor no longer recognised."""
    alice, _ = team
    filler = "We need to fix the bug in the deploy script before the release. " * 70
    sentences = "The deploy job ran again on the staging cluster today. " * 53  # the JWT straddles 3000
    alice.session(
        "sess-cut",
        [
            ("user", filler[:3970] + " " + GHP + " is the token that fails"),
            ("tool_use", ("Bash", {"command": "echo " + "x" * 135 + f" {AWS} {GHP}"})),
            ("tool_result", "ok"),
            ("assistant", sentences + f"Fixed the deploy bug because the culprit was {JWT} all along."),
        ],
        title="Deploy-fix-" + "z" * 85 + "/" + GHP,
    )
    out = alice.share("--session", "sess-cut")
    assert out["skipped"] == []
    data = (alice.clone / out["written"][0]).read_bytes()
    for prefix in (GHP[:8], AWS[:8], JWT[:12]):
        assert prefix.encode() not in data, prefix
    assert b"[REDACTED:jwt]" in data and b"> tool: Bash: echo xxx" in data


def test_a_residual_finding_skips_the_item_and_writes_nothing(team) -> None:
    alice, _ = team
    config = alice.clone / ".smriti" / "config.toml"
    config.write_text(
        config.read_text()
        + 'pattern_timeout = 0.05\n[[redact.patterns]]\nname = "slow"\nkind = "slow-token"\n'
        + 'pattern = "[a-z]+\\\\d+[a-z]+"\n'
    )
    alice.session(
        "sess-slow",
        [
            ("user", "Fix the bug in the parser: it hangs on this input " + "a" * 6000 + "b"),
            ("assistant", "The root cause was the regex; fixed it and the tests pass."),
        ],
    )
    zorblax(alice)
    out = alice.share("--session", "sess-slow", "--session", "sess-zorblax")
    [skip] = out["skipped"]
    assert skip["id"] == alice.json("show", "sess-slow")["session_id"]
    assert "could not check for secrets" in skip["reason"] and "team:slow" in skip["reason"]
    assert len(out["written"]) == 1  # the other item is still shared
    assert knowledge_files(alice.clone) == [alice.clone / out["written"][0]]
    text = alice.run("share", "--repo", str(alice.clone), "--session", "sess-slow")
    assert "0 written, 0 unchanged, 1 skipped." in text.stdout and "could not check for secrets" in text.stderr


def test_allow_listed_finding_is_kept(team) -> None:
    alice, _ = team
    alice.session(
        "sess-allow",
        [
            ("user", "Fix the bug: the test fixture uses the fake key AKIAQ3EGUMZXFAKE0001 on purpose"),
            ("assistant", "Fixed the fixture; the tests pass."),
        ],
    )
    data = (alice.clone / alice.share("--session", "sess-allow")["written"][0]).read_bytes()
    assert b"AKIAQ3EGUMZXFAKE0001" not in data
    from smriti.team.redact import fingerprint

    fp = fingerprint("aws-key", "AKIAQ3EGUMZXFAKE0001")
    config = alice.clone / ".smriti" / "config.toml"
    config.write_text(config.read_text().replace("allow = []", f'allow = ["{fp}"]'))
    out = alice.share("--session", "sess-allow")
    data = (alice.clone / out["written"][0]).read_bytes()
    assert b"AKIAQ3EGUMZXFAKE0001" in data
    assert alice.json("check", str(alice.clone))["problems"] == []


# ---------------------------------------------------------------------------------------------
# init and git hooks


def test_init_is_idempotent(team) -> None:
    alice, _ = team
    attrs = alice.clone / ".gitattributes"
    before = attrs.read_bytes()
    assert before.count(b".smriti/** text eol=lf") == 1
    again = alice.json("init", "--repo", str(alice.clone))
    assert again["created"] == []
    assert attrs.read_bytes() == before
    assert "already set up" in alice.run("init", "--repo", str(alice.clone)).stdout
    # an existing .gitattributes without a final newline keeps its lines, smriti's are added once
    attrs.write_bytes(b"*.png binary")
    assert alice.json("init", "--repo", str(alice.clone))["created"] == [".gitattributes"]
    assert attrs.read_bytes().startswith(b"*.png binary\n") and attrs.read_bytes().count(b"eol=lf") == 1
    assert alice.json("init", "--repo", str(alice.clone))["created"] == []
    assert "not inside a git repository" in alice.run("init", "--repo", str(alice.home), expect=1).stderr


def test_git_hooks_install_idempotent_keep_and_restore_an_existing_hook(team) -> None:
    alice, _ = team
    hooks = alice.clone / ".git" / "hooks"
    mine = "#!/bin/sh\necho 'my own post-merge'\nexit 0\n"
    (hooks / "post-merge").write_text(mine)
    (hooks / "post-merge").chmod(0o755)
    out = alice.json("hooks", "install", "--git", "--repo", str(alice.clone))
    assert sorted(Path(p).name for p in out["installed"]) == ["post-checkout", "post-merge"]
    merged = (hooks / "post-merge").read_text()
    assert "echo 'my own post-merge'" in merged and merged.count("# >>> smriti sync >>>") == 1
    # smriti's lines run before the hook's own `exit 0`
    assert merged.index("smriti sync >>>") < merged.index("exit 0")
    checkout = (hooks / "post-checkout").read_text()
    assert checkout.startswith("#!/bin/sh\n") and "sync --repo" in checkout and "--quiet" in checkout
    assert "--no-fetch" in checkout  # git has just moved the refs; a fetch would race the user's next command
    assert os.access(hooks / "post-checkout", os.X_OK)
    again = alice.json("hooks", "install", "--git", "--repo", str(alice.clone))
    assert again["installed"] == [] and (hooks / "post-merge").read_text() == merged

    out = alice.json("hooks", "uninstall", "--git", "--repo", str(alice.clone))
    assert len(out["removed"]) == 2
    assert (hooks / "post-merge").read_text() == mine  # byte for byte
    assert not (hooks / "post-checkout").exists()
    assert alice.json("hooks", "uninstall", "--git", "--repo", str(alice.clone))["removed"] == []


def test_git_hook_runs_sync_after_a_merge(team) -> None:
    alice, bob = team
    bob.json("hooks", "install", "--git", "--repo", str(bob.clone))
    zorblax(alice)
    alice.share("--session", "sess-zorblax")
    alice.commit_push("share")
    env = {**os.environ, "SMRITI_HOME": str(bob.data), "HOME": str(bob.home)}
    subprocess.run(["git", "-C", str(bob.clone), "pull", "-q", "origin", "main"], check=True, env=env)
    import time

    deadline = time.time() + 30
    while time.time() < deadline and not bob.knowledge_items():
        time.sleep(0.2)
    assert len(bob.knowledge_items()) == 1


def test_git_hooks_refuse_a_non_shell_hook_and_write_nothing(team) -> None:
    alice, _ = team
    hooks = alice.clone / ".git" / "hooks"
    py = "#!/usr/bin/env python3\nprint('hi')\n"
    (hooks / "post-checkout").write_text(py)
    bad = alice.run("hooks", "install", "--git", "--repo", str(alice.clone), expect=1)
    assert "not a shell script" in bad.stderr
    assert (hooks / "post-checkout").read_text() == py and not (hooks / "post-merge").exists()


# ---------------------------------------------------------------------------------------------
# Sweeps, withdrawals and supersede hints


def test_a_sweep_shares_this_repos_categorized_sessions_only(team, tmp_path: Path) -> None:
    alice, _ = team
    zorblax(alice)
    alice.session("sess-chat", [("user", "hello"), ("assistant", "Hi! How can I help?")])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    path = alice.home / "transcripts" / "other.jsonl"
    path.write_text(
        transcript(
            "sess-other",
            elsewhere,
            [
                ("user", "Fix the flaky bug in the other project's login test"),
                ("assistant", "The root cause was a race; fixed it and the tests pass."),
            ],
        )
    )
    alice.json("ingest", "--path", str(path))
    out = alice.share()
    assert len(out["written"]) == 1 and "zorblax" in out["written"][0] and out["skipped"] == []
    assert alice.share()["unchanged"] == 1


def test_a_sweep_does_not_bring_back_a_withdrawn_or_deleted_item(team) -> None:
    alice, _ = team
    zorblax(alice)
    rel = alice.share()["written"][0]
    alice.commit_push("share")
    item_id = alice.json("unshare", "--repo", str(alice.clone), rel.rsplit("-", 1)[1][:8])["id"]
    alice.commit_push("unshare")
    out = alice.share()
    assert out["written"] == [] and "withdrawn with `smriti unshare`" in out["skipped"][0]["reason"]
    assert knowledge_files(alice.clone) == []
    # naming the session shares it again, on purpose
    assert alice.share("--session", "sess-zorblax")["written"] == [rel]
    alice.commit_push("share again")
    # a reviewer deletes it on main: the next sweep leaves it deleted
    alice.git("rm", "-q", rel)
    alice.commit_push("review: not useful")
    out = alice.share()
    assert out["written"] == [] and "not in this working tree" in out["skipped"][0]["reason"]
    assert knowledge_files(alice.clone) == []
    assert alice.share("--session", "sess-zorblax")["written"] == [rel]  # on purpose, again
    assert f'id: "{item_id}"'.encode() in (alice.clone / rel).read_bytes()


def test_supersede_is_proposed_for_items_written_in_the_same_run(team) -> None:
    alice, _ = team
    for n in (1, 2):
        alice.session(
            f"sess-pool-{n}",
            [
                ("user", "Fix connection pool exhaustion under load in src/db/pool.py"),
                ("assistant", f"The root cause was leaked connections (attempt {n}); fixed it, the tests pass."),
            ],
            title="Fix connection pool exhaustion under load",
        )
    out = alice.share("--session", "sess-pool-1", "--session", "sess-pool-2")
    assert len(out["written"]) == 2
    [hint] = out["proposed_supersedes"]
    assert hint["score"] >= 0.85 and "--supersedes" in hint["hint"]
    older = hint["supersedes"]
    newer_session = hint["hint"].split("--session ")[1].split()[0]
    out = alice.share("--session", newer_session, "--supersedes", older)
    assert len(out["written"]) == 1 and out["proposed_supersedes"] == []
    assert f'supersedes: ["{older}"]'.encode() in (alice.clone / out["written"][0]).read_bytes()
    bad = alice.run("share", "--repo", str(alice.clone), "--supersedes", older, "--json", expect=1)
    assert "with a single --session" in bad.stderr


def test_share_refuses_to_write_through_a_symlinked_smriti_folder(team, tmp_path: Path) -> None:
    alice, _ = team
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "knowledge").mkdir()
    real = alice.clone / ".smriti"
    real.rename(tmp_path / "real-smriti")
    real.symlink_to(outside, target_is_directory=True)
    zorblax(alice)
    out = alice.share("--session", "sess-zorblax")
    assert out["written"] == [] and "refusing to write through the symlink" in out["skipped"][0]["reason"]
    assert list(outside.rglob("*.md")) == []


def test_show_finds_a_synced_item_by_id(tmp_path: Path) -> None:
    """`smriti show ID` answers for a team knowledge item as it does for a session."""
    import subprocess as sp

    from smriti.team import knowledge

    origin, clone = tmp_path / "origin.git", tmp_path / "clone"
    sp.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
    sp.run(["git", "clone", "-q", str(origin), str(clone)], check=True, capture_output=True)
    item = knowledge.new_item(
        id="0123456789abcdef",
        title="Pin psycopg below 3.2",
        category="decision/technical",
        body="# Pin psycopg below 3.2\n\nBecause the pool reconnect changed.\n",
        created="2026-11-01T00:00:00Z",
        author="carol",
    )
    path = clone / ".smriti" / knowledge.item_path(item)
    path.parent.mkdir(parents=True)
    path.write_bytes(knowledge.render_bytes(item))
    for cmd in (
        ["add", "-A"],
        ["-c", "user.name=c", "-c", "user.email=c@x", "commit", "-qm", "k"],
        ["push", "-q", "origin", "main"],
    ):
        sp.run(["git", "-C", str(clone), *cmd], check=True, capture_output=True)
    env = {"SMRITI_HOME": str(tmp_path / "data")}
    assert run_smriti("sync", "--repo", str(clone), "--json", env=env).returncode == 0
    shown = json.loads(run_smriti("show", "01234567", "--json", env=env).stdout)
    assert (shown["id"], shown["author"], shown["category"]) == ("0123456789abcdef", "carol", "decision/technical")
    assert "pool reconnect" in run_smriti("show", "0123456789abcdef", env=env).stdout
    assert json.loads(run_smriti("status", "--json", env=env).stdout)["knowledge"] == 1


def test_stale_temp_files_go_and_a_write_in_progress_stays(tmp_path: Path) -> None:
    import fcntl

    from smriti.team.share import remove_stale_temp_files

    folder = tmp_path / "knowledge" / "bug" / "fix"
    folder.mkdir(parents=True)
    stale, live, mine = folder / ".smriti-dead.tmp", folder / ".smriti-live.tmp", folder / "item.md"
    for f in (stale, live, mine):
        f.write_bytes(b"half a file")
    with open(live, "rb") as held:  # another share is writing this one right now
        fcntl.flock(held, fcntl.LOCK_EX)
        assert remove_stale_temp_files(tmp_path / "knowledge") == [stale]
        assert live.exists() and mine.exists() and not stale.exists()
    assert remove_stale_temp_files(tmp_path / "knowledge") == [live]
    assert mine.exists()


# ---------------------------------------------------------------------------------------------
# Refusals: before init, another project's session, an unknown category (issue #16)


def test_share_before_init_is_an_error_naming_init(tmp_path: Path, runner, monkeypatch) -> None:
    repo = tmp_path / "fresh"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    home = tmp_path / "home-carol"
    home.mkdir()
    carol = Actor("carol", repo, tmp_path / "data-carol", home, runner, monkeypatch)
    zorblax(carol)
    result = carol.run("share", "--repo", str(repo), "--session", "sess-zorblax", expect=1)
    assert "run `smriti init` there first" in result.stderr
    assert carol.run("share", "--repo", str(repo), expect=1).stderr == result.stderr  # a sweep too
    assert not (repo / ".smriti").exists()
    carol.json("init", "--repo", str(repo))
    assert len(carol.share("--session", "sess-zorblax")["written"]) == 1


def test_share_of_another_projects_session_needs_force(team, tmp_path: Path) -> None:
    alice, _ = team
    elsewhere = tmp_path / "other-project"
    git(tmp_path, "init", "-q", "-b", "main", str(elsewhere))
    path = alice.home / "transcripts" / "other.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        transcript(
            "sess-other",
            elsewhere,
            [("user", "Fix the flaky login test"), ("assistant", "The root cause was a race; fixed, tests pass.")],
        )
    )
    alice.json("ingest", "--path", str(path))
    zorblax(alice)
    refused = alice.run(
        "share", "--repo", str(alice.clone), "--session", "sess-other", "--session", "sess-zorblax", expect=1
    )
    assert "not sessions of this repo's project" in refused.stderr and "other-project" in refused.stderr
    assert "--force" in refused.stderr and knowledge_files(alice.clone) == []  # nothing written, not even zorblax
    forced = alice.share("--session", "sess-other", "--force")
    assert len(forced["written"]) == 1 and b"flaky login" in (alice.clone / forced["written"][0]).read_bytes()


def test_unknown_category_is_a_usage_error_for_share_and_search(team) -> None:
    alice, _ = team
    zorblax(alice)
    for command in (
        ["share", "--repo", str(alice.clone), "--category", "bogus"],
        ["search", "zorblax", "--category", "bogus"],
        ["sessions", "--category", "bogus"],
        ["knowledge", "--category", "bogus"],
    ):
        result = alice.run(*command, expect=2)
        assert "unknown category 'bogus'; known: " in result.stderr, command
        assert "bug/fix" in result.stderr.split("known: ", 1)[1]
    assert knowledge_files(alice.clone) == []
    # a known one (a parent matches its children) still works, on a store that has seen no ingest too
    assert alice.share("--category", "bug")["written"]
    assert alice.json("search", "zorblax", "--category", "bug")
    fresh = alice.run("search", "zorblax", "--category", "feature")  # nothing yet, but a real category
    assert fresh.exit_code == 0


@given(
    author=hst.none() | hst.text(max_size=8),
    supersedes=hst.lists(hst.text(max_size=6), max_size=2).map(tuple),
    title=hst.none() | hst.text(max_size=12),
    cwd=hst.none() | hst.sampled_from(["/nonexistent/w/app", "/tmp"]),
)
@settings(max_examples=60, deadline=None)
def test_share_inputs_is_the_fingerprint_recorded_before(author, supersedes, title, cwd) -> None:
    """`share_inputs` encodes its constant head once per sweep: the fingerprint must stay the one
    earlier versions recorded (json.dumps of the whole list), or every item renders again."""

    from smriti import project as projects
    from smriti.store import SessionRow
    from smriti.team import share as share_mod

    fields: dict = dict.fromkeys(SessionRow._fields)
    fields.update(rowid=1, session_id="claude-code:abc", agent="claude-code", native_id="abc", cwd=cwd)
    fields.update(agent_title=title)
    session = SessionRow(**fields)
    proj = projects.resolve(cwd) if cwd else None
    parts = (share_mod._code_version(), "settings", "condensed", author, list(supersedes), repr(session))
    parts += (proj.root if proj else None,)
    before = hashlib.sha256(b"content" + json.dumps(parts, default=repr).encode()).hexdigest()
    assert share_mod.share_inputs(session, b"content", "settings", "condensed", author, supersedes) == before


def test_code_version_reads_distills_own_files() -> None:
    from smriti.digest import distill
    from smriti.team import share as share_mod

    assert share_mod.DISTILL_SOURCE.resolve() == Path(distill.__file__ or "").resolve()
    assert share_mod.DISTILL_CUES.resolve() == distill.CUES_FILE.resolve()
