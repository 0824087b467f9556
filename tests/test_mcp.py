"""`smriti mcp` answers a real client over stdio: the console script in a subprocess, spoken to in
newline-delimited JSON-RPC 2.0 the way agents do (initialize, tools/list, tools/call)."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES, invoke, invoke_json

pytest.importorskip("mcp")

POOL_NATIVE = "6c0e2a4e-1b7d-4c61-9d1e-3a5f7b9c2d10"


class Client:
    def __init__(self, cwd: Path, *args: str):
        exe = shutil.which("smriti", path=str(Path(sys.executable).parent))
        cmd = [exe, "mcp", *args] if exe else [sys.executable, "-m", "smriti", "mcp", *args]
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=dict(os.environ)
        )
        self.next_id = 0
        self.buffer = b""

    def send(self, method: str, params: dict | None = None, *, notify: bool = False) -> int | None:
        msg: dict = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        if not notify:
            self.next_id += 1
            msg["id"] = self.next_id
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()
        return None if notify else self.next_id

    def read(self, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, left))
            if not ready:
                raise AssertionError(f"no answer from smriti mcp; stderr: {self.stderr()}")
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise AssertionError(f"smriti mcp exited ({self.proc.poll()}); stderr: {self.stderr()}")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)  # every line on stdout is a JSON-RPC message

    def request(self, method: str, params: dict | None = None) -> dict:
        rid = self.send(method, params)
        while True:
            msg = self.read()
            if msg.get("id") == rid:
                return msg
            assert "method" in msg, msg  # only server notifications/requests may come in between

    def call(self, tool: str, **arguments) -> dict:
        answer = self.request("tools/call", {"name": tool, "arguments": arguments})
        assert "result" in answer, answer
        return answer["result"]

    def stderr(self) -> str:
        if self.proc.poll() is None:
            self.proc.kill()
        return self.proc.stderr.read().decode(errors="replace")[-2000:]

    def close(self) -> int:
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=15)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def payload(result: dict) -> dict:
    """A tool's JSON answer: the text content, and the structured content when the SDK sends it."""
    assert not result.get("isError"), result
    text = json.loads(result["content"][0]["text"])
    if "structuredContent" in result:
        assert result["structuredContent"] == text
    return text


@pytest.fixture
def client(runner, tmp_path):
    invoke_json(runner, "ingest", "--path", str(EXAMPLES / "claude-code"))
    c = Client(tmp_path)
    init = c.request(
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "smriti-tests", "version": "1"}},
    )
    assert init["result"]["serverInfo"]["name"] == "smriti"
    assert "tools" in init["result"]["capabilities"]
    assert "recall" in init["result"]["instructions"]
    c.send("notifications/initialized", notify=True)
    yield c
    assert c.close() == 0


def test_tools_list_with_schemas(client) -> None:
    tools = {t["name"]: t for t in client.request("tools/list")["result"]["tools"]}
    assert set(tools) == {"recall", "search", "show"}
    recall = tools["recall"]["inputSchema"]
    assert recall["required"] == ["query"]
    assert set(recall["properties"]) == {"query", "project", "limit", "budget", "all_projects"}
    assert set(tools["search"]["inputSchema"]["properties"]) == {
        "query",
        "project",
        "agent",
        "category",
        "since",
        "limit",
        "kind",
    }
    assert tools["show"]["inputSchema"]["required"] == ["id"]
    assert all(t["description"] for t in tools.values())


def test_recall_search_show(client) -> None:
    out = payload(client.call("recall", query="why is the payments connection pool exhausted?", project="payments-api"))
    top = out["results"][0]
    assert top["native_id"] == POOL_NATIVE and top["tier"] == "own" and top["project"] == "payments-api"
    assert out["context"].startswith("<smriti-context") and f"smriti show {top['id']}]" in out["context"]

    assert payload(client.call("recall", query="write a haiku about autumn leaves")) == {"context": "", "results": []}

    hits = payload(client.call("search", query="flaky checkout test", limit=2))["results"]
    assert hits[0]["project"] == "web-frontend" and len(hits) <= 2
    assert set(hits[0]) >= {"session_id", "native_id", "agent", "project", "category", "score", "snippet", "timestamp"}

    shown = payload(client.call("show", id=top["id"]))
    assert (shown["kind"], shown["native_id"], shown["agent"]) == ("session", POOL_NATIVE, "claude-code")
    assert shown["messages_list"][0]["kind"] == "prompt" and "PoolTimeout" in shown["messages_list"][0]["text"]
    assert payload(client.call("show", id=POOL_NATIVE))["session_id"] == top["id"]  # the agent's own id works too


def test_errors_are_tool_errors_not_crashes(client) -> None:
    missing = client.call("show", id="doesnotexist")
    assert missing["isError"] is True
    assert "no session or knowledge item 'doesnotexist'" in missing["content"][0]["text"]
    bad = client.call("search", query="pool", agent="nope")
    assert bad["isError"] is True and "Unknown agent 'nope'" in bad["content"][0]["text"]
    # the server is still there
    assert payload(client.call("recall", query="connection pool exhausted"))["results"]


def test_show_knowledge_item_and_sees_new_data(client, runner, tmp_path) -> None:
    from test_recall import team_repo  # noqa: E402  (a sibling test module's helper)

    from smriti.team import knowledge

    body = "# Cache limit\n\n## Summary\nThe zorblax cache holds 10000 entries.\n"
    it = knowledge.new_item(
        title="Zorblax cache limit",
        category="decision/technical",
        body=body,
        created="2026-11-10T10:00:00Z",
        id=knowledge.random_item_id(),
        author="bob",
        project="payments-api",
    )
    repo = team_repo(tmp_path / "team", [it])
    invoke_json(runner, "sync", "--repo", str(repo))  # while the server runs
    found = payload(client.call("recall", query="zorblax cache", project=str(repo)))["results"]
    assert found[0]["id"] == it.id and (found[0]["tier"], found[0]["author"]) == ("team", "bob")
    shown = payload(client.call("show", id=it.id[:8]))
    assert (shown["kind"], shown["id"], shown["title"], shown["author"]) == (
        "knowledge",
        it.id,
        "Zorblax cache limit",
        "bob",
    )
    assert "10000 entries" in shown["body"]


def test_server_project_is_the_default_asking_project(runner, tmp_path) -> None:
    from test_recall import team_repo

    from smriti.team import knowledge

    it = knowledge.new_item(
        title="Quuxify the ledger nightly",
        category="decision/process",
        body="# Quuxify\n\n## Summary\nThe ledger is quuxified every night at 02:00.\n",
        created="2026-11-10T10:00:00Z",
        id=knowledge.random_item_id(),
        author="carol",
    )
    repo = team_repo(tmp_path / "team", [it])
    invoke_json(runner, "sync", "--repo", str(repo))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for args, expected in (((), []), (("--project", str(repo)), [it.id])):
        c = Client(elsewhere, *args)
        c.request(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
        )
        c.send("notifications/initialized", notify=True)
        got = payload(c.call("recall", query="when is the ledger quuxified"))["results"]
        assert [r["id"] for r in got] == expected
        assert c.close() == 0


def test_without_the_sdk_a_clear_hint_and_exit_1(runner, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` now raises ImportError
    result = invoke(runner, "mcp", expect=1)
    assert "pip install 'smriti[mcp]'" in result.stderr
    assert result.stdout == ""
