# ruff: noqa: E501  (session transcripts are inline data; wrapping them would hurt readability)
"""Write benchmarks/categorize/eval_holdout6.jsonl and eval_holdout6_uncat.jsonl.

A never-seen evaluation set for the categorizer, written by hand (each session's content
individually, inline below); the helpers only build the message dicts so the content stays readable.
Run: python benchmarks/categorize/write_holdout6.py
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
_key = [660000]
SESSIONS: list[dict[str, Any]] = []
UNCAT: list[dict[str, Any]] = []
_num: Counter[str] = Counter()


def _k() -> str:
    _key[0] += 1
    return f"m{_key[0]}"


def _msg(
    role: str, kind: str, text: str, tool: str | None = None, tin: Any = None, files: list[str] | None = None
) -> dict[str, Any]:
    return {
        "role": role,
        "kind": kind,
        "text": text,
        "key": _k(),
        "tool_name": tool,
        "tool_input": tin,
        "files": files or [],
    }


def U(text: str) -> list[dict[str, Any]]:
    return [_msg("user", "prompt", text)]


def A(text: str) -> list[dict[str, Any]]:
    return [_msg("assistant", "response", text)]


def T(tool: str, arg: Any, out: str) -> list[dict[str, Any]]:
    """A tool call and its result; arg is a command, a path, or (path, old, new) for Edit."""
    files: list[str] = []
    if tool == "Bash":
        tin: Any = {"command": arg}
        text = f"Bash: {arg}"
    elif tool == "Edit":
        path, old, new = arg
        tin = {"file_path": path, "old_string": old, "new_string": new}
        text, files = f"Edit: {path}", [path]
    elif tool == "Write":
        path, content = arg
        tin = {"file_path": path, "content": content}
        text, files = f"Write: {path}", [path]
    elif tool == "Grep":
        tin = {"pattern": arg}
        text = f"Grep: {arg}"
    else:
        tin = {"file_path": arg}
        text, files = f"{tool}: {arg}", [arg]
    return [_msg("assistant", "tool_call", text, tool, tin, files), _msg("tool", "tool_result", out, tool)]


def S(cat: str, agent: str, title: str, *parts: list[dict[str, Any]]) -> None:
    msgs = [m for p in parts for m in p]
    if cat == "uncategorized":
        _num[cat] += 1
        UNCAT.append(
            {
                "id": f"h6-uncat-{_num[cat]}",
                "agent": agent,
                "expect": cat,
                "title": title,
                "agent_title": None,
                "messages": msgs,
            }
        )
        return
    _num[cat] += 1
    sid = f"h6-{cat.replace('/', '-')}-{_num[cat]}"
    SESSIONS.append({"id": sid, "agent": agent, "expect": cat, "title": title, "agent_title": None, "messages": msgs})


SR = "<system-reminder>\nThe user opened the file {f} in the IDE. This may or may not be related to the current task.\n</system-reminder>"

# ---------------------------------------------------------------- bug/fix
S(
    "bug/fix",
    "claude-code",
    "Fix pytest failing only on CI (timezone)",
    U("pytest fails on ci only, pls look"),
    T(
        "Bash",
        "gh run view --log-failed | tail -30",
        "FAILED tests/test_reports.py::test_daily_bucket - AssertionError: assert '2024-03-09' == '2024-03-10'\n  - 2024-03-10\n  + 2024-03-09\n1 failed, 212 passed in 41.2s",
    ),
    T(
        "Read",
        "reports/buckets.py",
        "from datetime import datetime, date\n\n\ndef day_bucket(ts: float) -> date:\n    return datetime.fromtimestamp(ts).date()\n\n\ndef bucket_events(events):\n    out = {}\n    for e in events:\n        out.setdefault(day_bucket(e.ts), []).append(e)\n    return out\n",
    ),
    A(
        "`datetime.fromtimestamp` uses the machine's local zone. Your laptop is UTC+1, the CI runner is UTC, so an event at 23:30 UTC lands on a different day. Buckets are meant to be UTC (the API docs say so) - I'll pass `tz=timezone.utc`."
    ),
    T(
        "Edit",
        (
            "reports/buckets.py",
            "    return datetime.fromtimestamp(ts).date()",
            "    return datetime.fromtimestamp(ts, tz=timezone.utc).date()",
        ),
        "The file reports/buckets.py has been updated.",
    ),
    T(
        "Bash",
        "TZ=America/Los_Angeles pytest tests/test_reports.py -q && TZ=UTC pytest tests/test_reports.py -q",
        "......\n6 passed in 0.31s\n......\n6 passed in 0.29s",
    ),
    A("Fixed: buckets are computed in UTC regardless of the host zone; the test now passes under both TZ settings."),
)

S(
    "bug/fix",
    "cursor",
    "NPE in OrderService when coupon is null",
    U(
        'java.lang.NullPointerException: Cannot invoke "com.shop.promo.Coupon.getPercent()" because "coupon" is null\n\tat com.shop.order.OrderService.applyDiscount(OrderService.java:88)\n\tat com.shop.order.OrderService.checkout(OrderService.java:54)\n\tat com.shop.order.OrderController.checkout(OrderController.java:31)\n\nthis started after the promo refactor yesterday. fix it plz, checkout is down for people without coupon code'
    ),
    T(
        "Read",
        "src/main/java/com/shop/order/OrderService.java",
        "    public Receipt checkout(Cart cart, String couponCode) {\n        Coupon coupon = promoRepository.findByCode(couponCode).orElse(null);\n        BigDecimal total = applyDiscount(cart.total(), coupon);\n        return receipts.save(new Receipt(cart, total));\n    }\n\n    BigDecimal applyDiscount(BigDecimal total, Coupon coupon) {\n        BigDecimal pct = BigDecimal.valueOf(coupon.getPercent());\n        return total.subtract(total.multiply(pct).divide(HUNDRED));\n    }",
    ),
    A(
        "Before the refactor `applyDiscount` was only called inside `if (couponCode != null)`. Now it's always called and `coupon` can be null. I'll make the discount a no-op when there is no coupon rather than re-adding the branch at the call site."
    ),
    T(
        "Edit",
        (
            "src/main/java/com/shop/order/OrderService.java",
            "        BigDecimal pct = BigDecimal.valueOf(coupon.getPercent());",
            "        if (coupon == null) {\n            return total;\n        }\n        BigDecimal pct = BigDecimal.valueOf(coupon.getPercent());",
        ),
        "Applied edit.",
    ),
    T("Bash", "./mvnw -q test -Dtest=OrderServiceTest", "[INFO] Tests run: 9, Failures: 0, Errors: 0, Skipped: 0"),
    U("ok. also add test for no coupon case"),
    T(
        "Edit",
        (
            "src/test/java/com/shop/order/OrderServiceTest.java",
            "    @Test\n    void appliesPercentCoupon() {",
            '    @Test\n    void checkoutWithoutCouponChargesFullPrice() {\n        Receipt r = service.checkout(cartOf("100.00"), null);\n        assertThat(r.total()).isEqualByComparingTo("100.00");\n    }\n\n    @Test\n    void appliesPercentCoupon() {',
        ),
        "Applied edit.",
    ),
    T("Bash", "./mvnw -q test -Dtest=OrderServiceTest", "[INFO] Tests run: 10, Failures: 0, Errors: 0, Skipped: 0"),
    A("Added `checkoutWithoutCouponChargesFullPrice`; all 10 tests pass."),
)

S(
    "bug/fix",
    "aider",
    "Rust parser panics on empty input",
    U(
        "thread 'main' panicked at src/lexer.rs:41:27:\nindex out of bounds: the len is 0 but the index is 0\n\ncargo run -- '' triggers it. also while you're in there the lexer design is kinda ugly but dont refactor, just fix the panic"
    ),
    T(
        "Read",
        "src/lexer.rs",
        "impl<'a> Lexer<'a> {\n    pub fn new(src: &'a str) -> Self {\n        Lexer { src: src.as_bytes(), pos: 0 }\n    }\n\n    fn peek(&self) -> u8 {\n        self.src[self.pos]\n    }\n\n    pub fn next_token(&mut self) -> Token {\n        self.skip_ws();\n        match self.peek() {\n            b'(' => { self.pos += 1; Token::LParen }\n            b')' => { self.pos += 1; Token::RParen }\n            c if c.is_ascii_digit() => self.number(),\n            _ => self.ident(),\n        }\n    }\n}",
    ),
    A(
        "`peek` indexes without a bounds check, so any call at end-of-input panics. Minimal fix: `peek` returns `Option<u8>` and `next_token` returns `Token::Eof` on `None`."
    ),
    T(
        "Edit",
        (
            "src/lexer.rs",
            "    fn peek(&self) -> u8 {\n        self.src[self.pos]\n    }",
            "    fn peek(&self) -> Option<u8> {\n        self.src.get(self.pos).copied()\n    }",
        ),
        "Applied edit to src/lexer.rs",
    ),
    T(
        "Bash",
        "cargo test -q",
        "error[E0308]: mismatched types\n  --> src/lexer.rs:49:13\n   |\n49 |             b'(' => { self.pos += 1; Token::LParen }\n   |             ^^^^ expected `Option<u8>`, found `u8`",
    ),
    T(
        "Edit",
        (
            "src/lexer.rs",
            "        match self.peek() {\n            b'(' =>",
            "        let Some(c) = self.peek() else { return Token::Eof };\n        match c {\n            b'(' =>",
        ),
        "Applied edit to src/lexer.rs",
    ),
    T(
        "Bash",
        "cargo test -q && cargo run -q -- ''",
        "running 14 tests\n..............\ntest result: ok. 14 passed; 0 failed\n[Eof]",
    ),
    A("Empty input now yields `[Eof]` instead of panicking. I left the rest of the lexer alone as asked."),
)

S(
    "bug/fix",
    "codex",
    "Django migration breaks on Postgres unique constraint",
    U(
        'hi, so we have this issue since monday. deploy to staging runs migrations and it fails with\n\ndjango.db.utils.IntegrityError: could not create unique index "accounts_profile_slug_key"\nDETAIL:  Key (slug)=() is duplicated.\n\nlocally on sqlite it works fine. i think migration 0042 is the one. can you make it work? we can\'t lose the data in profile'
    ),
    T(
        "Read",
        "accounts/migrations/0042_profile_slug.py",
        'from django.db import migrations, models\n\n\nclass Migration(migrations.Migration):\n    dependencies = [("accounts", "0041_auto")]\n\n    operations = [\n        migrations.AddField(\n            model_name="profile",\n            name="slug",\n            field=models.SlugField(default="", unique=True),\n        ),\n    ]',
    ),
    A(
        "Adding a unique field with default `''` gives every existing row the same empty slug, so Postgres refuses the index. SQLite in your local DB only had one profile, that's why it passed. The safe way is three steps: add the field nullable without unique, fill slugs from usernames in a RunPython, then add the unique constraint."
    ),
    U("yes do it"),
    T(
        "Write",
        (
            "accounts/migrations/0042_profile_slug.py",
            'from django.db import migrations, models\nfrom django.utils.text import slugify\n\n\ndef fill_slugs(apps, schema_editor):\n    Profile = apps.get_model("accounts", "Profile")\n    seen = set()\n    for p in Profile.objects.select_related("user").iterator():\n        base = slugify(p.user.username) or f"user-{p.pk}"\n        slug, n = base, 1\n        while slug in seen:\n            n += 1\n            slug = f"{base}-{n}"\n        seen.add(slug)\n        p.slug = slug\n        p.save(update_fields=["slug"])\n\n\nclass Migration(migrations.Migration):\n    dependencies = [("accounts", "0041_auto")]\n\n    operations = [\n        migrations.AddField("profile", "slug", models.SlugField(null=True)),\n        migrations.RunPython(fill_slugs, migrations.RunPython.noop),\n        migrations.AlterField("profile", "slug", models.SlugField(unique=True)),\n    ]\n',
        ),
        "File written.",
    ),
    T(
        "Bash",
        "docker compose run --rm web python manage.py migrate accounts",
        "Operations to perform:\n  Apply all migrations: accounts\nRunning migrations:\n  Applying accounts.0042_profile_slug... OK",
    ),
    A(
        "Migration applies against the Postgres container with a copy of staging's 3,112 profiles; slugs are unique and existing data untouched."
    ),
)

S(
    "bug/fix",
    "copilot",
    "Fix React list re-render losing input focus",
    U("typing in the todo edit field loses focus after every keystroke"),
    T(
        "Read",
        "src/components/TodoList.tsx",
        "export function TodoList({ todos, onChange }: Props) {\n  return (\n    <ul>\n      {todos.map((t) => (\n        <li key={Math.random()}>\n          <input value={t.text} onChange={(e) => onChange(t.id, e.target.value)} />\n        </li>\n      ))}\n    </ul>\n  );\n}",
    ),
    A(
        "`key={Math.random()}` gives each `<li>` a new key on every render, so React unmounts and remounts the input and focus is lost. Use the stable `t.id`."
    ),
    T(
        "Edit",
        ("src/components/TodoList.tsx", "<li key={Math.random()}>", "<li key={t.id}>"),
        "Edited src/components/TodoList.tsx",
    ),
    A("Done - focus stays now."),
)

# ---------------------------------------------------------------- bug/investigation
S(
    "bug/investigation",
    "claude-code",
    "Why is p99 latency spiking every 10 minutes",
    U(
        "3am, pager again. api p99 jumps from 80ms to 2s roughly every 10 min, for ~30s. no deploys since tuesday. I don't want a fix yet, I need to know WHAT it is. go"
    ),
    T(
        "Bash",
        "kubectl -n api top pods --sort-by=cpu | head",
        "NAME                      CPU(cores)   MEMORY(bytes)\napi-7d9f8c6b5-x2k4p       1890m        1410Mi\napi-7d9f8c6b5-q8r2m       310m         1388Mi\napi-7d9f8c6b5-lm7tz       295m         1402Mi",
    ),
    T(
        "Bash",
        "kubectl -n api logs api-7d9f8c6b5-x2k4p --since=15m | grep -i -E 'gc|pause|cron' | tail",
        "2026-11-27T03:10:02Z INFO scheduler: running job=refresh_materialized_views\n2026-11-27T03:10:31Z INFO scheduler: job done job=refresh_materialized_views took=29.1s\n2026-11-27T03:20:02Z INFO scheduler: running job=refresh_materialized_views\n2026-11-27T03:20:30Z INFO scheduler: job done job=refresh_materialized_views took=28.4s",
    ),
    A(
        "The spikes line up exactly with `refresh_materialized_views`, which runs every 10 minutes in-process on one pod and takes ~29s. Let me check whether it's CPU in the pod or the DB."
    ),
    T(
        "Bash",
        "psql $RO_URL -c \"select pid, wait_event_type, wait_event, left(query,60) from pg_stat_activity where state='active'\"",
        "  pid  | wait_event_type |  wait_event   |                          left\n-------+-----------------+---------------+---------------------------------------------------------\n 48211 | Lock            | relation      | SELECT o.id, o.total FROM orders o WHERE o.customer_id =\n 48215 | Lock            | relation      | SELECT o.id, o.total FROM orders o WHERE o.customer_id =\n 48190 |                 |               | REFRESH MATERIALIZED VIEW order_stats",
    ),
    A(
        "There it is: `REFRESH MATERIALIZED VIEW order_stats` without `CONCURRENTLY` takes an ACCESS EXCLUSIVE lock on the view, and the orders endpoint joins that view, so every request waits for the refresh (~29s). The high CPU on one pod is the job itself, a side effect, not the cause."
    ),
    U("why did it start now tho, job is old"),
    T(
        "Bash",
        "git log --since=2026-11-20 --oneline -- db/ sql/",
        "a41c2e9 orders: join order_stats for lifetime value badge\n",
    ),
    A(
        "The job is old but the join isn't: a41c2e9 (Tuesday) made the orders query read `order_stats`. Before that nothing user-facing touched the view, so the lock was invisible. Root cause: non-concurrent refresh + new read path. Options for the fix when you're awake: `REFRESH ... CONCURRENTLY` (needs a unique index on the view) or drop the join from the hot path."
    ),
    U("ok thats enough, writing it in the incident doc. thx"),
)

S(
    "bug/investigation",
    "gemini-cli",
    "Memory leak in Node worker",
    U(
        "our node worker RSS grows ~200MB/hour until OOMKilled. heap snapshots attached at /tmp/heap1.heapsnapshot and heap2. can u find what's leaking? dont change code yet"
    ),
    T(
        "Bash",
        "node scripts/compare-heaps.js /tmp/heap1.heapsnapshot /tmp/heap2.heapsnapshot | head -15",
        "constructor            count_delta   size_delta\nTimeout                +48210        +11.5 MB\nClosure (onRetry)      +48210        +6.9 MB\nTLSSocket              +12           +0.4 MB\n(string)               +9120         +2.1 MB",
    ),
    A(
        "48k new `Timeout` objects each holding an `onRetry` closure. Something schedules retries and never clears them."
    ),
    T(
        "Grep",
        "onRetry",
        "src/queue/consumer.ts:77:    const onRetry = () => this.redeliver(msg);\nsrc/queue/consumer.ts:78:    const t = setTimeout(onRetry, backoff(msg.attempts));\nsrc/queue/consumer.ts:79:    this.pending.set(msg.id, t);",
    ),
    T(
        "Read",
        "src/queue/consumer.ts",
        "  async handle(msg: Message) {\n    const onRetry = () => this.redeliver(msg);\n    const t = setTimeout(onRetry, backoff(msg.attempts));\n    this.pending.set(msg.id, t);\n    try {\n      await this.processor(msg);\n      this.ack(msg);\n    } catch (err) {\n      this.log.warn({ err }, 'processing failed, will retry');\n    }\n  }\n\n  ack(msg: Message) {\n    this.channel.ack(msg.raw);\n  }",
    ),
    A(
        "Found it: `handle` arms a retry timer *before* processing and stores it in `this.pending`, but `ack` never clears the timer nor deletes from the map. On success each message leaves a live Timeout (it fires later and `redeliver` returns early since the msg is acked, but the Map entry and closure - which holds the whole message payload - stay forever). That matches the ~48k delta = messages processed between snapshots. Fix would be `clearTimeout` + `pending.delete` in `ack`, but you asked not to change code."
    ),
)

S(
    "bug/investigation",
    "cline",
    "Intermittent 502 from nginx ingress",
    U("we get random 502s from ingress, maybe 0.5% of reqs. backend logs show nothing. where does it come from?"),
    T(
        "Bash",
        "kubectl -n ingress-nginx logs deploy/ingress-nginx-controller --since=1h | grep ' 502 ' | head -5",
        '10.2.3.4 - - [27/Nov/2026:10:11:02 +0000] "POST /api/upload HTTP/1.1" 502 150 "-" "okhttp/4.12" 1203 0.001 [default-api-80] [] 10.8.1.17:8080 0 0.001 502\nupstream prematurely closed connection while reading response header from upstream',
    ),
    A(
        "`upstream prematurely closed connection` with 0.001s upstream time means nginx reused a keep-alive connection the backend had already closed. Let me check the backend's idle timeout vs nginx's."
    ),
    T(
        "Bash",
        "grep -rn -i 'keepalive\\|idle' deploy/ api/server.go",
        'deploy/ingress-values.yaml:12:  upstream-keepalive-timeout: "60"\napi/server.go:40:\tIdleTimeout:  30 * time.Second,',
    ),
    A(
        "Root cause: the Go server closes idle connections after 30s, nginx keeps upstream connections for 60s. When nginx picks a connection in the 30-60s window the backend has just closed it -> 502, and the backend never sees a request so it logs nothing. Backend idle timeout must be longer than the proxy's (e.g. 75s) or nginx's lower."
    ),
    U("makes sense. is there a way to confirm before we change?"),
    T(
        "Bash",
        "kubectl -n ingress-nginx logs deploy/ingress-nginx-controller --since=6h | grep ' 502 ' | awk '{print $NF}' | sort | uniq -c",
        "    311 502",
    ),
    A(
        'All 311 502s in 6h have upstream status 502 with ~0ms upstream time, none are timeouts - consistent with the stale keep-alive race. You can confirm by setting `upstream-keepalive-timeout: "25"` on one ingress class for an hour and watching the rate drop to zero.'
    ),
)

S(
    "bug/investigation",
    "codex",
    "Flaky Elixir test investigation",
    U(
        "test/accounts_test.exs:112 fails like 1 in 20 runs with\n\n  ** (Ecto.MultipleResultsError) expected at most one result but got 2 in query\n\nwhy? its flaky only on ci"
    ),
    T(
        "Read",
        "test/accounts_test.exs",
        '  test "invite creates pending membership" do\n    org = insert(:org)\n    user = insert(:user, email: "a@example.com")\n    {:ok, _} = Accounts.invite(org, user.email)\n    assert %Membership{state: :pending} = Repo.get_by!(Membership, user_id: user.id)\n  end',
    ),
    T(
        "Grep",
        "def invite",
        "lib/app/accounts.ex:201:  def invite(org, email) do\nlib/app/accounts.ex:202:    Task.start(fn -> Notifier.send_invite(org, email) end)\nlib/app/accounts.ex:203:    upsert_membership(org, email)",
    ),
    T(
        "Read",
        "lib/app/notifier.ex",
        "  def send_invite(org, email) do\n    user = Accounts.get_user_by_email(email)\n    Accounts.ensure_membership(org, user)\n    Mailer.deliver(InviteEmail.new(org, user))\n  end",
    ),
    A(
        "The flakiness is a race: `invite/2` spawns an unsupervised `Task` that calls `ensure_membership`, and in parallel `upsert_membership` runs in the test process. With no unique index on (org_id, user_id) both can insert, giving two rows. On CI (slower, `async: true` tests with sandbox in shared mode) the task wins the race more often. The unique constraint is missing in `priv/repo/migrations/20240312_memberships.exs` - it only indexes org_id."
    ),
    U("so the bug is in prod too?"),
    A(
        "Yes - in production two memberships can be created for one invite. Quick query to check: `select org_id, user_id, count(*) from memberships group by 1,2 having count(*) > 1;`"
    ),
)

S(
    "bug/investigation",
    "claude-code",
    "Slow Postgres query after upgrade",
    U(
        "after upgrading pg 14 -> 16 this query went from 40ms to 9s. same data. what changed?\n\nSELECT * FROM events WHERE tenant_id = $1 AND created_at > now() - interval '1 day' ORDER BY created_at DESC LIMIT 50;"
    ),
    T(
        "Bash",
        "psql $DB -c 'EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM events WHERE tenant_id = 42 AND created_at > now() - interval \\'1 day\\' ORDER BY created_at DESC LIMIT 50'",
        "Limit  (cost=0.56..912.40 rows=50) (actual time=9021.3..9021.9 rows=50 loops=1)\n  ->  Index Scan Backward using events_created_at_idx on events  (actual time=9021.3..9021.8 rows=50 loops=1)\n        Index Cond: (created_at > (now() - '1 day'::interval))\n        Filter: (tenant_id = 42)\n        Rows Removed by Filter: 18220114\n        Buffers: shared hit=211 read=402118\nPlanning Time: 0.4 ms\nExecution Time: 9022.0 ms",
    ),
    T(
        "Bash",
        "psql $DB -c \"select attname, n_distinct, last_analyze from pg_stats join pg_stat_user_tables using (schemaname) where tablename='events' and attname in ('tenant_id','created_at')\"",
        " attname    | n_distinct | last_analyze\n------------+------------+-------------\n tenant_id  |            |\n created_at |            |\n(0 rows with stats)",
    ),
    A(
        "The table has no statistics at all: `pg_upgrade` doesn't carry planner stats over, and nobody ran `ANALYZE` afterwards. Without stats the planner guesses tenant_id is unselective and walks the created_at index backwards, filtering out 18M rows. On 14 it used `events_tenant_created_idx`. Running `vacuumdb --analyze-in-stages` is the standard post-upgrade step and should restore the old plan."
    ),
)

# ---------------------------------------------------------------- bug/report
S(
    "bug/report",
    "claude-code",
    "Write up CSV export encoding bug for the issue tracker",
    U(
        "can you write a proper bug report for this? customers in Germany say the CSV export shows Ã¼ instead of ü when opened in Excel. I reproduced it with export of customer 'Müller GmbH'. I need a github issue with steps, expected, actual, env. don't fix it, the billing team owns that code"
    ),
    T(
        "Bash",
        "curl -s -H \"Authorization: Bearer $TOKEN\" 'localhost:8000/api/export/customers.csv?q=M%C3%BCller' | xxd | head -3",
        "00000000: 6e61 6d65 2c63 6974 790a 4dc3 bc6c 6c65  name,city.M..lle\n00000010: 7220 476d 6248 2c4d c3bc 6e63 6865 6e0a  r GmbH,M..nchen.",
    ),
    A(
        "The bytes are valid UTF-8 (`c3 bc` = ü) but there's no BOM and the response header says `text/csv` without charset, so Excel assumes Windows-1252. Here is the report:\n\n**Title:** CSV customer export shows mojibake (Ã¼) for umlauts when opened in Excel\n\n**Steps to reproduce**\n1. Create customer `Müller GmbH`, city `München`.\n2. Customers > Export > CSV.\n3. Open the file in Excel (Windows, de-DE) by double-click.\n\n**Expected:** `Müller GmbH, München`\n**Actual:** `MÃ¼ller GmbH, MÃ¼nchen`\n\n**Environment:** prod + local, build 2026.11.3, Excel 365 16.0 Windows.\n\n**Notes:** file bytes are correct UTF-8 (see hexdump); no BOM and `Content-Type: text/csv` lacks `charset=utf-8`. Numbers/LibreOffice open it fine.\n\n**Severity:** medium - affects all DE/AT customers, workaround is Data > From Text."
    ),
    U("add label billing and the hexdump as attachment text"),
    A("Added `labels: billing, bug` and the two hexdump lines in a collapsed `<details>` block under Notes."),
)

S(
    "bug/report",
    "copilot",
    "Minimal repro for Go race in cache",
    U(
        "need a minimal repro of the data race we keep seeing in cache pkg for upstream issue. just the repro + the race detector output, short"
    ),
    T(
        "Write",
        (
            "repro/main.go",
            'package main\n\nimport (\n\t"sync"\n\n\t"github.com/acme/lru"\n)\n\nfunc main() {\n\tc := lru.New(10)\n\tvar wg sync.WaitGroup\n\tfor i := 0; i < 50; i++ {\n\t\twg.Add(1)\n\t\tgo func(i int) {\n\t\t\tdefer wg.Done()\n\t\t\tc.Add(i%5, i)\n\t\t\tc.Len()\n\t\t}(i)\n\t}\n\twg.Wait()\n}\n',
        ),
        "Created repro/main.go",
    ),
    T(
        "Bash",
        "go run -race ./repro 2>&1 | head -14",
        "==================\nWARNING: DATA RACE\nRead at 0x00c0000b4018 by goroutine 8:\n  github.com/acme/lru.(*Cache).Len()\n      /go/pkg/mod/github.com/acme/lru@v0.3.1/lru.go:88 +0x3c\nPrevious write at 0x00c0000b4018 by goroutine 7:\n  github.com/acme/lru.(*Cache).Add()\n      /go/pkg/mod/github.com/acme/lru@v0.3.1/lru.go:61 +0x1a4\n==================\nFound 1 data race(s)\nexit status 66",
    ),
    A(
        "Repro is 20 lines, deterministic with `-race`: `Len()` reads `c.size` without taking the mutex `Add` holds (lru.go:88 vs :61). Issue text:\n\n> `Cache.Len()` is not synchronized with `Add()` (v0.3.1). Repro: repro/main.go above, `go run -race`. Expected: no race, since the README says Cache is safe for concurrent use."
    ),
)

S(
    "bug/report",
    "cursor",
    "Document reproduction of iOS keyboard overlap bug",
    U(
        "QA found that on iPhone SE the keyboard covers the Send button in chat. I want a bug ticket, with repro steps, devices where it happens and where not. I checked: SE 2nd gen iOS 17.4 yes, iPhone 15 no, iPad no. RN 0.73"
    ),
    T(
        "Read",
        "src/screens/ChatScreen.tsx",
        "export default function ChatScreen() {\n  return (\n    <SafeAreaView style={styles.root}>\n      <MessageList />\n      <View style={styles.composer}>\n        <TextInput style={styles.input} multiline />\n        <SendButton />\n      </View>\n    </SafeAreaView>\n  );\n}",
    ),
    A(
        "Ticket draft:\n\n**[Chat] Keyboard covers Send button on small iPhones**\n\n*Repro*\n1. Install build 4.12.0 (RN 0.73) on iPhone SE (2nd gen), iOS 17.4.\n2. Open any conversation.\n3. Tap the message field.\n\n*Expected:* composer moves above the keyboard; Send visible.\n*Actual:* keyboard overlaps the composer; Send hidden, user must dismiss keyboard to send.\n\n*Affected:* iPhone SE 2nd gen / iOS 17.4. *Not affected:* iPhone 15 (iOS 17.4), iPad Air.\n\n*Observation:* ChatScreen has no `KeyboardAvoidingView`; on devices with a home indicator the safe-area inset happens to leave room. Screenshot: attach QA's.\n\n*Priority:* P2 (blocks sending on affected devices)."
    ),
    U("perfect. can you make it jira markup instead of markdown"),
    A(
        "h3. [Chat] Keyboard covers Send button on small iPhones\n\n*Repro*\n# Install build 4.12.0 on iPhone SE (2nd gen), iOS 17.4\n# Open any conversation\n# Tap the message field\n\n*Expected:* composer above keyboard\n*Actual:* Send hidden under keyboard\n\n||Device||iOS||Affected||\n|iPhone SE 2|17.4|yes|\n|iPhone 15|17.4|no|\n|iPad Air|17.4|no|"
    ),
)

S(
    "bug/report",
    "aider",
    "Reproduce Terraform plan drift for ticket",
    U(
        "terraform plan keeps showing a diff on aws_security_group.web every run even right after apply. platform team wants a reproducible issue w/ minimal config before they look at it. can you make one?"
    ),
    T(
        "Bash",
        "terraform plan -no-color | sed -n '1,25p'",
        '  # aws_security_group.web will be updated in-place\n  ~ resource "aws_security_group" "web" {\n        id     = "sg-0a1b2c3d"\n      ~ ingress = [\n          - {\n              - cidr_blocks = ["10.0.0.0/8"]\n              - from_port   = 443\n              - protocol    = "tcp"\n              - to_port     = 443\n            },\n          + {\n              + cidr_blocks = ["10.0.0.0/8"]\n              + from_port   = 443\n              + protocol    = "6"\n              + to_port     = 443\n            },\n        ]\n    }\nPlan: 0 to add, 1 to change, 0 to destroy.',
    ),
    A('The perpetual diff is `protocol = "6"` in config vs `"tcp"` as AWS returns it. Minimal repro:'),
    T(
        "Write",
        (
            "repro/main.tf",
            'provider "aws" { region = "eu-west-1" }\n\nresource "aws_security_group" "web" {\n  name = "drift-repro"\n  ingress {\n    from_port   = 443\n    to_port     = 443\n    protocol    = "6"\n    cidr_blocks = ["10.0.0.0/8"]\n  }\n}\n',
        ),
        "Wrote repro/main.tf",
    ),
    A(
        'Issue text:\n**Perpetual in-place diff for aws_security_group with numeric protocol**\nProvider hashicorp/aws 5.31.0, Terraform 1.6.6.\nSteps: `terraform apply` repro/main.tf, then `terraform plan` -> shows 1 change every time.\nExpected: no changes. Actual: ingress block replaced, `"6"` vs `"tcp"`.\nWorkaround (not applied): use `"tcp"`.'
    ),
)

S(
    "bug/report",
    "gemini-cli",
    "Bug report: double charge on retry",
    U(
        "Hello, my english is not perfect sorry. Support tell me that 3 customers was charged two times yesterday. I look at logs and I think is when payment provider timeout and our client retry. I need to write the bug for the team with all information, the fix is for other person. Logs are in logs/payments-2026-11-26.log"
    ),
    T(
        "Bash",
        "grep -n 'ord_88213' logs/payments-2026-11-26.log",
        "4411: 14:02:11.020 INFO charge.start order=ord_88213 amount=59.00 idem_key=-\n4412: 14:02:41.022 WARN charge.timeout order=ord_88213 after=30000ms\n4413: 14:02:41.030 INFO charge.retry order=ord_88213 attempt=2 idem_key=-\n4414: 14:02:42.310 INFO charge.ok order=ord_88213 provider_id=ch_3Pq\n4431: 14:03:05.118 INFO webhook charge.succeeded provider_id=ch_3Po order=ord_88213\n4432: 14:03:05.120 INFO webhook charge.succeeded provider_id=ch_3Pq order=ord_88213",
    ),
    T(
        "Bash",
        "grep -c 'charge.retry' logs/payments-2026-11-26.log; grep 'charge.retry' logs/payments-2026-11-26.log | awk '{print $4}' | sort -u",
        "3\norder=ord_88213\norder=ord_88240\norder=ord_88302",
    ),
    A(
        "Your theory is confirmed by the logs. Draft:\n\n**Title:** Customer charged twice when provider call times out and client retries\n\n**Impact:** 3 orders on 2026-11-26 (ord_88213, ord_88240, ord_88302), each charged twice.\n\n**Reproduction:** provider responds after our 30s timeout; client retries the charge; both charges succeed (two `charge.succeeded` webhooks, ch_3Po and ch_3Pq for ord_88213).\n\n**Evidence:** log lines 4411-4432 (attached). `idem_key=-` on both attempts: no idempotency key is sent, so the provider treats the retry as a new charge.\n\n**Expected:** retry is idempotent - at most one charge per order.\n\n**Not in scope of this ticket:** refunds (support handles them)."
    ),
    U("thank you very much! is good"),
)
# ---------------------------------------------------------------- code/implementation
S(
    "code/implementation",
    "claude-code",
    "Convert callback-based fs module to async/await",
    U("convert lib/storage.js from callbacks to async/await. behaviour must stay the same, tests must pass"),
    T(
        "Read",
        "lib/storage.js",
        "const fs = require('fs');\nconst path = require('path');\n\nfunction readJson(file, cb) {\n  fs.readFile(file, 'utf8', (err, data) => {\n    if (err) return cb(err);\n    try {\n      cb(null, JSON.parse(data));\n    } catch (e) {\n      cb(e);\n    }\n  });\n}\n\nfunction writeJson(file, obj, cb) {\n  const tmp = file + '.tmp';\n  fs.writeFile(tmp, JSON.stringify(obj, null, 2), (err) => {\n    if (err) return cb(err);\n    fs.rename(tmp, file, cb);\n  });\n}\n\nfunction listStores(dir, cb) {\n  fs.readdir(dir, (err, names) => {\n    if (err) return cb(err);\n    cb(null, names.filter((n) => n.endsWith('.json')).map((n) => path.join(dir, n)));\n  });\n}\n\nmodule.exports = { readJson, writeJson, listStores };",
    ),
    T(
        "Write",
        (
            "lib/storage.js",
            "const fs = require('fs/promises');\nconst path = require('path');\n\nasync function readJson(file) {\n  return JSON.parse(await fs.readFile(file, 'utf8'));\n}\n\nasync function writeJson(file, obj) {\n  const tmp = file + '.tmp';\n  await fs.writeFile(tmp, JSON.stringify(obj, null, 2));\n  await fs.rename(tmp, file);\n}\n\nasync function listStores(dir) {\n  const names = await fs.readdir(dir);\n  return names.filter((n) => n.endsWith('.json')).map((n) => path.join(dir, n));\n}\n\nmodule.exports = { readJson, writeJson, listStores };\n",
        ),
        "File written.",
    ),
    T(
        "Bash",
        "npm test -- storage",
        "FAIL test/storage.test.js\n  ● readJson › returns parsed object\n    TypeError: cb is not a function",
    ),
    A(
        "Tests still use the callback form. Should I update the tests to `await`, or keep a callback wrapper for the three callers in `bin/`?"
    ),
    U("update tests and callers, no wrappers"),
    T(
        "Bash",
        "sed -i 's/readJson(\\(.*\\), (err, obj) =>/await readJson(\\1) \\/\\/ TODO/' bin/*.js && grep -rn 'TODO' bin | wc -l",
        "3",
    ),
    A(
        "Rewrote the 3 call sites in bin/ by hand (the sed was only to find them) and converted test/storage.test.js to async tests."
    ),
    T("Bash", "npm test", "PASS test/storage.test.js\nPASS test/cli.test.js\nTests:       23 passed, 23 total"),
    U("nice"),
)

S(
    "code/implementation",
    "aider",
    "Optimize slow Python dedupe loop",
    U("dedupe() takes 40s on 200k rows, make it faster. same output order pls"),
    T(
        "Read",
        "etl/dedupe.py",
        "def dedupe(rows):\n    out = []\n    for r in rows:\n        if r['email'].lower() not in [o['email'].lower() for o in out]:\n            out.append(r)\n    return out\n",
    ),
    A(
        "It's O(n²): for each row it rebuilds a list of all kept emails. A set of seen keys keeps the first occurrence and order, O(n)."
    ),
    T(
        "Edit",
        (
            "etl/dedupe.py",
            "    out = []\n    for r in rows:\n        if r['email'].lower() not in [o['email'].lower() for o in out]:\n            out.append(r)\n    return out",
            "    seen: set[str] = set()\n    out = []\n    for r in rows:\n        key = r['email'].lower()\n        if key not in seen:\n            seen.add(key)\n            out.append(r)\n    return out",
        ),
        "Applied edit to etl/dedupe.py",
    ),
    T(
        "Bash",
        "python -m pytest tests/test_dedupe.py -q && python bench/dedupe_bench.py",
        "....\n4 passed in 0.12s\nrows=200000 before=41.8s after=0.09s",
    ),
    A("200k rows: 41.8s -> 0.09s, output identical (tests pass, including the order test)."),
)

S(
    "code/implementation",
    "cursor",
    "Rewrite bash deploy script in Go",
    U(
        "I want to rewrite scripts/release.sh as a small go program under cmd/release, it's getting unmaintainable. same flags. the design of the release process stays the same, this is just a port"
    ),
    T(
        "Read",
        "scripts/release.sh",
        '#!/usr/bin/env bash\nset -euo pipefail\nVERSION=${1:?usage: release.sh VERSION [--dry-run]}\nDRY=${2:-}\n\nif [[ -n $(git status --porcelain) ]]; then\n  echo "dirty tree" >&2; exit 1\nfi\n\ngit tag -a "v$VERSION" -m "release $VERSION"\nGOOS=linux GOARCH=amd64 go build -o dist/app-linux-amd64 ./cmd/app\nGOOS=darwin GOARCH=arm64 go build -o dist/app-darwin-arm64 ./cmd/app\n(cd dist && sha256sum app-* > SHA256SUMS)\n\nif [[ "$DRY" == "--dry-run" ]]; then\n  echo "dry run, not pushing"; exit 0\nfi\ngit push origin "v$VERSION"\ngh release create "v$VERSION" dist/*\n',
    ),
    T(
        "Write",
        (
            "cmd/release/main.go",
            'package main\n\nimport (\n\t"crypto/sha256"\n\t"flag"\n\t"fmt"\n\t"os"\n\t"os/exec"\n)\n\nvar targets = [][2]string{{"linux", "amd64"}, {"darwin", "arm64"}}\n\nfunc run(env []string, name string, args ...string) error {\n\tcmd := exec.Command(name, args...)\n\tcmd.Env = append(os.Environ(), env...)\n\tcmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr\n\treturn cmd.Run()\n}\n\nfunc main() {\n\tdry := flag.Bool("dry-run", false, "build and tag but do not push")\n\tflag.Parse()\n\tif flag.NArg() != 1 {\n\t\tfmt.Fprintln(os.Stderr, "usage: release [--dry-run] VERSION")\n\t\tos.Exit(2)\n\t}\n\t// ... dirty check, tag, build loop, checksums, push\n}\n',
        ),
        "Created cmd/release/main.go",
    ),
    T(
        "Bash",
        "go vet ./cmd/release && go run ./cmd/release --dry-run 0.0.0-test",
        '# command-line-arguments\ncmd/release/main.go:4:2: "crypto/sha256" imported and not used',
    ),
    A(
        "Filled in the checksum step (it now uses `crypto/sha256` to write SHA256SUMS in the same format as `sha256sum`), dirty check, tagging and push."
    ),
    T(
        "Bash",
        "go vet ./cmd/release && go run ./cmd/release --dry-run 0.0.0-test && cat dist/SHA256SUMS",
        "dry run, not pushing\n9f2c...e1  app-darwin-arm64\n0b7a...44  app-linux-amd64",
    ),
    U("the flag order changed, old was VERSION --dry-run"),
    A(
        "Right - Go's `flag` stops at the first positional arg. I now parse `os.Args` so both `release 1.2.0 --dry-run` and `release --dry-run 1.2.0` work, matching the old script."
    ),
    U("ok good, delete the sh"),
    T("Bash", "git rm -q scripts/release.sh && git status --short", "D  scripts/release.sh\nA  cmd/release/main.go"),
)

S(
    "code/implementation",
    "codex",
    "Refactor Spring controller into service layer",
    U(
        "UserController has 400 lines of business logic in it. move the logic to a UserService, controller should just map http. no behaviour change, there are integration tests"
    ),
    T(
        "Bash",
        "wc -l src/main/java/com/acme/web/UserController.java && grep -c '@Autowired' src/main/java/com/acme/web/UserController.java",
        "412 src/main/java/com/acme/web/UserController.java\n6",
    ),
    A(
        "Plan: extract `UserService` with `register`, `changeEmail`, `deactivate`, `search`; controller keeps request validation + DTO mapping. The 6 repositories/clients move to the service constructor."
    ),
    T(
        "Write",
        (
            "src/main/java/com/acme/user/UserService.java",
            "@Service\n@RequiredArgsConstructor\npublic class UserService {\n    private final UserRepository users;\n    private final AuditLog audit;\n    private final MailClient mail;\n\n    @Transactional\n    public User register(RegisterCommand cmd) { ... }\n\n    @Transactional\n    public User changeEmail(long id, String email) { ... }\n}\n",
        ),
        "Created file.",
    ),
    T(
        "Bash",
        "./gradlew test --tests '*User*'",
        "> Task :test\nUserControllerIT > changeEmailSendsConfirmation() FAILED\n    org.springframework.transaction.IllegalTransactionStateException",
    ),
    A(
        "The old controller method wasn't transactional and sent the mail inside the same call; now the mail send happens inside `@Transactional` and the test asserts the mail is sent after commit. I'll publish an event with `@TransactionalEventListener(phase = AFTER_COMMIT)` to keep the old ordering."
    ),
    T("Bash", "./gradlew test --tests '*User*'", "BUILD SUCCESSFUL in 38s\n21 tests completed"),
    A("UserController is now 96 lines; the logic lives in UserService. All 21 user tests pass."),
)

S(
    "code/implementation",
    "copilot",
    "Replace lodash usages with native JS",
    U("remove lodash from src/utils, use native"),
    T(
        "Grep",
        "from 'lodash'",
        "src/utils/format.ts:1:import { get, debounce } from 'lodash';\nsrc/utils/array.ts:1:import { uniq, chunk } from 'lodash';",
    ),
    A(
        "Replaced `get` with optional chaining, `uniq` with `[...new Set(xs)]`, `chunk` with a 6-line helper; kept a tiny local `debounce`. `npm test` passes (58 tests)."
    ),
)

# ---------------------------------------------------------------- code/pattern
S(
    "code/pattern",
    "claude-code",
    "Idiomatic error handling with Result in Rust",
    U(
        "in rust what is the idiomatic way to handle errors from 3 different libs in one fn? im doing .unwrap() everywhere lol. show with my code in src/config.rs"
    ),
    T(
        "Read",
        "src/config.rs",
        "pub fn load(path: &str) -> Config {\n    let text = std::fs::read_to_string(path).unwrap();\n    let raw: RawConfig = toml::from_str(&text).unwrap();\n    let url = url::Url::parse(&raw.endpoint).unwrap();\n    Config { url, retries: raw.retries }\n}",
    ),
    A(
        'The idiom is: one error type for your module, `?` everywhere, and `From` conversions so `?` can convert each library\'s error. With `thiserror`:\n\n```rust\n#[derive(Debug, thiserror::Error)]\npub enum ConfigError {\n    #[error("reading {0}")]\n    Io(#[from] std::io::Error),\n    #[error("parsing toml")]\n    Toml(#[from] toml::de::Error),\n    #[error("bad endpoint url")]\n    Url(#[from] url::ParseError),\n}\n\npub fn load(path: &str) -> Result<Config, ConfigError> {\n    let text = std::fs::read_to_string(path)?;\n    let raw: RawConfig = toml::from_str(&text)?;\n    let url = url::Url::parse(&raw.endpoint)?;\n    Ok(Config { url, retries: raw.retries })\n}\n```\n\nIn a binary\'s `main` you\'d often use `anyhow::Result` instead and add `.context(...)`; libraries expose typed enums like the one above so callers can match.'
    ),
    U("when do i use anyhow vs thiserror then"),
    A(
        'Rule of thumb: `thiserror` for libraries (callers need to match on variants), `anyhow` for applications (you only report errors, and `.context("loading config")` gives a good chain). Mixing is fine: your lib returns `ConfigError`, `main` returns `anyhow::Result<()>` and `?` converts it.'
    ),
)

S(
    "code/pattern",
    "cursor",
    "Strategy pattern for shipping rate providers",
    U(
        "we have a giant if/elif on carrier name in shipping/rates.py (dhl, ups, fedex, and now postnl coming). whats the right pattern here so adding a carrier doesnt touch this function every time?"
    ),
    T(
        "Read",
        "shipping/rates.py",
        "def quote(carrier, parcel, dest):\n    if carrier == 'dhl':\n        resp = dhl_client.rate(parcel.weight_kg, dest.zip)\n        return Money(resp['price'], 'EUR')\n    elif carrier == 'ups':\n        r = ups.Rates(api_key=UPS_KEY).get(parcel.to_ups(), dest.country)\n        return Money(r.total, r.currency)\n    elif carrier == 'fedex':\n        ...\n    raise ValueError(carrier)",
    ),
    A(
        "This is the textbook case for Strategy + a registry: each carrier implements one interface, and `quote` looks the implementation up by name.\n\n```python\nclass RateProvider(Protocol):\n    def quote(self, parcel: Parcel, dest: Address) -> Money: ...\n\nPROVIDERS: dict[str, RateProvider] = {}\n\ndef register(name: str):\n    def deco(cls):\n        PROVIDERS[name] = cls()\n        return cls\n    return deco\n\n@register('dhl')\nclass Dhl:\n    def quote(self, parcel, dest):\n        resp = dhl_client.rate(parcel.weight_kg, dest.zip)\n        return Money(resp['price'], 'EUR')\n\ndef quote(carrier, parcel, dest):\n    return PROVIDERS[carrier].quote(parcel, dest)\n```\n\nAdding PostNL is then a new class in its own module. One caveat: decorator registration only runs if the module is imported, so import the carriers package in `shipping/__init__.py` or use an explicit dict."
    ),
    U("explicit dict sounds less magic, lets do that"),
    A(
        "Agreed, explicit is easier to grep: `PROVIDERS = {'dhl': Dhl(), 'ups': Ups(), 'fedex': Fedex()}` in `shipping/providers.py`, and no decorator."
    ),
)

S(
    "code/pattern",
    "gemini-cli",
    "Options pattern for Go constructor",
    U("go: NewClient has 9 params now and half are optional. what's the go way?"),
    A(
        "Functional options:\n\n```go\ntype Option func(*Client)\n\nfunc WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }\nfunc WithRetries(n int) Option          { return func(c *Client) { c.retries = n } }\n\nfunc NewClient(baseURL string, opts ...Option) *Client {\n\tc := &Client{baseURL: baseURL, timeout: 10 * time.Second, retries: 3}\n\tfor _, o := range opts {\n\t\to(c)\n\t}\n\treturn c\n}\n```\n\nRequired things stay positional, optional ones become `With...`. The alternative is a `Config` struct (`NewClient(Config{...})`), simpler when options don't need validation or defaults that depend on each other."
    ),
)

S(
    "code/pattern",
    "cline",
    "Repository pattern in TypeScript with Prisma",
    U(
        'junior here. my lead said "dont call prisma directly from the route handlers, use a repository". what does that mean exactly? can u show on routes/posts.ts'
    ),
    T(
        "Read",
        "src/routes/posts.ts",
        "router.get('/posts/:id', async (req, res) => {\n  const post = await prisma.post.findUnique({\n    where: { id: Number(req.params.id) },\n    include: { author: true, tags: true },\n  });\n  if (!post || post.deletedAt) return res.status(404).end();\n  res.json(post);\n});\n\nrouter.post('/posts', async (req, res) => {\n  const post = await prisma.post.create({ data: { ...req.body, authorId: req.user.id } });\n  res.status(201).json(post);\n});",
    ),
    A(
        'A repository is a small class that owns all database access for one kind of thing. Route handlers ask it questions in domain words ("find a visible post") and don\'t know about Prisma. Benefits: the `deletedAt` rule lives in one place, and tests can use an in-memory repo.\n\n```ts\nexport class PostRepository {\n  constructor(private db: PrismaClient) {}\n\n  findVisible(id: number) {\n    return this.db.post.findFirst({\n      where: { id, deletedAt: null },\n      include: { author: true, tags: true },\n    });\n  }\n\n  create(authorId: number, data: NewPost) {\n    return this.db.post.create({ data: { ...data, authorId } });\n  }\n}\n```\n\nand the route becomes `const post = await posts.findVisible(Number(req.params.id));`.'
    ),
    U("ok but isnt prisma already like a repository?"),
    A(
        "Partly - Prisma is a generic data mapper. The repository adds *your* rules on top (soft deletes, which relations to load, tenant filters). If your app has none of those, a repo layer is ceremony; your lead probably wants it because of `deletedAt`."
    ),
    U("makes sense thx"),
)

S(
    "code/pattern",
    "codex",
    "Ruby: replace callbacks with service objects",
    U(
        "rails app, User model has after_create callbacks that send email, create stripe customer, post to slack. people say callbacks are an anti-pattern. whats the pattern ppl use instead? not asking to rewrite everything, just the idea + one example"
    ),
    T(
        "Read",
        "app/models/user.rb",
        'class User < ApplicationRecord\n  after_create :send_welcome_email\n  after_create :create_stripe_customer\n  after_create :notify_slack\n\n  private\n\n  def send_welcome_email\n    UserMailer.welcome(self).deliver_later\n  end\n\n  def create_stripe_customer\n    update!(stripe_id: Stripe::Customer.create(email: email).id)\n  end\n\n  def notify_slack\n    SlackNotifier.ping("New user #{email}")\n  end\nend',
    ),
    A(
        'The usual replacement is a service object (a.k.a. interactor/command): a plain Ruby class with one public method that performs one use case explicitly.\n\n```ruby\nclass RegisterUser\n  def self.call(params) = new.call(params)\n\n  def call(params)\n    user = User.create!(params)\n    UserMailer.welcome(user).deliver_later\n    CreateStripeCustomerJob.perform_later(user.id)\n    SlackNotifier.ping("New user #{user.email}")\n    user\n  end\nend\n```\n\nWhy: `User.create` in a seed script or test no longer calls Stripe; side effects are visible at the call site; each step can be tested alone. Keep callbacks for things intrinsic to the record (normalizing email, setting a slug).'
    ),
)

# ---------------------------------------------------------------- code/review
S(
    "code/review",
    "claude-code",
    "Review PR adding rate limiter middleware",
    U("review PR #482 pls, I'm the approver. be picky"),
    T(
        "Bash",
        "gh pr diff 482",
        'diff --git a/internal/http/ratelimit.go b/internal/http/ratelimit.go\nnew file mode 100644\n+package http\n+\n+var buckets = map[string]*rate.Limiter{}\n+\n+func RateLimit(next http.Handler) http.Handler {\n+\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {\n+\t\tip := r.Header.Get("X-Forwarded-For")\n+\t\tl, ok := buckets[ip]\n+\t\tif !ok {\n+\t\t\tl = rate.NewLimiter(10, 20)\n+\t\t\tbuckets[ip] = l\n+\t\t}\n+\t\tif !l.Allow() {\n+\t\t\tw.WriteHeader(429)\n+\t\t\treturn\n+\t\t}\n+\t\tnext.ServeHTTP(w, r)\n+\t})\n+}',
    ),
    A(
        "Review of #482:\n\n1. **Data race (blocker):** `buckets` is a plain map written from concurrent handlers. Needs a mutex or `sync.Map`.\n2. **Unbounded growth (blocker):** one entry per IP forever; an attacker rotating IPs exhausts memory. Use an LRU or periodic cleanup of idle limiters.\n3. **Spoofable key:** `X-Forwarded-For` is client-controlled; clients can send a random value per request and bypass the limit. Use the rightmost trusted hop or `r.RemoteAddr` behind our LB.\n4. **Header can be a list:** `X-Forwarded-For: a, b` becomes one key.\n5. **Nit:** 429 should include `Retry-After`.\n6. **Nit:** `10, 20` magic numbers -> config.\n7. **Tests:** none. At least a test that the 21st burst request gets 429.\n\nRequest changes."
    ),
    U("post it as review comments on the right lines"),
    T(
        "Bash",
        "gh pr review 482 --request-changes --body-file /tmp/review.md",
        "- Requested changes to pull request acme/api#482",
    ),
    A("Posted as a single 'request changes' review; inline comments on lines 5, 9 and 16 reference points 1-3."),
)

S(
    "code/review",
    "cursor",
    "Second opinion on my migration diff before merge",
    U(
        "before I merge, can you look at this diff? anything dangerous for prod (table has 80M rows)?\n\n```diff\n-    email = models.CharField(max_length=120)\n+    email = models.CharField(max_length=254, db_index=True)\n+    verified_at = models.DateTimeField(null=True)\n```\n\nmigration generated by makemigrations, postgres 15"
    ),
    T(
        "Bash",
        "python manage.py sqlmigrate users 0031",
        'BEGIN;\nALTER TABLE "users_user" ADD COLUMN "verified_at" timestamp with time zone NULL;\nALTER TABLE "users_user" ALTER COLUMN "email" TYPE varchar(254);\nCREATE INDEX "users_user_email_5a8c1e_idx" ON "users_user" ("email");\nCOMMIT;',
    ),
    A(
        "Review notes:\n- `ADD COLUMN ... NULL` is fine: metadata-only in PG15.\n- `ALTER COLUMN TYPE varchar(254)` from varchar(120): increasing a varchar length doesn't rewrite the table in PG >= 9.2. OK.\n- **`CREATE INDEX` without `CONCURRENTLY` is the problem**: on 80M rows it blocks writes to users_user for the whole build (minutes). Split it: put the index in its own migration with `AddIndexConcurrently` and `atomic = False`.\n- Minor: is `db_index` needed? There's already `users_user_email_lower_idx` on `lower(email)`, and your lookups use `email__iexact`, which uses that one. If so, drop the new index entirely."
    ),
    U("good catch on the existing index. we use iexact everywhere yes"),
    A("Then I'd remove `db_index=True` from the diff; the rest is safe to merge."),
)

S(
    "code/review",
    "aider",
    "Review of hooks refactor in React PR",
    U(
        "my colleague refactored useCart into 3 hooks. diff is in /tmp/pr-311.diff . what do you think, is it better? dont change anything"
    ),
    T(
        "Read",
        "/tmp/pr-311.diff",
        "-export function useCart() {\n-  const [items, setItems] = useState<Item[]>([]);\n-  const total = items.reduce((s, i) => s + i.price * i.qty, 0);\n-  ...\n+export function useCartItems() {\n+  const [items, setItems] = useState<Item[]>([]);\n+  return { items, setItems };\n+}\n+\n+export function useCartTotal(items: Item[]) {\n+  const [total, setTotal] = useState(0);\n+  useEffect(() => {\n+    setTotal(items.reduce((s, i) => s + i.price * i.qty, 0));\n+  }, [items]);\n+  return total;\n+}\n+\n+export function useCartPersistence(items: Item[]) {\n+  useEffect(() => {\n+    localStorage.setItem('cart', JSON.stringify(items));\n+  });\n+}",
    ),
    A(
        "Mixed. Splitting persistence out is good. Two problems:\n- `useCartTotal` stores derived data in state and syncs it with an effect. That renders once with a stale total and adds a render per change. Derive it: `const total = useMemo(() => ..., [items])` or just compute inline.\n- `useCartPersistence`'s effect has no dependency array, so it writes localStorage on every render of the component, not only when items change. Add `[items]`.\n- Naming/API: callers now need three hooks in the right order; consider keeping `useCart()` as the public hook composed of the smaller ones.\nVerdict: approve after the two effect fixes."
    ),
)

S(
    "code/review",
    "codex",
    "Review Terraform module PR for security",
    U(
        'Review this PR for our s3 module (security focus). PR link is internal, here\'s the diff:\n\n+resource "aws_s3_bucket_policy" "this" {\n+  bucket = aws_s3_bucket.this.id\n+  policy = jsonencode({\n+    Statement = [{\n+      Effect    = "Allow"\n+      Principal = "*"\n+      Action    = ["s3:GetObject"]\n+      Resource  = "${aws_s3_bucket.this.arn}/*"\n+    }]\n+  })\n+}\n+\n+resource "aws_s3_bucket_public_access_block" "this" {\n+  bucket              = aws_s3_bucket.this.id\n+  block_public_policy = var.public\n+}'
    ),
    A(
        'Findings:\n1. **Critical:** the bucket policy grants `s3:GetObject` to `Principal = "*"` unconditionally - every bucket created with this module becomes world-readable, even when `var.public = false`. Wrap the policy resource in `count = var.public ? 1 : 0`.\n2. `block_public_policy = var.public` is inverted: it *blocks* public policies when public is true. Should be `!var.public`.\n3. The other three public access block flags (`block_public_acls`, `ignore_public_acls`, `restrict_public_buckets`) default to false; set them to `!var.public` too.\n4. No `aws:SecureTransport` deny statement - add one so plain HTTP is refused.\n5. Missing `Version = "2012-10-17"` in the policy document.\nRequest changes; 1 and 2 together would make every private bucket public.'
    ),
    U("wow ok. can you write the suggested version?"),
    A(
        '```hcl\nresource "aws_s3_bucket_policy" "this" {\n  count  = var.public ? 1 : 0\n  bucket = aws_s3_bucket.this.id\n  policy = jsonencode({\n    Version   = "2012-10-17"\n    Statement = [{ Effect = "Allow", Principal = "*", Action = ["s3:GetObject"], Resource = "${aws_s3_bucket.this.arn}/*" }]\n  })\n}\n\nresource "aws_s3_bucket_public_access_block" "this" {\n  bucket                  = aws_s3_bucket.this.id\n  block_public_acls       = !var.public\n  ignore_public_acls      = !var.public\n  block_public_policy     = !var.public\n  restrict_public_buckets = !var.public\n}\n```'
    ),
)

S(
    "code/review",
    "copilot",
    "Quick review of a Python PR",
    U("lgtm-or-not? gh pr 77"),
    T(
        "Bash",
        "gh pr diff 77",
        "-    for user in User.objects.all():\n-        send(user.email)\n+    for user in User.objects.filter(active=True).only('email').iterator(chunk_size=2000):\n+        send(user.email)",
    ),
    A(
        "LGTM. Filters inactive users (intended per the PR description), `.only('email')` + `.iterator()` keep memory flat. One nit: `send` still isn't batched, fine for now."
    ),
)

# ---------------------------------------------------------------- code/snippet
S(
    "code/snippet",
    "claude-code",
    "Regex for semver with prerelease",
    U("regex to match semver incl prerelease and build metadata, python"),
    A(
        '```python\nSEMVER = re.compile(\n    r"^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"\n    r"(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"\n    r"(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$"\n)\n```\nGroups: major, minor, patch, prerelease, build. Matches `1.2.3`, `1.0.0-rc.1`, `2.0.0+sha.5114f85`; rejects `01.2.3`.'
    ),
)

S(
    "code/snippet",
    "cursor",
    "SQL query for top customers per month",
    U(
        "need a sql (postgres) that gives top 3 customers by revenue for each month of 2025 from orders(customer_id, total, created_at)"
    ),
    A(
        "```sql\nSELECT month, customer_id, revenue\nFROM (\n  SELECT date_trunc('month', created_at) AS month,\n         customer_id,\n         sum(total) AS revenue,\n         row_number() OVER (PARTITION BY date_trunc('month', created_at) ORDER BY sum(total) DESC) AS rn\n  FROM orders\n  WHERE created_at >= '2025-01-01' AND created_at < '2026-01-01'\n  GROUP BY 1, 2\n) t\nWHERE rn <= 3\nORDER BY month, revenue DESC;\n```\nUse `rank()` instead of `row_number()` if ties should all be included."
    ),
    U("works, but can i get the customer name too, its in customers.name"),
    A(
        "Join outside the window so the ranking stays cheap:\n```sql\nSELECT t.month, c.name, t.revenue\nFROM ( ...same subquery... ) t\nJOIN customers c ON c.id = t.customer_id\nWHERE t.rn <= 3\nORDER BY t.month, t.revenue DESC;\n```"
    ),
)

S(
    "code/snippet",
    "gemini-cli",
    "Bash one-liner to find largest files in git history",
    U("one liner to find the 10 biggest blobs ever committed in a git repo?"),
    T(
        "Bash",
        "git rev-list --objects --all | git cat-file --batch-check='%(objecttype) %(objectname) %(objectsize) %(rest)' | awk '$1==\"blob\"' | sort -k3 -n -r | head -10 | numfmt --field=3 --to=iec",
        "blob 8a1f... 412M data/dump-2021.sql\nblob 33c0... 96M  assets/video/intro.mp4\nblob 1d2e... 14M  vendor/libfoo.a",
    ),
    A(
        "```\ngit rev-list --objects --all \\\n | git cat-file --batch-check='%(objecttype) %(objectname) %(objectsize) %(rest)' \\\n | awk '$1==\"blob\"' | sort -k3 -n -r | head -10 | numfmt --field=3 --to=iec\n```\nIn your repo the top one is a 412M SQL dump from 2021."
    ),
)

S(
    "code/snippet",
    "copilot",
    "kubectl jq snippet for pods not ready",
    U("kubectl command listing pods that are not Ready across all ns, just name+ns"),
    A(
        '```\nkubectl get pods -A -o json | jq -r \'.items[] | select(any(.status.conditions[]?; .type=="Ready" and .status!="True")) | "\\(.metadata.namespace)/\\(.metadata.name)"\'\n```'
    ),
    U("without jq?"),
    A(
        '```\nkubectl get pods -A --no-headers | awk \'{split($3,a,"/"); if (a[1]!=a[2]) print $1"/"$2}\'\n```\n(uses the READY column, so Completed job pods show up too; add `| grep -v Completed` if needed).'
    ),
)

S(
    "code/snippet",
    "cline",
    "Small script to rename photos by EXIF date",
    U(
        "quick python script: rename all jpgs in a folder to YYYY-MM-DD_HHMMSS.jpg from exif date, skip ones w/o exif. for my holiday photos but im a dev so whatever works"
    ),
    T(
        "Write",
        (
            "rename_by_exif.py",
            "import sys\nfrom pathlib import Path\n\nfrom PIL import Image\n\nDATETIME_ORIGINAL = 36867\n\nfor p in sorted(Path(sys.argv[1]).glob('*.jp*g')):\n    exif = Image.open(p)._getexif() or {}\n    raw = exif.get(DATETIME_ORIGINAL)\n    if not raw:\n        print('skip', p.name)\n        continue\n    stem = raw.replace(':', '-', 2).replace(' ', '_').replace(':', '')\n    target = p.with_name(f'{stem}.jpg')\n    n = 1\n    while target.exists():\n        target = p.with_name(f'{stem}_{n}.jpg')\n        n += 1\n    p.rename(target)\n    print(p.name, '->', target.name)\n",
        ),
        "Created rename_by_exif.py",
    ),
    T(
        "Bash",
        "python rename_by_exif.py ~/Pictures/lisbon | head -4",
        "IMG_2201.jpg -> 2026-08-14_101522.jpg\nIMG_2202.jpg -> 2026-08-14_101530.jpg\nskip screenshot.jpg\nIMG_2203.jpg -> 2026-08-14_101530_1.jpg",
    ),
    A("Done; duplicates within the same second get a `_1` suffix."),
)
# ---------------------------------------------------------------- architecture/design
S(
    "architecture/design",
    "claude-code",
    "Design event ingestion pipeline for IoT sensors",
    U(
        "we need to ingest telemetry from ~50k sensors, each sends every 10s. currently they POST straight to the django app which writes to postgres and its dying. sketch the components and data flow for a new pipeline. we're on AWS, small team (4 devs)"
    ),
    A(
        "Before sketching: do consumers need data in real time (alerts within seconds), or is minute-level fine for dashboards?"
    ),
    U("alerts within ~30s for threshold breaches, dashboards can lag 5 min"),
    A(
        "Proposed structure (~5k msgs/s):\n\n1. **Edge/ingest:** sensors -> AWS IoT Core (MQTT) instead of HTTPS POSTs to Django. Handles auth per device (X.509) and connection fan-in.\n2. **Buffer:** IoT rule -> Kinesis Data Stream, partitioned by `sensor_id` (ordering per sensor). This decouples producers from every consumer.\n3. **Hot path (alerts):** a small consumer (Lambda or ECS) reading Kinesis, evaluating thresholds from a rules table cached in memory, publishing breaches to SNS -> pager/app.\n4. **Cold path (dashboards):** Kinesis Firehose -> S3 (Parquet, partitioned by date/hour) -> Athena for ad-hoc; a 5-minute rollup job writes aggregates into Timescale/Postgres for dashboards.\n5. **Django** keeps device registry, users, rules UI; it no longer sees raw telemetry.\n\nBoundaries: Kinesis is the contract (versioned JSON schema `telemetry.v1`); nothing reads Postgres raw rows. Failure isolation: if dashboards' DB is down, ingest and alerts continue, Firehose retries."
    ),
    U("can you draw it as mermaid for the doc"),
    A(
        "```mermaid\nflowchart LR\n  S[Sensors] -->|MQTT| IOT[IoT Core]\n  IOT --> K[(Kinesis telemetry.v1)]\n  K --> AL[Alert consumer] --> SNS[SNS] --> P[Pager/App]\n  K --> FH[Firehose] --> S3[(S3 Parquet)]\n  S3 --> ATH[Athena]\n  S3 --> RJ[5-min rollup] --> TS[(Timescale)]\n  TS --> DJ[Django dashboards]\n  DJ -. rules .-> AL\n```"
    ),
    U("rules cache — how does alert consumer know when rules change"),
    A(
        "Django publishes `rules.changed` to an SNS topic / EventBridge on save; consumers subscribe and reload. Plus a 60s TTL refresh as a safety net so a missed event only delays a rule change by a minute."
    ),
)

S(
    "architecture/design",
    "codex",
    "Module boundaries for monolith split",
    U(
        "our rails monolith: orders, inventory, billing, notifications all call each other's models directly. we're not going microservices but want clear boundaries inside the monolith. how should the modules and their interfaces look? I pasted the dependency graph output below\n\napp/models/order.rb -> Inventory::StockItem, Billing::Invoice, Notification\napp/models/invoice.rb -> Order, Customer\napp/services/restock.rb -> Order, Notification\napp/jobs/dunning_job.rb -> Invoice, Order, Notification"
    ),
    T(
        "Bash",
        "bundle exec packwerk check 2>&1 | tail -3",
        "bundler: command not found: packwerk\nInstall missing gem executables with `bundle install`",
    ),
    A(
        "(packwerk isn't installed, so I worked from your graph.) Proposed modular monolith:\n\n- **Packages:** `orders`, `inventory`, `billing`, `notifications`, plus `shared_kernel` (Money, CustomerId).\n- **Public API per package:** one facade each, e.g. `Inventory.reserve(sku:, qty:, order_id:)`, `Billing.invoice_for(order_id)`. Other packages call only the facade, never the models.\n- **Direction of dependencies:** orders -> inventory, orders -> billing. billing must not call Order; it receives the data it needs (`OrderSnapshot` value object) when asked to invoice.\n- **Notifications are downstream of everything:** instead of models calling `Notification`, packages publish domain events (`OrderPlaced`, `InvoiceOverdue`) via ActiveSupport::Notifications; notifications subscribes. That removes 3 of the 4 cycles in your graph.\n- **Dunning job** moves into billing and emits `InvoiceOverdue`.\n\nEnforce with packwerk once installed: each package gets `package.yml` with `enforce_dependencies: true`."
    ),
    U("what about the invoice -> order edge, billing needs order lines to render invoice pdf"),
    A(
        "Pass the lines in: `Billing.create_invoice(order_snapshot)` where the snapshot carries lines, currency and customer id at the time of ordering. An invoice must not change if the order is edited later anyway, so copying is correct, not just a workaround."
    ),
)

S(
    "architecture/design",
    "cursor",
    "Offline-first sync design for mobile app",
    U(
        "Flutter app, field technicians work without network for hours. need design for local storage + sync with our REST backend. conflicts happen when two techs edit same work order. pls outline components + flows"
    ),
    A(
        "Components:\n- **Local store:** SQLite (drift) with the same entities + `sync_state` (clean/dirty/deleted) and `version` columns.\n- **Outbox:** table of pending mutations `(id, entity, entity_id, op, payload, base_version, created_at)`; UI writes go to the local store and the outbox in one transaction.\n- **Sync engine:** runs on connectivity change + every 5 min. Push: send outbox in order to `POST /sync/push`; pull: `GET /sync/pull?since=<cursor>` returns changed rows + new cursor.\n- **Server:** each row has a monotonically increasing `version`; push with a stale `base_version` returns 409 with the server row.\n- **Conflict policy:** field-level merge for work orders: non-overlapping field edits merge automatically; overlapping edits on `status`/`notes` -> keep both, mark the order `needs_review` and show a banner to the second tech.\n- **Attachments (photos):** separate upload queue, content-addressed, since they're large and can retry independently.\n\nFlow: edit -> local tx -> outbox -> (online) push -> ack removes outbox row & sets version -> pull applies remote changes to clean rows only."
    ),
    U("is field level merge overkill? maybe last write wins"),
    A(
        "LWW is simpler but silently drops one tech's notes — in field service that's usually the complaint you'll get. A middle ground: LWW per field (not per row), which is ~40 lines server-side, and only `notes` gets append-merge."
    ),
)

S(
    "architecture/design",
    "gemini-cli",
    "Multi-tenant data isolation design",
    U(
        "B2B SaaS, going from 1 big customer to many tenants. postgres. how do we structure tenant isolation across API, workers, DB, and search (elasticsearch)? want the data flow for a request end to end"
    ),
    A(
        "Layered design:\n\n1. **Identity:** the auth token carries `tenant_id`; API gateway rejects tokens without it.\n2. **API:** middleware sets a request-scoped `TenantContext`; repositories refuse to run without it.\n3. **DB:** shared schema with `tenant_id` on every tenant table + Postgres Row Level Security: `SET app.tenant_id = ...` per transaction and a policy `tenant_id = current_setting('app.tenant_id')::uuid`. Defense in depth when someone forgets a WHERE.\n4. **Workers:** job payloads include `tenant_id`; the job runner sets the same context before executing. No job without a tenant except explicit system jobs.\n5. **Search:** one index per environment with `tenant_id` keyword field and filtered aliases per tenant for big tenants; the search client always adds the filter.\n6. **Files:** S3 prefix `tenants/<id>/`, IAM conditions on prefix for presigned URLs.\n\nRequest flow: token -> gateway -> API middleware (context) -> service -> repo (tx with `SET LOCAL app.tenant_id`) -> Postgres RLS; async: API enqueues job with tenant_id -> worker sets context -> same path."
    ),
)

S(
    "architecture/design",
    "aider",
    "Design plugin system boundaries for CLI tool",
    U(
        "our python cli tool gets plugins from 3 teams. right now they monkeypatch internals. i want to design a proper plugin boundary: what plugins can do, how they're discovered, how they get data. write docs/plugin-architecture.md with the design"
    ),
    T(
        "Write",
        (
            "docs/plugin-architecture.md",
            '# Plugin architecture\n\n## Boundary\nPlugins see only `toolkit.plugin_api` (stable, semver\'d separately). Internals under `toolkit._core` are private.\n\n## Discovery\nEntry points group `toolkit.plugins`. Loaded lazily on first command lookup; a broken plugin is reported and skipped.\n\n## Extension points\n- `commands`: click groups added under `toolkit <plugin> ...`\n- `exporters`: `Exporter` protocol (`name`, `export(records, dest)`)\n- `hooks`: `before_run(ctx)`, `after_run(ctx, result)`; cannot mutate config.\n\n## Data\nPlugins receive read-only `RunContext` (config snapshot, logger, cache dir under `~/.cache/toolkit/<plugin>`). No access to the DB session.\n\n## Versioning\n`plugin_api.API_VERSION = 2`; plugins declare `requires_api = ">=2,<3"`; mismatch => skip with warning.\n',
        ),
        "Wrote docs/plugin-architecture.md",
    ),
    U("add a sequence for how a command from a plugin is executed"),
    T(
        "Edit",
        (
            "docs/plugin-architecture.md",
            "## Versioning",
            "## Execution sequence\n1. `toolkit foo sync` -> core CLI looks up `foo` in the registry.\n2. Registry loads entry point `foo`, checks `requires_api`.\n3. Core builds `RunContext`, calls `before_run` hooks.\n4. Plugin command runs with the context.\n5. Core calls `after_run`, records exit status.\n\n## Versioning",
        ),
        "Applied edit to docs/plugin-architecture.md",
    ),
    A("Added the execution sequence section."),
)

# ---------------------------------------------------------------- architecture/decision
S(
    "architecture/decision",
    "claude-code",
    "ADR: move from REST polling to webhooks for partner sync",
    U(
        "we decided in the meeting today: partners will push changes to us via webhooks instead of us polling their REST APIs every 5 min. write the ADR in docs/adr/ following our template. reasons: polling costs (we hit rate limits with 3 partners), latency, partners asked for it. consequences: we need signature verification, a replay endpoint, and to handle out of order delivery"
    ),
    T(
        "Bash",
        "ls docs/adr/ && sed -n '1,30p' docs/adr/0011-use-sqs-for-jobs.md",
        "0009-postgres-16.md\n0010-monorepo.md\n0011-use-sqs-for-jobs.md\n# 11. Use SQS for background jobs\n\nDate: 2026-06-02\nStatus: Accepted\n\n## Context\n...\n## Decision\n...\n## Consequences\n...",
    ),
    T(
        "Write",
        (
            "docs/adr/0012-partner-sync-via-webhooks.md",
            "# 12. Partner data sync via inbound webhooks\n\nDate: 2026-11-27\nStatus: Accepted\n\n## Context\nWe poll each partner's REST API every 5 minutes. Three partners rate-limit us (429s daily), changes arrive up to 5 minutes late, and partners have asked to push instead.\n\n## Decision\nPartners push change notifications to `POST /webhooks/partners/{partner}`. Polling is removed once a partner is migrated; a daily reconciliation poll stays as a safety net.\n\n## Consequences\n- Every request is verified with an HMAC signature (per-partner secret, rotated yearly).\n- Deliveries can arrive out of order: handlers compare the payload's `updated_at`/version and ignore stale events.\n- We expose a replay endpoint so partners can re-send a window after our outages.\n- Our ingress becomes internet-facing for partners: rate limiting and a WAF rule are required.\n- Partner onboarding needs a webhook test harness.\n\n## Alternatives considered\n- Keep polling with backoff (does not fix latency).\n- Shared message bus (partners unwilling).\n",
        ),
        "File created.",
    ),
    A(
        "ADR 0012 written, following the 0011 structure, and I added an 'Alternatives considered' section since the meeting notes mention them. Status Accepted."
    ),
    U("add link in docs/adr/README index"),
    T(
        "Edit",
        (
            "docs/adr/README.md",
            "- [11. Use SQS for background jobs](0011-use-sqs-for-jobs.md)",
            "- [11. Use SQS for background jobs](0011-use-sqs-for-jobs.md)\n- [12. Partner data sync via inbound webhooks](0012-partner-sync-via-webhooks.md)",
        ),
        "Updated.",
    ),
)

S(
    "architecture/decision",
    "cursor",
    "Record decision to adopt CQRS read models for reporting",
    U(
        "pls write an ADR. decision: reporting queries will read from dedicated read models (denormalized tables updated by events) instead of querying the OLTP schema. status accepted. context: reporting queries caused 3 incidents in Q3 by locking orders table"
    ),
    A(
        "```markdown\n# ADR-027: Separate read models for reporting\n\nStatus: Accepted (2026-11-27)\n\n## Context\nReporting queries run against the transactional schema. In Q3 three incidents (INC-311, INC-328, INC-340) were caused by long reporting scans holding locks on `orders`.\n\n## Decision\nReports read from dedicated denormalized read models (`rpt_*` tables) maintained by consumers of domain events. The OLTP schema is not queried by reporting code; a lint rule forbids imports of OLTP repositories in `reporting/`.\n\n## Consequences\n+ Reporting load is isolated; read models can be indexed for reports.\n- Reports are eventually consistent (target lag < 1 min, monitored).\n- Each new report may need a new projection; rebuild tooling is required (replay from event log).\n- Two representations of orders must be kept in sync when events change.\n```"
    ),
    U("ok add that we'll revisit in Q2 if lag becomes a problem"),
    A(
        'Added under Consequences: "Revisit in Q2 2027 if projection lag exceeds the 1-minute target for more than 1% of the time."'
    ),
)

S(
    "architecture/decision",
    "codex",
    "Decision log: choosing single Postgres over separate DB per service",
    U(
        "we had a long discussion. final: all 6 services keep using ONE postgres cluster with separate schemas, not DB-per-service. I need this written down as an architecture decision record so ppl stop re-opening it. key reasons: ops team of 1, cross-service reporting, transactions between billing+ledger. mitigations: schema per service, no cross-schema FKs except ledger<->billing, roles per service"
    ),
    T(
        "Bash",
        "ls docs/decisions | tail -3",
        "2026-09-14-grpc-internal.md\n2026-10-02-feature-flags.md\n2026-10-30-otel-tracing.md",
    ),
    T(
        "Write",
        (
            "docs/decisions/2026-11-27-shared-postgres-cluster.md",
            "# Shared Postgres cluster, schema per service\n\n- Status: accepted\n- Deciders: platform guild\n- Date: 2026-11-27\n\n## Decision\nAll six services use one Postgres cluster; each service owns one schema and one role with privileges only on its schema.\n\n## Why\n- Operations: one on-call DBA-capable engineer; six clusters means six upgrade/backup/failover procedures.\n- Reporting joins across services without an ETL pipeline.\n- Billing and ledger need atomic writes; a single cluster allows one transaction.\n\n## Guardrails\n- No cross-schema foreign keys, except ledger <-> billing (documented).\n- Services never read another schema's tables; reporting uses read-only views in `reporting`.\n- Per-service connection limits via role `CONNECTION LIMIT`.\n\n## When to revisit\n- A service needs a different engine or major version.\n- One service's load affects others' p99 for a sustained period.\n",
        ),
        "wrote file",
    ),
    A(
        "Written as docs/decisions/2026-11-27-shared-postgres-cluster.md, matching the other decision files' naming. I added a 'When to revisit' section so re-opening has explicit criteria."
    ),
    U("👍"),
)

S(
    "architecture/decision",
    "gemini-cli",
    "Write ADR for event sourcing rejection",
    U(
        "we evaluated event sourcing for the ledger and said no. record it: we'll use an append-only journal table + snapshots but not full ES framework. reason: team unfamiliar, axon licensing, we only need audit trail not temporal queries"
    ),
    A(
        "# ADR 0019: Ledger uses an append-only journal, not event sourcing\n\n**Status:** Accepted\n\n**Context:** The ledger must keep a complete audit trail. Event sourcing (Axon) was evaluated.\n\n**Decision:** Ledger entries are written to an append-only `journal_entries` table (no UPDATE/DELETE grants); balances are materialized in `account_snapshots`, recomputable from the journal. We do not adopt an event-sourcing framework.\n\n**Reasons:** audit is the requirement, temporal/replay queries are not; the team has no ES experience; Axon Server's licensing for clustering.\n\n**Consequences:** snapshot recomputation job needed; schema changes to journal are additive only; if temporal queries become a requirement, this ADR is revisited."
    ),
)

S(
    "architecture/decision",
    "cline",
    "Document decision to split frontend into micro-frontends? (rejected)",
    U(
        "so, context. three teams share one Next.js app and they keep stepping on each other. someone proposed microfrontends (module federation). after two weeks of spike we decided NOT to, and instead go with a monorepo with strict package boundaries and CODEOWNERS. I need an architecture decision record for our wiki. keep it under a page. mention the spike results: bundle size +38%, shared state (auth, cart) was painful, deploy independence was the only real gain"
    ),
    A(
        "Before I write: should the record say what would make us reconsider micro-frontends (e.g. a fourth team, or separate release cadences)?"
    ),
    U("yes do it"),
    A(
        "**ADR: One Next.js app with package boundaries (micro-frontends rejected)**\n\nStatus: accepted - 2026-11-27\n\nContext: three teams in one Next.js app; frequent merge conflicts and accidental cross-team breakages. A 2-week spike evaluated micro-frontends via Module Federation.\n\nSpike results: initial JS bundle +38%; sharing auth session and cart state across remotes required a custom event bus and duplicated providers; independent deploys worked and were the only clear gain.\n\nDecision: stay a single app in a monorepo. Each team owns packages under `packages/<team>-*`; imports between team packages only through their `index.ts`; ESLint `no-restricted-imports` enforces it; CODEOWNERS requires owning-team review.\n\nConsequences: one deploy pipeline (coordinated releases remain); boundary lint must be maintained; bundle stays as is.\n\nRevisit if: a fourth team joins, or a team needs a release cadence that a shared pipeline can't serve."
    ),
    U("ty"),
)

# ---------------------------------------------------------------- architecture/tradeoff
S(
    "architecture/tradeoff",
    "claude-code",
    "Sync vs async communication between order and payment services",
    U(
        "order-service calls payment-service synchronously over http right now. someone wants to put kafka between them. what do we gain/lose? we do ~200 orders/min, peak 2k. need to present pros/cons to the team friday"
    ),
    A(
        "**Synchronous HTTP (today)**\n+ Simple: the user gets payment result in the same request; easy to trace and debug.\n+ No new infrastructure.\n- Temporal coupling: payment down => orders down. Retries during payment slowness amplify load.\n- At 2k/min peak, payment latency directly adds to checkout latency.\n\n**Async via Kafka**\n+ Order intake survives payment outages; backlog drains later.\n+ Natural place for other consumers (fraud, analytics).\n- Checkout UX changes: order is 'pending payment', client polls or gets a push. Product must accept this.\n- Exactly-once is not free: idempotent consumers, outbox pattern on order-service to avoid dual writes.\n- Operating Kafka (or paying for MSK/Confluent) for a 2-service flow.\n\n**Middle options**\n- Keep sync, add circuit breaker + timeout budget and a fallback 'accept order, charge later' path.\n- Async via a simple queue (SQS) + outbox, no Kafka.\n\nAt your volume throughput is not the argument; resilience and UX are. I'd frame Friday's question as: *do we accept 'payment pending' orders?* If no, async buys little."
    ),
    U("good framing. can you make a table for slide"),
    A(
        "| | Sync HTTP | Queue (SQS) + outbox | Kafka |\n|---|---|---|---|\n| Payment outage | orders fail | orders accepted, charged later | same as queue |\n| Checkout UX | immediate result | pending state | pending state |\n| New infra | none | SQS | Kafka cluster |\n| Complexity | low | medium | high |\n| Other consumers | no | limited | yes (replay) |"
    ),
)

S(
    "architecture/tradeoff",
    "cursor",
    "Monorepo vs polyrepo for 4 services",
    U(
        "we're 8 engineers, 4 go services + 1 react app, each its own repo. shared proto files are copied around and drift. monorepo or keep polyrepo with a shared proto repo? what are the tradeoffs specifically for us"
    ),
    A(
        "**Monorepo**\n+ Proto changes and their consumers change in one PR; drift impossible.\n+ One CI config, one lint/format setup, atomic refactors across services.\n- CI must be path-aware or every push builds everything (Go + React builds ~ minutes each).\n- Access control is coarser (CODEOWNERS only).\n- Git history/tags per service need conventions (`svc/v1.2.3`).\n\n**Polyrepo + proto repo (buf registry or git submodule)**\n+ Independent release/versioning per service stays as today.\n+ Small, fast CI per repo.\n- Proto changes = PR in proto repo, release, bump in N repos; breaking changes discovered late.\n- Tooling duplication stays (5 copies of CI, linters).\n\nFor 8 engineers where most changes cross a proto boundary, the coordination cost of polyrepo is the bigger pain. Counter-argument: if services are owned by separate people who rarely touch each other, the proto registry with `buf breaking` in CI solves the drift alone."
    ),
    U("most changes do cross, yeah. ok monorepo then probably"),
)

S(
    "architecture/tradeoff",
    "codex",
    "Caching layer options: Redis vs in-process vs CDN",
    U(
        "product listing api: 90% reads, data changes ~every 10min, 6 pods. p95 is 400ms mostly DB. where should the cache sit and what are the costs of each option? dont implement yet"
    ),
    T(
        "Bash",
        "grep -rn 'Cache-Control' api/ | head",
        "api/products/views.py:58:    resp['Cache-Control'] = 'no-store'",
    ),
    A(
        "Options:\n\n1. **In-process (per pod LRU, TTL 60s)**\n   + ~0 latency, no infra. - 6 independent caches: hit rate lower after deploys, up to 60s of inconsistency between pods, memory per pod.\n2. **Redis (shared)**\n   + One cache, explicit invalidation on product update, survives deploys. - Network hop (~1ms), another stateful component to run, stampede protection needed on expiry.\n3. **HTTP/CDN caching (Cache-Control: s-maxage=60 + stale-while-revalidate)**\n   + Requests never reach the pods; cheapest at scale. - Only for anonymous responses (prices per customer group break this), invalidation via purge API, `no-store` at views.py:58 must go.\n\nGiven data changes every 10 minutes and reads dominate, CDN caching for anonymous listing + in-process for authenticated is the cheapest combination; Redis only pays off if you need instant invalidation."
    ),
    U("prices ARE per customer group tho"),
    A(
        "Then CDN needs the group in the cache key (`Vary` on a group header, or group in the URL). With few groups (you have 4?) that's fine; with per-customer prices it isn't. Otherwise Redis keyed by `(query, group)` is the straightforward choice."
    ),
    U("4 groups. ok"),
)

S(
    "architecture/tradeoff",
    "aider",
    "GraphQL vs REST BFF for mobile",
    U(
        "mobile team wants graphql, backend team says REST BFF. tradeoffs? we have 1 mobile app (iOS+android), 30 endpoints"
    ),
    A(
        "GraphQL: + clients pick fields, one round trip per screen, typed schema + codegen on both platforms. - caching is harder (POST, no HTTP cache), N+1 on the server needs dataloaders, query cost limits for abuse, new skills for backend.\n\nREST BFF: + endpoint per screen shaped exactly for the app, plain HTTP caching, familiar to backend. - every screen change needs a backend change + deploy, versioning for old app versions in the wild.\n\nWith one client app, a BFF captures most of GraphQL's benefit (screen-shaped responses) without the tooling. GraphQL wins if more clients (web, partners) are coming or mobile iterates on screens faster than backend can ship."
    ),
)

S(
    "architecture/tradeoff",
    "gemini-cli",
    "Kubernetes vs ECS for new platform",
    U(
        "hi, we are a team of 5 in a startup. we must choose where to run our 10 containers: EKS or ECS Fargate. i read many blog posts but all say different. can you explain the tradeoffs for our case? we have nobody with k8s experience. costs matter"
    ),
    A(
        "For your situation:\n\n**ECS Fargate**\n+ No cluster to operate: no node upgrades, no control-plane add-ons.\n+ Learning curve: task definitions + services, a day or two.\n+ Cost: pay per task vCPU/memory; no $73/month control plane.\n- AWS lock-in; less ecosystem (no Helm charts for third-party tools).\n- Fewer scheduling features (sidecars are possible but clunkier, no operators).\n\n**EKS**\n+ Portable, huge ecosystem (operators, Helm, Argo).\n+ Hiring: k8s skills are common.\n- You must learn and run it: upgrades every ~4 months, networking (VPC CNI), ingress controllers, RBAC. Without experience this is a part-time job for one of 5 people.\n- Control plane cost + usually some EC2 nodes for efficiency.\n\nFor 10 containers, 5 people, no k8s experience, ECS Fargate is the lower-risk trade. The main thing you give up is portability; if you keep images standard and config in env vars, moving later is a contained project."
    ),
    U("and if we grow to 50 services?"),
    A(
        "ECS still handles 50 services fine technically; the pressure to move comes from wanting ecosystem tools (service mesh, operators) and from hiring people who expect k8s. Many companies move around that size, and it's easier then because you can hire a platform engineer for it."
    ),
    U("ok thank you, very clear"),
)
# ---------------------------------------------------------------- feature/requirement
S(
    "feature/requirement",
    "claude-code",
    "Acceptance criteria for bulk invoice export",
    U(
        "PM hat on. Feature: finance users can export invoices in bulk as a ZIP of PDFs for a date range. Write the user story + acceptance criteria in Gherkin, and list what's out of scope. No code."
    ),
    A(
        '**Story:** As a finance user, I want to download all invoices for a date range as one ZIP of PDFs, so that I can hand them to our accountant without downloading them one by one.\n\n```gherkin\nFeature: Bulk invoice export\n\n  Scenario: Export a month of invoices\n    Given I am a user with the "finance" role\n    And 120 invoices exist dated in October 2026\n    When I request an export from 2026-10-01 to 2026-10-31\n    Then I receive an email with a download link within 10 minutes\n    And the ZIP contains 120 PDFs named "<invoice-number>.pdf"\n\n  Scenario: Range too large\n    When I request an export spanning more than 12 months\n    Then I see "Choose a range of 12 months or less"\n\n  Scenario: No invoices\n    When I request a range with no invoices\n    Then I see "No invoices in this period" and no export is created\n\n  Scenario: Permission\n    Given I do not have the "finance" role\n    Then the export button is not shown\n    And the export API returns 403\n```\n\nOut of scope: CSV/Excel summary, filtering by customer, scheduled exports, credit notes.'
    ),
    U("add: link expires after 7 days, and only the requesting user can download"),
    A(
        'Added:\n```gherkin\n  Scenario: Link expiry\n    Given an export link was created 8 days ago\n    When I open it\n    Then I see "This export has expired"\n\n  Scenario: Link is personal\n    Given user A requested an export\n    When user B opens A\'s link while logged in\n    Then B gets 404\n```'
    ),
    U("also the accountant sometimes needs credit notes, put it as 'later' not out of scope"),
    A(
        'Moved credit notes to a **Later** section: "Include credit notes in the ZIP (separate folder `credit-notes/`)."'
    ),
)

S(
    "feature/requirement",
    "cursor",
    "Scope the MVP for team invitations",
    U(
        "we're adding team invitations to our saas. i need to scope MVP vs later, with acceptance criteria. what we know: owners invite by email, invitee may or may not have account, seats are billed. go"
    ),
    A(
        "Questions first, they change scope: can admins (not only owners) invite? And does inviting consume a seat immediately or on acceptance?"
    ),
    U("owners + admins. seat on acceptance"),
    A(
        "**MVP**\n1. Owners/admins invite by email with role member/admin.\n   - AC: invite sends email with a link valid 7 days; pending invites listed in Settings > Team.\n2. Invitee with account: link -> login -> joins team.\n   - AC: after accepting, the user appears in the team list with the chosen role.\n3. Invitee without account: link -> sign-up prefilled with the email -> joins team.\n   - AC: email field is locked to the invited address.\n4. Seats: accepting increases billed seats by 1; if no free seat and plan has no overage, acceptance shows 'ask your admin to add seats'.\n5. Revoke pending invites.\n\n**Later**\n- Bulk invite via CSV.\n- Domain-based auto-join.\n- Invite links without email (shareable).\n- Resend with reminder schedule.\n\n**Non-functional:** invite endpoint rate-limited (50/hour/team); audit log entries for invite/accept/revoke."
    ),
    U("what if the invited email already belongs to another team"),
    A(
        "Add to MVP AC: a user can belong to several teams; accepting adds the membership and the team switcher shows both. No merge of accounts."
    ),
    U("good, put it all into docs/specs/team-invites.md"),
    T(
        "Write",
        (
            "docs/specs/team-invites.md",
            "# Team invitations - MVP scope\n\n(see above; sections MVP, Later, Non-functional, Open questions: none)\n",
        ),
        "Created docs/specs/team-invites.md",
    ),
)

S(
    "feature/requirement",
    "codex",
    "Requirements for GDPR data export feature",
    U(
        "Legal says we must let users download all their personal data (GDPR art. 15/20). Can you help me write the requirements doc? Which data is included, format, timelines, what the user sees. I'll pass it to the team. We store: profile, orders, support tickets, login history, marketing prefs. Analytics are pseudonymized in BigQuery."
    ),
    T("Bash", "ls docs/requirements/", "REQ-014-password-reset.md\nREQ-015-2fa.md\nREQ-016-audit-log.md"),
    A(
        "Draft REQ-017:\n\n**Goal:** a user can request and download a copy of their personal data.\n\n**Included data:** profile (name, emails, addresses, phone), orders with line items and invoices, support tickets incl. messages and attachments, login history (timestamp, IP, user agent, last 24 months), marketing consent history. **Excluded:** pseudonymized analytics in BigQuery (documented rationale from Legal needed), internal notes on tickets (Legal to confirm).\n\n**Format:** ZIP with one JSON file per category (machine-readable, art. 20) + a human-readable HTML summary.\n\n**Flow & acceptance criteria:**\n- Settings > Privacy > 'Download my data' triggers a request; user sees 'We'll email you when it's ready'.\n- Export is ready within 72h (legal limit is 1 month); download link valid 7 days, requires re-login.\n- One active request per user; further requests within 24h show the existing one.\n- Every request and download is written to the audit log (REQ-016).\n\n**Open questions for Legal:** internal ticket notes; BigQuery exclusion; retention of the generated ZIP."
    ),
    U("looks good, save it as REQ-017"),
    T(
        "Write",
        ("docs/requirements/REQ-017-personal-data-export.md", "# REQ-017 Personal data export\n..."),
        "File written.",
    ),
)

S(
    "feature/requirement",
    "gemini-cli",
    "Define acceptance criteria for search filters",
    U("write AC for adding price range + brand filters to product search. short pls"),
    A(
        "- Given results are shown, the sidebar offers min/max price inputs and a brand checklist (top 20 brands by result count, 'show more').\n- Applying filters updates results without full reload and the URL (`?price_min=&price_max=&brand=`), so links are shareable.\n- Brand counts reflect the other active filters.\n- min > max shows inline error, no request.\n- Clearing all filters restores original results.\n- Filters persist on back navigation.\n- Works with keyboard only; checkboxes have labels."
    ),
)

S(
    "feature/requirement",
    "cline",
    "User stories for driver app shift swap",
    U(
        "hey. junior PM here, first time writing stories. drivers want to swap shifts with each other in our logistics app. manager must approve. can you show me how to write it properly as stories with acceptance criteria? and tell me if I forgot something"
    ),
    A(
        "Here are three stories, split by actor:\n\n**1. Request a swap** - As a driver, I want to offer my shift to a specific colleague, so that I can take time off without calling the manager.\n- AC: I can only offer future shifts more than 24h ahead.\n- AC: the colleague must have the same vehicle license class.\n- AC: the colleague gets a push notification and can accept/decline.\n\n**2. Approve a swap** - As a manager, I want to approve or reject accepted swaps, so that coverage and labor rules are respected.\n- AC: the manager sees pending swaps with both drivers' weekly hours.\n- AC: approval is blocked if it would exceed 48h/week for the colleague.\n- AC: both drivers are notified of the decision.\n\n**3. See swap status** - As a driver, I want to see the status of my swaps.\n\n**Things you might have missed:** what happens if nobody decides before the shift starts (auto-expire?); can a swap be cancelled after approval; payroll export must reflect who actually drove; an audit trail for disputes."
    ),
    U("auto expire 12h before shift. cancel only by manager"),
    A(
        "Added to story 2: 'AC: pending swaps expire 12h before shift start; both drivers are notified.' New AC on story 3: 'Only a manager can cancel an approved swap; drivers see a Contact manager button instead.'"
    ),
    U("thanks!! this helps a lot"),
)

# ---------------------------------------------------------------- feature/design
S(
    "feature/design",
    "claude-code",
    "API design for scheduled reports",
    U(
        "we're adding scheduled reports (user picks a saved report, a schedule, recipients). design the REST API + data model before anyone codes. existing style: /v2/..., cursor pagination, snake_case json"
    ),
    T(
        "Read",
        "docs/api/conventions.md",
        '# API conventions (v2)\n\n- Resources are plural nouns: /v2/reports\n- JSON fields snake_case\n- Pagination: ?cursor=...&limit=... -> {"data": [...], "next_cursor": ...}\n- Errors: {"error": {"code": "...", "message": "..."}}\n- Timestamps RFC 3339 UTC\n- PATCH for partial updates, no PUT\n',
    ),
    A(
        '**Resource:** `report_schedules`\n\n```\nPOST   /v2/reports/{report_id}/schedules\nGET    /v2/reports/{report_id}/schedules\nGET    /v2/report_schedules/{id}\nPATCH  /v2/report_schedules/{id}\nDELETE /v2/report_schedules/{id}\nPOST   /v2/report_schedules/{id}/run   # send now\nGET    /v2/report_schedules/{id}/runs  # history, cursor-paginated\n```\n\n```json\n{\n  "id": "rs_9f2",\n  "report_id": "rep_31",\n  "schedule": {"frequency": "weekly", "weekday": "monday", "time": "08:00", "timezone": "Europe/Berlin"},\n  "format": "pdf",\n  "recipients": [{"type": "user", "user_id": "u_12"}, {"type": "email", "email": "cfo@example.com"}],\n  "paused": false,\n  "next_run_at": "2026-11-30T07:00:00Z",\n  "created_at": "2026-11-27T10:00:00Z"\n}\n```\n\nDesign choices: structured schedule (not raw cron) so the UI can render it and DST is handled via the IANA timezone; `next_run_at` is server-computed, read-only; external emails are a separate recipient type so we can restrict them by plan.\n\n**Table** `report_schedules(id, report_id FK, frequency, weekday, day_of_month, local_time, timezone, format, paused, next_run_at, created_by)` + `report_schedule_recipients` + `report_runs(id, schedule_id, started_at, status, error, file_key)`.'
    ),
    U("do we need monthly 'last day of month'?"),
    A(
        "Finance users will ask for it. Allow `day_of_month: -1` meaning last day; validation rejects 29-31 to avoid silent skips in short months."
    ),
    U("ok. and permissions: only report owner can schedule?"),
    A(
        "Suggest: anyone who can view the report can create a schedule to themselves; adding other recipients requires edit permission on the report. Encoded as a 403 `recipient_not_allowed` error code."
    ),
)

S(
    "feature/design",
    "cursor",
    "UX flow for two-factor enrollment",
    U(
        "design the UX for 2FA enrollment in our web app (TOTP + recovery codes). screens, states, copy. no code. we use a wizard pattern elsewhere"
    ),
    A(
        "Wizard, 3 steps, entered from Settings > Security > 'Turn on two-factor':\n\n**Step 1 - Re-authenticate:** password prompt ('For your security, enter your password'). Skipped if logged in < 5 min ago.\n\n**Step 2 - Scan:** QR code + 'Can't scan? Enter this key: XXXX XXXX...' (copy button); 6-digit input 'Enter the code from your app'. Errors: 'That code didn't work. Codes change every 30 seconds - try the newest one.' After 5 failures: back to QR with a new secret.\n\n**Step 3 - Recovery codes:** 10 codes in a monospace grid; buttons Download .txt / Copy / Print; checkbox 'I saved my recovery codes' must be ticked to enable Finish.\n\n**Done state:** banner 'Two-factor is on' + email notification 'Two-factor authentication was enabled' with 'Not you?' link.\n\nEdge cases: closing the wizard before step 3 leaves 2FA off (secret discarded); org-enforced 2FA shows this wizard right after login with no cancel."
    ),
    U("should step 3 come before step 2? some apps do that"),
    A(
        "Keep it after: codes are only meaningful once 2FA is verified, and showing them first makes users skim them. GitHub and Google both show them after verification."
    ),
)

S(
    "feature/design",
    "codex",
    "Data model for product variants",
    U(
        "ecommerce: need to support product variants (size, color) and each variant has own sku, price, stock. currently products table has sku/price/stock. design the data model + migration path, postgres. we have 40k products live"
    ),
    T(
        "Bash",
        "psql $DB -c '\\d products'",
        '                 Table "public.products"\n   Column    |     Type      | Nullable\n-------------+---------------+----------\n id          | bigint        | not null\n name        | text          | not null\n sku         | text          | not null\n price_cents | integer       | not null\n stock       | integer       | not null\n category_id | bigint        |\nIndexes:\n    "products_pkey" PRIMARY KEY (id)\n    "products_sku_key" UNIQUE (sku)',
    ),
    A(
        "Model:\n```sql\nproducts(id, name, category_id, ...)                 -- what the customer browses\noption_types(id, product_id, name, position)         -- 'Size', 'Color'\noption_values(id, option_type_id, value, position)   -- 'M', 'Red'\nvariants(id, product_id, sku UNIQUE, price_cents, stock, is_default)\nvariant_option_values(variant_id, option_value_id, PRIMARY KEY(variant_id, option_value_id))\n```\nEvery product has at least one variant; simple products have exactly one `is_default` variant with no options, so cart/order/inventory always reference `variant_id` - no special cases.\n\nMigration path:\n1. Create tables; backfill one default variant per product copying sku/price/stock (40k rows, one INSERT...SELECT).\n2. Add `variant_id` to cart_items/order_lines, backfill from product's default variant.\n3. Switch reads/writes to variants behind a flag.\n4. Drop sku/price/stock from products after a release."
    ),
    U("why not jsonb for options instead of the 3 tables"),
    A(
        'jsonb (`options: {"size":"M","color":"Red"}`) is fine if you never need to list \'all sizes of this product\' in a stable order or rename a value across variants. Filters like \'all red items in category X\' also get awkward. With 40k products and a storefront filter sidebar, the normalized tables are worth it.'
    ),
)

S(
    "feature/design",
    "gemini-cli",
    "CLI UX design for new 'deploy' subcommand",
    U(
        "we're adding `acme deploy` to our internal cli. design the flags/ux/output before implementing. should support env selection, dry run, waiting for rollout, json output for CI"
    ),
    A(
        '```\nacme deploy [SERVICE] --env {staging,prod} [--image TAG] [--dry-run] [--wait/--no-wait] [--timeout 10m] [--output {text,json}]\n```\n- SERVICE defaults to the service in the current repo\'s `acme.yaml`.\n- `--image` defaults to the current commit\'s image; error if it\'s not built yet (\'image abc123 not found; did CI finish?\').\n- prod requires interactive confirmation unless `--yes`; in non-TTY without `--yes` -> exit 2.\n- `--dry-run` prints the diff of the rendered manifest vs live.\n- `--wait` (default on) streams rollout progress: `web 3/5 ready`.\n- Exit codes: 0 ok, 1 rollout failed, 2 usage/confirmation, 3 timeout.\n- `--output json`: one final object `{"service","env","image","status","duration_s","revision"}`.'
    ),
)

S(
    "feature/design",
    "cline",
    "Design notifications preferences model",
    U(
        "users want to control which notifications they get and on which channel (email, push, in-app). we have ~25 notification types. how should the preferences work, UX + storage?"
    ),
    A(
        "Group the 25 types into ~6 categories users understand (Mentions, Assignments, Comments on my items, Billing, Product updates, Security). UX: a grid categories x channels with toggles; a per-type override is hidden under 'Advanced'. Security notifications are locked on for email.\n\nStorage: only store deviations from defaults:\n```\nnotification_preferences(user_id, scope_type ('category'|'type'), scope_key, channel, enabled, PRIMARY KEY(user_id, scope_type, scope_key, channel))\n```\nResolution when sending: type override -> category setting -> system default (from a data file mapping type -> category + default channels). New notification types get correct defaults without a migration."
    ),
    U("what about digest (daily email instead of each)?"),
    A(
        "Make email a tri-state per category: off / immediately / daily digest. Store it as `delivery` column ('off'|'instant'|'digest') instead of boolean for the email channel."
    ),
    U("ok i like it"),
)

# ---------------------------------------------------------------- feature/implementation
S(
    "feature/implementation",
    "claude-code",
    "Implement dark mode toggle in React app",
    U(
        "add dark mode toggle to settings page. persist in localStorage, respect system pref by default. we use tailwind"
    ),
    T(
        "Read",
        "tailwind.config.js",
        "module.exports = {\n  content: ['./src/**/*.{ts,tsx}'],\n  theme: { extend: {} },\n  plugins: [],\n};",
    ),
    T(
        "Edit",
        (
            "tailwind.config.js",
            "  content: ['./src/**/*.{ts,tsx}'],",
            "  darkMode: 'class',\n  content: ['./src/**/*.{ts,tsx}'],",
        ),
        "Updated.",
    ),
    T(
        "Write",
        (
            "src/hooks/useTheme.ts",
            "import { useEffect, useState } from 'react';\n\nexport type Theme = 'light' | 'dark' | 'system';\n\nexport function useTheme() {\n  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem('theme') as Theme) || 'system');\n\n  useEffect(() => {\n    const mq = window.matchMedia('(prefers-color-scheme: dark)');\n    const apply = () => {\n      const dark = theme === 'dark' || (theme === 'system' && mq.matches);\n      document.documentElement.classList.toggle('dark', dark);\n    };\n    apply();\n    localStorage.setItem('theme', theme);\n    mq.addEventListener('change', apply);\n    return () => mq.removeEventListener('change', apply);\n  }, [theme]);\n\n  return { theme, setTheme };\n}\n",
        ),
        "Created.",
    ),
    T(
        "Edit",
        (
            "src/pages/Settings.tsx",
            "      <h2>Appearance</h2>",
            "      <h2>Appearance</h2>\n      <ThemeSelect value={theme} onChange={setTheme} />",
        ),
        "Updated.",
    ),
    T("Bash", "npm test -- --run useTheme", "✓ src/hooks/useTheme.test.ts (3 tests) 41ms\nTest Files  1 passed (1)"),
    A("Added a Light / Dark / System select under Appearance; System follows OS changes live."),
    U("there's a flash of light theme on reload"),
    A(
        "The class is applied after React mounts. I'll add a tiny inline script in index.html `<head>` that sets the class from localStorage before first paint."
    ),
    T(
        "Edit",
        (
            "index.html",
            "  </head>",
            "    <script>\n      (function(){var t=localStorage.getItem('theme');var d=t==='dark'||((!t||t==='system')&&matchMedia('(prefers-color-scheme: dark)').matches);if(d)document.documentElement.classList.add('dark');})();\n    </script>\n  </head>",
        ),
        "Updated.",
    ),
    U("works 👌"),
)

S(
    "feature/implementation",
    "aider",
    "Add CSV import endpoint to Django app",
    U("implement the contact CSV import per docs/specs/contact-import.md. endpoint + celery task + tests"),
    T(
        "Read",
        "docs/specs/contact-import.md",
        "# Contact import\n- POST /api/contacts/import (multipart, field `file`), max 5 MB, returns 202 {import_id}\n- Columns: email (required), first_name, last_name, company\n- Existing email -> update, new -> create\n- Invalid rows are skipped and reported: GET /api/contacts/import/{id} -> {status, created, updated, errors:[{row, message}]}\n",
    ),
    T(
        "Write",
        (
            "contacts/imports.py",
            "import csv\nimport io\n\nfrom celery import shared_task\nfrom django.core.validators import validate_email\nfrom django.core.exceptions import ValidationError\n\nfrom .models import Contact, ContactImport\n\n\n@shared_task\ndef run_import(import_id: int) -> None:\n    imp = ContactImport.objects.get(pk=import_id)\n    reader = csv.DictReader(io.StringIO(imp.file.read().decode('utf-8-sig')))\n    created = updated = 0\n    errors = []\n    for n, row in enumerate(reader, start=2):\n        email = (row.get('email') or '').strip().lower()\n        try:\n            validate_email(email)\n        except ValidationError:\n            errors.append({'row': n, 'message': f'invalid email {email!r}'})\n            continue\n        _, was_created = Contact.objects.update_or_create(\n            owner=imp.owner, email=email,\n            defaults={k: row.get(k, '') for k in ('first_name', 'last_name', 'company')},\n        )\n        created += was_created\n        updated += not was_created\n    imp.finish(created=created, updated=updated, errors=errors)\n",
        ),
        "Wrote contacts/imports.py",
    ),
    T(
        "Bash",
        "python manage.py makemigrations contacts && pytest contacts -q",
        "Migrations for 'contacts':\n  contacts/migrations/0007_contactimport.py\n    - Create model ContactImport\n..........F\nFAILED contacts/tests/test_import.py::test_rejects_large_file - assert 202 == 413",
    ),
    A("The 5 MB limit isn't enforced yet; adding the size check in the view before saving the upload."),
    T("Bash", "pytest contacts -q", "...........\n11 passed in 2.10s"),
    A(
        "Endpoint, task, status endpoint and 11 tests (incl. BOM handling, invalid emails, update vs create, size limit) are in."
    ),
)

S(
    "feature/implementation",
    "cursor",
    "Add push notifications to Flutter app",
    U(
        "implement push notifications for new chat messages in the flutter app using firebase messaging. backend already sends FCM with data {chat_id}. tapping should open the chat"
    ),
    T(
        "Bash",
        "flutter pub add firebase_messaging flutter_local_notifications",
        "Resolving dependencies...\n+ firebase_messaging 15.1.3\n+ flutter_local_notifications 17.2.2\nChanged 2 dependencies!",
    ),
    T(
        "Write",
        (
            "lib/push/push_service.dart",
            "class PushService {\n  PushService(this._router);\n  final GoRouter _router;\n\n  Future<void> init() async {\n    final fm = FirebaseMessaging.instance;\n    await fm.requestPermission();\n    final token = await fm.getToken();\n    if (token != null) await api.registerDevice(token);\n    fm.onTokenRefresh.listen(api.registerDevice);\n\n    FirebaseMessaging.onMessageOpenedApp.listen(_open);\n    final initial = await fm.getInitialMessage();\n    if (initial != null) _open(initial);\n  }\n\n  void _open(RemoteMessage m) {\n    final chatId = m.data['chat_id'];\n    if (chatId != null) _router.go('/chats/$chatId');\n  }\n}\n",
        ),
        "Created file.",
    ),
    T("Bash", "flutter test test/push", "00:02 +3: All tests passed!"),
    A(
        "Implemented: permission request, token registration + refresh, opening the chat from background and terminated state. Foreground messages show a local notification via flutter_local_notifications."
    ),
    U("on iOS nothing arrives"),
    A(
        "iOS needs the Push Notifications capability + Background Modes > Remote notifications in Xcode, and the APNs key uploaded in Firebase console. The entitlements file is missing `aps-environment`; adding it."
    ),
    T(
        "Edit",
        (
            "ios/Runner/Runner.entitlements",
            "<dict>",
            "<dict>\n\t<key>aps-environment</key>\n\t<string>development</string>",
        ),
        "Updated.",
    ),
    U("ok now works on my phone, thx"),
)

S(
    "feature/implementation",
    "codex",
    "Implement password reset flow in Go API",
    U(
        "implement password reset: POST /password/forgot {email} sends email with token, POST /password/reset {token, password}. tokens single use, 1h expiry. Go + chi + sqlc"
    ),
    T(
        "Write",
        (
            "db/queries/password_resets.sql",
            "-- name: CreatePasswordReset :exec\nINSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, $3);\n\n-- name: ConsumePasswordReset :one\nUPDATE password_resets SET used_at = now()\nWHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()\nRETURNING user_id;\n",
        ),
        "created",
    ),
    T("Bash", "sqlc generate && go build ./...", "(No content)"),
    T(
        "Write",
        (
            "internal/auth/reset.go",
            'func (h *Handler) Forgot(w http.ResponseWriter, r *http.Request) {\n\tvar req struct{ Email string `json:"email"` }\n\tif err := json.NewDecoder(r.Body).Decode(&req); err != nil {\n\t\thttp.Error(w, "bad request", 400)\n\t\treturn\n\t}\n\t// Always 202 so the endpoint can\'t be used to discover accounts.\n\tdefer w.WriteHeader(http.StatusAccepted)\n\tu, err := h.q.GetUserByEmail(r.Context(), strings.ToLower(req.Email))\n\tif err != nil {\n\t\treturn\n\t}\n\ttoken := randomToken(32)\n\t_ = h.q.CreatePasswordReset(r.Context(), db.CreatePasswordResetParams{TokenHash: sha256hex(token), UserID: u.ID, ExpiresAt: time.Now().Add(time.Hour)})\n\th.mail.SendReset(u.Email, token)\n}\n',
        ),
        "created",
    ),
    T("Bash", "go test ./internal/auth/...", "ok  \texample.com/api/internal/auth\t0.412s"),
    A(
        "Both endpoints implemented; token stored hashed, consumed atomically by the UPDATE (single use), 1h expiry, forgot always returns 202. Tests cover expired, reused and unknown token."
    ),
)

S(
    "feature/implementation",
    "copilot",
    "Add export to PDF button on invoice page (Vue)",
    U("add a 'Download PDF' button to InvoiceView.vue that calls GET /api/invoices/:id/pdf"),
    T(
        "Edit",
        (
            "src/views/InvoiceView.vue",
            "    <h1>Invoice {{ invoice.number }}</h1>",
            '    <h1>Invoice {{ invoice.number }}</h1>\n    <a :href="`/api/invoices/${invoice.id}/pdf`" class="btn" download>Download PDF</a>',
        ),
        "Edited.",
    ),
    A("Added; a plain link with `download` keeps the auth cookie and avoids blob handling."),
)
# ---------------------------------------------------------------- project/setup
S(
    "project/setup",
    "claude-code",
    "Set up GitHub Actions CI for Rust workspace",
    U("new rust workspace, no CI yet. set up github actions: fmt, clippy -D warnings, test on linux+mac, cache"),
    T(
        "Bash",
        "ls .github 2>&1; cat Cargo.toml",
        'ls: cannot access \'.github\': No such file or directory\n[workspace]\nmembers = ["crates/core", "crates/cli"]\nresolver = "2"',
    ),
    T(
        "Write",
        (
            ".github/workflows/ci.yml",
            "name: CI\non:\n  push:\n    branches: [main]\n  pull_request:\n\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: dtolnay/rust-toolchain@stable\n        with:\n          components: rustfmt, clippy\n      - uses: Swatinem/rust-cache@v2\n      - run: cargo fmt --all --check\n      - run: cargo clippy --workspace --all-targets -- -D warnings\n\n  test:\n    strategy:\n      matrix:\n        os: [ubuntu-latest, macos-latest]\n    runs-on: ${{ matrix.os }}\n    steps:\n      - uses: actions/checkout@v4\n      - uses: dtolnay/rust-toolchain@stable\n      - uses: Swatinem/rust-cache@v2\n      - run: cargo test --workspace --locked\n",
        ),
        "Created.",
    ),
    T(
        "Bash",
        "cargo generate-lockfile && git add -A && git commit -qm 'ci: add workflow' && git push -q && sleep 90 && gh run list -L 1",
        "STATUS  TITLE            WORKFLOW  BRANCH  EVENT  ID\nX       ci: add workflow CI        main    push   7012345",
    ),
    T(
        "Bash",
        "gh run view 7012345 --log-failed | tail -8",
        "lint\tRun cargo clippy\terror: this `if` has identical blocks\n  --> crates/core/src/parse.rs:22:5\n   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#if_same_then_else\nerror: could not compile `core` (lib) due to 1 previous error",
    ),
    A(
        "CI works; it caught an existing clippy lint (identical if/else branches in parse.rs:22). Want me to fix it or allow it?"
    ),
    U("fix"),
    T(
        "Bash",
        "cargo clippy --workspace --all-targets -- -D warnings && git commit -qam 'core: merge identical branches' && git push -q",
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 6.1s",
    ),
    A("Green now on ubuntu and macos."),
)

S(
    "project/setup",
    "cursor",
    "Dev container for Django project",
    U(
        "new devs take a day to set up our django project (postgres, redis, node for assets, python 3.12). can we have a devcontainer so its 'open in vscode and go'?"
    ),
    T(
        "Write",
        (
            ".devcontainer/devcontainer.json",
            '{\n  "name": "shop",\n  "dockerComposeFile": "compose.yml",\n  "service": "app",\n  "workspaceFolder": "/workspace",\n  "features": {\n    "ghcr.io/devcontainers/features/node:1": {"version": "20"}\n  },\n  "postCreateCommand": "pip install -r requirements/dev.txt && npm ci && python manage.py migrate && python manage.py loaddata dev_seed",\n  "forwardPorts": [8000, 5173],\n  "customizations": {"vscode": {"extensions": ["ms-python.python", "charliermarsh.ruff"]}}\n}\n',
        ),
        "Created.",
    ),
    T(
        "Write",
        (
            ".devcontainer/compose.yml",
            'services:\n  app:\n    image: mcr.microsoft.com/devcontainers/python:3.12\n    volumes: ["..:/workspace:cached"]\n    command: sleep infinity\n    environment:\n      DATABASE_URL: postgres://shop:shop@db/shop\n      REDIS_URL: redis://redis:6379/0\n  db:\n    image: postgres:16\n    environment: {POSTGRES_USER: shop, POSTGRES_PASSWORD: shop}\n  redis:\n    image: redis:7\n',
        ),
        "Created.",
    ),
    T(
        "Bash",
        "devcontainer up --workspace-folder . 2>&1 | tail -4",
        'Running the postCreateCommand from devcontainer.json...\nOperations to perform:\n  Apply all migrations: admin, auth, shop\ndjango.db.utils.OperationalError: connection to server at "db" (172.19.0.2), port 5432 failed: Connection refused',
    ),
    A(
        "postCreate ran before Postgres accepted connections. Adding a healthcheck on db and `depends_on: condition: service_healthy`."
    ),
    T(
        "Bash",
        "devcontainer up --workspace-folder . 2>&1 | tail -2",
        'Installed 1 object(s) from 1 fixture(s)\n{"outcome":"success"}',
    ),
    U("add a section to README about it"),
    T(
        "Edit",
        (
            "README.md",
            "## Development",
            "## Development\n\nFastest: open the repo in VS Code and choose *Reopen in Container*. Postgres, Redis and Node come up automatically, migrations and seed data run on first start; app on :8000, Vite on :5173.\n",
        ),
        "Updated.",
    ),
)

S(
    "project/setup",
    "codex",
    "Scaffold new TypeScript library package",
    U(
        "scaffold a new TS library in packages/date-utils in our pnpm monorepo. same setup as packages/strings (tsup, vitest, eslint shared config)"
    ),
    T(
        "Bash",
        "cat packages/strings/package.json",
        '{\n  "name": "@acme/strings",\n  "version": "0.4.1",\n  "type": "module",\n  "main": "./dist/index.js",\n  "types": "./dist/index.d.ts",\n  "scripts": {"build": "tsup src/index.ts --format esm --dts", "test": "vitest run", "lint": "eslint src"},\n  "devDependencies": {"@acme/eslint-config": "workspace:*", "tsup": "^8.0.2", "vitest": "^1.6.0"}\n}',
    ),
    T(
        "Bash",
        "mkdir -p packages/date-utils/src && cp packages/strings/{tsconfig.json,.eslintrc.cjs} packages/date-utils/ && sed 's/strings/date-utils/; s/0.4.1/0.1.0/' packages/strings/package.json > packages/date-utils/package.json && printf 'export {};\\n' > packages/date-utils/src/index.ts && pnpm install && pnpm -F @acme/date-utils build",
        "Packages: +0\nDone in 1.9s\nCLI Building entry: src/index.ts\nESM dist/index.js 13.00 B\nDTS ⚡️ Build success",
    ),
    A(
        "packages/date-utils is scaffolded (0.1.0) and builds; added a placeholder test so `vitest run` doesn't fail on an empty suite."
    ),
)

S(
    "project/setup",
    "gemini-cli",
    "Bootstrap k8s local env with kind and Tilt",
    U(
        "we want local k8s dev env: kind cluster + tilt for our 3 services (api, worker, web). can you set it up? I'm on linux, docker installed. Also the services' helm charts already exist in deploy/charts"
    ),
    T("Bash", "kind version; tilt version", "kind v0.23.0 go1.22.2 linux/amd64\nbash: tilt: command not found"),
    A(
        "Tilt isn't installed. Install via its script (`curl -fsSL https://raw.githubusercontent.com/tilt-dev/tilt/master/scripts/install.sh | bash`)?"
    ),
    U("yes do it"),
    T(
        "Bash",
        "curl -fsSL https://raw.githubusercontent.com/tilt-dev/tilt/master/scripts/install.sh | bash && tilt version",
        "Installing Tilt to /usr/local/bin\nv0.33.17, built 2026-06-11",
    ),
    T(
        "Write",
        (
            "hack/kind.yaml",
            "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n  - role: control-plane\n    extraPortMappings:\n      - containerPort: 80\n        hostPort: 8080\n",
        ),
        "Created.",
    ),
    T(
        "Write",
        (
            "Tiltfile",
            "for svc in ['api', 'worker', 'web']:\n    docker_build('acme/' + svc, 'services/' + svc)\n    k8s_yaml(helm('deploy/charts/' + svc, name=svc, values=['deploy/values-dev.yaml']))\n\nk8s_resource('api', port_forwards=8000)\nk8s_resource('web', port_forwards=3000, resource_deps=['api'])\n",
        ),
        "Created.",
    ),
    T(
        "Bash",
        "kind create cluster --name acme --config hack/kind.yaml && tilt ci --timeout 6m 2>&1 | tail -4",
        'Creating cluster "acme" ...\n ✓ Ensuring node image (kindest/node:v1.30.0)\nworker │ Pod ready\napi │ Pod ready\nweb │ Pod ready\nSUCCESS. All workloads are healthy.',
    ),
    A("`make dev` now runs `kind create cluster` (if missing) + `tilt up`. All three services come up healthy."),
    U("nice. worker restarts constantly when i edit api code, why"),
    A(
        "The worker image's build context is `services/worker`, but its Dockerfile copies `../api/shared` via a symlink, so Tilt sees api changes as worker changes. I added `ignore=['../api/**']` except the shared package path, so only edits in `services/api/shared` rebuild the worker."
    ),
)

S(
    "project/setup",
    "aider",
    "Set up pre-commit hooks for Python repo",
    U("setup pre-commit w/ ruff, ruff-format, mypy, end-of-file-fixer"),
    T(
        "Write",
        (
            ".pre-commit-config.yaml",
            "repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.6.0\n    hooks:\n      - id: end-of-file-fixer\n      - id: trailing-whitespace\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.5.0\n    hooks:\n      - id: ruff\n        args: [--fix]\n      - id: ruff-format\n  - repo: https://github.com/pre-commit/mirrors-mypy\n    rev: v1.10.0\n    hooks:\n      - id: mypy\n        additional_dependencies: [types-requests]\n",
        ),
        "Wrote .pre-commit-config.yaml",
    ),
    T(
        "Bash",
        "pre-commit install && pre-commit run --all-files | tail -5",
        "pre-commit installed at .git/hooks/pre-commit\nfix end of files.........................................................Passed\nruff.....................................................................Passed\nruff-format..............................................................Passed\nmypy.....................................................................Passed",
    ),
)

# ---------------------------------------------------------------- project/config
S(
    "project/config",
    "claude-code",
    "Configure ESLint flat config migration",
    U("eslint 9 complains .eslintrc is deprecated. move our config to flat config eslint.config.js, same rules"),
    T(
        "Read",
        ".eslintrc.json",
        '{\n  "root": true,\n  "parser": "@typescript-eslint/parser",\n  "plugins": ["@typescript-eslint", "react-hooks"],\n  "extends": ["eslint:recommended", "plugin:@typescript-eslint/recommended"],\n  "rules": {\n    "react-hooks/rules-of-hooks": "error",\n    "react-hooks/exhaustive-deps": "warn",\n    "@typescript-eslint/no-unused-vars": ["error", {"argsIgnorePattern": "^_"}]\n  },\n  "ignorePatterns": ["dist", "coverage"]\n}',
    ),
    T(
        "Write",
        (
            "eslint.config.js",
            "import js from '@eslint/js';\nimport tseslint from 'typescript-eslint';\nimport reactHooks from 'eslint-plugin-react-hooks';\n\nexport default tseslint.config(\n  { ignores: ['dist', 'coverage'] },\n  js.configs.recommended,\n  ...tseslint.configs.recommended,\n  {\n    plugins: { 'react-hooks': reactHooks },\n    rules: {\n      'react-hooks/rules-of-hooks': 'error',\n      'react-hooks/exhaustive-deps': 'warn',\n      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],\n    },\n  },\n);\n",
        ),
        "Created.",
    ),
    T("Bash", "rm .eslintrc.json && npx eslint . | tail -3", "✖ 0 problems"),
    A(
        "Moved to eslint.config.js with the same rules and ignores; lint output is unchanged (0 problems before and after)."
    ),
)

S(
    "project/config",
    "cursor",
    "Env vars for staging vs prod in Next.js",
    U(
        "how do i set different API_URL for staging and prod in next.js? right now its hardcoded in lib/api.ts. we deploy on vercel. also it must be available in the browser"
    ),
    T(
        "Read",
        "lib/api.ts",
        "export const API_URL = 'https://api.acme.io';\n\nexport async function get(path: string) {\n  const r = await fetch(API_URL + path, { credentials: 'include' });\n  if (!r.ok) throw new Error(r.statusText);\n  return r.json();\n}",
    ),
    A(
        "Browser-visible vars must be prefixed `NEXT_PUBLIC_` (they're inlined at build time). Set `NEXT_PUBLIC_API_URL` in Vercel for the Production and Preview environments separately, and locally in `.env.local`."
    ),
    T(
        "Edit",
        (
            "lib/api.ts",
            "export const API_URL = 'https://api.acme.io';",
            "export const API_URL = process.env.NEXT_PUBLIC_API_URL ?? 'http://localhost:4000';",
        ),
        "Edited.",
    ),
    T(
        "Write",
        (
            ".env.example",
            "# Public: inlined into the browser bundle at build time\nNEXT_PUBLIC_API_URL=http://localhost:4000\n",
        ),
        "Created.",
    ),
    U("staging is a vercel preview branch 'staging', does preview env apply?"),
    A(
        "Yes, but Preview applies to all non-production branches. In Vercel you can scope a Preview variable to a specific git branch: set `NEXT_PUBLIC_API_URL=https://api.staging.acme.io` for branch `staging` and a different default for other previews. Remember to redeploy after changing it, since the value is baked in at build."
    ),
)

S(
    "project/config",
    "codex",
    "Tune Postgres connection pool settings",
    U(
        "pgbouncer + django. getting 'too many clients already' at peak. config files below, what should change?\n\n[pgbouncer]\npool_mode = session\nmax_client_conn = 100\ndefault_pool_size = 20\n\nDATABASES.default.CONN_MAX_AGE = 600\n8 gunicorn pods x 4 workers x 4 threads"
    ),
    A(
        "With `pool_mode = session` each Django connection holds a server connection for its whole life, and `CONN_MAX_AGE=600` keeps them for 10 minutes. 8 x 4 x 4 = 128 potential clients > `max_client_conn = 100`.\n\nChanges:\n- `pool_mode = transaction` (Django is fine with it as long as you don't use session-level features; set `DISABLE_SERVER_SIDE_CURSORS = True`).\n- `max_client_conn = 400` (cheap, they're just sockets).\n- `default_pool_size = 30` and make sure Postgres `max_connections` > total pool sizes + admin headroom.\n- Django `CONN_MAX_AGE = 0` or keep 600 - with transaction pooling persistent client connections are harmless; keep 600 to save TLS handshakes.\n- Add `CONN_HEALTH_CHECKS = True`."
    ),
    U("we use server side cursors in one export view"),
    A(
        "Then either route that view to a separate DB alias pointing at a session-mode pgbouncer port, or wrap it with `.iterator()` inside `transaction.atomic()` - under transaction pooling a server-side cursor works if it's created and consumed inside one transaction."
    ),
    U("atomic it is. apply the config"),
    T(
        "Edit",
        (
            "deploy/pgbouncer.ini",
            "pool_mode = session\nmax_client_conn = 100\ndefault_pool_size = 20",
            "pool_mode = transaction\nmax_client_conn = 400\ndefault_pool_size = 30",
        ),
        "Updated.",
    ),
    T(
        "Edit",
        (
            "shop/settings/prod.py",
            '        "CONN_MAX_AGE": 600,',
            '        "CONN_MAX_AGE": 600,\n        "CONN_HEALTH_CHECKS": True,\n        "DISABLE_SERVER_SIDE_CURSORS": True,',
        ),
        "Updated.",
    ),
)

S(
    "project/config",
    "gemini-cli",
    "Configure log levels per package in Spring Boot",
    U(
        "spring boot: hibernate SQL logs flood prod logs. want WARN for hibernate, DEBUG for com.acme.billing only in staging"
    ),
    A(
        "`application.yml`:\n```yaml\nlogging:\n  level:\n    root: INFO\n    org.hibernate.SQL: WARN\n    org.hibernate.orm.jdbc.bind: WARN\n```\n`application-staging.yml`:\n```yaml\nlogging:\n  level:\n    com.acme.billing: DEBUG\n```\nand make sure `spring.jpa.show-sql` is false - it bypasses the logger and prints to stdout."
    ),
)

S(
    "project/config",
    "cline",
    "tsconfig paths alias not resolving in jest",
    U(
        "i added path alias @/ in tsconfig, works in vite but jest says Cannot find module '@/lib/format'. config only issue i think"
    ),
    T("Read", "jest.config.ts", "export default {\n  preset: 'ts-jest',\n  testEnvironment: 'jsdom',\n};"),
    T(
        "Edit",
        (
            "jest.config.ts",
            "  testEnvironment: 'jsdom',",
            "  testEnvironment: 'jsdom',\n  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },",
        ),
        "Edited.",
    ),
    T("Bash", "npx jest 2>&1 | tail -3", "Test Suites: 14 passed, 14 total\nTests:       88 passed, 88 total"),
    A("Jest doesn't read tsconfig `paths`; the `moduleNameMapper` entry mirrors it."),
)

# ---------------------------------------------------------------- project/dependency
S(
    "project/dependency",
    "claude-code",
    "Upgrade Django 4.2 to 5.1",
    U("upgrade django from 4.2 to 5.1. fix whatever breaks. we're on python 3.11"),
    T(
        "Bash",
        "pip install -U 'django>=5.1,<5.2' && python -W error::DeprecationWarning manage.py check 2>&1 | tail -5",
        'Successfully installed django-5.1.3\nSystemCheckError: System check identified some issues:\nERRORS:\n?: (admin.E039) An admin for model "Invoice" has to be registered to be referenced by OrderAdmin.autocomplete_fields.',
    ),
    T(
        "Bash",
        "pytest -q -x 2>&1 | tail -6",
        "ImportError: cannot import name 'index_together' ...\nE   django.core.exceptions.FieldError: 'index_together' is no longer supported. Use Meta.indexes.\nshop/models.py:214",
    ),
    A(
        "Two breakages: `index_together` was removed in 5.1 (needs `Meta.indexes` + a migration), and the admin check is stricter about autocomplete targets. Also `django-filter` 23.x pins Django <5.1."
    ),
    T(
        "Bash",
        "pip install -U 'django-filter>=24.3' && python manage.py makemigrations shop && pytest -q 2>&1 | tail -2",
        "Successfully installed django-filter-24.3\nMigrations for 'shop':\n  shop/migrations/0058_rename_index_together.py\n    - Rename unnamed index for ('customer', 'created_at') on order to order_custome_1f3a2b_idx\n612 passed, 3 skipped in 94.22s",
    ),
    U("pin it in requirements too"),
    T(
        "Bash",
        "sed -i 's/^Django==.*/Django==5.1.3/; s/^django-filter==.*/django-filter==24.3/' requirements.txt && git diff --stat",
        " requirements.txt | 4 ++--\n 1 file changed, 2 insertions(+), 2 deletions(-)",
    ),
    A("Django 5.1.3 and django-filter 24.3 pinned; the index migration only renames the index (no rebuild)."),
)

S(
    "project/dependency",
    "cursor",
    "Pin transitive dependency causing CI break",
    U(
        "ci broke overnight w/o any commit:\n\nTypeError: Cannot read properties of undefined (reading 'prototype')\n    at node_modules/whatwg-url/lib/URL.js:12\n\nwe didnt change anything, pls pin whatever updated"
    ),
    T(
        "Bash",
        "git stash && npm ci && npm ls whatwg-url",
        "acme-web@1.0.0\n└─┬ node-fetch@2.7.0\n  └── whatwg-url@5.0.0",
    ),
    A(
        "Locally with the lockfile it's 5.0.0. CI uses `npm install` not `npm ci`, so it resolved a new `tr46` (whatwg-url's dependency) released last night."
    ),
    T(
        "Bash",
        "grep -n 'npm install' .github/workflows/*.yml",
        ".github/workflows/test.yml:21:      - run: npm install",
    ),
    T("Edit", (".github/workflows/test.yml", "      - run: npm install", "      - run: npm ci"), "Edited."),
    A(
        'Switched CI to `npm ci` so it installs exactly the lockfile; no explicit pin needed. If you also want a guard, `overrides: { "tr46": "0.0.3" }` in package.json.'
    ),
    U("add the override too, belt and braces"),
    T(
        "Bash",
        "npm pkg set overrides.tr46=0.0.3 && npm install && npm ls tr46",
        "└─┬ whatwg-url@5.0.0\n  └── tr46@0.0.3 overridden",
    ),
)

S(
    "project/dependency",
    "codex",
    "Upgrade Spring Boot 2.7 to 3.2",
    U(
        "we need to upgrade spring boot 2.7 -> 3.2 because 2.7 is EOL. long list of stuff will break i guess. go step by step, commit after each step"
    ),
    T(
        "Bash",
        "./gradlew dependencies --configuration runtimeClasspath | grep -E 'spring-boot|hibernate|javax' | sort -u | head",
        "+--- org.springframework.boot:spring-boot-starter-web:2.7.18\n+--- org.hibernate:hibernate-core:5.6.15.Final\n+--- javax.validation:validation-api:2.0.1.Final\n+--- javax.servlet:javax.servlet-api:4.0.1",
    ),
    A(
        "Plan: (1) Java 17 toolchain, (2) bump Boot to 3.2.5 + dependency management, (3) javax -> jakarta imports, (4) Spring Security 6 config (no more WebSecurityConfigurerAdapter), (5) Hibernate 6 query fixes, (6) properties renames."
    ),
    T(
        "Bash",
        "sed -i \"s/id 'org.springframework.boot' version '2.7.18'/id 'org.springframework.boot' version '3.2.5'/\" build.gradle && find src -name '*.java' | xargs sed -i 's/import javax\\.\\(persistence\\|validation\\|servlet\\)/import jakarta.\\1/' && ./gradlew compileJava 2>&1 | grep error | head -3",
        "SecurityConfig.java:14: error: cannot find symbol class WebSecurityConfigurerAdapter\nOrderRepository.java:31: error: ... query: 'select o from Order o where o.status = 1'",
    ),
    A(
        "Rewrote SecurityConfig as a `SecurityFilterChain` bean; Hibernate 6 no longer compares an enum to an int literal in JPQL - changed to a parameter."
    ),
    T("Bash", "./gradlew test 2>&1 | tail -3", "BUILD SUCCESSFUL in 2m 11s\n147 tests completed, 0 failed"),
    U("also run the properties migrator"),
    T(
        "Bash",
        "./gradlew bootRun --args='--spring.profiles.active=local' 2>&1 | grep -A3 'properties-migrator' | head",
        "The use of configuration keys that have been renamed was found in the environment:\nKey: spring.redis.host  Replacement: spring.data.redis.host",
    ),
    A(
        "Renamed `spring.redis.*` to `spring.data.redis.*` in all profiles; migrator shows nothing else. Each step committed separately (6 commits)."
    ),
)

S(
    "project/dependency",
    "aider",
    "Add and pin httpx, remove requests",
    U("swap requests for httpx in pyproject, pin to minor"),
    T("Bash", "grep -rn 'import requests' src | wc -l", "2"),
    T(
        "Edit",
        ("pyproject.toml", '    "requests>=2.28",', '    "httpx>=0.27,<0.28",'),
        "Applied edit to pyproject.toml",
    ),
    A(
        "Dependency swapped and pinned to 0.27.x; the 2 `requests` imports in src/ now use `httpx` (same call shapes: `httpx.get(..., timeout=10)`)."
    ),
)

S(
    "project/dependency",
    "gemini-cli",
    "Resolve Go module version conflict",
    U(
        "go build fails after adding otel:\n\n../../go/pkg/mod/go.opentelemetry.io/otel/sdk@v1.28.0/resource/auto.go:20:2: missing go.sum entry\nverifying module: google.golang.org/grpc@v1.64.0: checksum mismatch\n\nhelp"
    ),
    T(
        "Bash",
        "go env GOFLAGS GOPROXY GONOSUMDB; grep grpc go.mod",
        "-mod=mod\nhttps://proxy.golang.org,direct\n\n\tgoogle.golang.org/grpc v1.64.0 // indirect\nreplace google.golang.org/grpc => ../forks/grpc",
    ),
    A("The `replace` to a local fork makes go.sum disagree with the real v1.64.0 checksum. Is the fork still needed?"),
    U("no, it was for a bug fixed upstream long ago"),
    T(
        "Bash",
        "go mod edit -dropreplace google.golang.org/grpc && go get google.golang.org/grpc@v1.65.0 && go mod tidy && go build ./...",
        "go: upgraded google.golang.org/grpc v1.64.0 => v1.65.0",
    ),
    A("Removed the stale replace, bumped grpc to 1.65.0 (what otel sdk 1.28 wants), `go mod tidy`; build passes."),
)
# ---------------------------------------------------------------- decision/technical
S(
    "decision/technical",
    "claude-code",
    "Choose a date library for the frontend",
    U(
        "moment is deprecated and our bundle is fat. pick between date-fns, dayjs, luxon for our react app. we need timezones (users in many zones) and i18n (de, fr, ja). decide, don't just list"
    ),
    T(
        "Bash",
        "grep -rhoE \"moment\\([^)]*\\)\\.(\\w+)\" src | sed 's/.*\\.//' | sort | uniq -c | sort -rn | head",
        "    112 format\n     41 tz\n     30 add\n     18 diff\n      9 isBefore\n      4 startOf",
    ),
    A(
        "Usage: mostly format, tz conversion (41 calls), add/diff. Decision: **Luxon**.\n- Timezones: built on `Intl`, first-class IANA zones (`DateTime.setZone`); date-fns needs `date-fns-tz` and dayjs a plugin with known DST edge bugs.\n- i18n: uses the browser's Intl locale data - de/fr/ja without shipping locale files.\n- Size: ~20 KB gz, larger than dayjs (~7 KB + plugins) but no per-locale bundles.\n- API: immutable, chainable, closest to moment for the `add/diff/startOf` calls, so migration is mostly mechanical.\nRejected: date-fns (function-per-import is great for tree-shaking, but tz support is a separate lib and formatting tokens differ from moment more); dayjs (tz plugin reliability)."
    ),
    U("ok. write it in docs/decisions so we don't argue again"),
    T(
        "Write",
        (
            "docs/decisions/0007-luxon-for-dates.md",
            "# 0007 Luxon replaces moment\n\nStatus: accepted, 2026-11-27\n\nWe need IANA timezone handling (41 call sites) and de/fr/ja formatting. Luxon uses Intl for both, has an immutable moment-like API, ~20 KB gz.\n\nRejected: date-fns (+date-fns-tz), dayjs (tz plugin DST issues).\n\nMigration: codemod for format/add/diff, manual review of tz call sites.\n",
        ),
        "Created.",
    ),
    U("👍"),
)

S(
    "decision/technical",
    "cursor",
    "Pick a job queue for Python service",
    U(
        "need background jobs in our fastapi service. celery vs rq vs arq vs dramatiq. we already run redis. jobs: sending emails, generating pdfs (30s), nightly sync. small team. which one and why, one paragraph"
    ),
    A(
        "Go with **Dramatiq** on Redis. Celery does everything but its config surface and the amount of debugging it takes are more than a small team needs for three job types. RQ is simple but only forks a process per job and has no built-in retries with backoff or rate limits. arq is async-native and fits FastAPI, but it's a one-maintainer project with a small ecosystem, and your PDF generation is sync, CPU-bound code anyway. Dramatiq gives retries with exponential backoff, time limits (useful for the 30s PDFs), middleware, and a small API; the nightly sync can use `periodiq` or just a cron that enqueues the job."
    ),
    U("ok dramatiq. any gotcha?"),
    A(
        "Two: actors must be importable by the worker process (set `--path` / import modules explicitly), and the default `max_age`/`time_limit` is 10 min - set `time_limit=120_000` on the PDF actor explicitly so a stuck render is killed."
    ),
)

S(
    "decision/technical",
    "codex",
    "Decide between REST and gRPC for internal service calls",
    U(
        "new internal service (pricing) called by 3 other go services, ~3k rps total, latency sensitive. team knows REST well, nobody used grpc in prod. should pricing expose grpc or rest? need a decision today for sprint planning"
    ),
    T("Bash", "ls api/ && grep -rn 'protobuf\\|grpc' go.mod", "openapi/\nrest/\n"),
    A(
        "Decision: **gRPC**, with one condition.\nWhy: all callers are Go services you own, so generated clients + a shared proto remove the hand-written client drift you have with the REST services; HTTP/2 multiplexing and protobuf cut per-call overhead noticeably at 3k rps with small payloads; deadlines propagate across calls natively.\nCost: the team learns protoc/buf, grpc-go interceptors, and you need grpcurl for debugging instead of curl; load balancers must be HTTP/2-aware (your k8s + Linkerd setup is).\nCondition: add `buf` linting + breaking-change checks in CI from day one; otherwise proto drift replaces JSON drift.\nIf the team can't spend ~2 days learning this sprint, REST with an OpenAPI-generated client is the fallback and is fine at 3k rps."
    ),
    U("we'll take grpc. we have the 2 days"),
)

S(
    "decision/technical",
    "gemini-cli",
    "State management library choice for React Native",
    U(
        "RN app growing, context + useReducer is a mess now. redux toolkit, zustand or jotai? also we use react-query for server state already"
    ),
    A(
        "Since react-query already owns server state, what's left is client state (auth session, UI prefs, a multi-step form draft). That's small. **Zustand**: tiny API, no providers, works outside components (useful for the auth token in the API client), persist middleware with AsyncStorage. Redux Toolkit is justified when client state is large and you want devtools time travel and strict patterns across many devs; jotai shines for lots of independent atoms derived from each other, which you don't describe. Choose zustand; keep one store per concern (`useAuthStore`, `usePrefsStore`)."
    ),
    U("ok, and persist auth token in it? or secure store"),
    A(
        "Token in expo-secure-store (Keychain/Keystore), not AsyncStorage. The zustand auth store can hold it in memory and hydrate from secure store at startup."
    ),
    U("k thx going with zustand"),
)

S(
    "decision/technical",
    "cline",
    "Choose PDF generation approach",
    U(
        "our invoices are generated with reportlab and every layout change is pain. options someone listed: weasyprint (html->pdf), headless chrome (playwright), a SaaS (docraptor). volume is 20k invoices/month. i need to decide by tomorrow. what do you recommend and why? we're python/django, deploy on k8s"
    ),
    A(
        "Recommendation: **WeasyPrint**.\n- Layout in HTML/CSS with Django templates: designers and devs can change invoices without learning reportlab's canvas API.\n- Pure Python + system libs (pango), runs in your existing Django image; 20k/month is ~1 every 2 minutes on average, trivially handled in a Celery worker.\n- Paged media CSS (`@page`, page counters, repeating table headers) is well supported - exactly what invoices need.\n\nWhy not the others: headless Chrome needs a ~400 MB browser in the image, more memory per render and its paged-media support (footers with page numbers) is weaker. DocRaptor costs money per document and sends invoice data (PII) to a third party, which needs a DPA.\n\nRisk: complex CSS (flex/grid) support in WeasyPrint is partial; keep invoice layout table-based."
    ),
    U("what about fonts, we use Inter"),
    A(
        "Ship the Inter TTFs in the image and reference them with `@font-face` with a `file://` URL or via `FontConfiguration`; WeasyPrint embeds subsets in the PDF."
    ),
    U("ok decided weasyprint. thx"),
)

# ---------------------------------------------------------------- decision/process
S(
    "decision/process",
    "claude-code",
    "Agree on code review rules for the team",
    U(
        "team of 6, PRs sit for days without review. we agreed in retro on some rules, I need them written down as a team agreement in CONTRIBUTING.md: 1 approval needed, review within 1 working day, PRs over 400 lines need to be split or have a note why, author merges after approval, nits prefixed 'nit:' don't block"
    ),
    T(
        "Read",
        "CONTRIBUTING.md",
        "# Contributing\n\n## Setup\nSee README.\n\n## Commit messages\nUse conventional commits (feat:, fix:, chore:).\n",
    ),
    T(
        "Edit",
        (
            "CONTRIBUTING.md",
            "## Commit messages",
            "## Code review (team agreement, 2026-11 retro)\n\n- **One approval** from a team member is required to merge.\n- **Review within one working day** of being requested. If you can't, say so in the PR and suggest someone else.\n- **Keep PRs under ~400 changed lines.** Larger PRs must be split or explain in the description why they can't be.\n- **The author merges** after approval (squash merge).\n- Comments prefixed **`nit:`** are suggestions and never block merging.\n- Disagreements that go beyond two rounds of comments move to a short call.\n\n## Commit messages",
        ),
        "Updated.",
    ),
    A(
        "Added the section. I included one rule you didn't list ('beyond two rounds -> call') - remove it if it wasn't agreed."
    ),
    U("it wasn't, remove. also add that we revisit this in the Feb retro"),
    T(
        "Edit",
        (
            "CONTRIBUTING.md",
            "- Disagreements that go beyond two rounds of comments move to a short call.\n",
            "\nWe revisit these rules in the February retro.\n",
        ),
        "Updated.",
    ),
)

S(
    "decision/process",
    "cursor",
    "Define on-call rotation and escalation",
    U(
        "we're starting on-call for the first time. 5 backend devs. help me decide the rotation: weekly vs daily, handover, escalation, compensation? i want a proposal i can bring to the team"
    ),
    A(
        "Proposal:\n- **Rotation:** weekly, Monday 10:00 handover (not Friday - issues from weekend deploys get a fresh person). 5 people = on call 1 week in 5.\n- **Primary + secondary:** secondary is next week's primary; escalation to secondary after 15 min unacknowledged, then to the eng manager after 30.\n- **Scope:** only alerts tagged `page`; everything else goes to a ticket queue handled in working hours.\n- **Handover:** 15-min call, incident doc updated, open alerts reviewed.\n- **After a night page:** the on-call person starts late next day, no questions.\n- **Compensation:** flat weekly stipend + time off in lieu for pages out of hours (check local labor law; in many EU countries it's mandatory).\n- **Review:** monthly look at page volume; any alert that paged without action gets fixed or demoted."
    ),
    U("people are worried about being alone with systems they don't know"),
    A(
        "Add: a shadow week before anyone's first primary shift, runbooks linked from every paging alert (alert without runbook can't page), and the rule that escalating is always OK and never judged."
    ),
    U("good. make it a markdown doc for confluence"),
    A(
        "# On-call proposal (draft for team discussion)\n\n## Rotation\nWeekly, Monday 10:00 handover... (full doc as above, with sections Rotation, Escalation, Scope, Handover, Wellbeing, Compensation, Onboarding, Review)"
    ),
)

S(
    "decision/process",
    "codex",
    "Switch from git flow to trunk-based development",
    U(
        "we use git flow (develop, release branches, hotfix branches) and releases are painful, merges from develop to main conflict every time. team wants trunk-based. I need to decide HOW we switch: steps, what changes in CI, feature flags? we release mobile apps too, so not everything can be continuous"
    ),
    T("Bash", "git branch -r | grep -c 'release/'; git log --oneline origin/develop ^origin/main | wc -l", "14\n87"),
    A(
        "Current state: 14 old release branches and 87 commits on develop not on main.\n\nSwitch plan:\n1. Release what's on develop (one last git-flow release), then freeze develop.\n2. `main` becomes the only long-lived branch; short-lived branches (< 2 days) with PRs into main. Protect main: CI green + 1 review.\n3. Unfinished work hides behind feature flags (you have LaunchDarkly for mobile already).\n4. Backend deploys from main continuously. Mobile: cut `release/x.y` from main at store-submission time; only cherry-picked fixes go there (release branches exist but are short-lived and never merged back).\n5. CI: remove develop triggers, add preview deploys per PR.\n6. Delete old release branches after tagging them.\n\nTeam agreements to write down: branch lifetime, flags have an owner and removal date, 'main is always releasable'."
    ),
    U("yes do it - write it in docs/process/branching.md"),
    T(
        "Write",
        (
            "docs/process/branching.md",
            "# Branching: trunk-based (from 2026-12)\n\n(steps 1-6 and agreements as discussed)\n",
        ),
        "created",
    ),
)

S(
    "decision/process",
    "gemini-cli",
    "Decide definition of done for team",
    U(
        "my team always argue if a ticket is 'done'. we want a definition of done. please propose something short we can vote on. we are 4 devs, 1 QA, we deploy weekly"
    ),
    A(
        "Definition of Done (proposal):\n1. Code merged to main after review.\n2. Automated tests added/updated and CI green.\n3. QA checked it on staging (or QA agreed in the ticket that no manual check is needed).\n4. Docs/changelog updated if users or other devs see a change.\n5. Feature flag state decided (on / off with owner).\n6. Deployed to production in the weekly release, and the ticket's acceptance criteria verified there.\n\nA ticket that meets 1-5 but not 6 is 'Ready for release', not Done."
    ),
)

S(
    "decision/process",
    "cline",
    "Decide how team handles tech debt",
    U("we never get time for tech debt. PM wants features. how do other teams decide this? I want to propose a rule"),
    A(
        "Common approaches: a fixed capacity share (e.g. 20% of each sprint), debt tickets that ride along with features touching the same code, or a dedicated 'fix-it week' every quarter. The capacity share works best when the team (not the PM) picks the debt items and they're tracked like any ticket."
    ),
    U("20% sounds good. how do we pick which debt?"),
    A(
        "Keep a debt backlog where each item states its cost in terms the PM cares about ('slows every checkout change by ~1 day', 'caused 2 incidents'). Rank by cost x frequency of pain; re-rank monthly."
    ),
    U("and if PM says no in a crunch sprint?"),
    A(
        "Allow skipping, but it's borrowed: the next sprint gets 40%. Write the rule down with the PM's agreement so it's a team decision, not a favor."
    ),
    U("ok writing this up for the retro"),
)

# ---------------------------------------------------------------- decision/tooling
S(
    "decision/tooling",
    "claude-code",
    "Pick a Python package manager for the team",
    U(
        "team of 12, mix of poetry and pip-tools in different repos, some use conda locally. we want ONE tool. uv vs poetry vs pdm? we have private packages on gitlab registry"
    ),
    T(
        "Bash",
        "ls ~/src/*/pyproject.toml ~/src/*/requirements*.in 2>/dev/null | wc -l; grep -l 'tool.poetry' ~/src/*/pyproject.toml | wc -l",
        "19\n11",
    ),
    A(
        "Recommendation: **uv**.\n- Speed: resolves/installs an order of magnitude faster than poetry; CI time drops noticeably for 19 repos.\n- Standards: uses PEP 621 `[project]` metadata and a lockfile; `uv pip compile` covers the pip-tools repos without changing their workflow on day one.\n- Python management: `uv python install` replaces conda for the people using it only to get Python versions.\n- Private index: `[[tool.uv.index]]` with GitLab's PyPI endpoint + token via env var works.\nCosts: 11 repos have `[tool.poetry]` metadata to migrate (mostly mechanical; `uvx migrate-to-uv` handles most); uv is younger, so pin the uv version in CI.\nPoetry would be the conservative choice; PDM is fine but has the smallest community of the three."
    ),
    U("what about people who need conda for cuda stuff"),
    A(
        "Keep conda (or pixi) for the 1-2 ML repos that need non-Python binaries; make uv the default for everything else. Write the exception explicitly so it doesn't spread."
    ),
    U("ok uv. write a short announcement for slack"),
    A(
        "📦 **We're standardizing on uv for Python projects.** New repos use uv from today; existing poetry/pip-tools repos migrate over the next month (guide + script in the wiki). Why: one tool, much faster installs, standard pyproject metadata. Exception: ML repos needing CUDA stay on conda. Questions -> #dev-tooling."
    ),
)

S(
    "decision/tooling",
    "cursor",
    "Choose between Sentry and self-hosted GlitchTip",
    U("error tracking: sentry SaaS vs self-host glitchtip. budget is tight. 8 devs, ~200k events/month. decide pls"),
    A(
        "Sentry Team plan covers 50k errors/month; 200k needs paid overage (roughly $80-150/month at your volume) - but with rate limits and inbound filters (drop bots, known noise) most teams cut volume by half. GlitchTip is Sentry-SDK compatible and cheap to run, but you run Postgres + Redis + workers, upgrades, and you lose performance tracing/replay depth.\n\nDecision: **Sentry SaaS**, with spike protection and filters configured on day one. At 8 devs, a few hours a month of self-hosting maintenance costs more than the subscription. Revisit if the bill passes $300/month."
    ),
    U("ok sentry"),
)

S(
    "decision/tooling",
    "codex",
    "Select a CI provider for monorepo",
    U(
        "we're leaving jenkins. github actions vs gitlab ci vs buildkite. code is on github. monorepo, 40 min builds, need self-hosted runners for gpu tests. decide and justify"
    ),
    T("Bash", "cat Jenkinsfile | grep -c stage; ls .jenkins/agents", "23\ngpu-a10.groovy\nlinux-large.groovy"),
    A(
        "Choose **GitHub Actions** with self-hosted runners for GPU and large Linux jobs.\n- Code is on GitHub: PR checks, required status, merge queue integrate natively; GitLab CI would mean mirroring.\n- Self-hosted runners for the A10 GPU box work with labels; use actions-runner-controller on your k8s for autoscaling Linux runners.\n- Monorepo: path filters + a matrix generated from changed packages keep the 40 min down.\nBuildkite is the stronger engine for very large monorepos (dynamic pipelines, great self-hosted agents) and would be my pick at 3x your size; it's another vendor and UI for marginal gain here.\nMigration: 23 Jenkins stages map to ~5 workflows."
    ),
    U("we'll go with GHA. can you also list what we lose vs jenkins"),
    A(
        "You lose: arbitrary Groovy logic in pipelines (replace with scripts/composite actions), Jenkins' build history retention beyond 90 days (Actions default; configurable up to 400), and the Jenkins plugins for the old test-report dashboards (use JUnit report actions)."
    ),
)

S(
    "decision/tooling",
    "gemini-cli",
    "Choose an API testing tool for QA team",
    U(
        "our QA use postman collections but they're not in git and break. options: bruno, hurl, keep postman with git sync, or pytest+httpx. QA can code a bit. choose"
    ),
    A(
        "Pick **Bruno**: collections are plain text files in the repo (reviewed in PRs like code), the UI is close to Postman so QA's learning curve is small, and `bru run` runs them in CI. Hurl is great but text-only, which your QA will find harder for exploratory work; pytest+httpx is the most powerful but turns QA into Python developers. Postman git sync needs paid plans and still stores the truth in Postman's cloud. Import existing Postman collections with Bruno's importer."
    ),
    U("can bruno do environment secrets"),
    A(
        "Yes: environments in `environments/*.bru`, secrets marked as secret are stored locally, not committed; in CI pass them with `--env-var`."
    ),
)

S(
    "decision/tooling",
    "aider",
    "Decide on a monorepo build tool",
    U(
        "nx vs turborepo for our 12-package TS monorepo? we only need caching + task graph, not generators. decide quick"
    ),
    A(
        "Turborepo. You only need task graph + local/remote caching, which is turbo's whole scope, configured in one `turbo.json`. Nx does the same plus generators, project graph plugins and more config you won't use. If later you want affected-only CI on huge graphs or code generators, Nx is the upgrade path."
    ),
    U("turbo it is"),
    T("Bash", "pnpm add -Dw turbo && npx turbo run build --dry=json | jq '.tasks | length'", "+ turbo 2.1.3\n24"),
)
# ---------------------------------------------------------------- topic/learning
S(
    "topic/learning",
    "claude-code",
    "Learning Rust ownership step by step",
    U(
        "im a python dev learning rust. can u teach me ownership step by step with tiny examples, one concept at a time, and let me try before moving on?"
    ),
    A(
        'Step 1 - each value has one owner.\n```rust\nlet s = String::from("hi");\nlet t = s;            // ownership moves to t\nprintln!("{}", s);   // error: s was moved\n```\nIn Python both names would point to the same object. In Rust, `t = s` *moves* it and `s` can\'t be used. Try: make this compile without removing the println.'
    ),
    U("let t = s.clone();  ?"),
    A(
        'Yes! `clone()` makes a deep copy, so both own their own String. Step 2 - borrowing: often you don\'t want a copy, you want to *lend* the value.\n```rust\nfn len(x: &String) -> usize { x.len() }\nlet s = String::from("hi");\nlet n = len(&s);   // lend s, keep ownership\nprintln!("{} {}", s, n);\n```\nTry: write `fn shout(x: ...)` that appends "!" to the string.'
    ),
    U('fn shout(x: &String) { x.push_str("!") } gives error cannot borrow as mutable'),
    A(
        'Exactly the point of step 3: `&` is a read-only borrow. To change it you need `&mut`:\n```rust\nfn shout(x: &mut String) { x.push_str("!") }\nlet mut s = String::from("hi");\nshout(&mut s);\n```\nRule: at any time either many `&` or one `&mut`, never both. Try to predict: does this compile?\n```rust\nlet r1 = &s;\nlet r2 = &mut s;\nprintln!("{}", r1);\n```'
    ),
    U("no because r1 still used after r2 created?"),
    A(
        "Correct - and if you moved the println above `let r2`, it would compile, because r1's borrow ends at its last use (non-lexical lifetimes). That's ownership's core: move, borrow, mutable borrow. Next session: lifetimes in function signatures."
    ),
    U("cool, lets stop here. thx!"),
)

S(
    "topic/learning",
    "cursor",
    "Teach me SQL joins with our schema",
    U(
        "junior dev, never really got joins. can you teach me using our actual tables (customers, orders)? start super basic"
    ),
    T(
        "Bash",
        "psql $DB -c 'select count(*) from customers' -c 'select count(*) from orders' -c 'select count(*) from customers c where not exists (select 1 from orders o where o.customer_id=c.id)'",
        " count\n-------\n  1200\n count\n-------\n  5400\n count\n-------\n   310",
    ),
    A(
        "Lesson 1 - INNER JOIN keeps only rows that match on both sides.\n```sql\nSELECT c.name, o.id\nFROM customers c\nJOIN orders o ON o.customer_id = c.id;\n```\nOur DB: 1,200 customers, 5,400 orders. This returns 5,400 rows (each order with its customer); the 310 customers who never ordered don't appear. Run it and count the distinct names - you should get 890."
    ),
    U("got 890!! ok next"),
    A(
        "Lesson 2 - LEFT JOIN keeps every row of the left table, filling NULL when there's no match.\n```sql\nSELECT c.name, o.id\nFROM customers c\nLEFT JOIN orders o ON o.customer_id = c.id\nWHERE o.id IS NULL;\n```\nThis is the classic 'customers without orders' query -> 310 rows. Exercise: count orders per customer including zeros."
    ),
    U(
        "SELECT c.name, count(*) FROM customers c LEFT JOIN orders o ON o.customer_id=c.id GROUP BY c.name -- but customers w/o orders show 1??"
    ),
    A(
        "Great catch - `count(*)` counts rows, and the LEFT JOIN produces one row (with NULLs) for them. Use `count(o.id)`: it counts non-NULL values, giving 0. Also group by `c.id` not `c.name`, two customers can share a name."
    ),
    U("makes sense now. thanks, this was way better than the tutorial"),
)

S(
    "topic/learning",
    "gemini-cli",
    "Walkthrough: first Kubernetes deployment",
    U(
        "i have never used kubernetes. my company uses it. can you guide me step by step to deploy a hello world on minikube so i understand pods, deployments, services? i have minikube installed"
    ),
    T("Bash", "minikube status", "minikube\ntype: Control Plane\nhost: Running\nkubelet: Running\napiserver: Running"),
    A(
        "Step 1 - a Pod is the smallest unit: one or more containers run together.\n```\nkubectl run hello --image=nginxdemos/hello --port=80\nkubectl get pods\n```\nYou'll see `hello` go from ContainerCreating to Running. Delete it with `kubectl delete pod hello` and notice: nothing brings it back. That's why we use Deployments."
    ),
    U("ok done, it's gone"),
    A(
        "Step 2 - a Deployment keeps N copies running.\n```\nkubectl create deployment hello --image=nginxdemos/hello --replicas=2\nkubectl get pods\nkubectl delete pod <one of them>\nkubectl get pods\n```\nA new pod appears - the Deployment's ReplicaSet replaced it."
    ),
    U("yes it came back with different name"),
    A(
        "Step 3 - a Service gives the pods one stable address (pods come and go, their IPs change).\n```\nkubectl expose deployment hello --port=80 --type=NodePort\nminikube service hello --url\n```\nOpen the URL and reload a few times: the page shows the server name changing - the Service load-balances across both pods."
    ),
    U("wow it changes. ok i understand now the 3 things"),
    A(
        "Summary: Pod = running containers; Deployment = desired number of pods + rollouts; Service = stable name/IP in front of matching pods (by label). Next step when you're ready: write these as YAML files instead of commands."
    ),
)

S(
    "topic/learning",
    "cline",
    "Learn git rebase interactively",
    U("how do i use git rebase -i? i always mess up. teach me on a throwaway repo"),
    T(
        "Bash",
        "mkdir /tmp/rb && cd /tmp/rb && git init -q && for m in 'add a' 'fix typo' 'add b' 'wip'; do echo $m >> f; git add f; git commit -qm \"$m\"; done && git log --oneline",
        "d4e1c2a wip\n9b8a7f6 add b\n3c2d1e0 fix typo\n1a2b3c4 add a",
    ),
    A(
        "Made a repo with 4 commits. Goal: squash 'fix typo' into 'add a' and drop 'wip'. Run `git rebase -i --root` and your editor shows:\n```\npick 1a2b3c4 add a\npick 3c2d1e0 fix typo\npick 9b8a7f6 add b\npick d4e1c2a wip\n```\nChange line 2 to `fixup` and line 4 to `drop`, save, close."
    ),
    U("done. log shows 2 commits now"),
    A(
        "That's it. Key ideas: lines are commits oldest-first; `pick` keeps, `reword` edits message, `squash` merges and lets you edit the message, `fixup` merges and discards the message, `drop` removes. If something goes wrong mid-way: `git rebase --abort` restores everything. Never rebase commits others already pulled."
    ),
)

S(
    "topic/learning",
    "codex",
    "Learning Elixir GenServer basics",
    U("new to elixir. explain genserver by building a tiny counter with me, step by step"),
    T(
        "Write",
        (
            "lib/counter.ex",
            "defmodule Counter do\n  use GenServer\n\n  # Client API\n  def start_link(initial), do: GenServer.start_link(__MODULE__, initial, name: __MODULE__)\n  def inc, do: GenServer.cast(__MODULE__, :inc)\n  def get, do: GenServer.call(__MODULE__, :get)\n\n  # Server callbacks\n  @impl true\n  def init(initial), do: {:ok, initial}\n\n  @impl true\n  def handle_cast(:inc, n), do: {:noreply, n + 1}\n\n  @impl true\n  def handle_call(:get, _from, n), do: {:reply, n, n}\nend\n",
        ),
        "created",
    ),
    A(
        "Step 1: the module has two halves. Client API functions run in *your* process and send messages; callbacks run inside the GenServer process and own the state (`n`). Step 2: `cast` is fire-and-forget (`inc`), `call` waits for a reply (`get`). Try in iex:"
    ),
    T("Bash", "iex -S mix -e 'Counter.start_link(0); Counter.inc(); Counter.inc(); IO.inspect(Counter.get())'", "2"),
    U("why is inc a cast and not call"),
    A(
        "Because the caller doesn't need a result. A `call` would block until the counter processes the message; for `inc` that's unnecessary. Use `call` when you need the answer or backpressure. Next step would be putting Counter under a Supervisor so it restarts if it crashes."
    ),
    U("ok next time. thanks"),
)

# ---------------------------------------------------------------- topic/explanation
S(
    "topic/explanation",
    "claude-code",
    "How does Python's GIL affect our threads",
    U(
        "why does our python image resize service not get faster with more threads? we use ThreadPoolExecutor(16) on 8 cores. not asking to change it, want to understand"
    ),
    T(
        "Read",
        "resize/worker.py",
        "from concurrent.futures import ThreadPoolExecutor\n\nfrom .codec import decode, encode\nfrom .ops import resize_bilinear\n\n\ndef process(job):\n    img = decode(job.data)            # pure python PNG decoder (vendored)\n    out = resize_bilinear(img, job.w, job.h)   # numpy-free loops\n    return encode(out)\n\n\ndef run(jobs):\n    with ThreadPoolExecutor(16) as ex:\n        return list(ex.map(process, jobs))\n",
    ),
    A(
        "CPython has a Global Interpreter Lock: only one thread executes Python bytecode at a time. Threads help when work *waits* (network, disk) or runs in C code that releases the GIL (numpy, Pillow, zlib). Your `process` is pure Python loops (vendored decoder, hand-written bilinear resize), so 16 threads take turns on one core: total throughput ~ one core, plus switching overhead. That's why adding threads doesn't help and can even slow it down.\n\nWhat would scale: processes (`ProcessPoolExecutor`, each with its own interpreter and GIL), or moving the heavy loops into C-backed libraries that release the GIL (Pillow's resize does), in which case threads would scale. Python 3.13's free-threaded build removes the GIL experimentally, but libraries must support it."
    ),
    U("so io-bound threads are fine?"),
    A(
        "Yes. While a thread waits in `socket.recv` or `read`, it releases the GIL and others run. That's why ThreadPoolExecutor works well for downloading 100 URLs."
    ),
)

S(
    "topic/explanation",
    "cursor",
    "Why does useEffect run twice in dev",
    U("why does my useEffect run twice?? console.log prints 2 times on mount. is my code broken"),
    A(
        "No - in development with `<React.StrictMode>`, React 18+ mounts each component, immediately unmounts it, and mounts it again. That runs your effect, its cleanup, and the effect again. It's deliberate: it surfaces effects that don't clean up properly (subscriptions, timers, fetches whose responses arrive after unmount). In production builds it runs once. If the double run causes a visible bug, the fix is a proper cleanup function, not removing StrictMode."
    ),
)

S(
    "topic/explanation",
    "codex",
    "How Postgres MVCC and vacuum work",
    U(
        "our DBA keeps talking about dead tuples and autovacuum. can you explain how postgres MVCC works and why vacuum is needed? use our orders table numbers if useful"
    ),
    T(
        "Bash",
        "psql $DB -c \"select n_live_tup, n_dead_tup, last_autovacuum from pg_stat_user_tables where relname='orders'\"",
        " n_live_tup | n_dead_tup |        last_autovacuum\n------------+------------+-------------------------------\n    4120331 |    1877020 | 2026-11-20 03:12:44.118+00",
    ),
    A(
        "MVCC: Postgres never overwrites a row in place. An UPDATE writes a *new version* of the row and marks the old one as expired (by transaction id); a DELETE just marks it. Each transaction sees the versions valid for its snapshot, which is why readers don't block writers.\n\nThe expired versions are 'dead tuples'. They still take space in the table and indexes until VACUUM removes them (when no running transaction can still see them) and makes the space reusable. Autovacuum does this in the background when dead tuples exceed a threshold (default 20% of the table + 50 rows).\n\nYour orders table: 4.1M live, 1.9M dead - ~31% dead, and last autovacuum a week ago. Scans read the dead rows too, so queries do extra I/O. Likely autovacuum can't keep up (or a long-running transaction holds back the cleanup horizon)."
    ),
    U("what would hold it back?"),
    A(
        "Anything with an old snapshot: a long-running transaction (an idle-in-transaction session from a misbehaving client is classic), a replication slot not consumed, or a hot_standby_feedback replica with long queries. `select pid, xact_start, state from pg_stat_activity order by xact_start limit 5` shows the oldest transactions."
    ),
)

S(
    "topic/explanation",
    "gemini-cli",
    "How does TLS handshake work",
    U("can you explain what happens in a TLS 1.3 handshake, in simple words? I must explain to new team members"),
    A(
        "1. **ClientHello:** the client says which TLS versions and ciphers it supports and sends its half of a key exchange (an ephemeral Diffie-Hellman public key), guessing the server will accept it.\n2. **ServerHello:** the server picks cipher + sends its DH public key. Now both sides can compute the same shared secret without ever sending it. Everything after this is encrypted.\n3. **Certificate + CertificateVerify:** the server sends its certificate and signs the handshake with its private key, proving it owns the certificate.\n4. **Finished:** both sides send a MAC over the whole handshake, so tampering is detected.\n\nOne round trip before application data (TLS 1.2 needed two). Forward secrecy comes from the ephemeral DH keys: stealing the server's private key later doesn't decrypt recorded traffic."
    ),
    U("and what is the certificate chain for"),
    A(
        "The server's certificate is signed by an intermediate CA, whose certificate is signed by a root CA that your OS/browser already trusts. The client checks each signature up the chain to a trusted root; that's how it knows the public key really belongs to `example.com`."
    ),
)

S(
    "topic/explanation",
    "aider",
    "Explain how our retry decorator works",
    U("i dont understand utils/retry.py, who wrote this 😅 explain what it does line by line-ish"),
    T(
        "Read",
        "utils/retry.py",
        "import functools\nimport random\nimport time\n\n\ndef retry(times=3, on=(Exception,), base=0.2, cap=5.0):\n    def deco(fn):\n        @functools.wraps(fn)\n        def wrapper(*args, **kwargs):\n            for attempt in range(times):\n                try:\n                    return fn(*args, **kwargs)\n                except on:\n                    if attempt == times - 1:\n                        raise\n                    sleep = min(cap, base * 2 ** attempt)\n                    time.sleep(random.uniform(0, sleep))\n        return wrapper\n    return deco\n",
    ),
    A(
        "- `retry(...)` is a decorator *factory*: calling it with options returns the real decorator `deco`.\n- `deco(fn)` wraps your function; `functools.wraps` keeps its name/docstring.\n- `wrapper` calls `fn` up to `times` times. If it raises one of the exceptions in `on`, it waits and tries again; other exceptions propagate immediately.\n- On the last attempt it re-raises the original exception (`raise` with no argument).\n- Wait time: exponential backoff `base * 2**attempt` (0.2s, 0.4s, 0.8s...) capped at `cap`, and then **full jitter**: a random value between 0 and that, so many clients retrying at once don't hit the server in sync.\nUsage: `@retry(times=5, on=(TimeoutError,))`."
    ),
)

# ---------------------------------------------------------------- topic/comparison
S(
    "topic/comparison",
    "claude-code",
    "Difference between Go channels and mutexes",
    U("go: when use channel vs mutex? both protect shared stuff no?"),
    A(
        "They solve different problems. A mutex protects *shared state*: several goroutines access one map, each locks around the access. A channel *transfers ownership* of data or signals events between goroutines: the sender stops touching the value after sending.\n\nUse a mutex for caches, counters, a struct's fields. Use channels for pipelines, worker pools, fan-in/fan-out, cancellation/done signals. The Go proverb 'share memory by communicating' is advice for structuring concurrent work, not a ban on mutexes - the standard library uses plenty of them.\n\nSmell test: if your channel code is a goroutine whose only job is guarding a map via request/response channels, a mutex is simpler and faster."
    ),
    U("and sync/atomic?"),
    A(
        "For a single integer or pointer (counters, flags, swapping a config pointer): atomics are cheaper than a mutex. Once you need to update two things consistently, go back to a mutex."
    ),
)

S(
    "topic/comparison",
    "cursor",
    "Compare pnpm, npm and yarn for our monorepo",
    U(
        "what's actually different between npm, yarn (berry) and pnpm? not asking what to choose, we already use pnpm, I just want to understand for a talk im giving"
    ),
    A(
        "| | npm (v10) | Yarn Berry (v4) | pnpm (v9) |\n|---|---|---|---|\n| node_modules layout | flat, hoisted | none by default (Plug'n'Play: `.pnp.cjs` maps imports to zip archives); can use node_modules linker | symlinked: each package sees only its declared deps; files hard-linked from a global content-addressable store |\n| Disk use | a copy per project | zip cache per project (or global) | one copy per version on the machine |\n| Phantom dependencies (importing something you didn't declare) | allowed | blocked under PnP | blocked (mostly) |\n| Workspaces | yes | yes, plus constraints | yes, `workspace:` protocol, filtering `-F` |\n| Lockfile | package-lock.json | yarn.lock | pnpm-lock.yaml |\n\nThe core conceptual difference is how dependencies are laid out: npm flattens (fast to resolve, allows phantom deps), pnpm uses a strict symlinked tree backed by a global store, Yarn PnP skips node_modules entirely and patches Node's resolver."
    ),
    U("why do some tools break with PnP but not pnpm"),
    A(
        "Tools that read `node_modules` directly from disk (instead of using `require.resolve`) find nothing under PnP. pnpm still produces a real `node_modules` directory (with symlinks), so those tools mostly work; they only break if they assume a flat layout."
    ),
)

S(
    "topic/comparison",
    "codex",
    "Kafka vs RabbitMQ vs SQS explained",
    U(
        "what is the difference between kafka, rabbitmq and sqs? i keep hearing all 3 in meetings. my english is ok but the blogs are too deep. explain simple and in the end tell me which we should use for sending emails after signup (we are on aws)"
    ),
    A(
        "Simple picture:\n- **RabbitMQ** is a post office: messages go to queues, a consumer takes one, acknowledges it, and it's gone. Flexible routing (send to several queues by rules). You run the server.\n- **Kafka** is a log book: messages are appended to a log and *kept* (days or forever). Many consumers read at their own position and can re-read old messages. Very high throughput. You run a cluster (or pay for MSK/Confluent).\n- **SQS** is AWS's managed queue: like a simple RabbitMQ queue without running anything, pay per request. No fancy routing; fan-out needs SNS in front.\n\nMain differences: deletion after consumption (Rabbit, SQS) vs retention and replay (Kafka); ordering (Kafka per partition, SQS only with FIFO queues); operations (SQS zero, Rabbit some, Kafka most).\n\nFor emails after signup on AWS: **SQS**. One consumer type, no replay needed, no servers to run, and a dead-letter queue for failed sends is one setting."
    ),
    U("ok clear. what is dead letter queue"),
    A(
        "A second queue where SQS moves a message after it failed N times (e.g. 5 receives without being deleted). Your worker stops retrying forever, and you can inspect or re-drive the failed messages later."
    ),
    U("thank you!"),
)

S(
    "topic/comparison",
    "gemini-cli",
    "Compare Terraform and Pulumi",
    U(
        "terraform vs pulumi - how do they differ technically? state, language, providers. we'll stay on terraform anyway, curious"
    ),
    A(
        "- **Language:** Terraform uses HCL (declarative, limited logic: `count`, `for_each`, expressions). Pulumi uses general-purpose languages (TS, Python, Go, C#): loops, functions, classes, unit tests with normal test frameworks.\n- **Execution model:** both build a desired-state graph and diff it against state. In Pulumi your program *runs* to produce the graph; in Terraform the config is parsed.\n- **State:** both keep state. Terraform: file backends (S3+DynamoDB lock, TFC). Pulumi: Pulumi Cloud by default, or S3/Azure/local backends.\n- **Providers:** Pulumi bridges many Terraform providers, so coverage is similar; plus native providers for AWS/Azure/GCP/k8s.\n- **Secrets:** Pulumi encrypts secrets in state by default; Terraform stores them in plain text in state (encrypt the backend).\n- **Ecosystem:** Terraform has more modules, examples and people who know it; OpenTofu is the open-source fork after the BSL license change."
    ),
)

S(
    "topic/comparison",
    "cline",
    "Difference between JWT and session cookies",
    U(
        "whats the diff between jwt auth and classic session cookies? pros cons. we have a django monolith + react spa, same domain"
    ),
    T(
        "Bash",
        "grep -n 'SESSION_\\|SIMPLE_JWT' config/settings.py",
        "41:SESSION_COOKIE_SECURE = True\n42:SESSION_COOKIE_SAMESITE = 'Lax'",
    ),
    A(
        "**Session cookie:** the server stores session data (DB/Redis) and the browser holds an opaque id in an HttpOnly cookie. + revocation is instant (delete the session); + HttpOnly means JS/XSS can't read it; - every request looks up the session store; - needs CSRF protection (Django has it).\n\n**JWT:** the token itself carries signed claims (user id, expiry); the server verifies the signature, no lookup. + stateless, works across services/domains and for mobile clients; - revocation is hard before expiry (needs a denylist, which reintroduces state); - often stored in localStorage, exposed to XSS; tokens grow with claims.\n\nFor a Django monolith + SPA on the same domain (your settings already use Secure, SameSite=Lax session cookies), session cookies are the simpler and safer option; JWTs help when third parties or many services must verify identity without calling you."
    ),
    U("what about refresh tokens"),
    A(
        "Refresh tokens are the JWT world's answer to revocation: short-lived access JWT (5-15 min) + long-lived refresh token stored server-side (so it can be revoked). You end up with server state again, which is why for your setup sessions are simpler."
    ),
    U("yeah staying with sessions"),
)
# ---------------------------------------------------------------- uncategorized
S(
    "uncategorized",
    "claude-code",
    "continue",
    U("continue"),
    A("I don't have an earlier task in this session to continue. What would you like me to work on?"),
)

S(
    "uncategorized",
    "cursor",
    "hi",
    U("hi"),
    A("Hi! How can I help you today?"),
)

S(
    "uncategorized",
    "codex",
    "Aborted session",
    U("ok so"),
    A("Go ahead - what are we working on?"),
    U("[Request interrupted by user]"),
)

S(
    "uncategorized",
    "gemini-cli",
    "Redacted transcript",
    U("[REDACTED]"),
    A("[REDACTED]"),
    U("[REDACTED] [REDACTED]"),
    A("[REDACTED]"),
)

S(
    "uncategorized",
    "copilot",
    "Birthday message",
    U("write a short funny birthday message for my colleague Jana, she loves cats and coffee"),
    A(
        "Happy birthday, Jana! May your coffee be strong, your cat be gentle with your keyboard, and your day have zero meetings. ☕🐈"
    ),
)

S(
    "uncategorized",
    "cline",
    "Thanks",
    U("thanks that's all for today"),
    A("You're welcome - have a good evening!"),
)

S(
    "uncategorized",
    "aider",
    "Recipe question",
    U("how long do i boil eggs for soft yolk"),
    A("About 6-6.5 minutes from boiling water for a soft, jammy yolk; put them in cold water right after."),
)

S(
    "uncategorized",
    "claude-code",
    "Test message",
    U("test"),
    A("Received. Anything you'd like me to do?"),
    U("no just checking the hook works"),
)

S(
    "uncategorized",
    "cursor",
    "Weekend plans chit-chat",
    U("its friday lol. what do you do on weekends"),
    A("I don't have weekends, but I hope yours is relaxing! Anything to wrap up before you log off?"),
    U("nope. bye"),
)

S(
    "uncategorized",
    "gemini-cli",
    "Translate a sentence to Spanish",
    U("translate to spanish: 'the meeting is moved to thursday at 3'"),
    A('"La reunión se ha movido al jueves a las 3."'),
)

S(
    "uncategorized",
    "codex",
    "Empty session with system context only",
    U(
        "<system-reminder>\nThe user opened the file README.md in the IDE. This may or may not be related to the current task.\n</system-reminder>"
    ),
    A("How can I help?"),
)

S(
    "uncategorized",
    "copilot",
    "Wrong window",
    U("oops wrong window, ignore"),
    A("No problem."),
)


# ---------------------------------------------------------------- follow-up turns
# Sessions drift and continue after the first exchange; these follow-ups are appended per session.
def X(sid: str, *parts: list[dict[str, Any]]) -> None:
    s = next(s for s in SESSIONS + UNCAT if s["id"] == sid)
    s["messages"].extend(m for p in parts for m in p)


X(
    "h6-bug-fix-1",
    U("wait is there other places with fromtimestamp"),
    T(
        "Grep",
        "fromtimestamp\\(",
        "reports/buckets.py:5:    return datetime.fromtimestamp(ts, tz=timezone.utc).date()\nbilling/periods.py:31:    start = datetime.fromtimestamp(sub.started_at)\nadmin/views.py:88:        'last_seen': datetime.fromtimestamp(u.last_seen),",
    ),
    A(
        "Two more. billing/periods.py:31 has the same bug class (billing periods should be UTC). admin/views.py:88 is display-only for staff; local time there is arguably intended. Fix periods.py too?"
    ),
    U("yes do it, leave admin"),
    T(
        "Edit",
        (
            "billing/periods.py",
            "    start = datetime.fromtimestamp(sub.started_at)",
            "    start = datetime.fromtimestamp(sub.started_at, tz=timezone.utc)",
        ),
        "The file billing/periods.py has been updated.",
    ),
    T(
        "Bash",
        "TZ=Asia/Tokyo pytest tests/billing -q",
        "ImportError while importing test module tests/billing/test_periods.py\nE   NameError: name 'timezone' is not defined",
    ),
    T(
        "Edit",
        ("billing/periods.py", "from datetime import datetime", "from datetime import datetime, timezone"),
        "The file billing/periods.py has been updated.",
    ),
    T("Bash", "TZ=Asia/Tokyo pytest tests/billing -q", "..........\n10 passed in 0.88s"),
    U("ok push"),
    T("Bash", "git commit -qam 'Compute report buckets and billing periods in UTC' && git push -q", "(No content)"),
)
X(
    "h6-bug-fix-2",
    U(
        "<system-reminder>\nThe user opened the file src/main/java/com/shop/promo/PromoRepository.java in the IDE.\n</system-reminder>\nshould findByCode handle null code itself? feels like the real design problem"
    ),
    A(
        "It currently calls `Optional.ofNullable(map.get(code))`, which is fine for null. The design question is whether `checkout` should even look up a coupon for a null code - I'd keep today's fix minimal and not touch the repository in a hotfix."
    ),
    U("agree. deploy hotfix"),
    T(
        "Bash",
        "git checkout -b hotfix/null-coupon && git commit -qam 'Checkout without coupon: skip discount instead of NPE' && gh pr create --fill --base release/2026.11",
        "https://github.com/shop/backend/pull/1931",
    ),
)
X(
    "h6-bug-fix-3",
    U("also `cargo run -- '   '` (only spaces)?"),
    T("Bash", "cargo run -q -- '   '", "[Eof]"),
    A("Works - `skip_ws` consumes the spaces and `peek` returns None."),
    U("add both as tests pls"),
    T(
        "Edit",
        (
            "src/lexer.rs",
            "#[cfg(test)]\nmod tests {\n    use super::*;\n",
            '#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn empty_input_is_eof() {\n        assert_eq!(Lexer::new("").next_token(), Token::Eof);\n    }\n\n    #[test]\n    fn whitespace_only_is_eof() {\n        assert_eq!(Lexer::new("   ").next_token(), Token::Eof);\n    }\n',
        ),
        "Applied edit to src/lexer.rs",
    ),
    T("Bash", "cargo test -q", "running 16 tests\n................\ntest result: ok. 16 passed; 0 failed"),
    U("commit"),
    T("Bash", "git commit -qam 'lexer: return Eof instead of panicking at end of input'", "(No content)"),
)
X(
    "h6-bug-fix-4",
    U("staging worked! but the slugs for users with chinese usernames are like 'user-123', is that ok?"),
    A(
        "`slugify` drops non-ASCII characters, so those fall back to `user-<pk>`. It's valid and unique. If you want readable slugs, `slugify(name, allow_unicode=True)` keeps CJK characters - but then URLs contain percent-encoded unicode. For a data-fix migration I'd keep the fallback."
    ),
    U("keep it. also will this lock the table long in prod? 1.2M profiles"),
    A(
        "The RunPython saves row by row: ~1.2M UPDATEs inside one transaction (Django runs the migration atomically on Postgres) - maybe 10-20 minutes holding row locks on all profiles. Safer: mark the migration `atomic = False` and update in batches of 5,000 with `bulk_update`."
    ),
    U("yes do it"),
    T(
        "Edit",
        (
            "accounts/migrations/0042_profile_slug.py",
            "class Migration(migrations.Migration):\n",
            "class Migration(migrations.Migration):\n    atomic = False\n",
        ),
        "File updated.",
    ),
    T(
        "Bash",
        "docker compose run --rm web python manage.py migrate accounts 0041 && time docker compose run --rm web python manage.py migrate accounts",
        "Unapplying accounts.0042_profile_slug... OK\nApplying accounts.0042_profile_slug... OK\n\nreal\t0m41.2s",
    ),
)
X(
    "h6-bug-investigation-1",
    U("one more q: could the same thing hit the reports endpoint?"),
    T(
        "Grep",
        "order_stats",
        "api/orders/queries.py:44:    LEFT JOIN order_stats s ON s.customer_id = o.customer_id\nreports/lifetime.sql:3:FROM order_stats",
    ),
    A(
        "Yes - reports/lifetime.sql reads the view too, but reports run from the nightly batch, not during the 10-minute refreshes' user traffic. Only the orders endpoint is in the hot path."
    ),
)
X(
    "h6-bug-investigation-3",
    U("did that. 502 rate on the canary class went to 0 in 1h, 14 on the other class. so confirmed?"),
    A(
        "Confirmed: 0 vs 14 under the same traffic split is clear. The root cause write-up: Go `IdleTimeout` 30s < nginx upstream keepalive 60s -> nginx reuses connections the backend has closed."
    ),
    U("how did this ever work then"),
    T(
        "Bash",
        "git log -S'IdleTimeout' --oneline -- api/server.go",
        "5e1f0aa server: set timeouts to satisfy gosec G112",
    ),
    A(
        "It didn't always exist: 5e1f0aa added `IdleTimeout: 30s` to satisfy a gosec lint rule (G112 wants timeouts set). Before that Go used ReadTimeout (0 = none) as idle timeout, so connections lived longer than nginx's."
    ),
)
X(
    "h6-bug-investigation-4",
    U("query returned 41 dupes. so when did it start"),
    T(
        "Bash",
        'psql $DB -c "select min(inserted_at) from (select m.inserted_at from memberships m join (select org_id, user_id from memberships group by 1,2 having count(*)>1) d using (org_id, user_id)) x"',
        "          min\n------------------------\n 2026-08-19 10:02:11",
    ),
    T(
        "Bash",
        "git log --since=2026-08-10 --until=2026-08-20 --oneline -- lib/app/accounts.ex lib/app/notifier.ex",
        "c9a2e11 invites: send email async so invite API responds faster",
    ),
    A(
        "First duplicate appears on 2026-08-19, one day after c9a2e11 moved the notifier into `Task.start`. Before that the notifier ran synchronously after `upsert_membership`, so `ensure_membership` found the existing row. That commit introduced the race; the missing unique index made it possible."
    ),
    U("great, thats what i needed for the postmortem"),
)
X(
    "h6-code-implementation-1",
    U("also run eslint, we have no-floating-promises"),
    T(
        "Bash",
        "npx eslint lib bin",
        "bin/import.js\n  14:3  error  Promises must be awaited  @typescript-eslint/no-floating-promises\n\n✖ 1 problem (1 error)",
    ),
    T("Edit", ("bin/import.js", "  writeJson(out, data);", "  await writeJson(out, data);"), "Edited bin/import.js"),
    A("Fixed the one missing `await` (it would have swallowed write errors); eslint clean."),
)
X(
    "h6-code-implementation-3",
    U("and add a Makefile target `release`"),
    T(
        "Edit",
        (
            "Makefile",
            ".PHONY: build test",
            ".PHONY: build test release\n\nrelease:\n\tgo run ./cmd/release $(VERSION) $(ARGS)",
        ),
        "Applied edit.",
    ),
)
X(
    "h6-code-implementation-4",
    U("why did the old code not have the transaction problem?"),
    A(
        "The old controller wasn't `@Transactional`; each repository call committed on its own, so the mail went out after the save had committed. Moving code into a transactional service changed *when* commits happen - that's a behaviour change hidden in a refactor, which is why the event listener keeps the old order."
    ),
    U("makes sense. is the controller test still useful or is it now all in service tests"),
    A(
        "Keep both: UserControllerIT checks HTTP mapping + validation + status codes; I added UserServiceTest for the logic with a real DB (Testcontainers), 12 tests."
    ),
    U("ok open PR"),
    T(
        "Bash",
        "git push -u origin refactor/user-service && gh pr create --title 'Move user business logic into UserService' --body 'No behaviour change. Mail is sent after commit via TransactionalEventListener (same as before).'",
        "https://github.com/acme/accounts/pull/640",
    ),
)
X(
    "h6-feature-implementation-1",
    U("add a test that system mode follows matchMedia changes"),
    T("Bash", "npm test -- --run useTheme", "✓ src/hooks/useTheme.test.ts (4 tests) 55ms"),
)
X(
    "h6-feature-implementation-2",
    U("can the frontend poll the status? what does the response look like"),
    T(
        "Bash",
        'curl -s -H "Authorization: Token $T" localhost:8000/api/contacts/import/12 | python -m json.tool',
        '{\n    "status": "done",\n    "created": 480,\n    "updated": 17,\n    "errors": [\n        {"row": 33, "message": "invalid email \'john@\'"}\n    ]\n}',
    ),
    A("Poll every 2s until status is `done` or `failed`. I'd cap polling at 5 minutes on the client."),
    U("excel exports csv with semicolons in germany, handle that"),
    T(
        "Edit",
        (
            "contacts/imports.py",
            "    reader = csv.DictReader(io.StringIO(imp.file.read().decode('utf-8-sig')))",
            "    text = imp.file.read().decode('utf-8-sig')\n    dialect = csv.Sniffer().sniff(text[:4096], delimiters=',;')\n    reader = csv.DictReader(io.StringIO(text), dialect=dialect)",
        ),
        "Applied edit.",
    ),
    T("Bash", "pytest contacts -q", "............\n12 passed in 2.31s"),
    U("ship it"),
)
X(
    "h6-feature-implementation-3",
    U("also badge count on app icon?"),
    A(
        "The backend would need to send `apns.payload.aps.badge` with the unread count; the app can't compute it while terminated. I'd open a backend ticket and clear the badge in-app when the chat list opens. Shall I add the clearing part now?"
    ),
    U("yes"),
    T(
        "Edit",
        (
            "lib/chats/chat_list_screen.dart",
            "  void initState() {\n    super.initState();",
            "  void initState() {\n    super.initState();\n    FlutterAppBadger.removeBadge();",
        ),
        "Updated.",
    ),
)
X(
    "h6-feature-implementation-4",
    U("reset endpoint should also kill existing sessions"),
    T(
        "Edit",
        (
            "internal/auth/reset.go",
            "\tif err := h.q.UpdatePassword(ctx, db.UpdatePasswordParams{ID: userID, Hash: hash}); err != nil {",
            "\tif err := h.q.DeleteSessionsForUser(ctx, userID); err != nil {\n\t\treturn err\n\t}\n\tif err := h.q.UpdatePassword(ctx, db.UpdatePasswordParams{ID: userID, Hash: hash}); err != nil {",
        ),
        "updated",
    ),
    T(
        "Bash",
        "go test ./internal/auth/...",
        "--- FAIL: TestResetInvalidatesSessions (0.03s)\n    reset_test.go:88: sessions left: 1, want 0\nFAIL",
    ),
    A(
        "The delete and the password update ran on different connections; the test's session was created inside the test transaction. Wrapped both queries in one `pgx.Tx`."
    ),
    T("Bash", "go test ./internal/auth/...", "ok  \texample.com/api/internal/auth\t0.455s"),
    U("and rate limit forgot to 5/hour per email"),
    T(
        "Edit",
        (
            "internal/auth/routes.go",
            '\tr.Post("/password/forgot", h.Forgot)',
            '\tr.With(ratelimit.PerKey(5, time.Hour, emailKey)).Post("/password/forgot", h.Forgot)',
        ),
        "updated",
    ),
    A("Added; over the limit it still returns 202 (no enumeration) but doesn't send mail."),
)
X(
    "h6-project-setup-1",
    U("can we also run MSRV check, 1.74"),
    T(
        "Edit",
        (
            ".github/workflows/ci.yml",
            "  test:\n",
            "  msrv:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: dtolnay/rust-toolchain@1.74\n      - uses: Swatinem/rust-cache@v2\n      - run: cargo check --workspace --locked\n\n  test:\n",
        ),
        "Updated.",
    ),
    T(
        "Bash",
        "git commit -qam 'ci: add MSRV 1.74 check' && git push -q && sleep 120 && gh run list -L 1",
        "STATUS  TITLE                    WORKFLOW  BRANCH  EVENT\n✓       ci: add MSRV 1.74 check  CI        main    push",
    ),
)
X(
    "h6-project-setup-2",
    U("colleague on M1 mac says postgres image is slow"),
    A(
        "postgres:16 is multi-arch, so it's native arm64. The slowness is usually the bind mount of the workspace (`cached` helps little with many small files, e.g. node_modules). Moving node_modules to a named volume fixes most of it."
    ),
    U("do that"),
    T(
        "Edit",
        (
            ".devcontainer/compose.yml",
            '    volumes: ["..:/workspace:cached"]',
            '    volumes:\n      - "..:/workspace:cached"\n      - node_modules:/workspace/node_modules\n',
        ),
        "Updated.",
    ),
)
X(
    "h6-project-setup-4",
    U("put the setup steps in docs/dev-k8s.md"),
    T(
        "Write",
        (
            "docs/dev-k8s.md",
            "# Local Kubernetes\n\n1. Install kind and Tilt.\n2. `make dev` - creates the `acme` kind cluster and runs `tilt up`.\n3. Web: http://localhost:3000, API: http://localhost:8000.\n\n`make dev-down` deletes the cluster.\n",
        ),
        "Created.",
    ),
)
X(
    "h6-project-dependency-1",
    U("any deprecation warnings left?"),
    T(
        "Bash",
        "pytest -q -W error::DeprecationWarning 2>&1 | tail -4",
        "E   django.utils.deprecation.RemovedInDjango60Warning: The FORMS_URLFIELD_ASSUME_HTTPS transitional setting is deprecated.\nFAILED shop/tests/test_forms.py::test_website_field\n1 failed, 611 passed",
    ),
    A(
        "One: URLField's default scheme will switch to https in 6.0. Setting `FORMS_URLFIELD_ASSUME_HTTPS = True` opts in now and silences it."
    ),
    U("set it"),
    T(
        "Edit",
        ("shop/settings/base.py", "USE_TZ = True", "USE_TZ = True\nFORMS_URLFIELD_ASSUME_HTTPS = True"),
        "Updated.",
    ),
)
X(
    "h6-project-dependency-2",
    U("why did npm install even change the tree if lockfile exists"),
    A(
        "`npm install` respects package-lock.json only while it satisfies package.json; but our lockfile was committed by npm 8 with `lockfileVersion: 2`, and CI's npm 10 rewrote parts of it on install, re-resolving tr46. `npm ci` never rewrites the lockfile and fails if it's out of sync - that's what CI should use."
    ),
    U("ok. commit both"),
    T(
        "Bash",
        "git add package.json package-lock.json .github/workflows/test.yml && git commit -qm 'CI: install with npm ci; pin tr46 via overrides' && git push -q && gh run watch --exit-status | tail -1",
        "✓ Run Tests (ID 998812) completed with 'success'",
    ),
)
X(
    "h6-project-dependency-3",
    U("flyway 10 too? it's still 8.5"),
    T(
        "Bash",
        "./gradlew dependencyInsight --dependency flyway-core | head -4",
        "org.flywaydb:flyway-core:9.22.3\n   Selected by rule : Spring Boot BOM 3.2.5",
    ),
    A(
        "The Boot 3.2 BOM already moved it to 9.22.3 (your build.gradle pinned 8.5 only in a comment). Flyway 10 would need `flyway-database-postgresql` as an extra module; 9.22 is what Boot 3.2 tests against, so I'd stay."
    ),
    U("ok stay"),
)
X(
    "h6-project-config-2",
    U("locally .env.local isn't picked up"),
    T(
        "Bash",
        "ls -a | grep env; cat next.config.js | head -5",
        ".env.example\n.env.local.txt\nmodule.exports = {\n  reactStrictMode: true,\n};",
    ),
    A(
        "The file is named `.env.local.txt` (Windows hid the extension). Renamed to `.env.local`; restart `next dev`, env files are read at startup."
    ),
    U("lol. works"),
)
X(
    "h6-project-config-3",
    U(
        "<system-reminder>\nThe user opened the file deploy/pgbouncer.ini in the IDE.\n</system-reminder>\npostgres max_connections is 100 btw"
    ),
    A(
        "Then `default_pool_size = 30` is too high if pgbouncer pools per (db, user) pair: you have 2 users (app, readonly) -> up to 60, plus migrations and admin. Fine under 100, but set `max_db_connections = 80` as a hard cap so pgbouncer never exceeds it."
    ),
    U("add it"),
    T(
        "Edit",
        ("deploy/pgbouncer.ini", "default_pool_size = 30", "default_pool_size = 30\nmax_db_connections = 80"),
        "Updated.",
    ),
    T(
        "Bash",
        "kubectl -n shop rollout restart deploy/pgbouncer && kubectl -n shop rollout status deploy/pgbouncer",
        'deployment.apps/pgbouncer restarted\ndeployment "pgbouncer" successfully rolled out',
    ),
)
X(
    "h6-architecture-design-1",
    U("how big is the Kinesis stream? shards"),
    A(
        "5k msgs/s at ~300 bytes = 1.5 MB/s. A shard takes 1 MB/s or 1,000 records/s in, so records are the limit: 5 shards minimum, provision 8 for bursts, or use on-demand mode and skip the math."
    ),
    U("on-demand. and what about devices that reconnect and flush 1h of buffered data"),
    A(
        "That's a burst of 360 readings per device. Two guards: IoT Core rule throttling is per account, so ask devices to flush with jitter and a rate cap (firmware); and mark flushed readings with `buffered: true` so the alert consumer ignores readings older than 5 minutes (stale alerts are noise)."
    ),
)
X(
    "h6-feature-requirement-2",
    U("oh wait, what if the admin who invited gets removed before accept"),
    A(
        "Invites belong to the team, not the inviter: they stay valid. Add AC: 'Pending invites remain valid if the inviting admin is removed; the invite shows the inviter's name as Former member.'"
    ),
    U("yes add"),
    T(
        "Edit",
        (
            "docs/specs/team-invites.md",
            "**Later**",
            "- Pending invites remain valid if the inviting admin is removed.\n\n**Later**",
        ),
        "Updated.",
    ),
)
X(
    "h6-topic-learning-1",
    U('actually one more: why does this work\nlet s = String::from("a"); let n = 5; let m = n; println!("{}", n);'),
    A(
        "Because `i32` is `Copy`: small stack-only types (integers, bools, chars, tuples of Copy types) are copied bit-for-bit on assignment instead of moved. `String` owns heap memory, so it can't be Copy - two owners would free the same memory twice."
    ),
)
X(
    "h6-topic-learning-2",
    U("bonus: whats the difference with a RIGHT JOIN"),
    A(
        "`A RIGHT JOIN B` is `B LEFT JOIN A` with columns in another order. Most people always write LEFT JOIN and put the table they want to keep first - easier to read."
    ),
)
X(
    "h6-topic-learning-3",
    U("what happens if the node dies"),
    A(
        "The Deployment controller notices the pods are gone and creates replacements on other nodes. On minikube there's one node, so they'd wait until it comes back. Try `kubectl scale deployment hello --replicas=5` to see scaling next."
    ),
)
X(
    "h6-decision-process-5",
    U("should debt items have estimates too"),
    A("Rough sizes (S/M/L) are enough. The point is comparing pain vs effort, not tracking velocity."),
    U("ok. draft the rule text"),
    A(
        "**Tech debt rule (proposal)**\n1. 20% of sprint capacity goes to items from the debt backlog, picked by the team.\n2. Each debt item states its cost (incidents, slowed work) and a size S/M/L.\n3. In a crunch sprint the PM may skip it; the next sprint then uses 40%.\n4. We review the debt backlog ranking monthly."
    ),
)
X(
    "h6-code-review-1",
    U("author pushed a fix for 1 and 2, check again"),
    T(
        "Bash",
        "gh pr diff 482 | grep -E '^\\+' | head -12",
        "+type limiterStore struct {\n+\tmu      sync.Mutex\n+\tentries *lru.Cache[string, *rate.Limiter]\n+}\n+\n+func (s *limiterStore) get(key string) *rate.Limiter {\n+\ts.mu.Lock()\n+\tdefer s.mu.Unlock()\n+\tif l, ok := s.entries.Get(key); ok {\n+\t\treturn l\n+\t}\n+\tl := rate.NewLimiter(10, 20)",
    ),
    A(
        "1 and 2 are resolved (mutex + LRU of 10k entries). Still open: 3 (key is still `X-Forwarded-For`) and 7 (no tests). Note `lru.Cache` from hashicorp is already thread-safe, so the extra mutex is redundant but harmless."
    ),
    U("ok comment that and keep request changes"),
    T(
        "Bash",
        "gh pr comment 482 --body '1+2 resolved, thanks. Still blocking: client IP from X-Forwarded-For (spoofable) and missing tests. Nit: hashicorp lru is already synchronized.'",
        "https://github.com/acme/api/pull/482#issuecomment-2231",
    ),
)
X(
    "h6-decision-tooling-1",
    U("what version of uv do we pin in CI"),
    T("Bash", "uv --version", "uv 0.5.4"),
    A(
        'Pin `astral-sh/setup-uv@v4` with `version: "0.5.4"` and bump it deliberately; I\'ll add that to the migration guide.'
    ),
)
X(
    "h6-decision-technical-1",
    U("ah, and IE11 not a concern? luxon needs Intl"),
    A(
        "Your browserslist is `>0.5%, not dead` which excludes IE11, and the analytics show no IE traffic. Intl with timezone support is available in all browsers you target."
    ),
)
X(
    "h6-feature-design-1",
    U("last one: what if the report is deleted"),
    A(
        "Schedules are deleted with it (cascade) and owners get an email 'Schedule X was removed because report Y was deleted'. Past `report_runs` stay for 90 days for audit."
    ),
    U("ok write the design into docs/api/report-schedules.md"),
    T(
        "Write",
        (
            "docs/api/report-schedules.md",
            "# Report schedules (design)\n\nEndpoints, JSON shape, tables, permissions, deletion behaviour as agreed.\n",
        ),
        "Created.",
    ),
)
X(
    "h6-architecture-decision-1",
    U("the template also has 'Compliance' section, forgot"),
    A(
        'Added: "Compliance: partner payloads may contain personal data; webhook bodies are logged without payload fields, retention 30 days, in line with our DPA."'
    ),
)
X(
    "h6-bug-report-1",
    U("does it also happen with the invoices csv? same code?"),
    T(
        "Grep",
        "text/csv",
        "exports/customers.py:40:    return HttpResponse(buf.getvalue(), content_type='text/csv')\nexports/invoices.py:52:    return StreamingHttpResponse(rows(), content_type='text/csv')",
    ),
    A(
        "Same pattern in exports/invoices.py:52, so yes. I added 'Also affects: invoice CSV export (exports/invoices.py)' to the report."
    ),
    U("ok create the issue in billing repo"),
    T(
        "Bash",
        "gh issue create -R acme/billing --title 'CSV customer export shows mojibake (Ã¼) for umlauts when opened in Excel' --label billing,bug --body-file /tmp/bug.md",
        "https://github.com/acme/billing/issues/377",
    ),
)
X(
    "h6-bug-report-5",
    U("should i write how to reproduce in staging? the team ask always for this"),
    T(
        "Bash",
        "grep -rn 'PROVIDER_TIMEOUT' config/",
        "config/payments.py:12:PROVIDER_TIMEOUT_MS = int(os.getenv('PROVIDER_TIMEOUT_MS', '30000'))",
    ),
    A(
        "Yes. Added a **Reproduce on staging** section: 1) set `PROVIDER_TIMEOUT_MS=100` on staging payments, 2) place an order with the sandbox card 4000 0000 0000 0077 (sandbox delays responses), 3) observe two `charge.succeeded` webhooks for one order in the sandbox dashboard."
    ),
    U("perfect, i put it in jira"),
)
X(
    "h6-topic-explanation-3",
    U("found one, idle in transaction since tuesday from the reporting tool"),
    A(
        "That's what's holding back cleanup: vacuum can't remove any row version newer than that transaction's snapshot, in any table. Once it ends, the next autovacuum can clean the 1.9M dead tuples. `idle_in_transaction_session_timeout` exists to prevent exactly this."
    ),
    U("so the bloat goes away?"),
    A(
        "Vacuum makes the space reusable inside the table, but doesn't shrink the file. New rows fill the freed space over time; giving space back to the OS needs `VACUUM FULL` (locks the table) or pg_repack."
    ),
)
X(
    "h6-topic-comparison-5",
    U("and where does oauth fit in all this"),
    A(
        "OAuth is about *delegating* access (a user lets app X call API Y for them); it isn't a session mechanism. OpenID Connect on top of it is for login with an external identity provider. After an OIDC login your Django app would still create its own normal session."
    ),
)
X(
    "h6-code-pattern-1",
    U("ok applied it. now main says `the trait bound ConfigError: std::error::Error is not satisfied` for anyhow"),
    T(
        "Bash",
        "cargo build 2>&1 | head -8",
        'error[E0277]: `?` couldn\'t convert the error to `anyhow::Error`\n  --> src/main.rs:9:36\n   |\n9  |     let cfg = config::load("app.toml")?;\n   |                                    ^ the trait `std::error::Error` is not implemented for `ConfigError`',
    ),
    T(
        "Read",
        "src/config.rs",
        "#[derive(Debug)]\npub enum ConfigError {\n    Io(std::io::Error),\n    Toml(toml::de::Error),\n    Url(url::ParseError),\n}",
    ),
    A(
        "You copied the enum but not the `#[derive(thiserror::Error)]` and `#[error(...)]` attributes - those generate the `Error` and `Display` impls anyhow needs. Add them back (and `thiserror` to Cargo.toml)."
    ),
    U("ahh yes forgot the derive. compiles now"),
)
X(
    "h6-code-pattern-2",
    U("and how do we test each provider without calling the real APIs?"),
    A(
        "Each provider takes its client in `__init__` (`Dhl(client=dhl_client)`), so tests pass a fake client that returns canned responses. The registry itself needs one test: every carrier in the settings enum has an entry in `PROVIDERS`."
    ),
    T(
        "Write",
        (
            "tests/shipping/test_providers.py",
            "from shipping.providers import PROVIDERS\nfrom shipping.carriers import Carrier\n\n\ndef test_every_carrier_has_a_provider():\n    assert set(PROVIDERS) == {c.value for c in Carrier}\n",
        ),
        "Created.",
    ),
    T(
        "Bash",
        "pytest tests/shipping -q",
        "FAILED tests/shipping/test_providers.py::test_every_carrier_has_a_provider\nE   AssertionError: Extra items in the right set: 'postnl'",
    ),
    A("As expected: PostNL is in the enum but has no provider yet - the test will keep the registry honest."),
)
X(
    "h6-code-pattern-4",
    U("how would the in-memory repo look for tests"),
    A(
        "```ts\nexport class InMemoryPostRepository implements PostRepo {\n  private posts = new Map<number, Post>();\n  async findVisible(id: number) {\n    const p = this.posts.get(id);\n    return p && !p.deletedAt ? p : null;\n  }\n  async create(authorId: number, data: NewPost) {\n    const p = { id: this.posts.size + 1, authorId, deletedAt: null, ...data };\n    this.posts.set(p.id, p);\n    return p;\n  }\n}\n```\nDefine `PostRepo` as an interface that both classes implement; routes depend on the interface."
    ),
)
X(
    "h6-code-review-2",
    U("if i split the index into its own migration, does the AlterField still need a lock?"),
    A(
        "`ALTER COLUMN TYPE varchar(254)` takes an ACCESS EXCLUSIVE lock briefly but doesn't rewrite, so it's milliseconds - unless a long query holds a lock on the table, in which case it queues and blocks everything behind it. Set `lock_timeout = '3s'` in the migration to fail fast instead."
    ),
    U("how do i set lock_timeout in a django migration"),
    A(
        "First operation: `migrations.RunSQL(\"SET lock_timeout = '3s'\", reverse_sql=migrations.RunSQL.noop)`; it applies to the migration's transaction."
    ),
)
X(
    "h6-architecture-design-2",
    U("which events exactly? list them per package"),
    A(
        "- orders: `OrderPlaced`, `OrderCancelled`, `OrderShipped`\n- inventory: `StockLow`, `ItemRestocked`\n- billing: `InvoiceIssued`, `InvoiceOverdue`, `PaymentReceived`\n- notifications: publishes nothing; subscribes to OrderPlaced, OrderShipped, InvoiceOverdue, ItemRestocked.\nPayloads carry ids + the minimal snapshot subscribers need; subscribers must not load other packages' models."
    ),
    U("we'll try it with orders first. thanks"),
)
X(
    "h6-architecture-design-5",
    U("what happens with the existing monkeypatching plugins"),
    A(
        "Give them one release of overlap: `plugin_api` v2 ships while `_core` stays importable with a DeprecationWarning on import from a plugin module; v3 makes `_core` fail for plugins. The three teams get the migration table in the doc."
    ),
    T(
        "Edit",
        (
            "docs/plugin-architecture.md",
            "## Versioning",
            "## Migration from monkeypatching\n- 2.x: `_core` imports from plugins warn.\n- 3.0: `_core` imports from plugins raise ImportError.\n\n## Versioning",
        ),
        "Applied edit to docs/plugin-architecture.md",
    ),
)
X(
    "h6-architecture-decision-3",
    U("someone will ask about read replicas - add a line"),
    T(
        "Edit",
        (
            "docs/decisions/2026-11-27-shared-postgres-cluster.md",
            "## When to revisit",
            "## Not affected\nRead replicas: services may use the cluster's replica for read-only traffic; this decision is about ownership, not scaling.\n\n## When to revisit",
        ),
        "edited",
    ),
    A("Added a 'Not affected' note on replicas."),
)
X(
    "h6-architecture-tradeoff-1",
    U("product says no, pending orders is not acceptable"),
    A(
        "Then keep synchronous calls and invest in resilience: a 2s timeout budget for payment, circuit breaker, idempotency keys so retries are safe, and an outbox only for the side effects after payment (emails, analytics). Kafka doesn't buy anything for this flow."
    ),
    U("ok that's the recommendation then"),
)
X(
    "h6-architecture-tradeoff-3",
    U("redis down = api down?"),
    A(
        "Only if you let it. Treat the cache as optional: on a Redis error, log and fall through to the DB, with a short client timeout (50 ms). Then a Redis outage means slower responses, not errors - but check the DB can take full read load (at 90% hit rate it sees 10x more queries)."
    ),
    U("that's the real risk then. ok, going with cdn for anonymous + redis for logged in"),
)
X(
    "h6-feature-requirement-1",
    U("what's the max size of one ZIP? some customers have 30k invoices/year"),
    A(
        "At ~80 KB per PDF, 30k invoices is ~2.4 GB. Add AC: 'Exports larger than 5,000 invoices are split into multiple ZIP files of at most 5,000 each, all linked in the same email.'"
    ),
)
X(
    "h6-feature-requirement-3",
    U("Legal answered: internal notes are not included, BigQuery excluded. update please"),
    T(
        "Edit",
        (
            "docs/requirements/REQ-017-personal-data-export.md",
            "**Open questions for Legal:** internal ticket notes; BigQuery exclusion; retention of the generated ZIP.",
            "**Decided with Legal (2026-11-27):** internal ticket notes excluded; pseudonymized BigQuery analytics excluded.\n\n**Open:** retention of the generated ZIP.",
        ),
        "File updated.",
    ),
    A("Updated; only ZIP retention remains open."),
)
X(
    "h6-feature-design-3",
    U("and how does cart reference a variant if product has no options yet"),
    A(
        "Through the default variant: every product gets exactly one at creation (`is_default = true`, no option values). Cart lines always store `variant_id`; the product page hides the option pickers when there's a single default variant."
    ),
    U("ok makes sense. enforce exactly one default?"),
    A(
        "Partial unique index: `CREATE UNIQUE INDEX ON variants (product_id) WHERE is_default;` - at most one per product; 'at least one' is enforced in the service that creates products."
    ),
)
X(
    "h6-project-dependency-5",
    U("go mod tidy removed a dep we need for `go generate`"),
    T("Bash", "git diff go.mod | grep '^-'", "-\tgithub.com/sqlc-dev/sqlc v1.26.0"),
    A(
        "Tools only used by `go generate` aren't imported by code, so tidy drops them. With Go 1.24 use `go get -tool github.com/sqlc-dev/sqlc/cmd/sqlc@v1.26.0` (a `tool` directive in go.mod); on older Go, the `tools.go` file with a blank import and `//go:build tools`."
    ),
    U("we're on 1.23"),
    T(
        "Write",
        ("tools.go", '//go:build tools\n\npackage tools\n\nimport _ "github.com/sqlc-dev/sqlc/cmd/sqlc"\n'),
        "created",
    ),
)
X(
    "h6-decision-process-1",
    U("should we enforce the 400 lines with a bot?"),
    A(
        "A soft check: a GitHub Action that labels PRs over 400 changed lines (excluding lockfiles and generated code) as `large-pr` and comments asking for the reason. Not blocking - the agreement allows exceptions with a note."
    ),
    U("no bot for now, we'll see in Feb"),
)
X(
    "h6-decision-process-2",
    U("what tool for paging? we have opsgenie licences from old project"),
    A(
        "Use Opsgenie then: it does schedules, escalation policies and overrides; set up the weekly rotation with Monday 10:00 handover and the 15/30 min escalation rules there."
    ),
)
X(
    "h6-decision-process-3",
    U("how do we handle hotfixes for the mobile release branch"),
    A(
        "Fix on main first via a normal PR, then cherry-pick to `release/x.y`. Never commit to the release branch directly - that's how fixes got lost in git flow."
    ),
    T(
        "Edit",
        (
            "docs/process/branching.md",
            "(steps 1-6 and agreements as discussed)",
            "(steps 1-6 and agreements as discussed)\n\n## Hotfixes\nFix on main, then `git cherry-pick -x` onto the release branch.\n",
        ),
        "edited",
    ),
)
X(
    "h6-topic-learning-4",
    U("what if i want to split a commit?"),
    A(
        "Mark it `edit` in the todo list. When the rebase stops there: `git reset HEAD^` (uncommits, keeps changes), then `git add -p` and commit the pieces separately, then `git rebase --continue`."
    ),
    U("trying... ok it worked, 3 commits now"),
    T("Bash", "cd /tmp/rb && git log --oneline", "7f1e2d3 add b (part 2)\n6e5d4c3 add b (part 1)\n2b3c4d5 add a"),
)
X(
    "h6-topic-learning-5",
    U("what happens if it crashes"),
    T(
        "Bash",
        "iex -S mix -e 'Counter.start_link(0); GenServer.cast(Counter, :boom); Process.sleep(100); IO.inspect(Process.whereis(Counter))'",
        "[error] GenServer Counter terminating\n** (FunctionClauseError) no function clause matching in Counter.handle_cast/2\nnil",
    ),
    A(
        "It dies and nothing restarts it (`whereis` returns nil). That's the job of a Supervisor - which is the next lesson."
    ),
)
X(
    "h6-topic-explanation-1",
    U("would multiprocessing copy the images between processes?"),
    A(
        "Yes - arguments and results are pickled and sent through a pipe. For image bytes that's a memcpy-scale cost, small compared to the pure-Python resize. For huge arrays you'd use `multiprocessing.shared_memory` to avoid copies."
    ),
    U("got it, thanks. was just curious why"),
)
X(
    "h6-topic-comparison-3",
    U("and kafka for emails would be bad?"),
    A(
        "Not bad, just too much: you'd run or pay for a cluster, manage partitions and consumer groups, and build retries/DLQ yourself - all to send emails, which SQS does out of the box."
    ),
)
X(
    "h6-decision-technical-3",
    U("where do the protos live"),
    A(
        "In the pricing repo under `proto/pricing/v1/`, published to the Buf Schema Registry; callers depend on generated Go modules (`buf.build/gen/go/...`). One owner for the contract."
    ),
    U("ok put that in the decision note too"),
    T(
        "Edit",
        (
            "docs/decisions/pricing-api.md",
            "## Consequences",
            "## Contract\nProtos live in the pricing repo (`proto/pricing/v1`), published to BSR.\n\n## Consequences",
        ),
        "edited",
    ),
)
X(
    "h6-decision-tooling-3",
    U("runners on our k8s - which controller"),
    A(
        "actions-runner-controller (ARC) in scale-set mode, the GitHub-supported one. GPU runner stays a single static VM with a label `gpu-a10`; no autoscaling needed for one box."
    ),
)
X(
    "h6-bug-report-3",
    U("also note that android is fine (tested pixel 4a)"),
    A(
        "Added `|Pixel 4a|Android 14|no|` to the table; Android uses `windowSoftInputMode=adjustResize`, which explains why."
    ),
)
X(
    "h6-code-pattern-3",
    T(
        "Grep",
        "func NewClient",
        "client/client.go:41:func NewClient(baseURL, token string, timeout time.Duration, retries int, backoff time.Duration, ua string, logger *slog.Logger, tr http.RoundTripper, debug bool) *Client {",
    ),
    A(
        "For your signature: keep `baseURL` positional; `token` too if every caller needs it; the other 7 become `WithTimeout`, `WithRetries(n, backoff)`, `WithUserAgent`, `WithLogger`, `WithTransport`, `WithDebug`."
    ),
)
X(
    "h6-code-snippet-1",
    T(
        "Bash",
        "python -c \"import re; from semver_re import SEMVER as S; print([bool(S.match(v)) for v in ['1.2.3','1.0.0-rc.1','2.0.0+sha.5114f85','01.2.3','1.2']])\"",
        "[True, True, True, False, False]",
    ),
    A("Checked: valid versions match, `01.2.3` and `1.2` are rejected."),
)
X(
    "h6-architecture-design-4",
    T("Bash", "grep -rn 'tenant' app/db/session.py | head -3", "app/db/session.py:12:# TODO tenant scoping\n"),
    A(
        "Today nothing enforces tenancy at the session level (only a TODO in app/db/session.py:12), so step 3 (RLS) is where to start: it protects every query, including ones written before the migration."
    ),
)
X(
    "h6-architecture-decision-4",
    T("Bash", "ls docs/adr | tail -2", "0017-openapi-first.md\n0018-otel-collector.md"),
    A("Numbering checks out: saved as docs/adr/0019-ledger-append-only-journal.md."),
)
X(
    "h6-architecture-tradeoff-4",
    T("Bash", "ls src/api | wc -l; grep -rl 'fetch(' app/src/screens | wc -l", "30\n22"),
    A(
        "Data point: 22 of your app's screens call several endpoints each - that's the over-fetching pain a screen-shaped BFF or GraphQL addresses; either option removes it."
    ),
)
X(
    "h6-feature-requirement-4",
    T(
        "Write",
        (
            "docs/stories/search-filters.md",
            "# Search filters: price range + brand\n\n(acceptance criteria as listed)\n",
        ),
        "Created docs/stories/search-filters.md",
    ),
)
X(
    "h6-feature-design-4",
    T(
        "Write",
        (
            "docs/cli/deploy.md",
            "# acme deploy (design)\n\nFlags, confirmation rules, exit codes 0/1/2/3, JSON output shape as above.\n",
        ),
        "Created docs/cli/deploy.md",
    ),
)
X(
    "h6-project-config-4",
    T("Bash", "grep -rn 'show-sql' src/main/resources/", "src/main/resources/application.yml:18:    show-sql: true"),
    T("Edit", ("src/main/resources/application.yml", "    show-sql: true", "    show-sql: false"), "Edited."),
    A("`show-sql: true` was set in application.yml:18 - that was the actual flood; switched it off."),
)
X(
    "h6-decision-process-4",
    T(
        "Write",
        (
            "docs/team/definition-of-done.md",
            "# Definition of Done (draft for vote)\n\n1. Merged after review\n2. Tests + CI green\n3. QA checked on staging\n4. Docs/changelog\n5. Flag state decided\n6. Live and verified in production\n",
        ),
        "Created.",
    ),
)
X(
    "h6-topic-explanation-2",
    T("Bash", "grep -n 'StrictMode' src/main.tsx", "6:  <React.StrictMode>"),
    A("Confirmed: src/main.tsx wraps the app in StrictMode, so the double log is expected in dev."),
)
X(
    "h6-topic-comparison-4",
    A(
        "One practical difference you'd notice on day one: `terraform plan` vs `pulumi preview` look alike, but a Pulumi program can fail at *runtime* (an exception in your TS code) before any diff is computed."
    ),
)
X(
    "h6-bug-investigation-2",
    T(
        "Bash",
        "git log -L '/async handle/,+12:src/queue/consumer.ts' --oneline | head -3",
        "b71c0d2 consumer: schedule retry up-front so crashes mid-processing still redeliver",
    ),
    A("Introduced in b71c0d2 - the up-front retry timer was intentional, the cleanup on ack was just never added."),
)
X(
    "h6-code-implementation-2",
    T("Bash", "git diff --stat", " etl/dedupe.py | 8 +++++---\n 1 file changed, 5 insertions(+), 3 deletions(-)"),
    A("Single-file change; ready to commit."),
)
X(
    "h6-project-config-1",
    T(
        "Bash",
        "npm ls eslint-plugin-react-hooks typescript-eslint",
        "├── eslint-plugin-react-hooks@5.1.0\n└── typescript-eslint@8.15.0",
    ),
    A("Both packages are already at flat-config-compatible versions; no dependency changes needed."),
)
X(
    "h6-project-config-5",
    U("vitest too? we run some tests with vitest"),
    A(
        "Vite-based vitest resolves aliases from `vite.config.ts` (`resolve.alias`), which you already have - so vitest is fine without changes."
    ),
)
X(
    "h6-bug-report-3",
    T(
        "Bash",
        "grep -n 'windowSoftInputMode' android/app/src/main/AndroidManifest.xml",
        '24:        android:windowSoftInputMode="adjustResize"',
    ),
)
X(
    "h6-decision-tooling-3",
    U("ok thanks, writing the migration ticket"),
    A(
        "Suggested first step for the ticket: port the 5 most-run Jenkins stages (lint, unit, build, integration, gpu) and run both systems in parallel for a week before switching off Jenkins."
    ),
)


# Long file reads (30-80 lines), inserted where the agent would have read the file.
def XI(sid: str, after: int, *parts: list[dict[str, Any]]) -> None:
    s = next(s for s in SESSIONS if s["id"] == sid)
    s["messages"][after:after] = [m for p in parts for m in p]


XI(
    "h6-code-implementation-4",
    2,
    T(
        "Read",
        "src/main/java/com/acme/web/UserController.java",
        """package com.acme.web;

import com.acme.audit.AuditLog;
import com.acme.mail.MailClient;
import com.acme.user.*;
import jakarta.validation.Valid;
import java.time.Instant;
import java.util.List;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/api/users")
public class UserController {
    @Autowired private UserRepository users;
    @Autowired private RoleRepository roles;
    @Autowired private AuditLog audit;
    @Autowired private MailClient mail;
    @Autowired private PasswordHasher hasher;
    @Autowired private EmailTokenRepository tokens;

    @PostMapping
    public ResponseEntity<UserDto> register(@Valid @RequestBody RegisterRequest req) {
        if (users.existsByEmailIgnoreCase(req.email())) {
            return ResponseEntity.status(409).build();
        }
        User u = new User();
        u.setEmail(req.email().toLowerCase());
        u.setPasswordHash(hasher.hash(req.password()));
        u.setRoles(List.of(roles.findByName("member").orElseThrow()));
        u.setCreatedAt(Instant.now());
        users.save(u);
        audit.record("user.registered", u.getId());
        mail.sendWelcome(u.getEmail());
        return ResponseEntity.status(201).body(UserDto.from(u));
    }

    @PatchMapping("/{id}/email")
    public ResponseEntity<UserDto> changeEmail(@PathVariable long id, @Valid @RequestBody ChangeEmailRequest req) {
        User u = users.findById(id).orElseThrow(NotFoundException::new);
        if (users.existsByEmailIgnoreCase(req.email())) {
            return ResponseEntity.status(409).build();
        }
        String old = u.getEmail();
        u.setEmail(req.email().toLowerCase());
        u.setEmailVerified(false);
        users.save(u);
        EmailToken t = tokens.save(EmailToken.forUser(u));
        mail.sendConfirmation(u.getEmail(), t.getToken());
        mail.sendEmailChangedNotice(old);
        audit.record("user.email_changed", u.getId());
        return ResponseEntity.ok(UserDto.from(u));
    }

    @PostMapping("/{id}/deactivate")
    public ResponseEntity<Void> deactivate(@PathVariable long id) {
        User u = users.findById(id).orElseThrow(NotFoundException::new);
        u.setActive(false);
        u.setDeactivatedAt(Instant.now());
        users.save(u);
        audit.record("user.deactivated", id);
        return ResponseEntity.noContent().build();
    }
    // ... 340 more lines: search, bulk import, role changes
""",
    ),
)

XI(
    "h6-bug-investigation-4",
    2,
    T(
        "Read",
        "lib/app/accounts.ex",
        """defmodule App.Accounts do
  @moduledoc "Users, organisations and memberships."

  import Ecto.Query
  alias App.Repo
  alias App.Accounts.{User, Org, Membership}
  alias App.Notifier

  def get_user_by_email(email) do
    Repo.get_by(User, email: String.downcase(email))
  end

  def invite(%Org{} = org, email) do
    Task.start(fn -> Notifier.send_invite(org, email) end)
    upsert_membership(org, email)
  end

  defp upsert_membership(org, email) do
    user = get_user_by_email(email) || create_placeholder_user!(email)

    case Repo.get_by(Membership, org_id: org.id, user_id: user.id) do
      nil ->
        %Membership{org_id: org.id, user_id: user.id, state: :pending}
        |> Repo.insert()

      existing ->
        {:ok, existing}
    end
  end

  def ensure_membership(org, user) do
    case Repo.get_by(Membership, org_id: org.id, user_id: user.id) do
      nil -> Repo.insert!(%Membership{org_id: org.id, user_id: user.id, state: :pending})
      m -> m
    end
  end

  defp create_placeholder_user!(email) do
    %User{email: String.downcase(email), state: :invited}
    |> Repo.insert!()
  end

  def memberships_for(user) do
    from(m in Membership, where: m.user_id == ^user.id, preload: :org)
    |> Repo.all()
  end
end
""",
    ),
)

XI(
    "h6-feature-implementation-4",
    0,
    T(
        "Read",
        "internal/auth/handler.go",
        """package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"example.com/api/internal/db"
	"example.com/api/internal/mail"
)

type Handler struct {
	q    *db.Queries
	mail mail.Sender
	now  func() time.Time
}

func NewHandler(q *db.Queries, m mail.Sender) *Handler {
	return &Handler{q: q, mail: m, now: time.Now}
}

func randomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand failing means the system is unusable
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func sha256hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func (h *Handler) Login(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	u, err := h.q.GetUserByEmail(r.Context(), strings.ToLower(req.Email))
	if err != nil || !checkPassword(u.PasswordHash, req.Password) {
		http.Error(w, "invalid credentials", http.StatusUnauthorized)
		return
	}
	h.startSession(r.Context(), w, u.ID)
}

func (h *Handler) startSession(ctx context.Context, w http.ResponseWriter, userID int64) {
	// ...
}
""",
    ),
)


# A few more agent steps at the end of long sessions (verification, saving, follow-through).
X(
    "h6-bug-report-1",
    T(
        "Bash",
        "gh issue view 377 -R acme/billing --json labels,title",
        '{"labels":[{"name":"billing"},{"name":"bug"}],"title":"CSV customer export shows mojibake (Ã¼) for umlauts when opened in Excel"}',
    ),
    A("Issue #377 is filed with both labels; the billing team's triage board picks it up automatically."),
)
X(
    "h6-bug-report-5",
    T("Bash", "grep -c 'idem_key=-' logs/payments-2026-11-26.log", "1184"),
    A(
        "One more fact for the ticket: all 1,184 charge attempts that day were sent without an idempotency key, so any timeout+retry can double-charge - it's not specific to these 3 orders. I added this under Impact."
    ),
)
X(
    "h6-code-pattern-1",
    T(
        "Bash",
        "cargo run -q -- missing.toml",
        "Error: loading config\n\nCaused by:\n    0: reading missing.toml\n    1: No such file or directory (os error 2)",
    ),
    A(
        'That\'s the payoff: `.context("loading config")` in main plus the `#[error]` messages give a readable chain instead of a panic with `called Result::unwrap() on an Err value`.'
    ),
)
X(
    "h6-architecture-design-1",
    T(
        "Write",
        (
            "docs/architecture/telemetry.md",
            "# Telemetry ingestion\n\n## Components\nIoT Core -> Kinesis (on-demand, `telemetry.v1`) -> alert consumer / Firehose -> S3 Parquet -> rollups -> Timescale.\n\n## Boundaries\nKinesis schema is the contract; Django owns registry, users and rules.\n\n## Buffered flushes\nDevices flush with jitter; readings older than 5 min are ignored for alerting.\n",
        ),
        "Created.",
    ),
    A(
        "Wrote docs/architecture/telemetry.md with components, diagram, rules cache, capacity and the buffered-flush rule."
    ),
)
X(
    "h6-feature-requirement-2",
    T("Bash", "grep -c 'AC:' docs/specs/team-invites.md", "11"),
    A("Spec now has 11 acceptance criteria across MVP, plus the Later and Non-functional sections."),
)
X(
    "h6-feature-design-1",
    T(
        "Bash",
        "npx @redocly/cli lint docs/api/openapi.yaml 2>&1 | tail -2",
        "docs/api/openapi.yaml: validated in 212ms\nWoohoo! Your API description is valid. 🎉",
    ),
    A(
        "I also added the schedule endpoints to openapi.yaml (paths + `ReportSchedule` schema) so the design can be reviewed in the API portal; it lints clean."
    ),
)
X(
    "h6-decision-process-1",
    T("Bash", "git diff --stat", " CONTRIBUTING.md | 10 ++++++++++\n 1 file changed, 10 insertions(+)"),
    A("Only CONTRIBUTING.md changed. Commit message suggestion: 'docs: code review team agreement from Nov retro'."),
)
X(
    "h6-decision-tooling-1",
    T(
        "Bash",
        "grep -rln 'tool.poetry' ~/src/*/pyproject.toml | xargs -n1 dirname | xargs -n1 basename | head -11",
        "billing\ncatalog\ncore-lib\netl\ngateway\nidentity\nml-features\nnotifier\nreports\nsearch\nworkers",
    ),
    A("These 11 repos need the poetry-to-uv migration; I listed them in the announcement thread as a checklist."),
)
X(
    "h6-topic-learning-3",
    T(
        "Bash",
        "kubectl scale deployment hello --replicas=5 && kubectl get pods -l app=hello --no-headers | wc -l",
        "deployment.apps/hello scaled\n5",
    ),
    A(
        "Five pods now; the Service spreads requests over all five without any change to it - it selects pods by the `app=hello` label."
    ),
)
X(
    "h6-topic-learning-5",
    T(
        "Bash",
        "mix test test/counter_test.exs",
        "..\nFinished in 0.03 seconds (0.00s async, 0.03s sync)\n2 tests, 0 failures",
    ),
    A(
        "I added two small tests (inc then get, and get on a fresh counter) so you can experiment and see if you broke something."
    ),
)
X(
    "h6-topic-learning-1",
    T(
        "Write",
        (
            "notes/rust-ownership.md",
            "# Ownership cheat sheet\n\n1. One owner; `let t = s;` moves.\n2. `.clone()` copies heap data.\n3. `&T` = shared borrow, many allowed.\n4. `&mut T` = exclusive borrow, only one, no `&T` at the same time.\n5. Borrows end at last use.\n6. `Copy` types (i32, bool, char) are copied, not moved.\n",
        ),
        "Created.",
    ),
    A("Saved a cheat sheet of today's steps in notes/rust-ownership.md."),
)
X(
    "h6-topic-learning-2",
    T(
        "Bash",
        "psql $DB -c 'SELECT c.name, count(o.id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id, c.name ORDER BY 2 LIMIT 3'",
        "     name      | count\n---------------+-------\n Anna Berg     |     0\n Ole Hansen    |     0\n Priya Nair    |     0",
    ),
    A("And here's your corrected query from earlier - customers without orders now show 0."),
)
X(
    "h6-topic-learning-4",
    T(
        "Bash",
        "cd /tmp/rb && git reflog | head -4",
        "7f1e2d3 HEAD@{0}: rebase (finish): returning to refs/heads/main\n7f1e2d3 HEAD@{1}: commit: add b (part 2)\n6e5d4c3 HEAD@{2}: commit: add b (part 1)\n9b8a7f6 HEAD@{3}: rebase (start): checkout HEAD~2",
    ),
    A(
        "Last tip: `git reflog` shows every position HEAD had, so even after a bad rebase you can `git reset --hard HEAD@{N}` back to before it. That's your safety net."
    ),
)
X(
    "h6-decision-process-5",
    T(
        "Write",
        (
            "docs/team/tech-debt-rule.md",
            "# Tech debt rule (proposal for retro)\n\n1. 20% of sprint capacity for debt items picked by the team.\n2. Items state cost + size S/M/L.\n3. Skipped in a crunch sprint => 40% next sprint.\n4. Monthly re-ranking.\n",
        ),
        "Created.",
    ),
    A("Saved as docs/team/tech-debt-rule.md so you can link it in the retro invite."),
)


def main() -> None:
    ids = [s["id"] for s in SESSIONS + UNCAT]
    assert len(ids) == len(set(ids)), "duplicate ids"
    keys = [m["key"] for s in SESSIONS + UNCAT for m in s["messages"]]
    assert len(keys) == len(set(keys)), "duplicate keys"
    counts = Counter(s["expect"] for s in SESSIONS)
    assert len(counts) == 22 and set(counts.values()) == {5}, counts
    assert len(UNCAT) == 12
    for name, rows in (("eval_holdout6.jsonl", SESSIONS), ("eval_holdout6_uncat.jsonl", UNCAT)):
        with open(HERE / name, "w", encoding="utf-8") as fh:
            for s in rows:
                fh.write(json.dumps(s, ensure_ascii=False) + "\n")
    print(f"wrote {len(SESSIONS)} + {len(UNCAT)} sessions")


if __name__ == "__main__":
    main()
