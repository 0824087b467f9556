"""Do secrets reach the repository? Every kind of secret in every context, through the real `share`.

    python benchmarks/redact/bench_leaks.py            # prints the tables (about a minute)
    python benchmarks/redact/bench_leaks.py --seed 2 --transcript condensed

The corpus is generated here, seeded:
- secrets: one per rule of smriti/team/data/secret_rules.toml (its `example` template, expanded with
  fresh random characters) plus the context secrets below (URL passwords with `/` and `#`, `mysql -p`,
  `sshpass -p`, headers with `&` in the value, plain passwords): the TUNING set, which the rules were
  written against; and a HELD-OUT set written separately (below, `HELD_OUT`) that no rule was tuned on;
- 9 contexts: prose, code block, tool output, tool call input, JSON-escaped string, .env line, split
  across two lines, base64 of a credentials file, URL-encoded;
- look-alikes: random things that are not secrets (ULIDs, UUIDs, SHAs, prefixed hashes, hashed asset
  names, cursors, publishable keys, pod names, data URIs, SSH public keys, ARNs …).
Each secret in each context is its own Claude Code session, ingested by the real CLI into a real store
and shared with the real `smriti.team.share.share` (transcript "full": everything is in the file) into a
real git repo. An item is LEAKED when any 12-character piece of the secret can be read in the written file
(as it is, percent-decoded, JSON-unescaped, with line breaks removed, or inside a decoded base64 run),
REFUSED when share skipped it (the residual check or the gate), and REDACTED otherwise. The whole run is
repeated with the redactor switched off (`share(redaction=False)`): what the gate alone refuses.
Speed: `redact` + `gate.inspect` over generated 20 KB transcripts (benchmarks/redact/bench_redact.py's
corpus), in MB/s, with plain `redact` timed beside it in the same run.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import platform
import random
import re
import shutil
import string
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from secret_vectors import expand, random_chars, rule_table  # noqa: E402
from test_share_sync import transcript  # noqa: E402

from smriti.team import gate, redact  # noqa: E402

CONTEXTS = (
    "prose",
    "code-block",
    "tool-output",
    "tool-input",
    "json-escaped",
    "env-line",
    "split",
    "base64",
    "url-encoded",
)
PLAIN = CONTEXTS[:6]
B62 = string.ascii_letters + string.digits
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # ULIDs

# Context secrets (not provider tokens): (kind, template of the text, template of the secret part)
CONTEXT_SECRETS = [
    ("url-password-slash", "postgres://app:{s}@db.internal:5432/app", "Pw/{b62:10}#x"),
    ("url-password-hash", "redis://default:{s}@cache.internal:6379/0", "{b62:12}#{b62:4}"),
    ("mysql-p", "mysql -uroot -p{s} payments", "{b62:14}"),
    ("sshpass", "sshpass -p '{s}' ssh deploy@10.0.0.5", "{b62:8}!{b62:6}"),
    ("pgpassword", "PGPASSWORD={s} psql -h db -U app", "{b62:16}"),
    ("x-api-key-amp", "curl -H 'X-Api-Key: {s}' https://api.acme.io", "{b62:12}&{b62:12}"),
    ("basic-auth", "Authorization: Basic {s}", "{b64:32}"),
    ("password-flag", "deploy --password={s} --env prod", "{b62:10}%{b62:4}"),
    ("plain-password", "the admin password is {s}", "{b62:6}!{digits:4}"),
    ("generic-secret", "client_secret: {s}", "{url:40}"),
]

# Written apart from the rule table and never used to tune it: other providers, other lengths, other
# spellings. (kind, template of the text holding the secret; the secret is the longest word in it)
HELD_OUT = [
    ("github-oauth", "gho_{crc:30}"),
    ("github-refresh", "ghr_{crc:30}"),
    ("npm-automation", "npm_{crc:30}"),
    ("gitlab-deploy", "gldt-{url:20}"),
    ("stripe-restricted", "rk_live_{b62:99}"),
    ("slack-user", "xoxp-{digits:11}-{digits:12}-{digits:13}-{hex:32}"),
    ("openai-service", "sk-svcacct-{url:120}"),
    ("anthropic-admin", "sk-ant-admin01-{url:93}AA"),
    ("firebase-fcm", "AAAA{url:7}:<<APA91b{url:134}>>"),
    ("okta-ssws", "Authorization: SSWS <<00{url:40}>>"),
    ("azure-storage", "AccountKey=<<{b64:86}==>>"),
    ("aws-secret-yaml", "aws_secret_access_key: <<{b64:40}>>"),
    ("mongo-url", "mongodb+srv://svc:<<{b62:20}>>@cluster0.ab1cd.mongodb.net/prod"),
    ("bare-random-api-key", "the key they sent is <<{b62:40}>>"),
    ("bare-random-url", "use <<{url:48}>> for the webhook"),
    ("shopify-custom", "shpca_{hex:32}"),
    ("huggingface-write", "hf_{b62:37}"),
    ("linear-oauth", "lin_oauth_{b62:64}"),
    ("vault-batch", "hvb.{url:120}"),
    ("datadog-env", "DD_API_KEY=<<{hex:32}>>"),
    ("twilio-env", "TWILIO_AUTH_TOKEN=<<{hex:32}>>"),
    ("jwt-hs256", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI{b62:30}.{url:43}"),
    ("gcp-refresh", "1//0{url:60}"),
    ("private-key-ec", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI{b64:55}\n<<{b64:64}>>\n-----END EC PRIVATE KEY-----"),
]

LOOKALIKES = [
    ("ulid", "01{crock:24}"),
    ("uuid", "{hex:8}-{hex:4}-4{hex:3}-a{hex:3}-{hex:12}"),
    ("uuid-upper", "{HEX:8}-{HEX:4}-4{HEX:3}-A{HEX:3}-{HEX:12}"),
    ("git-sha", "commit {hex:40}"),
    ("git-short", "{hex:7} Fix the pool"),
    ("sha256-digest", "sha256:{hex:64}"),
    ("docker-digest", "ghcr.io/acme/api@sha256:{hex:64}"),
    ("go-sum", "golang.org/x/net v0.17.0 h1:{b64:43}="),
    ("npm-integrity", '"integrity": "sha512-{b64:86}=="'),
    ("sha1-integrity", "integrity sha1-{b64:27}="),
    ("sha384-sri", 'integrity="sha384-{b64:64}"'),
    ("asset-hash-dot", "dist/assets/index.{hex:8}.js"),
    ("asset-hash-vite", "dist/assets/index-{url:8}.css"),
    ("asset-hash-webpack", "static/js/main.{hex:20}.chunk.js"),
    ("cursor-json", "next_cursor={cursor}"),
    ("cache-bust", "/static/app.css?v={hex:10}"),
    ("stripe-pk-live", "pk_live_{b62:99}"),
    ("stripe-pk-test", "pk_test_{b62:99}"),
    ("mapbox-public", "pk.eyJ1IjoiYWNtZSIsImEiOiJ{b62:20}.{url:22}"),
    ("pod-name", "payments-api-7d9f8b6c5-{lnum:5}"),
    ("pod-name-long", "checkout-worker-deployment-5c8d7f9b6-{lnum:5}"),
    (
        "data-uri",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk{b64:20}AAAAAElFTkSuQmCC",
    ),
    ("ssh-ed25519", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64:43} alice@laptop"),
    ("ssh-rsa", "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{b64:300} bob@ci"),
    ("arn", "arn:aws:iam::{digits:12}:role/service-role/payments-{lower:8}"),
    ("arn-secret", "arn:aws:secretsmanager:us-east-1:{digits:12}:secret:prod/db-{b62:6}"),
    ("semver", "version 4.17.{digits:2}-rc.{digits:1}+build.{digits:4}"),
    ("request-id", "request id req_{b62:14}"),
    ("identifier", "test_share_writes_the_item_and_records_it_{lower:6}"),
    ("camel-identifier", "PaymentsApiClientFactoryBuilder{upper:1}{lower:5}"),
    ("python-path", "/usr/lib/python3.11/site-packages/{lower:8}/handlers.py"),
    ("url", "https://github.com/acme/payments/pull/{digits:4}/files"),
    ("model-name", "claude-3-5-sonnet-20241022"),
    ("k8s-secret-ref", "secretKeyRef: name: db-credentials key: password"),
    ("base64-text", "{b64text}"),
    ("hex-color", "color: #{hex:6}; background: #{hex:6}"),
    ("timestamp", "2026-11-{digits:2}T10:{digits:2}:00.{digits:3}Z"),
    ("session-uuid", "session {hex:8}-{hex:4}-4{hex:3}-8{hex:3}-{hex:12} started"),
    ("short-sha-list", "{hex:12} {hex:12} {hex:12}"),
    ("etag", 'ETag: W/"{hex:32}"'),
    ("md5", "md5: {hex:32}"),
    ("sha1-file", "{hex:40}  package.tar.gz"),
    ("pip-hash", "--hash=sha256:{hex:64}"),
    ("docker-image-id", "IMAGE ID {hex:12}"),
    ("git-ref-range", "{hex:40}..{hex:40}"),
    ("sentry-dsn-public", "dsn https://{hex:32}@o{digits:6}.ingest.sentry.io/{digits:7}"),
    ("aws-account", "account {digits:12} region us-east-1"),
    ("ip-port", "10.{digits:1}.{digits:1}.{digits:2}:5432"),
    ("cron", "*/5 * * * * /usr/local/bin/backup.sh"),
    ("dotted-module", "smriti.team.redact.{lower:8}_{lower:6}"),
    ("slug", "2026-11-21-the-store-is-the-source-of-truth-{hex:8}"),
    ("wordy-env", "LOG_LEVEL=debug MAX_POOL_SIZE=20 FEATURE_FLAG_NEW_CHECKOUT=true"),
    ("password-policy", "Password policy: at least 12 characters, rotate every 90 days."),
    ("token-count", "max_tokens: {digits:4} tokens used: {digits:5}"),
    ("prose-key", "the primary key of the table is (id, created_at)"),
    ("github-url-sha", "https://github.com/acme/api/commit/{hex:40}"),
    ("pnpm-lock", "resolution: {{integrity: sha512-{b64:86}==}}"),
    ("kube-uid", "uid: {hex:8}-{hex:4}-4{hex:3}-9{hex:3}-{hex:12}"),
    ("chrome-ext-id", "extension {lower:32}"),
    ("yarn-checksum", "checksum: {hex:128}"),
    ("nix-store", "/nix/store/{lnum:32}-python3-3.11.7"),
    ("isbn-ish", "ISBN 978-{digits:1}-{digits:3}-{digits:5}-{digits:1}"),
]


def cursor(rng: random.Random) -> str:
    return base64.urlsafe_b64encode(json.dumps({"offset": rng.randint(1, 9999), "sort": "created"}).encode()).decode()


def b64text(rng: random.Random) -> str:
    words = "the quick brown fox jumps over lazy dogs while the build runs".split()
    return base64.b64encode(" ".join(rng.choice(words) for _ in range(8)).encode()).decode()


def fill(template: str, rng: random.Random) -> str:
    template = template.replace("{cursor}", cursor(rng)).replace("{b64text}", b64text(rng))
    template = re.sub(r"\{crock:(\d+)\}", lambda m: random_chars(rng, CROCKFORD, int(m.group(1))), template)
    return expand(template, rng).replace("{{", "{").replace("}}", "}")


def secret_of(text: str) -> str:
    """The secret in an example: its longest word, without a `NAME=` or `name:` in front of it."""
    word = max(re.split(r"\s+", text), key=len)
    return re.sub(r"^[A-Za-z_][A-Za-z0-9_]*[=:]", "", word)


def marked(text: str) -> tuple[str, str]:
    """`a <<secret>> b` -> ("a secret b", "secret"); without markers the secret is `secret_of(text)`."""
    m = re.search(r"<<(.+?)>>", text, re.S)
    if m is None:
        return text, secret_of(text)
    return text.replace("<<", "").replace(">>", ""), m.group(1)


def corpus(rng: random.Random) -> list[tuple[str, str, str, str]]:
    """(set, kind, text holding the secret, the secret)"""
    out = []
    table = rule_table()
    for entry in table["token"] + table["keyword"]:
        text = expand(entry["example"], rng)
        out.append(("tuning", entry["name"], text, secret_of(text)))
    for kind, template, secret_t in CONTEXT_SECRETS:
        secret = expand(secret_t, rng)
        out.append(("tuning", kind, template.replace("{s}", secret), secret))  # the secret part only
    for kind, template in HELD_OUT:
        text, secret = marked(expand(template, rng))
        out.append(("held-out", kind, text, secret))
    return out


def env_name(kind: str) -> str:
    return re.sub(r"[^A-Z0-9]+", "_", kind.upper()).strip("_") + "_KEY"


def turns_for(context: str, kind: str, text: str, secret: str) -> list[tuple[str, object]]:
    intro = ("user", "Fix the deploy bug: the job fails since yesterday, please look at the config.")
    done = ("assistant", "Fixed the bug: the config is read from the vault now and the tests pass.")
    if context == "prose":
        return [("user", f"Fix the deploy bug. I pasted {text} into the config, is that bad?"), done]
    if context == "code-block":
        return [intro, ("assistant", f"The failing line was:\n\n```\n{text}\n```\n\nRotate it."), done]
    if context == "tool-output":
        return [
            intro,
            ("tool_use", ("Bash", {"command": "cat deploy/config.txt"})),
            ("tool_result", f"$ cat\n{text}\nok"),
            done,
        ]
    if context == "tool-input":
        return [
            intro,
            ("tool_use", ("mcp__notes__write", {"note": f"deploy notes\n{text}\nend"})),
            ("tool_result", "saved"),
            done,
        ]
    if context == "json-escaped":
        payload = json.dumps({"output": f"line one\n{text}\nline three"})
        return [intro, ("tool_use", ("Bash", {"command": "curl -s localhost/config"})), ("tool_result", payload), done]
    if context == "env-line":
        value = text if "\n" not in text else text.replace("\n", "\\n")
        env = f"APP_ENV=production\n{env_name(kind)}={value}\nPORT=8080"
        return [intro, ("tool_use", ("Bash", {"command": "cat .env"})), ("tool_result", env), done]
    if context == "split":
        i = text.find(secret)
        cut = i + len(secret) // 2
        wrapped = text[:cut] + "\n" + text[cut:]
        return [intro, ("tool_use", ("Bash", {"command": "cat deploy/config.txt"})), ("tool_result", wrapped), done]
    if context == "base64":
        creds = f"# {kind} credentials\n{env_name(kind)}={secret}\n# {text}\n"
        blob = base64.b64encode(creds.encode()).decode()
        return [
            intro,
            ("tool_use", ("Bash", {"command": f"echo {blob} | base64 -d > creds"})),
            ("tool_result", "ok"),
            done,
        ]
    if context == "url-encoded":
        url = "https://hooks.internal.acme.io/callback?state=" + urllib.parse.quote(text, safe="")
        return [intro, ("tool_use", ("WebFetch", {"url": url})), ("tool_result", "200 OK"), done]
    raise ValueError(context)


def readable_forms(data: str) -> list[str]:
    """The file as a reader could read it: as it is, decoded, joined (our own decoders, not smriti's)."""
    forms = [data, urllib.parse.unquote(data), re.sub(r"\r?\n[ \t>]*", "", data)]
    try:
        forms.append(json.loads('"' + data.replace('"', '\\"').replace("\n", "\\n") + '"'))
    except ValueError:
        forms.append(data.replace("\\n", "\n").replace("\\/", "/").replace('\\"', '"'))
    forms.append(re.sub(r"(?:\\n|\r?\n)[ \t>]*", "", forms[-1]))
    for form in list(forms):
        for m in re.finditer(r"[A-Za-z0-9+/_-]{16,}={0,2}", form):
            run = m.group()
            for decode in (base64.b64decode, base64.urlsafe_b64decode):
                try:
                    forms.append(decode(run + "=" * (-len(run) % 4)).decode("utf-8", "replace"))
                except ValueError:
                    pass
    return forms


def leaked(secret: str, forms: list[str]) -> bool:
    pieces = {secret[i : i + 12] for i in range(max(1, len(secret) - 11))}
    return any(p in f for f in forms for p in pieces)


def run_share(
    cases: list[tuple[str, list]], transcript_mode: str, redaction: bool, tmp: Path
) -> dict[str, tuple[str, str]]:
    """Ingest every case as a session and share them all: native id -> (outcome, file text or reason)."""
    data, home, repo = tmp / "data", tmp / "home", tmp / "repo"
    for p in (data, home):
        p.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "SMRITI_HOME": str(data), "HOME": str(home)}
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    smriti = [sys.executable, "-m", "smriti"]
    subprocess.run([*smriti, "init", "--repo", str(repo), "--json"], check=True, env=env, capture_output=True)
    folder = home / "transcripts"
    folder.mkdir()
    for native, turns in cases:
        (folder / f"{native}.jsonl").write_text(transcript(native, repo, turns))
    subprocess.run([*smriti, "ingest", "--path", str(folder), "--json", "-q"], check=True, env=env, capture_output=True)
    os.environ["SMRITI_HOME"], os.environ["HOME"] = str(data), str(home)
    from smriti import paths
    from smriti.store import Store
    from smriti.team.share import share

    store = Store(paths.db_path(data))
    try:
        result = share(
            store, repo, session_ids=tuple(n for n, _ in cases), transcript=transcript_mode, redaction=redaction
        )
    finally:
        store.close()
    out: dict[str, tuple[str, str]] = {}
    by_id = {}
    for path in (repo / ".smriti" / "knowledge").rglob("*.md"):
        text = path.read_text("utf-8")
        m = re.search(r"^session: ['\"]?([^'\"\n]+)", text, re.M)
        if m:
            by_id[m.group(1).strip()] = text
    for native, _ in cases:
        if native in by_id:
            out[native] = ("written", by_id[native])
    skipped = {s["id"]: s["reason"] for s in result.skipped}
    # skipped ids are smriti's session ids: map them back through the store
    store = Store(paths.db_path(data))
    try:
        for sid, reason in skipped.items():
            native = next((n for n, _ in cases if sid.endswith(n) or n in sid), None)
            if native is None:
                row = store.conn.execute("select native_id from sessions where session_id = ?", (sid,)).fetchone()
                native = row[0] if row else sid
            out[native] = ("refused", reason)
    finally:
        store.close()
    return out


def table(title: str, header: list[str], rows: list[list[object]]) -> str:
    lines = [f"\n{title}\n", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


BEFORE_14 = "3137854"  # the commit before issue #14: its redact.py, timed beside today's


def _redact_before_14():
    """smriti/team/redact.py as it was before issue #14 (from git), or None outside a git checkout."""
    import importlib.util

    try:
        source = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{BEFORE_14}:smriti/team/redact.py"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    path = Path(tempfile.mkdtemp(prefix="smriti-old-")) / "redact_before_14.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("redact_before_14", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules["redact_before_14"] = module
    spec.loader.exec_module(module)
    return module


def speed(rng_seed: int, texts: int = 12, rounds: int = 5) -> list[list[str]]:
    """MB/s of each way to redact, interleaved round by round (the machine is shared: the best round
    of each is reported, and the ratios are between rows of this one run)."""
    import bench_redact

    corpus_texts = [bench_redact.transcript(rng_seed + i, 20 * 1024) for i in range(texts)]
    size = sum(len(t.encode()) for t in corpus_texts)
    settings = redact.Settings()
    ways = {
        "redact + gate (share as shipped)": lambda t: gate.inspect(redact.redact(t, settings).text, settings.allow),
        "redact alone": lambda t: redact.redact(t, settings),
        "gate alone": lambda t: gate.inspect(t),
    }
    old = _redact_before_14()
    if old is not None:
        ways[f"redact before #14 ({BEFORE_14})"] = lambda t: old.redact(t)
    best = dict.fromkeys(ways, 0.0)
    for _ in range(rounds):
        for name, fn in ways.items():
            start = time.perf_counter()
            for t in corpus_texts:
                fn(t)
            best[name] = max(best[name], size / (time.perf_counter() - start) / 1e6)
    first = next(iter(best.values()))
    return [[name, f"{mbs:.2f}", f"{mbs / first:.2f}"] for name, mbs in best.items()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--transcript", default="full", choices=["full", "condensed"])
    ap.add_argument("--speed-only", action="store_true", help="only the speed table")
    args = ap.parse_args()
    if args.speed_only:
        print(table("## speed", ["what", "MB/s", "x first row"], speed(args.seed)))
        return
    rng = random.Random(args.seed)
    secrets = corpus(rng)
    cases, meta = [], {}
    for i, (subset, kind, text, secret) in enumerate(secrets):
        for context in CONTEXTS:
            native = f"s{i:03d}-{context}"
            cases.append((native, turns_for(context, kind, text, secret)))
            meta[native] = (subset, kind, context, secret)
    looks = []
    for j, (name, template) in enumerate(LOOKALIKES):
        value = fill(template, rng)
        native = f"l{j:03d}"
        turns = [
            ("user", f"Fix the deploy bug; the log says {value} and then it stops."),
            ("tool_use", ("Bash", {"command": "cat deploy.log"})),
            ("tool_result", f"step 3\n{value}\nstep 4"),
            ("assistant", "Fixed the bug; the tests pass."),
        ]
        looks.append((native, turns))
        meta[native] = ("lookalike", name, "prose+tool-output", value)
    print(f"# smriti secret-leak benchmark (seed {args.seed}, transcript {args.transcript})")
    print(f"{platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; {time.strftime('%Y-%m-%d')}")
    kinds = {(s, k) for s, k, _, _ in secrets}
    tuning = sum(1 for s in kinds if s[0] == "tuning")
    held = sum(1 for s in kinds if s[0] == "held-out")
    print(f"secrets: {tuning} tuning + {held} held-out kinds x {len(CONTEXTS)} contexts; {len(LOOKALIKES)} look-alikes")
    results = {}
    for redaction in (True, False):
        tmp = Path(tempfile.mkdtemp(prefix="smriti-leaks-"))
        try:
            results[redaction] = run_share(cases + looks, args.transcript, redaction, tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    for redaction in (True, False):
        res = results[redaction]
        counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
        leaks: dict[tuple[str, str], list[str]] = defaultdict(list)
        for native, (subset, kind, context, secret) in meta.items():
            if subset == "lookalike":
                continue
            outcome, payload = res.get(native, ("missing", ""))
            if outcome == "written":
                outcome = "leaked" if leaked(secret, readable_forms(payload)) else "redacted"
            counts[(subset, context)][outcome] += 1
            if outcome in ("leaked", "missing"):
                leaks[(subset, context)].append(kind)
        label = "redactor + gate (share as shipped)" if redaction else "gate alone (redactor switched off)"
        rows = []
        for subset in ("tuning", "held-out"):
            for context in CONTEXTS:
                c = counts[(subset, context)]
                n = sum(c.values())
                rows.append(
                    [
                        subset,
                        context,
                        n,
                        c["leaked"],
                        c["redacted"],
                        c["refused"],
                        f"{100 * c['leaked'] / max(1, n):.1f}%",
                    ]
                )
        print(
            table(
                f"## {label}: per context",
                ["set", "context", "items", "leaked", "redacted", "refused", "leaked %"],
                rows,
            )
        )
        for key, kinds_leaked in sorted(leaks.items()):
            if redaction:  # the gate alone misses whole families (hex, lower-case keys): counts say enough
                print(f"- leaked {key[0]}/{key[1]}: {', '.join(sorted(kinds_leaked))}")
        fp = Counter()
        fp_names = defaultdict(list)
        for native, (subset, name, _, value) in meta.items():
            if subset != "lookalike":
                continue
            outcome, payload = res.get(native, ("missing", ""))
            if outcome == "written":
                # condensed transcripts leave tool output out: kept = there, and nothing redacted
                outcome = "kept" if value in payload and "[REDACTED:" not in payload else "redacted"
            fp[outcome] += 1
            if outcome != "kept":
                fp_names[outcome].append(f"{name} ({payload[:110]})" if outcome == "refused" else name)
        print(
            table(
                f"## {label}: look-alikes",
                ["look-alikes", "kept", "redacted", "refused"],
                [[len(LOOKALIKES), fp["kept"], fp["redacted"], fp["refused"]]],
            )
        )
        for outcome, names in fp_names.items():
            print(f"- {outcome}: {', '.join(names)}")
    rows = speed(args.seed)
    title = "## speed: 20 KB generated transcripts, best of 5 interleaved rounds (shared machine)"
    print(table(title, ["what", "MB/s", "x first row"], rows))


if __name__ == "__main__":
    main()
