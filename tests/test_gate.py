"""The gate (smriti.team.gate): the independent second detector, on its own and through the real
`share` on a real store and the real `smriti check` on real files. Secrets are built at test time."""

from __future__ import annotations

import base64
import json
import random
import subprocess
import urllib.parse
from pathlib import Path

import pytest
from conftest import invoke, invoke_json
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from secret_vectors import expand, rules, secret_of
from test_share_sync import transcript

from smriti.team import knowledge as kn
from smriti.team.gate import base62_crc32, inspect


def reasons(text: str) -> list[str]:
    return [f.reason for f in inspect(text)]


# ---------------------------------------------------------------------------------------------------
# The detector on its own


def test_checksummed_tokens_are_found_by_arithmetic_whatever_their_prefix() -> None:
    rng = random.Random(4)
    body = expand("{b62:30}", rng)
    good = f"zz_{body}{base62_crc32(body)}"
    assert "checksummed-token" in reasons(f"see {good} here")
    bad = f"zz_{body}{base62_crc32(body)[:-1]}{'A' if base62_crc32(body)[-1] != 'A' else 'B'}"
    assert "checksummed-token" not in reasons(f"see {bad} here")


def test_random_tokens_private_key_armour_and_decoded_forms_are_refused() -> None:
    rng = random.Random(8)
    token = expand("{b62:32}", rng)
    assert reasons(f"the key they sent is {token}") == ["random-token"]
    pem = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + expand("{b64:64}", rng) + "\n"
    assert "private-key-armour" in reasons(pem)
    blob = base64.b64encode(f"export SERVICE_VALUE={token}\n".encode()).decode()
    [f] = inspect(f"echo {blob} | base64 -d")
    assert f.view == "base64" and f.reason == "random-token" and blob in f"echo {blob}"[f.start - 0 : f.end + 5]
    quoted = "q=" + urllib.parse.quote(f"value {token[:10]}/{token[10:]}", safe="")
    assert "random-token" in reasons(quoted)
    wrapped = f"value {token[:16]}\n    {token[16:]}\n"
    assert [f.view for f in inspect(wrapped)] == ["joined"]


LOOKALIKES = [
    "01HQZ3J5K8M9N2P4Q6R8S0T1V3",
    "3f2b8c1e-7d4a-4e9b-a2c6-5f1d8e7b9a30",
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "golang.org/x/net v0.17.0 h1:pVaXccu1kRhz5vo7bQyoAvfqYBVjK4fwmwQnZCrFnWU=",
    "sha512-Vq8sB8mF3rj0K2N6v4dkuqZ5hXl9W7F1xY3jT0aL2cRbJ9QnE5pG7uKiY4oH8wM1sZ6tD2eX0fC3aB9gN5rV==",
    "dist/assets/index-BQ3x9KzA.css and main.3f2a9c8b.js",
    "payments-api-deployment-7c9f8d6b5-x2k9p",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGfH7q1Xb0c3w9yZ4kP2mN8vR5tL6jS0aD1eF9gH2iJ3 alice@laptop",
    "arn:aws:iam::123456789012:role/service-role/payments-handler",
    "ConnectionPoolTimeoutError test_share_writes_the_item_and_records_it",
    "next=" + base64.urlsafe_b64encode(json.dumps({"offset": 40, "sort": "created"}).encode()).decode(),
]


@pytest.mark.parametrize("text", LOOKALIKES)
def test_lookalikes_pass_the_gate(text: str) -> None:
    rng = random.Random(1)
    assert inspect(text) == []
    assert inspect(f"pk_live_{expand('{b62:99}', rng)}") == []  # publishable: public by design


def test_allow_list_and_exempt_values() -> None:
    token = expand("{b62:32}", random.Random(9))
    [f] = inspect(f"x {token}")
    assert token not in f.describe() and f.fingerprint in f.describe()
    assert inspect(f"x {token}", frozenset({f.fingerprint})) == []
    assert inspect(f"x {token}", exempt=[token]) == []
    assert inspect(f"x {token} and {token[::-1]}", frozenset({f.fingerprint})) != []


# ---------------------------------------------------------------------------------------------------
# Through the real share and check


@pytest.fixture
def team(tmp_path: Path, runner) -> Path:
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    invoke_json(runner, "init", "--repo", str(repo))
    return repo


def ingest(runner, home: Path, repo: Path, sessions: dict[str, list]) -> None:
    folder = home / "transcripts"
    folder.mkdir(exist_ok=True)
    for native, turns in sessions.items():
        (folder / f"{native}.jsonl").write_text(transcript(native, repo, turns))
    out = invoke_json(runner, "ingest", "--path", str(folder))
    assert out["errors"] == [], out


def share_lib(repo: Path, ids: tuple[str, ...], redaction: bool = True):
    from smriti import paths
    from smriti.store import Store
    from smriti.team.share import share

    store = Store(paths.db_path(paths.data_dir()))
    try:
        return share(store, repo, session_ids=ids, transcript="full", redaction=redaction)
    finally:
        store.close()


def test_the_gate_refuses_when_the_redactor_is_switched_off(team: Path, runner, isolated_env: Path) -> None:
    rng = random.Random(12)
    secrets = {
        "sess-gh": "ghp_" + expand("{crc:30}", rng),
        "sess-rand": expand("{b62:40}", rng),
        "sess-pem": "-----BEGIN RSA PRIVATE KEY-----\n"
        + expand("{b64:64}\n{b64:64}", rng)
        + "\n-----END RSA PRIVATE KEY-----",
        "sess-b64": base64.b64encode(f"SERVICE_VALUE={expand('{b62:32}', rng)}".encode()).decode(),
    }
    sessions = {
        n: [("user", f"Fix the deploy bug: the config holds {s} today."), ("assistant", "Fixed it; tests pass.")]
        for n, s in secrets.items()
    }
    sessions["sess-plain"] = [("user", "Fix the flaky cache test in src/cache.py"), ("assistant", "Fixed; tests pass.")]
    ingest(runner, isolated_env, team, sessions)
    result = share_lib(team, tuple(sessions), redaction=False)
    refused = {s["reason"] for s in result.skipped}
    assert len(result.skipped) == len(secrets) and len(result.written) == 1
    assert all(r.startswith("refused by the secret gate: ") and "fingerprint" in r for r in refused)
    for path in (team / ".smriti" / "knowledge").rglob("*.md"):
        data = path.read_text()
        assert not any(s[:12] in data for s in secrets.values())
    # with the redactor on, what it knows is written redacted; what only the gate knows stays refused
    result = share_lib(team, tuple(sessions))
    assert len(result.written) == 2 and result.unchanged == 1 and len(result.skipped) == 2
    assert all(s["reason"].startswith("refused by the secret gate: random-token") for s in result.skipped)


def leaked_forms(rng: random.Random) -> dict[str, str]:
    token = "ghp_" + expand("{crc:30}", rng)
    aws = expand("{b64:40}", rng)
    creds = f"[default]\naws_secret_access_key = {aws}\n"
    return {
        "plain": f"The token was {token} yesterday.",
        "json-escaped": json.dumps({"out": f"a\n{token}\nb"}),
        "percent": "GET /cb?state=" + urllib.parse.quote(f"token={token}", safe=""),
        "wrapped": f"key {token[:20]}\n    {token[20:]}\n",
        "base64": "echo " + base64.b64encode(creds.encode()).decode(),
        "bare-random": "they sent " + expand("{b62:36}", rng),
        "armour": "-----BEGIN PRIVATE KEY-----\n" + expand("{b64:64}", rng) + "\n",
    }


@pytest.mark.parametrize("form", list(leaked_forms(random.Random(0))))
def test_check_fails_on_each_leaked_form(team: Path, runner, form: str) -> None:
    text = leaked_forms(random.Random(3))[form]
    item = kn.new_item(
        id="00000000000000a1",
        title="Fix the deploy bug",
        category="bug/fix",
        created="2026-11-01T10:00:00Z",
        body=f"# Fix the deploy bug\n\n{text}\n",
        agent="claude-code",
        session="sess-1",
        author="alice",
    )
    path = team / ".smriti" / kn.item_path(item)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(kn.render_bytes(item))
    out = invoke_json(runner, "check", str(team), expect=1)
    assert out["problems"] and all(p["rule"].startswith("secret:") for p in out["problems"]), out
    text_out = invoke(runner, "check", str(team), expect=1).stdout
    assert "fingerprint" in text_out


# ---------------------------------------------------------------------------------------------------
# No generated secret survives share, in any context

TABLE = rules()
CONTEXTS = ["prose", "tool-output", "tool-input", "json-escaped", "env", "split", "base64", "url-encoded"]


def place(context: str, text: str, secret: str) -> list:
    """The turns of a session holding `text` (which contains `secret`) in one context."""
    ask, done = ("user", "Fix the deploy bug."), ("assistant", "Fixed the bug; the tests pass.")
    if context == "prose":
        return [("user", f"Fix the deploy bug, I pasted {text} into the config."), done]
    if context == "tool-input":
        call = ("tool_use", ("mcp__notes__write", {"note": f"notes\n{text}\nend"}))
        return [ask, call, ("tool_result", "ok"), done]
    if context == "url-encoded":
        url = "https://hooks.acme.io/cb?state=" + urllib.parse.quote(text, safe="")
        return [ask, ("tool_use", ("WebFetch", {"url": url})), ("tool_result", "200"), done]
    if context == "base64":
        blob = base64.b64encode(f"# credentials\n{text}\nSERVICE_KEY={secret}\n".encode()).decode()
        return [ask, ("tool_use", ("Bash", {"command": f"echo {blob} | base64 -d"})), ("tool_result", "ok"), done]
    cut = text.index(secret) + len(secret) // 2
    output = {
        "tool-output": f"$ cat\n{text}\nok",
        "json-escaped": json.dumps({"o": f"a\n{text}\nb"}),
        "env": f"APP=1\nSERVICE_KEY={secret}\nPORT=80",
        "split": text[:cut] + "\n" + text[cut:],
    }[context]
    return [ask, ("tool_use", ("Bash", {"command": "cat cfg"})), ("tool_result", output), done]


def readable(data: str) -> str:
    forms = [data, urllib.parse.unquote(data), data.replace("\\n", "\n"), data.replace("\n", "").replace("    ", "")]
    for run in __import__("re").findall(r"[A-Za-z0-9+/=]{16,}", data):
        try:
            forms.append(base64.b64decode(run + "=" * (-len(run) % 4)).decode("utf-8", "replace"))
        except ValueError:
            pass
    return "\x00".join(forms)


LONG_RULES = [e for e in TABLE if len(secret_of(expand(e["example"], random.Random(0)))) >= 24]


@hsettings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    entry=st.sampled_from(LONG_RULES),
    context=st.sampled_from(CONTEXTS),
    seed=st.integers(0, 2**32),
)
def test_no_generated_secret_survives_share(tmp_path_factory, runner, monkeypatch, entry, context, seed) -> None:
    base = tmp_path_factory.mktemp("share")
    home = base / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SMRITI_HOME", str(base / "data"))
    repo = base / "repo"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    invoke_json(runner, "init", "--repo", str(repo))
    text = expand(entry["example"], random.Random(seed))
    secret = secret_of(text)
    ingest(runner, home, repo, {"sess-x": place(context, text, secret)})
    result = share_lib(repo, ("sess-x",))
    if result.skipped:
        assert result.skipped[0]["reason"].startswith(("refused by the secret gate", "message", "body"))
        return
    [written] = result.written
    data = readable((repo / written).read_text())
    pieces = {secret[i : i + 12] for i in range(len(secret) - 11)}
    assert not [p for p in pieces if p in data], (entry["name"], context)
