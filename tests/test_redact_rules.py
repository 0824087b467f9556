"""Each rule of smriti/team/data/secret_rules.toml against its own vectors, built at test time from the
table's `example` and `negative` templates (tests/secret_vectors.py): the repository holds no secret.

Plus the boundaries (a token right after a word character, a JSON escape or a percent-encoding) and the
decoded views (JSON escapes, percent-encoding, wrapped lines, base64), through the public `redact`/`scan`.
"""

from __future__ import annotations

import base64
import json
import random
import urllib.parse

import pytest
from secret_vectors import expand, rules, secret_of

from smriti.team.redact import RULES, redact, scan

TABLE = rules()
TOKEN_RULES = [r for r in TABLE if r["section"] == "token"]
BY_NAME = {r.name: r for r in RULES}


def test_the_table_is_loaded_and_covers_a_hundred_kinds() -> None:
    names = [r["name"] for r in TABLE]
    assert len(names) == len(set(names)), "rule names are unique"
    assert all(name in BY_NAME for name in names)
    assert len(TABLE) >= 100 and len({r["kind"] for r in TABLE}) >= 90


@pytest.mark.parametrize("entry", TABLE, ids=lambda e: e["name"])
def test_each_rule_redacts_its_examples(entry: dict) -> None:
    for seed in range(3):
        text = expand(entry["example"], random.Random(seed))
        secret = secret_of(text)
        r = redact(f"**user**: here it is: {text}\n", None)
        assert secret not in r.text, (entry["name"], r.text)
        assert f"[REDACTED:{entry['kind']}]" in r.text, (entry["name"], r.text)
        assert r.ok and any(f.rule == entry["name"] for f in r.findings), [f.rule for f in r.findings]


@pytest.mark.parametrize("entry", [e for e in TABLE if "negative" in e], ids=lambda e: e["name"])
def test_each_rule_leaves_its_negatives(entry: dict) -> None:
    for seed in range(3):
        text = expand(entry["negative"], random.Random(seed))
        assert not [f for f in scan(f"note: {text}\n") if f.rule == entry["name"]], text


@pytest.mark.parametrize("entry", TOKEN_RULES, ids=lambda e: e["name"])
@pytest.mark.parametrize("before", ["%3D", "%20", "\\n", "\\t", "token="])
def test_a_token_is_found_after_escapes_and_encodings(entry: dict, before: str) -> None:
    text = expand(entry["example"], random.Random(7))
    if " " in text or "\n" in text:
        pytest.skip("a phrase, not a token")
    r = redact(f'{{"q": "a{before}{text}"}}')
    assert secret_of(text) not in r.text, (before, r.text)


def test_the_issues_plain_context_leaks_are_closed() -> None:
    rng = random.Random(3)
    cases = {
        "postgres://app:Pw/x9#Yz1!q@db.internal:5432/app": "Pw/x9#Yz1!q",
        "redis://default:aZ3#kP9qLm2x@cache:6379/0": "aZ3#kP9qLm2x",
        "mysql -uroot -pS3cr3tPw9x payments": "S3cr3tPw9x",
        "sshpass -p 'hunter2#x9' ssh deploy@10.0.0.5": "hunter2#x9",
        "PGPASSWORD=Zx9vQ2mPp7 psql -h db": "Zx9vQ2mPp7",
        "curl -H 'X-Api-Key: ab12CD34ef&gh56IJ78kl' https://api.acme.io": "gh56IJ78kl",
        "deploy --password=Qw9%rt5Y --env prod": "Qw9%rt5Y",
        "the admin password is Tr0ub4dor&3": "Tr0ub4dor&3",
    }
    aws = expand("{b64:40}", rng)
    cases[f"aws secret access key {aws}"] = aws
    for text, secret in cases.items():
        r = redact(text)
        assert secret not in r.text, r.text
        assert r.ok


def test_url_password_keeps_ports_and_at_signs_in_paths() -> None:
    for text in ("http://localhost:8080/@scope/pkg", "https://registry.npmjs.org:443/@types%2fnode"):
        assert redact(text).text == text


def _credentials() -> tuple[str, str]:
    secret = expand("{b64:40}", random.Random(11))
    key_id = "AKIA" + expand("{unum:16}", random.Random(1))
    return f"[default]\naws_access_key_id = {key_id}\naws_secret_access_key = {secret}\n", secret


def test_base64_of_a_credentials_file_is_redacted_whole() -> None:
    creds, secret = _credentials()
    blob = base64.b64encode(creds.encode()).decode()
    r = redact(f"$ echo {blob} | base64 -d > ~/.aws/credentials\n")
    assert blob not in r.text and "[REDACTED:aws-key]" in r.text and "| base64 -d" in r.text
    assert any(f.rule.endswith("@base64") for f in r.findings)
    # base64 inside base64 (bounded recursion) too
    twice = base64.b64encode(f"echo {blob}".encode()).decode()
    assert twice not in redact(f"payload {twice}\n").text


def test_percent_encoded_and_json_escaped_secrets_are_redacted() -> None:
    rng = random.Random(5)
    token = "ghp_" + expand("{crc:30}", rng)
    webhook = expand("https://hooks.slack.com/services/T{unum:8}/B{unum:10}/{b62:24}", rng)
    for text in (
        "GET /cb?state=" + urllib.parse.quote(f"token {token}", safe=""),
        "GET /cb?u=" + urllib.parse.quote(webhook, safe=""),
        json.dumps({"url": webhook}).replace("/", "\\/"),
        "x=" + urllib.parse.quote("datadog app key " + expand("{hex:40}", rng), safe=""),
    ):
        r = redact(text)
        assert r.findings and r.ok, text
        assert token not in r.text and webhook not in r.text and "T" not in r.text.split("REDACTED")[-1][:0]
        for piece in (token[4:16], webhook.rsplit("/", 1)[1][:12]):
            assert piece not in r.text and piece not in urllib.parse.unquote(r.text).replace("\\/", "/")


@pytest.mark.parametrize(
    "entry",
    [e for e in TOKEN_RULES if len(secret_of(expand(e["example"], random.Random(0)))) >= 24],
    ids=lambda e: e["name"],
)
def test_a_token_wrapped_onto_two_lines_is_redacted(entry: dict) -> None:
    text = expand(entry["example"], random.Random(9))
    if "\n" in text:
        pytest.skip("already on several lines")
    secret = secret_of(text)
    cut = text.index(secret) + len(secret) // 2
    wrapped = text[:cut] + "\n    " + text[cut:]
    r = redact(f"$ cat token.txt\n{wrapped}\nok\n")
    assert secret[:cut][-12:] not in r.text and text[cut:][:12] not in r.text, r.text


def test_a_token_that_ends_a_line_does_not_swallow_the_next_word() -> None:
    token = "ghp_" + expand("{crc:30}", random.Random(2))
    r = redact(f"The CI token was\n{token}\nrotate it.\n")
    assert r.text == "The CI token was\n[REDACTED:github-token]\nrotate it.\n"


@pytest.mark.parametrize("entry", TABLE, ids=lambda e: e["name"])
def test_no_rule_fires_on_a_cut_off_secret(entry: dict) -> None:
    """Each rule's generic negative: its example with the secret cut to its first 6 characters (a prefix
    or a provider name alone is not a secret)."""
    text = expand(entry["example"], random.Random(5))
    if "\n" in text:
        pytest.skip("a multi-line key")
    secret = secret_of(text)
    cut = text.replace(secret, secret[:6])
    assert not [f for f in scan(f"note: {cut}\n") if f.rule == entry["name"]], cut


@pytest.mark.parametrize(
    "session",
    ["4d5611e5-241a-462a-8d15-5122611a9569/agent-acompact-e1f845", "sess-parent-abc/agent-a1b2c3d4e5f6"],
)
def test_a_sub_agent_session_id_in_frontmatter_is_not_a_secret(session: str) -> None:
    # Every shared file of a Claude sub-agent carries `session: "<parent>/agent-<id>"`; flagged, `smriti
    # check` failed on files `smriti share` had just written (seen on the shared fixtures).
    text = f'session: "{session}"\n'
    assert redact(text).text == text
    assert scan(text) == []


def test_a_random_token_with_a_slash_is_still_found() -> None:
    value = "Xk9mQ2pL7wZ4nR8vT1yC6aB3" + "/" + "Hj5Kw2Lp9Qz"
    assert value not in redact(f'value: "{value}"\n').text
