"""Write benchmarks/categorize/eval_holdout4.jsonl and eval_holdout4_uncat.jsonl.

A never-seen categorization evaluation set, written by hand (each session's
content is individual; the helpers below only build the message dicts so the
sessions stay readable). Run: python benchmarks/categorize/write_holdout4.py
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
Msg = dict[str, Any]

CMD = {"Bash", "shell", "run_terminal_cmd", "execute_command", "run_shell_command", "run_in_terminal"}
READ = {"Read", "read_file", "view_file"}
EDIT = {"Edit", "edit_file", "replace_in_file", "replace", "replace_string_in_file", "apply_patch"}
WRITE = {"Write", "write_to_file", "write_file", "create_file"}
SEARCH = {"Grep", "grep_search", "search_files", "search_file_content", "codebase_search"}


def U(text: str) -> Msg:
    return {"role": "user", "kind": "prompt", "text": text, "tool_name": None, "tool_input": None, "files": []}


def A(text: str) -> Msg:
    return {"role": "assistant", "kind": "response", "text": text, "tool_name": None, "tool_input": None, "files": []}


def T(name: str, arg: Any, result: str, old: str = "", new: str = "", content: str = "") -> list[Msg]:
    """A tool call and its result; the input shape follows the kind of tool."""
    files: list[str] = []
    if isinstance(arg, dict):
        inp = arg
        summary = str(next(iter(arg.values())))
    elif name in CMD:
        inp, summary = {"command": arg}, arg
    elif name in READ:
        inp, summary, files = {"file_path": arg}, arg, [arg]
    elif name in EDIT:
        inp, summary, files = {"file_path": arg, "old_string": old, "new_string": new}, arg, [arg]
    elif name in WRITE:
        inp, summary, files = {"file_path": arg, "content": content}, arg, [arg]
    elif name in SEARCH:
        inp, summary = {"pattern": arg}, arg
    else:
        inp, summary = {"query": arg}, arg
    call: Msg = {
        "role": "assistant",
        "kind": "tool_call",
        "text": f"{name}: {summary}",
        "tool_name": name,
        "tool_input": inp,
        "files": files,
    }
    res: Msg = {
        "role": "tool",
        "kind": "tool_result",
        "text": result,
        "tool_name": name,
        "tool_input": None,
        "files": [],
    }
    return [call, res]


SESSIONS: list[dict[str, Any]] = []
UNCAT: list[dict[str, Any]] = []
_n: Counter[str] = Counter()


def S(expect: str, agent: str, title: str, *items: Msg | list[Msg], into: list[dict[str, Any]] | None = None) -> None:
    msgs: list[Msg] = []
    for it in items:
        msgs.extend(it if isinstance(it, list) else [it])
    _n[expect] += 1
    target = SESSIONS if into is None else into
    target.append(
        {
            "id": f"h4-{expect.replace('/', '-')}-{_n[expect]}",
            "agent": agent,
            "expect": expect,
            "title": title,
            "agent_title": None,
            "messages": msgs,
        }
    )


def X(agent: str, title: str, *items: Msg | list[Msg]) -> None:
    S("uncategorized", agent, title, *items, into=UNCAT)


# ---------------------------------------------------------------- bug/fix
S(
    "bug/fix",
    "claude-code",
    "Fix pytest failing only on CI (timezone)",
    U("pytest fails on ci only, pls look"),
    T(
        "Bash",
        "gh run view --log-failed | tail -30",
        "FAILED tests/test_reports.py::test_daily_rollup - AssertionError: assert '2024-03-09' == '2024-03-10'\n  where '2024-03-09' = rollup_day(datetime(2024, 3, 10, 0, 30))\n1 failed, 212 passed in 41.20s",
    ),
    T(
        "Read",
        "reports/rollup.py",
        "def rollup_day(ts: datetime) -> str:\n    local = ts.astimezone()\n    return local.date().isoformat()",
    ),
    A(
        "`ts` is naive, so `astimezone()` treats it as the machine's local time and converts it. Your laptop is UTC+1, CI runs in UTC... actually the other way round: the runner image sets TZ=America/Los_Angeles, so 00:30 becomes the previous day. The function should not depend on the host timezone at all. I'll make it treat naive timestamps as UTC explicitly."
    ),
    T(
        "Edit",
        "reports/rollup.py",
        "The file reports/rollup.py has been updated.",
        old="    local = ts.astimezone()",
        new="    if ts.tzinfo is None:\n        ts = ts.replace(tzinfo=timezone.utc)\n    local = ts.astimezone(REPORT_TZ)",
    ),
    T("Bash", "TZ=America/Los_Angeles pytest tests/test_reports.py -q", "........\n8 passed in 0.61s"),
    A(
        "Fixed. `rollup_day` now interprets naive datetimes as UTC and converts to `REPORT_TZ` (already defined in settings as Europe/Berlin). Reproduced with `TZ=America/Los_Angeles` locally; passes now."
    ),
)

S(
    "bug/fix",
    "cursor",
    "NPE in OrderService when coupon is null",
    U(
        'getting this since yesterday\'s deploy, fix it please. I think it\'s the coupon refactor from Dmitri\n\njava.lang.NullPointerException: Cannot invoke "com.shop.promo.Coupon.getPercent()" because "coupon" is null\n\tat com.shop.order.OrderService.applyDiscount(OrderService.java:88)\n\tat com.shop.order.OrderService.checkout(OrderService.java:54)'
    ),
    T(
        "read_file",
        "src/main/java/com/shop/order/OrderService.java",
        "84    private Money applyDiscount(Money subtotal, String code) {\n85        Coupon coupon = couponRepo.findByCode(code).orElse(null);\n86        // TODO validate expiry\n87        BigDecimal pct = BigDecimal.valueOf(\n88            coupon.getPercent()).movePointLeft(2);\n89        return subtotal.minus(subtotal.times(pct));\n90    }",
    ),
    A(
        "Before the refactor `applyDiscount` was only called when `code != null`; now `checkout` calls it unconditionally, and `findByCode(null)` returns empty. I'll return the subtotal unchanged when there is no valid coupon."
    ),
    T(
        "edit_file",
        "src/main/java/com/shop/order/OrderService.java",
        "Applied edit to OrderService.java",
        old="        Coupon coupon = couponRepo.findByCode(code).orElse(null);",
        new="        if (code == null || code.isBlank()) return subtotal;\n        Optional<Coupon> found = couponRepo.findByCode(code);\n        if (found.isEmpty()) return subtotal;\n        Coupon coupon = found.get();",
    ),
    T(
        "run_terminal_cmd",
        "./mvnw -q test -Dtest=OrderServiceTest",
        "[INFO] Tests run: 14, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS",
    ),
    A(
        "Done — checkout without a coupon (or with an unknown code) no longer throws. I added `checkoutWithoutCoupon_keepsSubtotal` to OrderServiceTest."
    ),
)

S(
    "bug/fix",
    "aider",
    "Off-by-one in pagination last page",
    U("the last page of /api/articles?page=N is always empty when total is a multiple of page size. fix in paginate()"),
    A(
        "In `app/pagination.py` the page count uses `total // size + 1`, which gives one page too many when `total % size == 0`.\n\napp/pagination.py\n<<<<<<< SEARCH\n    pages = total // size + 1\n=======\n    pages = max(1, -(-total // size))\n>>>>>>> REPLACE\n\nThis is ceiling division; an empty result still reports 1 page."
    ),
    U("ok also add a test, 0, 10, 11 items with size 10"),
    A(
        'tests/test_pagination.py\n<<<<<<< SEARCH\n=======\nimport pytest\nfrom app.pagination import page_count\n\n@pytest.mark.parametrize("total,expected", [(0, 1), (10, 1), (11, 2)])\ndef test_page_count(total, expected):\n    assert page_count(total, 10) == expected\n>>>>>>> REPLACE'
    ),
    U("/run pytest tests/test_pagination.py -q"),
    A("...\n3 passed in 0.05s\n\nAll three cases pass."),
)

S(
    "bug/fix",
    "codex",
    "goroutine leak in websocket hub",
    U(
        "Our Go websocket hub leaks goroutines: after a load test pprof shows ~40k goroutines blocked in `hub.go:71 chan send`. I know the design of the hub is a bit weird (one goroutine per client writer plus the broadcast loop) and we'll probably refactor it later, but right now I just need the leak gone before friday's release. Please fix with minimal changes."
    ),
    T(
        "shell",
        "sed -n 55,90p internal/ws/hub.go",
        "func (h *Hub) run() {\n\tfor {\n\t\tselect {\n\t\tcase c := <-h.register:\n\t\t\th.clients[c] = true\n\t\tcase c := <-h.unregister:\n\t\t\tdelete(h.clients, c)\n\t\tcase msg := <-h.broadcast:\n\t\t\tfor c := range h.clients {\n\t\t\t\tgo func(c *Client) {\n\t\t\t\t\tc.send <- msg // line 71\n\t\t\t\t}(c)\n\t\t\t}\n\t\t}\n\t}\n}",
    ),
    A(
        "Each broadcast spawns a goroutine per client that blocks forever on `c.send` once the client's writer has exited, because `unregister` never closes `c.send` and nobody reads it anymore. Minimal fix: non-blocking send in the hub loop, close `send` on unregister, drop slow clients."
    ),
    T(
        "apply_patch",
        {
            "patch": "--- a/internal/ws/hub.go\n+++ b/internal/ws/hub.go\n@@\n \t\tcase c := <-h.unregister:\n-\t\t\tdelete(h.clients, c)\n+\t\t\tif _, ok := h.clients[c]; ok {\n+\t\t\t\tdelete(h.clients, c)\n+\t\t\t\tclose(c.send)\n+\t\t\t}\n \t\tcase msg := <-h.broadcast:\n \t\t\tfor c := range h.clients {\n-\t\t\t\tgo func(c *Client) {\n-\t\t\t\t\tc.send <- msg\n-\t\t\t\t}(c)\n+\t\t\t\tselect {\n+\t\t\t\tcase c.send <- msg:\n+\t\t\t\tdefault:\n+\t\t\t\t\tdelete(h.clients, c)\n+\t\t\t\t\tclose(c.send)\n+\t\t\t\t}\n \t\t\t}"
        },
        "Success. Updated internal/ws/hub.go",
    ),
    T(
        "shell",
        "go test -race ./internal/ws/... -run TestHub -count=3",
        "ok  \tgithub.com/acme/chat/internal/ws\t2.314s",
    ),
    A(
        "Leak fixed: no more goroutine per send, `send` is closed on unregister so the writer's `range c.send` exits, and slow clients whose buffer (256) is full get dropped. `TestHubNoLeak` uses goleak and passes with -race. The bigger refactor can wait."
    ),
)

S(
    "bug/fix",
    "cline",
    "Dark mode toggle doesn't persist after reload",
    U(
        "hi, in our react app the dark mode switch works but after refresh page it is light again. can you fix? the code is in src/theme"
    ),
    T(
        "read_file",
        "src/theme/ThemeProvider.tsx",
        "export function ThemeProvider({ children }: Props) {\n  const [dark, setDark] = useState(false);\n  useEffect(() => {\n    localStorage.setItem('theme', dark ? 'dark' : 'light');\n  }, [dark]);\n  ...",
    ),
    A(
        "The theme is written to localStorage but never read back: the state always starts as `false`, and the effect then overwrites the stored value with 'light' on first render. I'll initialise state lazily from localStorage."
    ),
    T(
        "replace_in_file",
        "src/theme/ThemeProvider.tsx",
        "Changes applied to src/theme/ThemeProvider.tsx",
        old="  const [dark, setDark] = useState(false);",
        new="  const [dark, setDark] = useState<boolean>(() => {\n    if (typeof window === 'undefined') return false;\n    return localStorage.getItem('theme') === 'dark';\n  });",
    ),
    T(
        "execute_command",
        "npm test -- ThemeProvider",
        " PASS  src/theme/ThemeProvider.test.tsx\n  ✓ persists theme across remount (18 ms)\n\nTests: 3 passed, 3 total",
    ),
    A(
        "Fixed — state now starts from the stored value, so the toggle survives a reload. I added a test that remounts the provider."
    ),
    U("works thx"),
)

S(
    "bug/fix",
    "gemini-cli",
    "Migration fails on Postgres 15: column already exists",
    U(
        'django migrate crashes in staging: psycopg2.errors.DuplicateColumn: column "archived_at" of relation "projects_project" already exists. someone ran the SQL by hand last week. fix the migration so it works on both fresh DBs and staging'
    ),
    T(
        "read_file",
        "projects/migrations/0042_project_archived_at.py",
        'class Migration(migrations.Migration):\n    dependencies = [("projects", "0041_auto")]\n    operations = [\n        migrations.AddField("project", "archived_at", models.DateTimeField(null=True, blank=True)),\n    ]',
    ),
    A(
        "I'll replace the AddField with a SeparateDatabaseAndState: the state operation stays AddField, the database operation uses `ADD COLUMN IF NOT EXISTS`, which Postgres supports since 9.6."
    ),
    T(
        "replace",
        "projects/migrations/0042_project_archived_at.py",
        "Successfully modified file.",
        old='        migrations.AddField("project", "archived_at", models.DateTimeField(null=True, blank=True)),',
        new='        migrations.SeparateDatabaseAndState(\n            state_operations=[migrations.AddField("project", "archived_at", models.DateTimeField(null=True, blank=True))],\n            database_operations=[migrations.RunSQL(\n                "ALTER TABLE projects_project ADD COLUMN IF NOT EXISTS archived_at timestamptz NULL",\n                reverse_sql="ALTER TABLE projects_project DROP COLUMN IF EXISTS archived_at",\n            )],\n        ),',
    ),
    T(
        "run_shell_command",
        "python manage.py migrate projects --database=staging_copy && python manage.py migrate projects 0041 && python manage.py migrate projects",
        "Applying projects.0042_project_archived_at... OK\nUnapplying projects.0042_project_archived_at... OK\nApplying projects.0042_project_archived_at... OK",
    ),
    A(
        "Migration is now idempotent: applied cleanly on a copy of staging (column present) and on a fresh DB, and it reverses."
    ),
)

# ---------------------------------------------------------------- bug/investigation
S(
    "bug/investigation",
    "claude-code",
    "Why p99 latency doubled after upgrade",
    U(
        "since we moved the api to node 20 the p99 went from 180ms to ~400ms. p50 is the same. don't fix anything yet, I want to understand where the time goes first"
    ),
    T(
        "Bash",
        "node --cpu-prof --cpu-prof-dir=/tmp/prof dist/server.js & sleep 2; npx autocannon -d 20 -c 50 http://localhost:3000/api/search?q=shoe; kill %1",
        "Latency  2.5%  50%   97.5%  99%    Max\n         41ms  88ms  352ms  411ms  1204ms",
    ),
    T(
        "Bash",
        "npx speedscope /tmp/prof/*.cpuprofile --print-top 8",
        "self%  function\n 31.2  (garbage collector)\n 12.4  JSON.parse\n  9.8  structuredClone  src/cache/lru.ts:44\n  6.1  ...",
    ),
    A(
        "A third of CPU time is GC, and `structuredClone` from our LRU cache is hot. Node 20 ships V8 11.3 where the young generation semi-space defaults differ; combined with cloning every cache hit we allocate a lot of short-lived objects."
    ),
    T(
        "Bash",
        "node --trace-gc dist/server.js 2>&1 | grep -c Mark-Compact & npx autocannon -d 20 -c 50 http://localhost:3000/api/search?q=shoe >/dev/null; sleep 1; kill %1",
        "57",
    ),
    T(
        "Bash",
        "node --max-semi-space-size=64 --trace-gc dist/server.js 2>&1 | grep -c Mark-Compact & npx autocannon -d 20 -c 50 http://localhost:3000/api/search?q=shoe | grep 99%; kill %1",
        "         39ms  86ms  201ms  224ms  690ms\n9",
    ),
    A(
        "Findings: the tail latency comes from major GC pauses (57 mark-compacts in 20s vs 9 with a larger semi-space). The trigger is the cache's `structuredClone` on every hit (added in PR #812, harmless on Node 18 because of the different heap sizing). Two options to fix: raise `--max-semi-space-size`, or stop cloning on read (return frozen objects). I haven't changed anything."
    ),
    U("ok good. write that down in the ticket, we decide tomorrow"),
)

S(
    "bug/investigation",
    "codex",
    "Find which commit broke CSV export encoding",
    U(
        "Excel shows garbage (Ã©) for accented chars in the CSV export since some time in march. Find which commit introduced it."
    ),
    T(
        "shell",
        "git log --oneline --since=2024-02-20 --until=2024-04-01 -- app/exports/",
        "9f1c2aa exports: stream csv rows\n47be010 exports: add delimiter option\n1d2e3f4 exports: move to csv.writer",
    ),
    T(
        "shell",
        "git bisect start HEAD 1d2e3f4~1 && git bisect run python scripts/check_bom.py",
        "47be010 is the first bad commit\n...\nexports: add delimiter option\n\nbisect found first bad commit",
    ),
    T(
        "shell",
        "git show 47be010 -- app/exports/csv.py | head -30",
        "-    buf = io.StringIO()\n-    buf.write('\\ufeff')\n+    buf = io.StringIO(newline='')\n+    writer = csv.writer(buf, delimiter=delimiter)",
    ),
    A(
        "`47be010` (add delimiter option) dropped the UTF-8 BOM that was written at the start of the file. Without the BOM Excel on Windows assumes cp1252, hence `Ã©`. The data itself is still valid UTF-8 — it's only Excel's detection. Reintroducing `\\ufeff` at the start would restore the old behaviour."
    ),
)

S(
    "bug/investigation",
    "cursor",
    "Intermittent deadlock in payment worker",
    U(
        "we get 'deadlock detected' from postgres maybe 3-4 times a day in the payment worker. cannot reproduce locally. can you help me figure out what two transactions are fighting? logs attached\n\nERROR:  deadlock detected\nDETAIL:  Process 81231 waits for ShareLock on transaction 99812; blocked by process 81240.\nProcess 81240 waits for ShareLock on transaction 99810; blocked by process 81231.\nCONTEXT:  while updating tuple (12,7) in relation \"wallets\""
    ),
    T(
        "grep_search",
        "UPDATE wallets",
        'payments/settle.py:41:    cur.execute("UPDATE wallets SET balance = balance - %s WHERE id = %s", (amt, src))\npayments/settle.py:42:    cur.execute("UPDATE wallets SET balance = balance + %s WHERE id = %s", (amt, dst))\npayments/refund.py:17:    cur.execute("UPDATE wallets SET balance = balance + %s WHERE id = %s", (amt, src))',
    ),
    A(
        "Classic lock-ordering problem: `settle` locks `src` then `dst`. If transfer A→B and B→A are settled concurrently, each holds one row and waits for the other. Refunds alone can't deadlock since they touch one row. Let me confirm the timing with the worker logs."
    ),
    T(
        "run_terminal_cmd",
        "grep -h 'settle' logs/worker-*.log | awk '{print $1, $2, $6, $7}' | sort | grep -B1 -A1 '03:12:44'",
        "2024-05-02 03:12:44.118 settle wallet=5531->7720\n2024-05-02 03:12:44.121 settle wallet=7720->5531\n2024-05-02 03:12:44.950 ERROR deadlock detected",
    ),
    A(
        "Confirmed: two opposite transfers between 5531 and 7720 three milliseconds apart, right before the deadlock. Root cause is the inconsistent lock order in payments/settle.py. It happens nightly because the 03:00 batch reconciles mutual debts between merchants. Locally you never have two opposite transfers concurrently, which is why it doesn't reproduce."
    ),
    U("makes sense. what's the usual fix, just so I can put it in the ticket"),
    A(
        "Lock both rows in a deterministic order first (`SELECT ... WHERE id IN (a,b) ORDER BY id FOR UPDATE`), then apply the two updates. Postgres will then serialize opposite transfers instead of deadlocking."
    ),
)

S(
    "bug/investigation",
    "gemini-cli",
    "Rust binary segfaults only in release",
    U(
        "my rust program crashes with SIGSEGV only in --release, debug is fine. there is some unsafe in the ffi module for libsodium. what is going on? i dont need fix right now just understand"
    ),
    T(
        "run_shell_command",
        "cargo build --release && RUST_BACKTRACE=1 ./target/release/vault seal test.txt",
        "Segmentation fault (core dumped)",
    ),
    T(
        "run_shell_command",
        "gdb -batch -ex run -ex bt --args ./target/release/vault seal test.txt",
        "Program received signal SIGSEGV\n#0  crypto_secretbox_easy () from /usr/lib/libsodium.so.23\n#1  vault::ffi::seal (msg=...) at src/ffi.rs:38\n#2  vault::main () at src/main.rs:22",
    ),
    T(
        "read_file",
        "src/ffi.rs",
        "pub fn seal(msg: &[u8], key: &Key) -> Vec<u8> {\n    let mut out = Vec::with_capacity(msg.len() + MACBYTES);\n    let nonce = gen_nonce().as_ptr();\n    unsafe {\n        crypto_secretbox_easy(out.as_mut_ptr(), msg.as_ptr(), msg.len() as u64, nonce, key.0.as_ptr());\n        out.set_len(msg.len() + MACBYTES);\n    }\n    out\n}",
    ),
    A(
        "Line 3 is the bug: `gen_nonce()` returns a temporary `[u8; 24]`, and `.as_ptr()` takes a pointer into it. The temporary is dropped at the end of that statement, so `nonce` is dangling. In debug the stack slot happens to still hold the bytes; in release the optimizer reuses it (or never materializes it), so libsodium reads garbage or an invalid address. Keeping the array in a `let nonce = gen_nonce();` binding and passing `nonce.as_ptr()` inside the unsafe block would keep it alive. Miri would flag this too: `cargo +nightly miri test` reports 'pointer to dead allocation'."
    ),
)

S(
    "bug/investigation",
    "copilot",
    "Memory growth in Spring Boot service",
    U(
        "our spring boot service heap grows from 400MB to 2GB over ~2 days and then OOMs. i took a heap dump, top of MAT dominator tree below. what is holding the memory?\n\nClass Name                                       | Retained Heap\norg.hibernate.engine.internal.StatefulPersistenceContext | 1,412,331,200\n  java.util.HashMap                               | 1,401,000,112"
    ),
    A(
        "A persistence context retaining 1.4 GB means one EntityManager/Session lives for a very long time and keeps every entity it ever loaded (first-level cache). Typical causes: a long-running `@Transactional` method in a scheduled job looping over many rows, or an EntityManager injected into a singleton without a transaction scope. Let me look at the scheduled jobs."
    ),
    T(
        "run_in_terminal",
        "grep -rn -A3 '@Scheduled' src/main/java",
        "src/main/java/io/acme/sync/CatalogSync.java:31:    @Scheduled(fixedDelay = 60000)\nsrc/main/java/io/acme/sync/CatalogSync.java-32-    @Transactional\nsrc/main/java/io/acme/sync/CatalogSync.java-33-    public void syncForever() {\nsrc/main/java/io/acme/sync/CatalogSync.java-34-        while (running) {",
    ),
    A(
        "Found it: `CatalogSync.syncForever` is a `@Transactional` method with an infinite loop, so its transaction — and its persistence context — never ends. Every product it loads stays managed. That matches the slow growth (catalog updates every minute) and the dominator tree. The leak is there, not in a library."
    ),
)

S(
    "bug/investigation",
    "claude-code",
    "Flaky e2e test: checkout button sometimes not clickable",
    U(
        "playwright test checkout.spec.ts fails ~1/15 runs with 'element is not stable'. ive rerun it a dozen times. can u dig into why? i suspect the new design system button animation but not sure"
    ),
    T(
        "Bash",
        "npx playwright test checkout.spec.ts --repeat-each=30 --trace=retain-on-failure 2>&1 | tail -8",
        "  1) checkout.spec.ts:22:3 › pays with saved card (retry #0)\n    Error: locator.click: Element is not stable\n    waiting for element to be visible, enabled and stable\n      - element is not stable - waiting...\n  28 passed, 2 failed",
    ),
    T(
        "Bash",
        "npx playwright show-trace --list test-results/*/trace.zip | grep -i -E 'layout|transition' | head",
        "[2.31s] style recalculation: .PayButton transition: transform 300ms\n[2.33s] layout shift: #promo-banner inserted above form (height 64px)",
    ),
    A(
        "It's not the button animation by itself. In failing traces the promo banner (`#promo-banner`) is injected above the form about 20ms before the click, shifting the button 64px down while its hover transition runs. Playwright waits for two consecutive identical bounding boxes and times out. The banner arrives from a separate fetch with no fixed timing, which explains the 1-in-15 rate. The test isn't wrong; the page has a layout shift."
    ),
    U("ok so its the banner. can we confirm by blocking the banner request?"),
    T(
        "Bash",
        "BLOCK_PROMO=1 npx playwright test checkout.spec.ts --repeat-each=30 2>&1 | tail -1",
        "  30 passed (1.2m)",
    ),
    A(
        "Confirmed: with the promo request blocked, 30/30 pass. Root cause is the late-inserted banner causing a layout shift."
    ),
)

# ---------------------------------------------------------------- bug/report
S(
    "bug/report",
    "claude-code",
    "Write issue for login redirect loop on Safari",
    U(
        "can you write a github issue for the safari login loop? I reproduced it: Safari 17.2, log in with google, it goes /login -> /auth/callback -> /login forever. Chrome and firefox fine. Cookies: our session cookie is SameSite=None but no Secure flag on the staging domain. Don't fix it, Hana owns auth."
    ),
    T(
        "Write",
        "docs/issues/safari-login-loop.md",
        "File created successfully at: docs/issues/safari-login-loop.md",
        content="## Login redirect loop on Safari 17\n...",
    ),
    A(
        'Drafted `docs/issues/safari-login-loop.md`:\n\n**Title:** Login with Google loops between /login and /auth/callback on Safari 17\n\n**Environment:** staging, Safari 17.2 (macOS 14.2). Not reproducible on Chrome 120 / Firefox 121.\n\n**Steps to reproduce**\n1. Open https://staging.app.example.com in a fresh Safari window\n2. Click "Continue with Google", complete sign-in\n3. Observe redirect to /auth/callback then /login, repeating\n\n**Expected:** land on /dashboard.\n**Actual:** infinite redirect; network tab shows `Set-Cookie: sid=...; SameSite=None` without `Secure`.\n\n**Notes:** Safari rejects SameSite=None cookies without Secure, so the session is never stored. Assigning to @hana.'
    ),
    U("good, file it with label bug + auth"),
    T(
        "Bash",
        "gh issue create --title 'Login with Google loops between /login and /auth/callback on Safari 17' --body-file docs/issues/safari-login-loop.md --label bug --label auth --assignee hana",
        "https://github.com/acme/web/issues/1184",
    ),
    A("Filed as #1184, assigned to Hana."),
)

S(
    "bug/report",
    "codex",
    "Minimal repro for serde flatten + deny_unknown_fields",
    U(
        "I think serde has a bug with #[serde(flatten)] and deny_unknown_fields together. make me a minimal repro crate I can attach to an upstream issue, and the issue text"
    ),
    T(
        "shell",
        "cargo new --lib serde-flatten-repro && cd serde-flatten-repro && cargo add serde --features derive && cargo add serde_json",
        "     Created library `serde-flatten-repro` package\n    Updating crates.io index\n      Adding serde v1.0.197 to dependencies\n      Adding serde_json v1.0.114 to dependencies",
    ),
    T(
        "shell",
        'cat > tests/repro.rs <<\'EOF2\'\n#[derive(serde::Deserialize, Debug)]\n#[serde(deny_unknown_fields)]\nstruct Outer { a: u8, #[serde(flatten)] inner: Inner }\n#[derive(serde::Deserialize, Debug)]\nstruct Inner { b: u8 }\n#[test]\nfn known_fields_are_rejected() {\n    let r: Result<Outer, _> = serde_json::from_str(r#"{"a":1,"b":2}"#);\n    assert!(r.is_ok(), "{:?}", r);\n}\nEOF2\ncargo test 2>&1 | tail -5',
        "---- known_fields_are_rejected stdout ----\nthread 'known_fields_are_rejected' panicked at tests/repro.rs:9:5:\nErr(Error(\"unknown field `b`\", line: 1, column: 13))\ntest result: FAILED. 0 passed; 1 failed",
    ),
    A(
        'Repro is ready (`cargo test` fails). Before filing: this combination is documented as unsupported in the serde docs ("deny_unknown_fields is not supported in combination with flatten") and there\'s a long-standing issue, serde-rs/serde#1547. So I\'d add the repro as a comment there rather than open a new one. Draft comment:\n\n> Still reproduces on serde 1.0.197 / serde_json 1.0.114. Minimal repro: <link>. `{"a":1,"b":2}` is rejected with `unknown field b` although `b` belongs to the flattened struct.'
    ),
)

S(
    "bug/report",
    "gemini-cli",
    "Triage notes for crash reports from Android 14",
    U(
        "we got 37 crash reports in play console since version 4.12 all from android 14 devices. stacktrace:\nFatal Exception: java.lang.SecurityException: com.acme.fit: One of RECEIVER_EXPORTED or RECEIVER_NOT_EXPORTED should be specified when a receiver isn't being registered exclusively for system broadcasts\n  at android.app.ContextImpl.registerReceiverInternal\n  at com.acme.fit.sync.StepSyncService.onCreate(StepSyncService.kt:48)\nplease write a proper bug ticket for jira with repro steps, affected versions, severity. the fix will be done by the android team"
    ),
    T(
        "read_file",
        "app/src/main/java/com/acme/fit/sync/StepSyncService.kt",
        "46    override fun onCreate() {\n47        super.onCreate()\n48        registerReceiver(stepReceiver, IntentFilter(ACTION_STEPS_UPDATED))\n49    }",
    ),
    A(
        '**Summary:** App crashes on launch of step sync on Android 14 (SecurityException in StepSyncService.onCreate)\n\n**Affected:** app 4.12.0+ (targetSdk raised to 34 in 4.12), Android 14 only; 37 reports / ~1.2k sessions since release.\n\n**Steps to reproduce**\n1. Install 4.12.0 on an Android 14 device/emulator (API 34)\n2. Sign in, enable "Sync steps" in settings\n3. App crashes immediately\n\n**Expected:** sync starts. **Actual:** crash, stack trace attached.\n\n**Cause (for the assignee):** with targetSdk 34, context-registered receivers for non-system broadcasts must pass RECEIVER_EXPORTED/NOT_EXPORTED; StepSyncService.kt:48 doesn\'t.\n\n**Severity:** High — crash on a core flow for all Android 14 users who enable sync.\n**Component:** Android / Sync'
    ),
    U("add that it reproduces on Pixel 8 emulator, I just tried"),
    A('Added under Steps to reproduce: "Reproduced on Pixel 8 emulator, API 34, 4.12.0 (build 4120)."'),
)

S(
    "bug/report",
    "cline",
    "Reproduce wrong totals in invoice PDF",
    U(
        "customer says invoice PDF total is 0.01 off from the screen total for invoice INV-22931. can you reproduce it with a test and write down what happens? no fix yet, I need to show accounting first"
    ),
    T(
        "execute_command",
        "bundle exec rails runner 'inv = Invoice.find_by!(number: \"INV-22931\"); puts inv.lines.map(&:amount).inspect; puts inv.total; puts InvoicePdf.new(inv).total_cents'",
        "[0.3e2, 0.1999e2, 0.3333e2, 0.1667e2]\n0.9999e2\n10000",
    ),
    T(
        "write_to_file",
        "spec/pdf/invoice_pdf_rounding_spec.rb",
        "File created.",
        content="RSpec.describe InvoicePdf do\n  it 'prints the same total as the invoice' do\n    inv = build(:invoice, line_amounts: %w[30.00 19.99 33.33 16.67])\n    expect(InvoicePdf.new(inv).total_cents).to eq(9999)\n  end\nend",
    ),
    T(
        "execute_command",
        "bundle exec rspec spec/pdf/invoice_pdf_rounding_spec.rb",
        "Failures:\n  1) InvoicePdf prints the same total as the invoice\n     expected: 9999\n          got: 10000\n1 example, 1 failure",
    ),
    A(
        "Reproduced. Write-up for accounting:\n\n- Screen total: 99.99 € (sum of the stored line amounts 30.00 + 19.99 + 33.33 + 16.67).\n- PDF total: 100.00 €.\n- The PDF recomputes each line from quantity × unit price with tax and rounds the sum once; the screen sums already-rounded line amounts. For this invoice the two rounding orders differ by one cent.\n- Failing spec: spec/pdf/invoice_pdf_rounding_spec.rb (committed, marked pending so CI stays green).\n\nWhich rounding order is legally correct is a question for accounting before anyone changes code."
    ),
)

S(
    "bug/report",
    "aider",
    "Issue text: CLI ignores --config when XDG_CONFIG_HOME set",
    U(
        "found a bug in our cli: if XDG_CONFIG_HOME is set, --config path is ignored. can you write it up as an issue? repro: XDG_CONFIG_HOME=/tmp/x mytool --config ./a.toml show-config prints values from /tmp/x/mytool/config.toml"
    ),
    A(
        "**Title:** `--config` is ignored when `XDG_CONFIG_HOME` is set\n\n**Version:** mytool 0.9.3 (also main @ 4e1a0c2)\n\n**Reproduce**\n```sh\nmkdir -p /tmp/x/mytool\necho 'color = \"never\"' > /tmp/x/mytool/config.toml\necho 'color = \"always\"' > ./a.toml\nXDG_CONFIG_HOME=/tmp/x mytool --config ./a.toml show-config\n```\n**Expected:** `color = always` (explicit flag wins)\n**Actual:** `color = never`\n\n**Notes:** Without XDG_CONFIG_HOME the flag works. Looking at `src/config.rs`, `load()` checks the env var first and returns early, before the CLI argument is consulted.\n\nShall I also open it with `gh`?"
    ),
    U("no I'll paste it myself. thanks"),
)

S(
    "bug/report",
    "copilot",
    "orders-projector lag incident writeup",
    U(
        "Can you help me write the incident bug report for yesterday? Facts: 14:02 UTC consumer group orders-projector lag jumped from ~0 to 1.8M messages. It recovered by 15:40. Deploy of orders-projector v2.31 at 13:58. Rebalance storms in logs: 'Attempt to heartbeat failed since group is rebalancing' every few seconds. max.poll.interval.ms is 300000. v2.31 added a call to the pricing API inside the poll loop. We don't know the root cause 100% yet."
    ),
    A(
        "**Bug: orders-projector consumer lag spike to 1.8M after v2.31 deploy**\n\n**When:** 2024-06-11, 14:02–15:40 UTC (98 min)\n**Impact:** order projections (search, customer order history) up to ~95 min stale. No data loss.\n\n**Timeline**\n- 13:58 deploy orders-projector v2.31\n- 14:02 lag starts growing; logs show repeated `Attempt to heartbeat failed since group is rebalancing`\n- 15:40 lag back to 0 (after rollback to v2.30 at 15:21)\n\n**Observed**\n- Continuous rebalances of group `orders-projector`\n- v2.31 calls the pricing API synchronously per record inside the poll loop\n\n**Hypothesis (unconfirmed):** slow pricing calls push the time between polls past `max.poll.interval.ms` (300 s) for large batches (`max.poll.records`=500), so members get kicked out → rebalance storm.\n\n**To reproduce:** run v2.31 against staging with pricing API latency injected at 700 ms.\n\n**Open questions:** pricing API latency during the window; whether 500 records × latency exceeds 300 s."
    ),
    U("nice. make the hypothesis section a bit shorter and add 'owner: team-orders'"),
    A(
        "**Hypothesis (unconfirmed):** per-record pricing calls make a poll batch exceed `max.poll.interval.ms`, causing a rebalance storm.\n\n**Owner:** team-orders"
    ),
)
# ---------------------------------------------------------------- code/implementation
S(
    "code/implementation",
    "claude-code",
    "Refactor callback-based upload module to async/await",
    U(
        "src/upload.js is callback hell. convert it to async/await, keep the public API (uploadFile(path, opts) returning a promise) the same. no behaviour change"
    ),
    T(
        "Read",
        "src/upload.js",
        "function uploadFile(path, opts) {\n  return new Promise((resolve, reject) => {\n    fs.stat(path, (err, st) => {\n      if (err) return reject(err);\n      getSignedUrl(opts.bucket, (err, url) => {\n        if (err) return reject(err);\n        fs.readFile(path, (err, buf) => {\n          if (err) return reject(err);\n          put(url, buf, st.size, (err, res) => err ? reject(err) : resolve(res));\n        });\n      });\n    });\n  });\n}",
    ),
    T(
        "Edit",
        "src/upload.js",
        "The file src/upload.js has been updated.",
        old="function uploadFile(path, opts) {",
        new="const { stat, readFile } = require('fs/promises');\nconst getSignedUrlP = promisify(getSignedUrl);\nconst putP = promisify(put);\n\nasync function uploadFile(path, opts) {\n  const st = await stat(path);\n  const url = await getSignedUrlP(opts.bucket);\n  const buf = await readFile(path);\n  return putP(url, buf, st.size);\n}",
    ),
    T(
        "Bash",
        "npm test -- upload",
        "PASS test/upload.test.js\n  ✓ uploads a file (12 ms)\n  ✓ rejects on missing file (3 ms)\n  ✓ rejects when signing fails (2 ms)\nTests: 3 passed",
    ),
    A(
        "Converted. Same signature and same error propagation (each failure still rejects the returned promise); the 3 existing tests pass unchanged."
    ),
)

S(
    "code/implementation",
    "codex",
    "Speed up slow report query loop (N+1)",
    U(
        "report generation for big customers takes 90s. profile says most time is in build_rows(). optimise it, output must be identical"
    ),
    T(
        "shell",
        "sed -n 1,40p reports/builder.py",
        "def build_rows(account):\n    rows = []\n    for inv in Invoice.objects.filter(account=account):\n        for line in inv.lines.all():\n            product = Product.objects.get(pk=line.product_id)\n            rows.append((inv.number, product.sku, line.qty, line.total))\n    return rows",
    ),
    A(
        "N+1 twice: one query per invoice for lines and one per line for the product. Rewrite as a single query over lines with `select_related`, ordered the same way as before."
    ),
    T(
        "apply_patch",
        {
            "patch": '-    for inv in Invoice.objects.filter(account=account):\n-        for line in inv.lines.all():\n-            product = Product.objects.get(pk=line.product_id)\n-            rows.append((inv.number, product.sku, line.qty, line.total))\n-    return rows\n+    lines = (InvoiceLine.objects.filter(invoice__account=account)\n+             .select_related("invoice", "product")\n+             .order_by("invoice_id", "id"))\n+    return [(l.invoice.number, l.product.sku, l.qty, l.total) for l in lines]'
        },
        "Success.",
    ),
    T(
        "shell",
        "python manage.py shell -c 'from reports.bench import compare; compare(\"acct_4411\")'",
        "old: 88.4s  queries=61234\nnew:  2.1s  queries=1\nrows identical: True",
    ),
    A("88s → 2.1s, 61k queries → 1, rows identical for the largest account (acct_4411)."),
)

S(
    "code/implementation",
    "cursor",
    "Rewrite bash deploy script in Python",
    U(
        "can you port scripts/deploy.sh to python (scripts/deploy.py)? the bash is getting unreadable with all the jq. keep same flags --env and --dry-run"
    ),
    T(
        "read_file",
        "scripts/deploy.sh",
        '#!/usr/bin/env bash\nset -euo pipefail\nENV=${1:?env}\nDRY=${2:-}\nTAG=$(git rev-parse --short HEAD)\nSERVICES=$(jq -r \'.services[] | select(.envs | index("\'$ENV\'")) | .name\' deploy.json)\nfor s in $SERVICES; do\n  if [[ "$DRY" == "--dry-run" ]]; then echo "would deploy $s:$TAG"; else\n  kubectl -n $ENV set image deploy/$s $s=registry.acme.io/$s:$TAG; fi\ndone',
    ),
    T(
        "edit_file",
        "scripts/deploy.py",
        "Created scripts/deploy.py",
        old="",
        new='#!/usr/bin/env python3\nimport argparse, json, subprocess\n\ndef services_for(env: str) -> list[str]:\n    with open("deploy.json") as f:\n        return [s["name"] for s in json.load(f)["services"] if env in s["envs"]]\n\ndef main() -> None:\n    p = argparse.ArgumentParser()\n    p.add_argument("--env", required=True)\n    p.add_argument("--dry-run", action="store_true")\n    a = p.parse_args()\n    tag = subprocess.check_output(["git", "rev-parse", "--short", "HEAD"], text=True).strip()\n    for s in services_for(a.env):\n        if a.dry_run:\n            print(f"would deploy {s}:{tag}")\n        else:\n            subprocess.run(["kubectl", "-n", a.env, "set", "image", f"deploy/{s}", f"{s}=registry.acme.io/{s}:{tag}"], check=True)\n\nif __name__ == "__main__":\n    main()\n',
    ),
    T(
        "run_terminal_cmd",
        "diff <(bash scripts/deploy.sh staging --dry-run) <(python scripts/deploy.py --env staging --dry-run) && echo same",
        "same",
    ),
    A(
        "Ported. Note the bash version took positional args, so `--env` is a small interface change; dry-run output is identical for staging."
    ),
    U("ok delete the sh and update the Makefile target"),
    T(
        "run_terminal_cmd",
        "git rm -q scripts/deploy.sh && sed -i 's#bash scripts/deploy.sh $(ENV) #python scripts/deploy.py --env $(ENV) #' Makefile && grep deploy Makefile",
        "deploy:\n\tpython scripts/deploy.py --env $(ENV) $(if $(DRY),--dry-run)",
    ),
    A("Removed deploy.sh; `make deploy ENV=...` calls the Python script."),
)

S(
    "code/implementation",
    "aider",
    "Extract validation logic from giant Elixir controller",
    U(
        "UserController.create is 120 lines, most of it is param validation. pull that into an Ecto changeset in Accounts.User, controller should just call Accounts.register_user/1. it's a refactor, tests must stay green"
    ),
    A(
        'lib/my_app/accounts/user.ex\n<<<<<<< SEARCH\n  schema "users" do\n=======\n  def registration_changeset(user, attrs) do\n    user\n    |> cast(attrs, [:email, :name, :password])\n    |> validate_required([:email, :password])\n    |> validate_format(:email, ~r/^[^\\s]+@[^\\s]+$/)\n    |> validate_length(:password, min: 12)\n    |> unique_constraint(:email)\n    |> put_password_hash()\n  end\n\n  schema "users" do\n>>>>>>> REPLACE\n\nlib/my_app/accounts.ex\n<<<<<<< SEARCH\n  alias MyApp.Accounts.User\n=======\n  alias MyApp.Accounts.User\n\n  def register_user(attrs) do\n    %User{} |> User.registration_changeset(attrs) |> Repo.insert()\n  end\n>>>>>>> REPLACE\n\nlib/my_app_web/controllers/user_controller.ex: replaced the manual checks in `create/2` with a `case Accounts.register_user(params)`, rendering the changeset errors on `{:error, changeset}`.'
    ),
    U("/run mix test"),
    A(
        "..........................................\nFinished in 1.9 seconds (0.6s async, 1.3s sync)\n42 tests, 0 failures\n\nAll green. The controller's `create/2` is now 11 lines."
    ),
    U("nice, the error json format is still the same right?"),
    A(
        "Yes — `ErrorJSON.changeset/1` was already used for update/2, and the old manual errors used the same `%{errors: %{field => [msg]}}` shape; test `create returns 422 with errors` asserts the exact body and passes."
    ),
)

S(
    "code/implementation",
    "gemini-cli",
    "Convert class components to hooks",
    U(
        "Please convert the remaining class components in src/components/legacy (there are 3) to function components with hooks. We're on React 18."
    ),
    T(
        "run_shell_command",
        "grep -l 'extends React.Component' src/components/legacy/*.tsx",
        "src/components/legacy/Clock.tsx\nsrc/components/legacy/SearchBox.tsx\nsrc/components/legacy/UserCard.tsx",
    ),
    T(
        "read_file",
        "src/components/legacy/Clock.tsx",
        "export class Clock extends React.Component<{}, {now: Date}> {\n  timer?: number;\n  state = { now: new Date() };\n  componentDidMount() { this.timer = window.setInterval(() => this.setState({ now: new Date() }), 1000); }\n  componentWillUnmount() { clearInterval(this.timer); }\n  render() { return <time>{this.state.now.toLocaleTimeString()}</time>; }\n}",
    ),
    T(
        "write_file",
        "src/components/legacy/Clock.tsx",
        "Successfully wrote file.",
        content="export function Clock() {\n  const [now, setNow] = useState(() => new Date());\n  useEffect(() => {\n    const id = window.setInterval(() => setNow(new Date()), 1000);\n    return () => clearInterval(id);\n  }, []);\n  return <time>{now.toLocaleTimeString()}</time>;\n}",
    ),
    A(
        "Clock done. SearchBox used `componentDidUpdate` to debounce on prop change — that becomes a `useEffect` on `[query]` with a cleanup that clears the timeout. UserCard was pure render, so it's a straight conversion."
    ),
    T(
        "run_shell_command",
        "npx tsc --noEmit && npx vitest run src/components/legacy",
        " ✓ src/components/legacy/Clock.test.tsx (2)\n ✓ src/components/legacy/SearchBox.test.tsx (4)\n ✓ src/components/legacy/UserCard.test.tsx (1)\n Test Files  3 passed (3)",
    ),
    A("All three converted, typecheck clean, 7 tests pass."),
)

S(
    "code/implementation",
    "copilot",
    "Replace hand-rolled retry loops with a helper",
    U(
        "we have like 6 copies of the same retry loop in services/*.go (for i := 0; i < 3; i++ {... time.Sleep}). dedupe them into one helper in internal/retry, exponential backoff, ctx aware"
    ),
    T("run_in_terminal", "grep -rn 'for attempt := 0; attempt < 3' services/ | wc -l", "6"),
    T(
        "create_file",
        "internal/retry/retry.go",
        "File created.",
        content="package retry\n\n// Do calls fn until it succeeds, attempts run out, or ctx is done.\nfunc Do(ctx context.Context, attempts int, base time.Duration, fn func() error) error {\n\tvar err error\n\tfor i := 0; i < attempts; i++ {\n\t\tif err = fn(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\tselect {\n\t\tcase <-ctx.Done():\n\t\t\treturn ctx.Err()\n\t\tcase <-time.After(base << i):\n\t\t}\n\t}\n\treturn err\n}\n",
    ),
    A(
        "Replaced the six loops (billing, mailer, geo, search, avatar, webhook clients) with `retry.Do(ctx, 3, 200*time.Millisecond, ...)`. Two of them had slightly different sleeps (fixed 1s); they now use 200ms/400ms/800ms."
    ),
    T(
        "run_in_terminal",
        "go vet ./... && go test ./services/... ./internal/retry/...",
        "ok  \texample.com/app/internal/retry\t0.412s\nok  \texample.com/app/services/billing\t0.231s\nok  \texample.com/app/services/mailer\t0.118s\nok  \texample.com/app/services/geo\t0.097s",
    ),
    A(
        "Tests pass. Heads-up: the billing and webhook clients used a fixed 1s sleep before, so their total retry window shrinks from 3s to 1.4s."
    ),
)

# ---------------------------------------------------------------- code/pattern
S(
    "code/pattern",
    "claude-code",
    "Idiomatic error wrapping in Go",
    U(
        'whats the idiomatic way in go to add context to errors and still check for a specific one upstream? we do fmt.Errorf("failed: %v", err) everywhere and then errors.Is doesn\'t work'
    ),
    A(
        'Use `%w` instead of `%v`: `fmt.Errorf("load user %d: %w", id, err)` wraps the error so `errors.Is(err, sql.ErrNoRows)` and `errors.As(err, &pgErr)` see through it. Conventions that go with it:\n\n- lowercase message, no "failed to"/"error:" prefix — the chain reads `handle request: load user 42: sql: no rows in result set`\n- add context once per layer, describing what *this* function was doing\n- define sentinel errors (`var ErrNotFound = errors.New("not found")`) for conditions callers branch on; custom types when they need fields\n- don\'t wrap errors from a dependency you don\'t want to expose as API — then use `%v` deliberately\n\n```go\nfunc (r *Repo) User(ctx context.Context, id int64) (*User, error) {\n    u, err := r.q.GetUser(ctx, id)\n    if errors.Is(err, sql.ErrNoRows) {\n        return nil, ErrNotFound\n    }\n    if err != nil {\n        return nil, fmt.Errorf("get user %d: %w", id, err)\n    }\n    return u, nil\n}\n```'
    ),
    U("and if I need to wrap 2 errors at once?"),
    A(
        "Since Go 1.20 `fmt.Errorf` accepts multiple `%w` verbs, and `errors.Join(a, b)` combines errors; `errors.Is` matches either branch."
    ),
)

S(
    "code/pattern",
    "cursor",
    "Strategy pattern for shipping providers",
    U(
        "we have a big switch on carrier name (dhl, ups, fedex, dpd) in ShippingService.quote() and every new carrier means touching 5 methods. what pattern should I use here? show me with our code"
    ),
    T(
        "read_file",
        "src/shipping/ShippingService.ts",
        "quote(carrier: string, parcel: Parcel): Promise<Quote> {\n  switch (carrier) {\n    case 'dhl': return this.dhl.rate(parcel.weightKg, parcel.dest);\n    case 'ups': return this.ups.getRate({ lbs: parcel.weightKg * 2.2, zip: parcel.dest.zip });\n    ...\n  }\n}",
    ),
    A(
        "That's the textbook case for the Strategy pattern plus a registry: one interface, one class per carrier, and the service looks the strategy up by key instead of switching.\n\n```ts\nexport interface Carrier {\n  readonly id: string;\n  quote(p: Parcel): Promise<Quote>;\n  createLabel(p: Parcel): Promise<Label>;\n  track(no: string): Promise<TrackingEvent[]>;\n}\n\nclass UpsCarrier implements Carrier {\n  readonly id = 'ups';\n  constructor(private api: UpsClient) {}\n  quote(p: Parcel) { return this.api.getRate({ lbs: p.weightKg * 2.2, zip: p.dest.zip }).then(toQuote); }\n  ...\n}\n\nexport class ShippingService {\n  private byId: Map<string, Carrier>;\n  constructor(carriers: Carrier[]) { this.byId = new Map(carriers.map(c => [c.id, c])); }\n  private carrier(id: string) {\n    const c = this.byId.get(id);\n    if (!c) throw new UnknownCarrierError(id);\n    return c;\n  }\n  quote(id: string, p: Parcel) { return this.carrier(id).quote(p); }\n}\n```\n\nAdding a carrier is then one new class plus one line in the DI module. The unit conversion quirks (lbs for UPS) stay inside each adapter, which is also where they belong."
    ),
    U("isnt this just overengineering for 4 carriers?"),
    A(
        "With 4 carriers and 1 method, a switch is fine. You have 4 carriers × 5 methods with carrier-specific conversions in each branch — that's 20 places that change together. The pattern pays off once the per-carrier logic is spread over several methods, which is your case."
    ),
)

S(
    "code/pattern",
    "gemini-cli",
    "Builder vs functional options in Rust",
    U(
        "In Rust what's the common pattern for constructing a struct with many optional params? Our HttpClient::new takes 9 args now lol"
    ),
    A(
        'The idiomatic answer is the builder pattern:\n\n```rust\npub struct HttpClient { timeout: Duration, retries: u32, user_agent: String, proxy: Option<Url> }\n\n#[derive(Default)]\npub struct HttpClientBuilder { timeout: Option<Duration>, retries: Option<u32>, user_agent: Option<String>, proxy: Option<Url> }\n\nimpl HttpClientBuilder {\n    pub fn timeout(mut self, t: Duration) -> Self { self.timeout = Some(t); self }\n    pub fn retries(mut self, n: u32) -> Self { self.retries = Some(n); self }\n    pub fn proxy(mut self, u: Url) -> Self { self.proxy = Some(u); self }\n    pub fn build(self) -> Result<HttpClient, BuildError> {\n        Ok(HttpClient {\n            timeout: self.timeout.unwrap_or(Duration::from_secs(30)),\n            retries: self.retries.unwrap_or(3),\n            user_agent: self.user_agent.unwrap_or_else(|| concat!("acme/", env!("CARGO_PKG_VERSION")).into()),\n            proxy: self.proxy,\n        })\n    }\n}\n\nimpl HttpClient { pub fn builder() -> HttpClientBuilder { HttpClientBuilder::default() } }\n```\n\nVariants you\'ll see: by-value `self` (above, good for one-shot chains) vs `&mut self` (reqwest\'s style, convenient in loops/conditionals); a config struct with `..Default::default()` when all fields are public and there\'s no validation; `derive_builder`/`bon`/`typed-builder` crates to generate it. Functional options (Go style closures) exist in Rust but are rare.'
    ),
    U("ok and typestate builder, when is that worth it"),
    A(
        "When a missing required field should be a compile error instead of `build()` returning Err — e.g. `Request::builder().url(..)` being mandatory. It costs generic parameters in every signature, so use it for public library APIs with 1–2 required fields, not internal structs."
    ),
)

S(
    "code/pattern",
    "codex",
    "Repository pattern in our Django code?",
    U(
        "new dev on team wants to add a repository layer on top of django ORM (UserRepository etc) because that's what they did in their java job. is that a pattern that makes sense in django? look at how we do it in apps/orders to ground the answer"
    ),
    T(
        "shell",
        "ls apps/orders && sed -n 1,30p apps/orders/selectors.py",
        'admin.py  models.py  selectors.py  services.py  tests  views.py\ndef open_orders_for(customer: Customer) -> QuerySet[Order]:\n    return (Order.objects.filter(customer=customer, status__in=OPEN)\n            .select_related("shipping_address").order_by("-created"))',
    ),
    A(
        "You already use the Django-flavoured version of it: *selectors* (read queries) and *services* (writes with business rules), as in the HackSoft styleguide. A Java-style Repository wrapping the ORM usually fights Django: the model manager/QuerySet *is* the repository, and wrapping it hides lazy QuerySets, `select_related`, and composability (returning lists instead of QuerySets breaks pagination and filtering in DRF). Where a repository does make sense in Django: when a domain object is persisted somewhere that isn't the ORM (an external API, Redis), or when you want a pure domain layer with no Django imports — rare in a CRUD app. I'd suggest the new dev follows selectors.py/services.py and puts custom querying on a `QuerySet` subclass (`Order.objects.open().for_customer(c)`)."
    ),
)

S(
    "code/pattern",
    "cline",
    "useReducer pattern for complex form state",
    U(
        "my checkout form has 14 useState calls and they get out of sync (e.g. when shipping=pickup I have to reset address + slot + fee in 3 places). is there a better pattern?"
    ),
    A(
        "Yes — move the related state into one `useReducer` and model events, not setters. Derived values (fee) are computed, not stored.\n\n```tsx\ntype State = { method: 'delivery' | 'pickup'; address?: Address; slot?: Slot; email: string };\ntype Action =\n  | { type: 'methodChanged'; method: State['method'] }\n  | { type: 'addressSelected'; address: Address }\n  | { type: 'slotSelected'; slot: Slot };\n\nfunction reducer(s: State, a: Action): State {\n  switch (a.type) {\n    case 'methodChanged':\n      return a.method === 'pickup' ? { ...s, method: 'pickup', address: undefined, slot: undefined } : { ...s, method: 'delivery' };\n    case 'addressSelected': return { ...s, address: a.address, slot: undefined };\n    case 'slotSelected': return { ...s, slot: a.slot };\n  }\n}\n\nconst fee = state.method === 'pickup' ? 0 : feeFor(state.address, state.slot);\n```\n\nThe reset rules live in one place (the reducer), and it's trivially unit-testable without rendering. For the plain input fields (email, notes) `react-hook-form` is nicer; keep the reducer for the fields with cross-dependencies."
    ),
    U("should fee be in the reducer too?"),
    A(
        "No. It's fully derivable from method/address/slot; storing it is exactly what causes the out-of-sync bugs. Compute it in render (or `useMemo` if `feeFor` is expensive)."
    ),
)

S(
    "code/pattern",
    "copilot",
    "Transactional outbox in Spring Boot",
    U(
        "we publish to rabbit after saving to db in the same service method and sometimes the event is sent but the tx rolls back. someone said 'use transactional outbox'. how does that pattern look in spring boot concretely?"
    ),
    A(
        'The transactional outbox: instead of publishing inside the business transaction, you insert the event into an `outbox` table *in the same DB transaction* as the state change. A separate relay reads unsent outbox rows and publishes them, marking them sent. Either both the order and its event are committed, or neither.\n\n```java\n@Transactional\npublic Order place(PlaceOrder cmd) {\n    Order o = orders.save(Order.from(cmd));\n    outbox.save(new OutboxEvent("order.placed", o.getId(), json(o)));\n    return o;\n}\n\n@Scheduled(fixedDelay = 500)\n@Transactional\npublic void relay() {\n    for (OutboxEvent e : outbox.findTop100BySentAtIsNullOrderByIdAsc()) {\n        rabbit.convertAndSend("orders", e.getType(), e.getPayload());\n        e.markSent();\n    }\n}\n```\n\nGuarantees: at-least-once delivery (relay may crash after sending before marking), so consumers must be idempotent — include the outbox id as message id and dedupe. For >1 instance, lock rows with `FOR UPDATE SKIP LOCKED`. Alternatives to polling: Debezium reading the outbox via CDC, or Spring Modulith\'s event publication registry which implements this pattern for you.'
    ),
)

# ---------------------------------------------------------------- code/review
S(
    "code/review",
    "claude-code",
    "Review PR #482 rate limiter",
    U("review PR 482 pls, it adds the redis rate limiter. be picky"),
    T(
        "Bash",
        "gh pr diff 482",
        '+func (l *Limiter) Allow(ctx context.Context, key string) (bool, error) {\n+\tn, err := l.rdb.Incr(ctx, "rl:"+key).Result()\n+\tif err != nil {\n+\t\treturn true, nil\n+\t}\n+\tif n == 1 {\n+\t\tl.rdb.Expire(ctx, "rl:"+key, l.window)\n+\t}\n+\treturn n <= l.limit, nil\n+}',
    ),
    A(
        "Review of #482:\n\n1. **Race / stuck keys (blocking):** `INCR` and `EXPIRE` are two round trips. If the process dies or the EXPIRE fails after the first INCR, the key never expires and that client is limited forever. Use a Lua script or `SET key 0 EX window NX` + `INCR` in a MULTI.\n2. **Error swallowed:** on Redis errors you return `true, nil` (fail open) and drop the error. Failing open may be right, but log/metric it and return the error so the caller decides.\n3. **Fixed window burst:** a client can do 2×limit across a window boundary. Fine if documented; otherwise sliding window log/GCRA.\n4. **Key naming:** `\"rl:\"+key` — include the limiter name, two limiters sharing a key will collide.\n5. **Tests:** only the happy path; add a test with miniredis `FastForward` for expiry.\n6. Nit: `Expire`'s result is ignored.\n\nI'd request changes for 1 and 2."
    ),
    U("post it as a review comment requesting changes"),
    T(
        "Bash",
        "gh pr review 482 --request-changes --body-file /tmp/review482.md",
        "✓ Requested changes to pull request acme/gateway#482",
    ),
    A("Posted."),
)

S(
    "code/review",
    "codex",
    "Review my diff before I push",
    U("can you review my staged changes before I push? it's the CSV import for contacts"),
    T(
        "shell",
        "git diff --staged",
        "+def import_contacts(file, org):\n+    reader = csv.DictReader(io.TextIOWrapper(file, encoding='utf-8'))\n+    for row in reader:\n+        Contact.objects.create(org=org, email=row['email'], name=row.get('name', ''))\n+    return reader.line_num\n+\n+@login_required\n+def upload(request):\n+    n = import_contacts(request.FILES['f'], request.user.org)\n+    return JsonResponse({'imported': n})",
    ),
    A(
        "Comments:\n\n- **Return value is wrong:** `reader.line_num` counts physical lines including the header (and multi-line quoted fields), so `imported` is off by at least one.\n- **Not atomic:** an error on row 5000 leaves 4999 contacts. Wrap in `transaction.atomic()`, or collect and `bulk_create` (also much faster).\n- **No validation:** missing `email` column → KeyError → 500. Validate the header, and validate emails per row, returning a list of rejected rows.\n- **Duplicates:** importing the same file twice duplicates contacts; `bulk_create(..., ignore_conflicts=True)` with a unique (org, email) constraint, or update_or_create.\n- **Encoding:** Excel exports often have a BOM → first column becomes `\\ufeffemail`. Use `utf-8-sig`.\n- **Size:** no upload limit; a 2GB file is processed synchronously in the request. Consider a limit or a Celery task.\n- Missing `@require_POST`.\n\nThe first two I'd fix before pushing; the rest can be follow-ups."
    ),
    U("ok, only fix the count and the encoding for now, rest I make tickets"),
    T(
        "apply_patch",
        {
            "patch": "-    reader = csv.DictReader(io.TextIOWrapper(file, encoding='utf-8'))\n-    for row in reader:\n+    reader = csv.DictReader(io.TextIOWrapper(file, encoding='utf-8-sig'))\n+    n = 0\n+    for row in reader:\n         Contact.objects.create(org=org, email=row['email'], name=row.get('name', ''))\n-    return reader.line_num\n+        n += 1\n+    return n"
        },
        "Success.",
    ),
    A("Done."),
)

S(
    "code/review",
    "cursor",
    "Second opinion on Terraform module PR",
    U(
        'Colleague\'s PR changes our vpc module. I\'m not a terraform expert, can you look at the plan output and the diff and tell me if anything is dangerous?\n\n  # module.vpc.aws_subnet.private["eu-west-1a"] must be replaced\n-/+ resource "aws_subnet" "private" {\n      ~ cidr_block = "10.0.1.0/24" -> "10.0.16.0/20" # forces replacement\n  # module.vpc.aws_nat_gateway.this[0] will be destroyed\nPlan: 3 to add, 0 to change, 4 to destroy.'
    ),
    T(
        "run_terminal_cmd",
        "git diff origin/main -- modules/vpc | head -40",
        '-  for_each   = toset(var.azs)\n-  cidr_block = cidrsubnet(var.cidr, 8, index(var.azs, each.key) + 1)\n+  for_each   = toset(var.azs)\n+  cidr_block = cidrsubnet(var.cidr, 4, index(var.azs, each.key) + 1)\n-resource "aws_nat_gateway" "this" {\n-  count = length(var.azs)\n+resource "aws_nat_gateway" "this" {\n+  count = var.single_nat ? 1 : length(var.azs)\n+variable "single_nat" { default = true }',
    ),
    A(
        "Yes, two dangerous things:\n\n1. **Subnet replacement.** Changing the newbits from 8 to 4 changes every private subnet's CIDR, which forces replacement. AWS can't delete a subnet with ENIs in it (EKS nodes, RDS, Lambdas) — the apply will either fail halfway or, worse, destroy and recreate things attached to them. Growing subnets needs new subnets alongside, migrate, then remove.\n2. **`single_nat` defaults to true**, which destroys 2 of the 3 NAT gateways in every environment using the module, including prod. That's a cost saving but also removes AZ redundancy — and the public IPs change, which breaks partners that allowlist our egress IPs.\n\nAlso: no `moved`/`lifecycle` blocks, and the PR description doesn't mention either effect. I'd request changes: default `single_nat = false`, and split the CIDR change into a separate, planned migration."
    ),
)

S(
    "code/review",
    "aider",
    "Review Rust PR for unsafe usage",
    U("please review src/arena.rs changes from my coworker, focus on soundness"),
    A(
        "Looking at `Arena::alloc`:\n\n```rust\npub fn alloc<T>(&self, v: T) -> &mut T {\n    let layout = Layout::new::<T>();\n    let ptr = self.bump(layout.size()) as *mut T;\n    unsafe { ptr.write(v); &mut *ptr }\n}\n```\n\nIssues:\n1. **Alignment ignored (UB):** `bump` only uses `layout.size()`. Allocating a `u8` then a `u64` yields a misaligned `*mut u64`; `write` on it is UB. Pass `layout` and round the bump pointer up to `layout.align()`.\n2. **`&self` → `&mut T`:** fine for distinct allocations, but `bump` uses a `Cell<usize>` — make sure `Arena` is `!Sync` (it is, because of Cell — OK).\n3. **Drop never runs:** values with Drop (String, Vec) leak. Either document it, require `T: Copy`, or keep a drop list.\n4. **Overflow:** `self.pos.get() + size` can overflow on 32-bit with big T; use `checked_add`.\n5. Missing `// SAFETY:` comments.\n\nRun `cargo +nightly miri test` — it will flag #1 with the existing `mixed_sizes` test."
    ),
    U("thx, I'll forward to him"),
)

S(
    "code/review",
    "copilot",
    "Review SQL migration PR for locking issues",
    U(
        "reviewing a migration PR for our 300M row events table on postgres 14. is this safe to run during business hours?\n\nALTER TABLE events ADD COLUMN tenant_id bigint NOT NULL DEFAULT 0;\nCREATE INDEX idx_events_tenant ON events(tenant_id);\nALTER TABLE events ADD CONSTRAINT fk_tenant FOREIGN KEY (tenant_id) REFERENCES tenants(id);"
    ),
    A(
        "Line by line:\n\n1. `ADD COLUMN ... NOT NULL DEFAULT 0` — OK on PG 11+: constant defaults are stored in the catalog, no table rewrite. Brief ACCESS EXCLUSIVE lock only. Set `lock_timeout` so it doesn't queue behind a long query and block everything.\n2. `CREATE INDEX` without `CONCURRENTLY` — **not safe**: takes a SHARE lock and blocks all writes for the duration of building an index over 300M rows (likely tens of minutes). Use `CREATE INDEX CONCURRENTLY` (in its own migration, outside a transaction).\n3. `ADD CONSTRAINT ... FOREIGN KEY` — **not safe** as written: validates all 300M rows while holding a lock that blocks writes to `events`. Also every existing row has tenant_id 0 — does tenant 0 exist? If not the validation fails. Use `ADD CONSTRAINT ... NOT VALID` and later `VALIDATE CONSTRAINT` (which takes a weaker lock).\n\nVerdict: request changes — split into three migrations, with CONCURRENTLY and NOT VALID/VALIDATE."
    ),
    U("the framework (rails) wraps migrations in a transaction, does CONCURRENTLY still work"),
    A(
        "No — CONCURRENTLY can't run inside a transaction. In Rails add `disable_ddl_transaction!` to that migration and use `add_index :events, :tenant_id, algorithm: :concurrently`. Ask the author to do that in the PR."
    ),
)

S(
    "code/review",
    "gemini-cli",
    "Review Kotlin ViewModel before merge",
    U(
        "Can u review this viewmodel from the PR, I feel something off with coroutines but cant say what\n\nclass ProfileViewModel(private val repo: ProfileRepo) : ViewModel() {\n    val state = MutableStateFlow<ProfileState>(ProfileState.Loading)\n    fun load(id: String) {\n        GlobalScope.launch {\n            val p = repo.fetch(id)\n            state.value = ProfileState.Loaded(p)\n        }\n    }\n}"
    ),
    A(
        "Your feeling is right:\n\n1. **GlobalScope** — the coroutine outlives the ViewModel; leaving the screen doesn't cancel the request, and it can write into a dead ViewModel. Use `viewModelScope.launch`.\n2. **No error handling** — if `fetch` throws, the exception goes to the global handler (crash on Android) and state stays Loading forever. Catch and emit `ProfileState.Error`.\n3. **Mutable state exposed** — `state` is a public `MutableStateFlow`, so the UI can set it. Keep `private val _state` and expose `val state: StateFlow<ProfileState> = _state.asStateFlow()`.\n4. **Repeated `load` calls** race; the slower response wins. Keep the Job and cancel the previous one, or use `flatMapLatest` on an id flow.\n5. Dispatcher: fine if `repo.fetch` is main-safe (Retrofit suspend functions are).\n\n1–3 are must-fix; 4 depends on whether the id can change while on screen."
    ),
)

# ---------------------------------------------------------------- code/snippet
S(
    "code/snippet",
    "claude-code",
    "Regex for semver with prerelease",
    U("regex to match semver incl. prerelease and build meta, for a JS validator"),
    A(
        "The official one from semver.org, as a JS literal:\n\n```js\nconst SEMVER = /^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$/;\n\nSEMVER.test('1.4.0-rc.1+build.7'); // true\nSEMVER.test('01.4.0');             // false (leading zero)\n```\n\nGroups: 1–3 major/minor/patch, 4 prerelease, 5 build metadata."
    ),
)

S(
    "code/snippet",
    "codex",
    "SQL to find duplicate emails case-insensitively",
    U("postgres query: list users whose email is duplicated ignoring case, show all ids per email"),
    A(
        "```sql\nSELECT lower(email) AS email_ci,\n       array_agg(id ORDER BY created_at) AS ids,\n       count(*) AS n\nFROM users\nGROUP BY lower(email)\nHAVING count(*) > 1\nORDER BY n DESC;\n```\n\nIf you also want to ignore surrounding whitespace use `lower(btrim(email))` in both places."
    ),
    U("run it on the dev db"),
    T(
        "shell",
        'psql "$DEV_DATABASE_URL" -c "SELECT lower(email) AS email_ci, array_agg(id ORDER BY created_at) AS ids, count(*) n FROM users GROUP BY lower(email) HAVING count(*) > 1 ORDER BY n DESC LIMIT 5"',
        "      email_ci       |     ids      | n\n---------------------+--------------+---\n anna.k@example.org  | {112,9981}   | 2\n ops@acme.test       | {3,77}       | 2\n(2 rows)",
    ),
    A("Two duplicated emails on dev."),
)

S(
    "code/snippet",
    "cursor",
    "One-liner to delete merged git branches",
    U("give me a one liner to delete all local branches already merged into main except main/develop"),
    A(
        "```sh\ngit branch --merged main | grep -vE '^\\*|\\b(main|develop)$' | xargs -r git branch -d\n```\n\n`-d` (not `-D`) refuses to delete anything unmerged, so it's safe; `xargs -r` avoids running with no args. Add `git fetch -p` first if you also want remote-tracking refs of deleted remote branches pruned."
    ),
)

S(
    "code/snippet",
    "gemini-cli",
    "jq to extract failing test names from JSON report",
    U(
        "i have a jest json report (jest --json > r.json). need the names of failed tests, one per line, with file. jq pls"
    ),
    A(
        '```sh\njq -r \'.testResults[] | .name as $f | .assertionResults[] | select(.status == "failed") | "\\($f): \\(.fullName)"\' r.json\n```'
    ),
    U("file path is absolute, can u make it relative to cwd"),
    A(
        '```sh\njq -r --arg cwd "$PWD/" \'.testResults[] | (.name | ltrimstr($cwd)) as $f | .assertionResults[] | select(.status == "failed") | "\\($f): \\(.fullName)"\' r.json\n```'
    ),
    T(
        "run_shell_command",
        'jq -r --arg cwd "$PWD/" \'.testResults[] | (.name | ltrimstr($cwd)) as $f | .assertionResults[] | select(.status == "failed") | "\\($f): \\(.fullName)"\' r.json',
        "src/cart/cart.test.ts: Cart applies coupon once\nsrc/api/user.test.ts: GET /user returns 404 for unknown id",
    ),
    A("Works: two failing tests."),
)

S(
    "code/snippet",
    "cline",
    "Python script to resize images in folder",
    U(
        "quick script: resize all jpg/png in a folder to max 1600px on the long side, keep aspect, write to ./out, use pillow"
    ),
    T(
        "write_to_file",
        "resize.py",
        "File created.",
        content="import sys\nfrom pathlib import Path\nfrom PIL import Image, ImageOps\n\nsrc = Path(sys.argv[1] if len(sys.argv) > 1 else '.')\nout = Path('out'); out.mkdir(exist_ok=True)\nfor p in src.iterdir():\n    if p.suffix.lower() not in {'.jpg', '.jpeg', '.png'}:\n        continue\n    with Image.open(p) as im:\n        im = ImageOps.exif_transpose(im)\n        im.thumbnail((1600, 1600))\n        im.save(out / p.name, quality=88, optimize=True)\n        print(p.name, im.size)\n",
    ),
    A(
        "`resize.py` — run `python resize.py ./photos`. `thumbnail` keeps aspect and never upscales; `exif_transpose` keeps phone photos from ending up sideways."
    ),
    T(
        "execute_command",
        "python resize.py ~/Desktop/shoot",
        "IMG_0412.jpg (1600, 1067)\nIMG_0413.jpg (1067, 1600)\nlogo.png (800, 320)",
    ),
    A("Done, 3 images in ./out."),
)

S(
    "code/snippet",
    "copilot",
    "kubectl command to get pods restarting most",
    U("kubectl cmd to list pods in all namespaces sorted by restart count, top 10"),
    A(
        "```sh\nkubectl get pods -A --sort-by='.status.containerStatuses[0].restartCount' --no-headers | tail -10\n```\n\nThat sorts ascending by the first container's restarts. For multi-container pods, summing all containers:\n\n```sh\nkubectl get pods -A -o json | jq -r '.items[] | [.metadata.namespace, .metadata.name, ([.status.containerStatuses[]?.restartCount] | add // 0)] | @tsv' | sort -k3 -nr | head -10\n```"
    ),
    T(
        "run_in_terminal",
        "kubectl get pods -A -o json | jq -r '.items[] | [.metadata.namespace, .metadata.name, ([.status.containerStatuses[]?.restartCount] | add // 0)] | @tsv' | sort -k3 -nr | head -3",
        "monitoring\tloki-0\t41\npayments\tledger-7c9f6d-xk2pq\t12\nkube-system\tcoredns-5d78c9869d-abcde\t3",
    ),
)
# ---------------------------------------------------------------- architecture/design
S(
    "architecture/design",
    "claude-code",
    "Design ingestion pipeline for IoT telemetry",
    U(
        "I need to design the backend for ~20k IoT devices sending telemetry every 10s (temp, humidity, battery). Needs: live dashboard, 2 years history, alerts when threshold crossed. We're on AWS, team of 4, mostly python. Sketch the components, how data flows, and where the boundaries are. No code yet."
    ),
    A(
        'Load first: 20k devices / 10 s = 2k msg/s, ~200 bytes each → ~35 GB/day raw.\n\n**Components and flow**\n1. **Edge → AWS IoT Core (MQTT).** Device auth with X.509 certs; topic `t/{tenant}/{device}`. IoT Core absorbs connection management, which you don\'t want to own.\n2. **IoT rule → Kinesis Data Stream** (4 shards is ample). This is the boundary between "device world" and "our world": everything downstream reads from the stream, nothing talks to devices directly.\n3. **Normaliser (Lambda or a small ECS consumer):** validates schema, converts units, enriches with device metadata, writes to two sinks:\n   - **Timestream / TimescaleDB** for hot queries (last 30 days, downsampled rollups kept 2 y)\n   - **S3 (Parquet via Firehose)** as the raw archive → Athena for ad-hoc history.\n4. **Alerting:** a separate consumer on the same stream, keeping per-device state (last value, hysteresis) in DynamoDB; emits to SNS/EventBridge. Separate so a slow alert path can\'t lag the dashboard.\n5. **Live dashboard:** API (FastAPI) reading rollups; push via WebSocket fed from the normaliser through Redis pub/sub, or API Gateway WebSockets.\n6. **Device registry** (Postgres): devices, tenants, thresholds. The only component with relational data; owned by the API service.\n\n**Boundaries**\n- Ingest (IoT Core → stream) has no business logic.\n- Each consumer owns its store; no service reads another\'s tables.\n- Thresholds flow from registry to alerting via change events, not by alerting querying Postgres per message.'
    ),
    U("why both timestream and s3, isn't that duplicate"),
    A(
        "Different access patterns and costs: the hot store answers dashboard queries in ms but is expensive per GB for 2 years of raw 10-second data; S3 Parquet is cheap and replayable — if the normaliser has a bug you can reprocess from the archive. The hot store keeps raw data 30 days plus rollups; the archive keeps everything."
    ),
    U("ok. draw it as mermaid so I can put it in the design doc"),
    A(
        "```mermaid\nflowchart LR\n  D[Devices] -->|MQTT| IOT[AWS IoT Core]\n  IOT -->|rule| K[(Kinesis)]\n  K --> N[Normaliser]\n  K --> AL[Alerting]\n  N --> TS[(Timestream)]\n  N --> F[Firehose] --> S3[(S3 Parquet)]\n  N --> R[(Redis pub/sub)] --> API[FastAPI + WS]\n  AL --> DDB[(DynamoDB state)]\n  AL --> SNS[SNS/EventBridge]\n  REG[(Postgres registry)] --> API\n  REG -.threshold events.-> AL\n```"
    ),
)

S(
    "architecture/design",
    "codex",
    "Module boundaries for splitting monolith",
    U(
        "Our Rails monolith has app/models with 180 models. We want to introduce module boundaries (not microservices!) using packwerk. Look at the code and propose packages and which depends on which."
    ),
    T(
        "shell",
        "ls app/models | sed 's/\\.rb//' | head -60 | tr '\\n' ' '; echo; grep -rhoE 'belongs_to :[a-z_]+' app/models | sort | uniq -c | sort -rn | head -12",
        "account address adjustment api_key audit_event campaign cart cart_item coupon credit_note customer email_template invoice invoice_line ledger_entry newsletter order order_item payment payment_method plan product product_image refund segment shipment stock_level subscription tax_rate user warehouse webhook_endpoint ...\n  61 belongs_to :account\n  22 belongs_to :order\n  17 belongs_to :customer\n  14 belongs_to :product\n   9 belongs_to :invoice\n   8 belongs_to :subscription",
    ),
    A(
        'Proposed packs (each `packs/<name>` with its own app/ dirs):\n\n| Pack | Owns | May depend on |\n|---|---|---|\n| `platform` | account, user, api_key, audit_event | — |\n| `catalog` | product, product_image, stock_level, warehouse | platform |\n| `ordering` | cart, cart_item, order, order_item, coupon | platform, catalog |\n| `billing` | invoice, invoice_line, payment, refund, credit_note, ledger_entry, tax_rate, plan, subscription | platform, ordering (public API only) |\n| `fulfilment` | shipment, address | platform, ordering |\n| `marketing` | campaign, segment, newsletter, email_template | platform, customer read API |\n| `integrations` | webhook_endpoint | everything, via events only |\n\nRules: dependencies point "down" toward platform; no cycles. `billing → ordering` only via `Ordering::Api.order_totals(order_id)`, never `Order.find`. Fulfilment and marketing react to `order.placed` via ActiveSupport::Notifications rather than being called by ordering, which removes the current ordering → shipment callback chain.\n\n`customer` is the awkward one: 17 belongs_to from across the app. Put it in platform for now.\n\nStart with `enforce_dependencies: true`, `enforce_privacy: false`, record the existing violations in `package_todo.yml`, then burn them down.'
    ),
)

S(
    "architecture/design",
    "cursor",
    "Offline-first sync design for mobile app",
    U(
        "our flutter field-inspection app must work offline for days (no signal in basements). inspectors create/edit inspections + photos, syncs when online. two inspectors can edit the same site. how should the sync architecture look? server is django rest"
    ),
    A(
        "**Client**\n- Local DB (drift/SQLite) is the source of truth for the UI; the UI never waits for the network.\n- Every local change is written as a row in an `outbox` table (op, entity, entity_id, payload, client_ts, base_version) in the same local transaction.\n- Photos: stored as files, uploaded separately (resumable, S3 presigned multipart); the inspection references them by client-generated UUID, so records can sync before the photo bytes do.\n\n**IDs:** client-generated UUIDv7 for everything — no temp-id remapping.\n\n**Sync protocol (two endpoints)**\n- `POST /sync/push`: batch of outbox ops. Server applies each with optimistic concurrency (`base_version`); returns accepted / conflict per op.\n- `GET /sync/pull?since=<cursor>`: changes since a server-side monotonically increasing change sequence (not timestamps — device clocks lie).\n\n**Conflicts:** field-level merge. An inspection is mostly independent fields (checklist items); two inspectors editing different items merge cleanly. Same field edited by both → last-writer-wins by server receive order, but the losing value is kept in a `conflicts` table and shown to the inspector. Checklist items are separate rows, not one JSON blob, so merges are granular.\n\n**Server:** a `changes` log table written in the same transaction as the model update (or via a DB trigger), which the pull endpoint reads. Deletes are tombstones.\n\n**Boundaries:** the sync layer is a separate Django app with its own endpoints; domain apps emit changes through one function, `record_change()`."
    ),
    U("would you use CRDTs instead?"),
    A(
        "Not for this. Your data is structured records with few concurrent editors per site, and you want human-visible conflicts for audit; CRDTs shine for collaborative text and high-concurrency editing, and they make server-side validation and reporting harder."
    ),
)

S(
    "architecture/design",
    "aider",
    "Plugin system architecture for CLI tool",
    U(
        "want to make our python CLI (devkit) extensible by plugins from other teams. how should the plugin architecture look? discovery, isolation, versioning of the api"
    ),
    A(
        '**Discovery:** entry points (`[project.entry-points."devkit.plugins"]`), loaded with `importlib.metadata.entry_points(group=...)`. No directory scanning, no config lists — installing the package is registering it.\n\n**Contract:** a small, versioned `devkit.plugin` API module — the *only* module plugins may import from devkit:\n```python\nclass Plugin(Protocol):\n    api_version: int\n    def register(self, r: Registry) -> None: ...\n```\n`Registry` offers `add_command(click.Command)`, `add_check(name, fn)`, `on(event, handler)`. Core internals stay private (underscore modules) so you can refactor freely.\n\n**Versioning:** `API_VERSION = 2`; core supports N and N-1, skips incompatible plugins with a warning. Plugins declare `devkit>=2,<3` as dependency.\n\n**Isolation:** in-process (simple, fast). Each plugin load is wrapped: an import error or exception in `register` disables that plugin with a message, never crashes devkit. `devkit plugins list` shows status. Process isolation (subprocess + JSON protocol like pre-commit) is only worth it if plugins can be in other languages.\n\n**Lazy loading:** import plugin modules only when their command runs, to keep `devkit --help` fast.\n\nLayering: `cli` → `core` ← `plugin api` ← plugins.'
    ),
)

S(
    "architecture/design",
    "gemini-cli",
    "Multi-tenant data isolation for SaaS",
    U(
        "We are building a B2B SaaS in Node/TS + Postgres, expect 50-500 tenants, a few enterprise ones want 'their data separated'. how to structure tenancy in the system? schema per tenant, db per tenant, row level? describe the design we should go with and how the request flows"
    ),
    A(
        "Design: **shared database, shared schema, `tenant_id` on every tenant-owned table, enforced by Postgres Row-Level Security**, with the option to place an enterprise tenant on its own database instance (same schema) — a \"cell\".\n\n**Request flow**\n1. Auth middleware resolves the tenant from the JWT (`org_id` claim) — never from a header or subdomain alone.\n2. A per-request DB connection from the pool runs `SET LOCAL app.tenant_id = $1` inside the transaction.\n3. RLS policy on each table: `USING (tenant_id = current_setting('app.tenant_id')::uuid)`. Forgetting a WHERE clause in app code can no longer leak data.\n4. The app role is not the table owner and has no BYPASSRLS; migrations use a separate role.\n\n**Routing:** a `tenant_directory` table maps tenant → database URL. 99% point to the shared cluster; enterprise tenants with a separation requirement get a dedicated cluster. The data layer picks the pool from the directory, so code is identical.\n\n**Other pieces:** background jobs carry tenant_id in the payload and set it the same way; caches prefix keys with tenant; object storage uses `s3://bucket/{tenant}/...` with IAM conditions; analytics exports are per tenant.\n\nSchema-per-tenant is the option I'd avoid at 500 tenants: migrations × 500, connection pool per schema, pg_catalog bloat."
    ),
)

S(
    "architecture/design",
    "copilot",
    "Event flow between order and inventory services",
    U(
        "we have order-service and inventory-service (both java, kafka between them). currently order calls inventory REST synchronously to reserve stock and it times out under load. how should the interaction be designed with events? include topics and what each service owns"
    ),
    A(
        "**Ownership**\n- order-service owns orders and their state machine (PENDING → RESERVED → CONFIRMED / REJECTED).\n- inventory-service owns stock and reservations. Nobody else writes stock.\n\n**Topics**\n- `orders.events` (producer: order): `OrderPlaced{orderId, lines}`, `OrderCancelled`\n- `inventory.events` (producer: inventory): `StockReserved{orderId}`, `StockReservationFailed{orderId, reason}`, `StockReleased`\n\n**Flow (choreographed saga)**\n1. Client POST /orders → order-service stores PENDING and writes `OrderPlaced` via outbox, returns 202 + order id.\n2. inventory consumes `OrderPlaced`, reserves atomically in its DB (idempotent on orderId), emits `StockReserved` or `StockReservationFailed`.\n3. order consumes, moves to RESERVED or REJECTED; the UI polls/gets a push.\n4. Payment failure or timeout → `OrderCancelled` → inventory releases.\n\n**Keys & ordering:** key both topics by orderId so events of one order are ordered per partition. Reservation expiry (15 min) in inventory, so lost events can't hold stock forever.\n\nThe synchronous call disappears; inventory can be slow or down and orders are still accepted as PENDING."
    ),
)

# ---------------------------------------------------------------- architecture/decision
S(
    "architecture/decision",
    "claude-code",
    "Write ADR: move from REST polling to webhooks",
    U(
        "we decided in the meeting today: partners will get webhooks instead of polling /changes. write the ADR in docs/adr following our template, number it next. reasons: polling is 70% of our API traffic, partners want lower latency. rejected: websockets (partners are server-side batch systems), SSE. consequence: we need retries + signing + a dashboard to see deliveries"
    ),
    T(
        "Bash",
        "ls docs/adr | tail -3 && head -20 docs/adr/0000-template.md",
        "0012-use-opentelemetry.md\n0013-split-read-replica.md\n0014-tenant-id-in-jwt.md\n# NNNN Title\n\n- Status: proposed | accepted | superseded by NNNN\n- Date:\n- Deciders:\n\n## Context\n## Decision\n## Alternatives considered\n## Consequences",
    ),
    T(
        "Write",
        "docs/adr/0015-partner-webhooks-replace-polling.md",
        "File created successfully at: docs/adr/0015-partner-webhooks-replace-polling.md",
        content="# 0015 Partner webhooks replace polling of /changes\n\n- Status: accepted\n- Date: 2024-04-18\n- Deciders: platform team, partner integrations\n\n## Context\nPartners poll GET /changes every few seconds; polling is ~70% of API traffic, and changes reach partners with up to one poll interval of delay.\n\n## Decision\nWe push changes to partners as HTTPS webhooks (JSON, HMAC-SHA256 signed), delivered at least once with exponential retries for 24 h. /changes stays available read-only for reconciliation.\n\n## Alternatives considered\n- WebSockets: partners are server-side batch systems behind firewalls; long-lived connections are unwelcome.\n- Server-Sent Events: same connection problem; no delivery guarantees.\n- Keep polling with ETags: reduces payload, not request count.\n\n## Consequences\n- We must build retries, signing, and a delivery log/dashboard.\n- Partners must expose an endpoint and handle duplicates (idempotency by event id).\n- Polling traffic should drop once partners migrate; /changes deprecation is a separate decision.\n",
    ),
    A(
        "Wrote ADR 0015 (`docs/adr/0015-partner-webhooks-replace-polling.md`), status accepted. I added that /changes stays for reconciliation — drop that line if that wasn't decided."
    ),
)

S(
    "architecture/decision",
    "cursor",
    "Event sourcing only for the ledger",
    U(
        "after 2 weeks of back and forth we landed on: event sourcing ONLY for the ledger bounded context, everything else stays CRUD. can you help me write this decision so people stop reopening it? include why not everywhere"
    ),
    A(
        '# ADR-021: Event sourcing for the Ledger context only\n\n**Status:** Accepted (2024-09-03)\n\n**Context.** The ledger must be auditable to the cent, answer "what was the balance on date X" and support corrections as compensating entries — never in-place edits. Other contexts (catalog, CRM, settings) are CRUD-shaped and change often. The team has limited experience with event sourcing.\n\n**Decision.** The Ledger context stores its state as an append-only stream of domain events (`EntryPosted`, `EntryReversed`, `AccountOpened`) in Postgres (`ledger_events`, one stream per account), with projections for balances. All other contexts remain CRUD with ordinary tables. Other contexts interact with the ledger only through its command API and its published integration events.\n\n**Why not everywhere.** Event sourcing costs us event versioning/upcasting, projection rebuilds, eventual consistency in read models and a steeper onboarding curve. Those costs buy auditability and temporal queries, which only the ledger needs. Audit needs elsewhere are met by the existing audit_log table.\n\n**Consequences.**\n- Ledger events are a public contract inside the ledger team; schema changes need upcasters.\n- Reporting reads projections, never the event table directly.\n- Revisiting requires a new ADR superseding this one.\n\nShall I put it in docs/architecture/decisions/?'
    ),
    U("yes"),
    T(
        "edit_file",
        "docs/architecture/decisions/021-event-sourcing-ledger-only.md",
        "Created file",
        old="",
        new="# ADR-021: Event sourcing for the Ledger context only\n...",
    ),
    A("Saved as docs/architecture/decisions/021-event-sourcing-ledger-only.md and linked from the index."),
)

S(
    "architecture/decision",
    "codex",
    "Supersede ADR: back to a single Postgres",
    U(
        "ADR 0007 said we split read models into Elasticsearch. We're reverting that: postgres full text search is good enough for our 2M docs and ES ops is killing us. Write 0019 superseding 0007 and mark 0007 as superseded."
    ),
    T(
        "shell",
        "sed -n 1,8p docs/adr/0007-elasticsearch-read-models.md",
        "# 7. Elasticsearch for search read models\n\nDate: 2022-11-02\n\n## Status\n\nAccepted\n",
    ),
    T(
        "apply_patch",
        {
            "patch": "*** Update File: docs/adr/0007-elasticsearch-read-models.md\n-Accepted\n+Superseded by [19. Search on Postgres full-text](0019-search-on-postgres-fts.md)\n*** Add File: docs/adr/0019-search-on-postgres-fts.md\n+# 19. Search on Postgres full-text\n+\n+Date: 2024-07-22\n+\n+## Status\n+\n+Accepted. Supersedes [7](0007-elasticsearch-read-models.md).\n+\n+## Context\n+ADR 7 introduced Elasticsearch read models. Since then: 2M documents (projected 4M in 2 years); ES cluster upgrades, reindexing and sync drift took ~20% of one engineer's time; 3 incidents in 2024 caused by the sync pipeline. Measured: Postgres tsvector + GIN on a copy of prod answers our top 50 queries at p95 38 ms.\n+\n+## Decision\n+Search runs on Postgres full-text search (generated tsvector columns, GIN indexes, ts_rank). The Elasticsearch cluster and the sync workers are removed.\n+\n+## Consequences\n+- One less datastore to operate; no sync lag.\n+- We lose fuzzy matching and per-language analyzers beyond what pg dictionaries offer; pg_trgm covers typo tolerance for titles.\n+- If we exceed ~20M docs or need relevance tuning, revisit with a new ADR.\n"
        },
        "Success. Updated the following files:\nM docs/adr/0007-elasticsearch-read-models.md\nA docs/adr/0019-search-on-postgres-fts.md",
    ),
    A(
        "Done: ADR 0019 records the move back to Postgres FTS and 0007's status now points to it. The p95 of 38 ms is from `bench/search_pg.md` in the repo (run on a prod copy in June) — please double-check it's still current."
    ),
)

S(
    "architecture/decision",
    "gemini-cli",
    "GraphQL gateway out, BFFs in",
    U(
        "so we've been arguing for a month about the graphql federation gateway vs per-client BFFs. the decision is made: BFFs (one for web, one for mobile), the gateway is removed by Q3. I need the architecture decision record, short, and a note for the mobile team about what changes for them"
    ),
    A(
        "**ADR 031 — Replace the GraphQL federation gateway with per-client BFFs**\n\nStatus: Accepted, 2024-05-14. Removal of the gateway by end of Q3.\n\nContext: The federated gateway couples all teams' subgraph releases, composition failures blocked deploys 6 times this year, and mobile and web need different shapes and caching.\n\nDecision: Two backend-for-frontend services, `web-bff` (owned by web team) and `mobile-bff` (owned by mobile team), each calling domain services over REST/gRPC. Domain services stop exposing subgraphs. No shared gateway.\n\nConsequences: some aggregation logic is duplicated between BFFs (accepted); each client team owns its API and its releases; schema composition checks go away; cross-cutting concerns (auth, rate limit) move to the API gateway in front of both BFFs.\n\n---\n\n**Note for the mobile team**\n- You'll own `mobile-bff` (Kotlin/Ktor template ready in platform-templates).\n- The GraphQL endpoint keeps working until 30 Sept; migrate screen by screen.\n- The app can ask for exactly the payloads it needs — e.g. the home feed in one call.\n- Auth is unchanged (same tokens, validated at the edge)."
    ),
)

S(
    "architecture/decision",
    "cline",
    "Document decision on sync vs async image processing",
    U(
        "pls write down the decision we took in #arch slack: image thumbnails will be generated async via the job queue, not in the upload request. Reasons in the thread: uploads of 40MB raw files time out at the LB (60s), and the worker can scale separately. Status accepted, deciders: Priya, Tomás, me (Jun). Put in docs/decisions like the others"
    ),
    T(
        "execute_command",
        "ls docs/decisions/",
        "2023-10-cdn-provider.md\n2024-01-feature-flags-service.md\n2024-03-monorepo.md",
    ),
    T(
        "read_file",
        "docs/decisions/2024-03-monorepo.md",
        "# Monorepo for web and api\nStatus: accepted · Deciders: ... · Date: 2024-03-05\n\n## Problem\n## Decision\n## Why\n## What we give up",
    ),
    T(
        "write_to_file",
        "docs/decisions/2024-06-async-thumbnails.md",
        "File created.",
        content="# Thumbnails are generated asynchronously\nStatus: accepted · Deciders: Priya, Tomás, Jun · Date: 2024-06-20\n\n## Problem\nThumbnails are generated inside the upload request. Raw uploads up to 40 MB take longer than the load balancer's 60 s timeout, so uploads fail although the file was stored.\n\n## Decision\nThe upload request only stores the original and enqueues a `make_thumbnails` job. Workers generate thumbnails; the UI shows a placeholder until `thumbnails_ready` is set.\n\n## Why\n- Upload requests finish in seconds regardless of image size.\n- Thumbnail workers scale independently of the web tier.\n\n## What we give up\n- Thumbnails aren't there immediately after upload; clients must handle the placeholder state.\n- One more moving part (queue + worker) to monitor.\n",
    ),
    A("Written to docs/decisions/2024-06-async-thumbnails.md in the same format as the monorepo one."),
)

S(
    "architecture/decision",
    "aider",
    "ADR for adopting hexagonal architecture in billing service",
    U(
        "Write ADR-0009 for billing-service: we adopt ports and adapters (hexagonal) for new code. Domain has no framework imports, adapters for stripe, postgres, http. Existing code migrates opportunistically. Decided by backend guild 12 June."
    ),
    A(
        "docs/adr/0009-hexagonal-architecture-billing.md\n<<<<<<< SEARCH\n=======\n# ADR-0009: Ports and adapters for billing-service\n\n- Status: Accepted\n- Date: 2024-06-12\n- Deciders: Backend guild\n\n## Context\nBilling logic is spread across Spring controllers, JPA entities and the Stripe SDK callbacks. Tests need a database and Stripe mocks, and switching payment providers (planned for 2025) would touch most files.\n\n## Decision\nNew billing code follows ports and adapters:\n- `billing.domain`: entities, value objects, domain services. No Spring, JPA or Stripe imports (enforced by an ArchUnit test).\n- `billing.application`: use cases, defining ports (`PaymentGateway`, `InvoiceRepository`, `Clock`).\n- `billing.adapters`: `stripe`, `persistence` (JPA), `web` (REST controllers) implementing or calling ports.\nExisting code is migrated when it is touched, not in a big-bang rewrite.\n\n## Consequences\n- Domain and use cases are unit-testable without Spring context.\n- More mapping code between JPA entities and domain objects.\n- A second payment provider becomes a new adapter.\n- Two styles coexist during migration; the ArchUnit rule only covers the new packages.\n>>>>>>> REPLACE"
    ),
)

# ---------------------------------------------------------------- architecture/tradeoff
S(
    "architecture/tradeoff",
    "claude-code",
    "Monolith vs microservices for new product",
    U(
        "We're starting a new product (marketplace, 3 devs, launch in 6 months). CTO wants microservices from day 1 'so we don't have to migrate later'. Help me lay out the tradeoffs honestly, I'll present both sides on thursday"
    ),
    A(
        '**Microservices from day 1**\n+ Independent deploys and scaling per service; clear ownership boundaries; polyglot possible; a later team split is cheap.\n− With 3 devs, each owns several services: the overhead (CI per service, service discovery, distributed tracing, contract tests, network failure handling) is paid per service, by the same 3 people.\n− Boundaries drawn before you understand the domain are usually wrong; moving a boundary between services is far more expensive than between modules.\n− Distributed transactions appear immediately (order + payment + inventory across services → sagas).\n− Slower feature work in the 6 months that matter most.\n\n**Modular monolith**\n+ One deploy, one DB, ACID transactions, simple local dev; refactoring boundaries is a code move.\n+ Enforced module boundaries (packages, dependency rules, no cross-module table access) keep the later extraction path open.\n− Scaling is all-or-nothing (rarely a problem at launch scale); one bad deploy affects everything; discipline needed or it becomes a big ball of mud.\n\n**The "avoid migrating later" argument:** migrating a well-modularised monolith is a known, incremental process (strangler). Fixing wrong service boundaries is the more expensive migration.\n\nWhere microservices would win: independently scaling hot paths (search), very different reliability needs (payments), or multiple teams — none apply at 3 devs.\n\nSuggested framing: modular monolith with 2–3 conditions that trigger extracting a service, written down now.'
    ),
    U("what would these trigger conditions be concretely"),
    A(
        "Examples: (1) a module needs a different scaling profile — e.g. search at >10× the request rate of the rest; (2) a second team owns a module and deploy coordination costs more than a day per sprint; (3) a compliance boundary (PCI scope for payments). Write them with numbers so the discussion is about data later."
    ),
)

S(
    "architecture/tradeoff",
    "cursor",
    "Pricing cache: Redis or Caffeine per pod",
    U(
        "our product API reads pricing from postgres on every request (~3k rps). we want caching. option a: redis shared cache. option b: in-process caffeine cache per pod (we have 12 pods). prices change ~100 times/day and must be consistent within 5s. what are the tradeoffs"
    ),
    A(
        "**Redis (shared)**\n+ One copy: invalidate once on price change, all pods see it immediately — easy to meet the 5 s bound.\n+ Cache survives pod restarts/deploys; no cold start storm on Postgres.\n− Network hop on every read (~0.3–1 ms), serialization cost; a new critical dependency (Redis down → fall back to Postgres at 3k rps?).\n− Operational cost: HA setup, memory sizing, monitoring.\n\n**Caffeine in-process (per pod)**\n+ Nanosecond reads, no network, no new infrastructure.\n− 12 copies: invalidation must reach every pod. Options: TTL ≤ 5 s (simple; 12 pods × N keys refresh every 5 s — at your key count probably fine), or broadcast invalidation (Postgres LISTEN/NOTIFY, Kafka) which adds complexity and a failure mode where one pod misses a message.\n− Cold cache after each deploy; memory per pod.\n\n**For your numbers:** 100 changes/day is very low write rate, and the 5 s staleness bound is generous. A local cache with a 5 s TTL (or `refreshAfterWrite` 4 s) gives bounded staleness with zero new infra; Postgres load drops from 3k rps to roughly (keys × 12 pods / 5 s). Redis buys you instant invalidation, which you don't need, at the cost of a new dependency.\n\nIf pricing ever needs strict consistency (checkout), read through to Postgres for that path only."
    ),
    U("how many keys would make local TTL bad?"),
    A(
        "Refresh load = keys × pods / TTL. With 12 pods and 5 s, 50k hot keys would be ~120k queries/s — worse than no cache. Below ~1k hot keys it's ~2.4k qps of cheap PK lookups, still roughly today's load but spread evenly; below a few hundred keys it's negligible. If you have many keys, batch refresh per price list instead of per key."
    ),
)

S(
    "architecture/tradeoff",
    "gemini-cli",
    "gRPC vs REST for internal services",
    U(
        "for internal service to service calls in our platform (go + some python), is it worth moving from REST/JSON to gRPC? pros and cons for us pls, we have ~25 services, one team does most infra"
    ),
    A(
        "Pros of gRPC for you:\n- Contract-first `.proto` files with generated Go and Python clients → no hand-written client drift, breaking changes caught by `buf breaking` in CI.\n- Binary protobuf + HTTP/2 multiplexing: lower latency and CPU for chatty internal calls; streaming when needed.\n- Deadlines/cancellation propagate natively.\n\nCons:\n- Tooling/debugging: no curl; need grpcurl, reflection, and your API gateway/LB must speak HTTP/2 end to end (ALB supports gRPC; some ingress setups need changes).\n- Python gRPC is heavier (grpcio wheels, asyncio story weaker than Go's).\n- Migration cost for 25 services; during the transition you run both.\n- Browser clients still need REST/gRPC-Web, so edge APIs stay REST.\n\nMiddle grounds: **Connect-RPC** (protobuf contracts, speaks gRPC *and* plain HTTP/JSON, curl-able) or REST with OpenAPI-generated clients, which gives you most of the contract benefit without changing transport.\n\nMy read: the big win for 25 services is the shared contract, not the wire format. If latency isn't a measured problem, OpenAPI-first REST or Connect gets you that with less migration pain."
    ),
)

S(
    "architecture/tradeoff",
    "codex",
    "Order events: SNS/SQS or MSK",
    U(
        "we need a queue for order events (~500/s peak), 3 consumers (email, analytics, warehouse). options: SQS+SNS fanout or MSK kafka. lay out the tradeoffs for this workload, we're all-in on AWS and a 5 person team"
    ),
    A(
        "| | SNS → SQS fanout | MSK (Kafka) |\n|---|---|---|\n| Ops | serverless, nothing to run | brokers, partitions, upgrades, disk; MSK Serverless reduces it |\n| Cost at 500/s | ~$30–60/month | ~$500+/month provisioned |\n| Replay | no (messages deleted after processing; archive to S3 if needed) | yes, retention-based; new consumer can read history |\n| Ordering | FIFO queues per message group, 300 msg/s per group limits | per partition |\n| New consumer | add a queue subscription | add a consumer group |\n| Back-pressure/slow consumer | each queue independent, DLQ built in | lag per group; DLQ is DIY |\n| Analytics | fine, or Firehose from SNS | native, Kafka Connect ecosystem |\n\nTradeoff in one line: SQS/SNS minimises operations and cost; Kafka gives you a replayable log. At 500/s with 3 known consumers, the log is the only thing SNS/SQS can't give you. If \"reprocess last week's orders into the new warehouse system\" is a real requirement, Kafka (or EventBridge archive/replay as a middle option). If not, SNS+SQS."
    ),
    U("we might need replay for analytics only"),
    A(
        "Then replay is an analytics concern: fan out from SNS to Firehose → S3 and replay analytics from the archive. That keeps the operational path on SNS/SQS."
    ),
)

S(
    "architecture/tradeoff",
    "copilot",
    "Admin dashboard slow first load - SSR?",
    U(
        "our admin dashboard is a CRA SPA, slow first load (4s on 3G). options: move to Next.js with SSR, or keep SPA and optimise (code splitting etc). whats the tradeoff for an internal admin tool"
    ),
    A(
        "For an internal admin tool used daily on office Wi-Fi by logged-in staff:\n\n**SSR (Next.js)**\n+ Faster first contentful paint, especially on slow networks; data fetched near the DB.\n− Rewrite of routing/data fetching; a Node server to run (it's static hosting today); auth must work server-side; more complex caching; hydration bugs.\n− SEO — the usual big win of SSR — is irrelevant behind a login.\n\n**Optimised SPA (Vite + route-level splitting)**\n+ Incremental: swap CRA for Vite, lazy-load routes, drop moment.js/lodash full imports — typically cuts the initial bundle 50–70%.\n+ After the first load, navigation is instant; repeat visits hit cache.\n− First load stays bound by JS size; no server rendering.\n\nThe question is who sees the 4 s: if it's field staff on 3G every morning, SSR matters more; if it's office staff who load it once and keep the tab open, optimising the SPA is the better cost/benefit. Measure the bundle first (`source-map-explorer`) — 4 s on 3G often means a 2 MB+ bundle that splitting alone will fix."
    ),
)

S(
    "architecture/tradeoff",
    "cline",
    "Sync REST call vs event for updating search index",
    U(
        "when a product is updated, the catalog service needs to update the search index. either call search-service REST synchronously in the same request, or publish ProductUpdated event and search consumes it. I know events are 'better' but what do we actually lose/gain? be concrete, we have like 200 updates per minute"
    ),
    A(
        '**Synchronous REST**\n+ Read-your-writes: after saving, the merchant immediately sees the change in search.\n+ Simple to reason about and debug; one stack trace.\n− Availability coupling: search down → product updates fail (or you ignore errors and the index silently diverges).\n− Latency of both in the request; partial failure (DB committed, index call failed) needs retry logic anyway.\n\n**Event (ProductUpdated)**\n+ Catalog stays writable when search is down; search catches up from the backlog.\n+ Other consumers (recommendations, cache invalidation) can subscribe later without touching catalog.\n− Eventual consistency: index lags by ms–seconds normally, minutes during incidents. The merchant UI needs "updating…" or must read from catalog, not search.\n− Needs reliable publishing (outbox) and idempotent consumers; more infra to run.\n\nAt 200 updates/minute performance is a non-issue either way; the real choice is availability coupling vs read-your-writes. A common middle path: publish the event, and have the merchant UI read the product from catalog directly after saving, so the lag is invisible where it matters.'
    ),
)
# ---------------------------------------------------------------- feature/requirement
S(
    "feature/requirement",
    "claude-code",
    "User stories for team invitations",
    U(
        "PM is out, I need to write the stories for 'invite teammates by email' for next sprint. Acceptance criteria in Given/When/Then pls. Context: B2B app, roles admin/member, seats are paid"
    ),
    A(
        "**Story 1 — Invite by email**\nAs an admin, I want to invite colleagues by email so that they can join our workspace.\n\nAC\n- Given I am an admin, when I enter one or more valid emails and a role and click Invite, then each address receives an invitation email with a link valid for 7 days.\n- Given an email already belongs to a workspace member, when I invite it, then I see \"already a member\" and no email is sent.\n- Given the workspace has no free seats, when I invite, then I'm told how many seats are needed and offered to add seats; no invitation is sent.\n- Given I am a member (not admin), then I don't see the Invite button.\n\n**Story 2 — Accept invitation**\nAs an invited person, I want to accept via the link so that I land in the workspace.\n- Given a valid link and no account, when I open it, then I can sign up with the invited email pre-filled and locked.\n- Given a valid link and an existing account, then I'm added after signing in.\n- Given an expired or revoked link, then I see a message to ask the admin for a new invite.\n- A seat is consumed on acceptance, not on sending.\n\n**Story 3 — Manage pending invites**\nAs an admin, I want to see, resend and revoke pending invitations.\n- Pending list shows email, role, inviter, sent date, expiry.\n- Resend resets the 7-day expiry; revoke invalidates the link immediately.\n\n**Out of scope:** bulk CSV invite, SSO/SCIM provisioning, domain auto-join.\n\n**Open question for PM:** does a pending invite reserve a seat? I assumed no."
    ),
    U("good. add one about rate limiting so nobody spams invites"),
    A(
        '**Story 4 — Invitation abuse protection**\nAs the operator, I want invitation sending limited so that the feature can\'t be used to spam.\n- Given a workspace has sent 100 invitations in the last 24 h, when an admin sends more, then they see "daily invitation limit reached" and support is notified.\n- Given an address has been invited 3 times in 24 h, then further invites to it are blocked for that day.\n- Limits are configurable per plan.'
    ),
)

S(
    "feature/requirement",
    "cursor",
    "Scope the CSV export feature",
    U(
        "customers keep asking for 'export to excel' of the transactions page. before we build anything I want a one-pager: what exactly is in scope for v1, what's not, acceptance criteria. transactions can be 500k rows for big accounts"
    ),
    A(
        '# Transactions export — v1 scope\n\n**Problem.** Finance users reconcile our transactions against their ERP and copy from the screen today.\n\n**In scope (v1)**\n- Export the transactions list *with the currently applied filters* (date range, status, account).\n- Format: CSV (UTF-8 with BOM so Excel opens accents correctly), `;` or `,` delimiter selectable.\n- Columns: same as the table plus transaction ID and currency code.\n- Up to 500k rows. Exports > 10k rows run in the background; the user gets an in-app notification and an email with a download link valid 24 h.\n- Permission: users with the `transactions:read` role.\n\n**Out of scope (v1)**\n- Native .xlsx, scheduled/recurring exports, custom column selection, API endpoint for exports.\n\n**Acceptance criteria**\n1. Given filters are applied, the export contains exactly the rows the table would show across all pages.\n2. An export of ≤ 10k rows downloads within 10 s.\n3. An export of 500k rows completes within 5 min and is delivered by notification + email.\n4. Amounts are exported as plain numbers with `.` decimal separator, plus a separate currency column.\n5. Every export is logged in the audit log (user, filters, row count).\n\n**Success metric:** support tickets tagged "export" drop by 80% within 2 months.\n\n**Open questions:** do we need the export to reflect the user\'s timezone or UTC?'
    ),
    U("timezone: user's tz, with the tz name in the header. update"),
    A(
        'Updated AC 4b: "Timestamps are in the user\'s profile timezone; the column header includes it, e.g. `Created (Europe/Paris)`." Removed the open question.'
    ),
)

S(
    "feature/requirement",
    "gemini-cli",
    "Acceptance criteria for password reset via SMS",
    U(
        "we want to add password reset via SMS in addition to email for our banking app. write the requirements incl security ones, I'll review with compliance"
    ),
    A(
        '**Feature: Password reset via SMS OTP**\n\nFunctional requirements\n- FR1 On "Forgot password", users with a verified mobile number can choose SMS or email.\n- FR2 The SMS contains a 6-digit one-time code, valid for 5 minutes, single use.\n- FR3 After a valid code, the user sets a new password meeting the existing policy.\n- FR4 All active sessions and refresh tokens are revoked after a reset; a notification is sent to email and SMS.\n\nSecurity requirements\n- SR1 Max 3 code requests per 15 min per account and per phone number; max 5 wrong code entries per code, then the code is invalidated.\n- SR2 Responses don\'t reveal whether an account or number exists (same message and timing).\n- SR3 SMS reset is disabled for 24 h after a phone number change (SIM-swap mitigation).\n- SR4 Codes are stored hashed; never logged.\n- SR5 Reset via SMS requires a second factor if the account has one (e.g. app-based TOTP).\n- SR6 Events are written to the security audit log.\n\nAcceptance criteria (examples)\n- Given a verified number, when I request an SMS code, then I receive a code within 60 s and can reset my password.\n- Given I entered a wrong code 5 times, then the code is invalidated and I must request a new one.\n- Given my number was changed 2 h ago, then SMS reset is not offered.\n\nOut of scope: voice calls, WhatsApp delivery, passwordless login.'
    ),
)

S(
    "feature/requirement",
    "codex",
    "Recurring bookings from support tickets",
    U(
        "here are 9 support tickets about 'recurring bookings' in our salon booking app (pasted below). extract what customers actually need and write requirements with priorities. don't design the UI.\n\n1. 'I see Maria every 4 weeks, have to book each time manually'\n2. 'can I book the same slot every tuesday?'\n3. 'when my stylist is sick all my future appointments should move'\n4. 'I want to cancel just one of the series'\n5. 'please remind me 1 day before'\n6. (salon owner) 'recurring clients block prime slots months ahead, need a limit'\n7. 'every 2 weeks but skip christmas'\n8. 'same as #2'\n9. (salon owner) 'need to see all series of a client'"
    ),
    A(
        "**Needs (clustered)**\n- Repeat a booking on a fixed interval (tickets 1, 2, 7, 8) — most requested.\n- Manage single occurrences vs the whole series (4, 7).\n- Handle staff absence for future occurrences (3).\n- Salon control over how far ahead series may block slots (6) and an overview (9).\n- Reminders (5) — already exist for single bookings; verify they apply to each occurrence.\n\n**Requirements**\n- R1 (Must) A client can create a recurring booking: same service, staff member and time, every 1/2/3/4 weeks, with an end date or a number of occurrences.\n- R2 (Must) A client can cancel or reschedule one occurrence without affecting the others, or cancel the rest of the series.\n- R3 (Must) Salon owners can set a maximum horizon for recurring bookings (e.g. 12 weeks) and can disable recurrence per service.\n- R4 (Should) When a staff member's absence overlaps occurrences, affected clients are notified and offered the same time with another staff member or another slot; nothing moves silently.\n- R5 (Should) Salon owners see all series of a client in the client profile.\n- R6 (Should) Each occurrence gets the standard reminder.\n- R7 (Could) Skip dates (holidays) when creating the series.\n\n**Not requested:** payment up front for the series, group bookings."
    ),
)

S(
    "feature/requirement",
    "copilot",
    "Define MVP for in-app notifications",
    U(
        "we want in app notifications (bell icon) in our project management tool. help me define MVP scope and user stories. I'm thinking: mentions, assigned to task, due date tomorrow. keep it small"
    ),
    A(
        '**MVP: in-app notification center**\n\nEvents (v1 only these three)\n1. Someone @mentions me in a comment\n2. A task is assigned to me\n3. A task assigned to me is due tomorrow (sent once, at 09:00 in my timezone)\n\nStories\n- As a user, I see a bell with an unread count so I know something needs my attention.\n  - Count shows unread, capped at "99+"; updates without page reload within 30 s.\n- As a user, I open the list and see the 50 most recent notifications, newest first, each linking to the task/comment.\n  - Clicking one marks it read and navigates; "Mark all as read" exists.\n- As a user, I don\'t get notified about my own actions.\n\nNon-goals for MVP: email/push delivery, per-event preferences, grouping ("3 new comments"), notification retention beyond 90 days.\n\nDefinition of done includes: events for archived projects are not shown; deleting a comment removes its mention notification.'
    ),
    U("ok add preferences to non goals explicitly, it's there already? yes ok. ship it to the doc"),
    A("Yes, preferences are in the non-goals already. Copy above is ready to paste."),
)

S(
    "feature/requirement",
    "cline",
    "Write requirements for GDPR data export",
    U(
        "legal says we must let users download all their data (GDPR art 15/20). write the feature requirements for our fitness app. data: profile, workouts, gps tracks, heart rate, photos, messages"
    ),
    A(
        '**Feature: Download my data**\n\nGoal: users can obtain a copy of their personal data in a machine-readable format (GDPR Art. 15 access, Art. 20 portability).\n\nRequirements\n1. A "Download my data" action in Settings → Privacy, on web and mobile.\n2. The export includes: profile, settings, workouts, GPS tracks (GPX per workout), heart rate samples (CSV), photos (original files), messages sent *and* received by the user, consent history, login history (90 days).\n3. Format: a ZIP with JSON files plus GPX/CSV/original media, and a README explaining each file.\n4. The export is generated asynchronously; the user gets an email when ready; link requires login and expires after 7 days.\n5. Completed within 30 days at the latest (legal limit); target: 24 h.\n6. Re-authentication (password or biometric) before requesting.\n7. Max 1 request per 24 h per user.\n8. Messages from other users are included only as the user\'s conversation copy; other users\' profile data beyond display name is excluded.\n9. Every request and download is logged for accountability.\n\nAcceptance\n- Given I request an export, when it\'s ready, then the ZIP contains every data category listed in (2) present in my account.\n- Given the link is older than 7 days, then it returns "expired" and I can request a new export.\n\nOpen for legal: retention of the export files (proposal: deleted after 7 days) and whether derived data (fitness score) must be included.'
    ),
)

# ---------------------------------------------------------------- feature/design
S(
    "feature/design",
    "claude-code",
    "API design for bulk tag editing",
    U(
        "we're adding bulk tagging of documents (select 500 docs, add/remove tags). design the REST API and the data model changes before I implement. current: documents table, tags stored as text[] column"
    ),
    T(
        "Bash",
        "psql -c '\\d documents' app_dev | sed -n 1,14p",
        '                  Table "public.documents"\n   Column   |           Type           | Nullable\n------------+--------------------------+----------\n id         | uuid                     | not null\n org_id     | uuid                     | not null\n title      | text                     | not null\n tags       | text[]                   |\n updated_at | timestamptz              | not null',
    ),
    A(
        '**Data model**\nMove tags out of `text[]` into a table, because you\'ll want rename, colors, counts, and per-org uniqueness:\n```sql\ncreate table tags (id uuid pk, org_id uuid not null, name citext not null, color text, unique (org_id, name));\ncreate table document_tags (document_id uuid references documents on delete cascade, tag_id uuid references tags on delete cascade, primary key (document_id, tag_id));\n```\nMigration: backfill from `documents.tags`, keep the array column read-only for one release, then drop.\n\n**API**\n```\nPOST /v1/documents/bulk-tag\n{\n  "document_ids": ["…"],          // max 1000\n  "add": ["invoice", "2024"],      // names; created if missing\n  "remove": ["draft"]\n}\n→ 200 { "updated": 498, "skipped": [{"id": "…", "reason": "not_found"}] }\n```\n- Idempotent: adding an existing tag is a no-op.\n- All-or-nothing per request in one transaction; permission check per document, forbidden ones go into `skipped` rather than failing the request.\n- Alternative for "select all matching a filter" (more than 1000): `{"filter": {...}}` instead of ids, processed as a background job returning 202 + job URL. I\'d leave that for v2.\n\n**UI contract:** response includes the new tag list per updated doc? For 500 docs that\'s heavy; return counts, and the client refetches the visible page.'
    ),
    U("ok agree, but name the endpoint PATCH /documents with ops?"),
    A(
        "Possible — a JSON Patch–style `PATCH /v1/documents` with `{ids, ops: [{op: add, path: /tags, value}]}`. It's more generic but harder to validate and to document; most APIs (GitHub labels, Linear) use a dedicated action endpoint. I'd keep `bulk-tag`, but it's a taste call."
    ),
)

S(
    "feature/design",
    "cursor",
    "UX flow for two-factor setup",
    U(
        "designing the 2FA setup flow for our web app (TOTP). what screens/states and what the backend API should look like? also recovery codes"
    ),
    A(
        '**Flow / screens**\n1. Settings → Security → "Enable two-factor" → re-enter password (step-up).\n2. **Scan** screen: QR code + manual key (grouped in 4s) + "Can\'t scan?" toggle.\n3. **Verify** screen: enter the 6-digit code from the app. Enabling only happens after a correct code — so a failed scan never locks anyone out.\n4. **Recovery codes** screen: 10 single-use codes, Download / Copy / Print, checkbox "I saved these" required to finish.\n5. Done state; settings show "2FA on since <date>", "Regenerate recovery codes", "Disable" (requires code or password).\n\nLogin with 2FA: after password → code screen with "Use a recovery code" link; "Trust this device 30 days" checkbox.\n\n**API**\n```\nPOST /me/2fa/setup            → {secret, otpauth_uri}    (pending, not active)\nPOST /me/2fa/activate {code}  → {recovery_codes: [...]}  (activates)\nPOST /me/2fa/recovery-codes   → new codes, old ones invalidated\nDELETE /me/2fa {code|password}\nPOST /auth/2fa {challenge_id, code | recovery_code}\n```\n**Data:** `user_totp(user_id, secret_encrypted, activated_at, last_used_step)` — last_used_step prevents code replay within the window; `recovery_codes(user_id, code_hash, used_at)`.\n\nEdge: pending setups expire after 15 minutes; restarting setup replaces the pending secret.'
    ),
    U("should recovery codes be shown again later?"),
    A(
        "No — store only hashes, so they can't be shown again; offer \"regenerate\" instead. That's what GitHub and Google do, and it means a DB leak doesn't expose usable codes."
    ),
)

S(
    "feature/design",
    "gemini-cli",
    "Data model for product variants",
    U(
        "shopify-like store we build in django. products need variants (size, color) with own price, sku, stock. how to model it? some products have 0 options, some 3. want to query 'all red M shirts in stock' fast"
    ),
    A(
        '```python\nclass Product(models.Model):\n    title = models.CharField(max_length=200)\n\nclass Option(models.Model):            # "Size", "Color" — per product, ordered\n    product = models.ForeignKey(Product, related_name="options", on_delete=models.CASCADE)\n    name = models.CharField(max_length=50)\n    position = models.PositiveSmallIntegerField()\n\nclass OptionValue(models.Model):       # "M", "Red"\n    option = models.ForeignKey(Option, related_name="values", on_delete=models.CASCADE)\n    value = models.CharField(max_length=50)\n\nclass Variant(models.Model):\n    product = models.ForeignKey(Product, related_name="variants", on_delete=models.CASCADE)\n    sku = models.CharField(max_length=64, unique=True)\n    price = models.DecimalField(max_digits=10, decimal_places=2)\n    stock = models.IntegerField(default=0)\n    option_values = models.ManyToManyField(OptionValue)\n    # denormalised for filtering: {"size": "m", "color": "red"}\n    attrs = models.JSONField(default=dict)\n```\n- A product with no options has exactly one "default" variant — every product is sold through variants, so cart/order code has one path.\n- `attrs` with a GIN index makes `Variant.objects.filter(attrs__contains={"color": "red", "size": "m"}, stock__gt=0)` fast; keep it in sync in `save()` from option_values. The M2M stays the source of truth for editing.\n- Constraint: one variant per combination of values — enforce in the form/service (a unique index on a sorted `attrs` text works too).\n- Price lives on the variant, not product; "from €19" = `min(variant.price)`, cached on product if needed.'
    ),
)

S(
    "feature/design",
    "codex",
    "Design webhook subscription API for customers",
    U(
        "customers want webhooks for invoice.paid, invoice.overdue etc. design the public API: how they register endpoints, choose events, verify signatures, see deliveries. we use stripe-ish conventions in our api"
    ),
    A(
        '**Resources**\n```\nPOST   /v1/webhook_endpoints        {url, enabled_events: ["invoice.paid", "invoice.*"], description}\n                                    → {id: "we_…", secret: "whsec_…" (returned once), status: "enabled"}\nGET    /v1/webhook_endpoints\nPATCH  /v1/webhook_endpoints/{id}   {enabled_events?, url?, status?: enabled|disabled}\nPOST   /v1/webhook_endpoints/{id}/rotate_secret  → new secret; old valid 24h\nDELETE /v1/webhook_endpoints/{id}\nGET    /v1/webhook_endpoints/{id}/deliveries?status=failed\nPOST   /v1/deliveries/{id}/retry\n```\n**Payload**\n```json\n{"id": "evt_…", "type": "invoice.paid", "created": 1718000000, "api_version": "2024-06-01", "data": {"object": { …invoice… }}}\n```\n**Signature header**: `Acme-Signature: t=1718000000,v1=<hex hmac_sha256(secret, t + "." + raw_body)>`; during rotation both secrets sign (two v1 entries). Docs tell receivers to reject timestamps older than 5 minutes.\n\n**Delivery semantics**: at-least-once, retries with backoff for 3 days, receivers dedupe on `id`; no ordering guarantee, so payloads carry the full object and `created`. Endpoint auto-disabled after 3 days of continuous failure, with an email.\n\n**Event catalog**: `invoice.created|finalized|paid|overdue|voided`, `customer.updated`. `GET /v1/event_types` lists them.'
    ),
    U("api_version per endpoint or per account?"),
    A(
        "Per endpoint, defaulting to the account's version at creation. Lets a customer migrate one integration at a time — same as Stripe does."
    ),
)

S(
    "feature/design",
    "aider",
    "Design the search filter UI state and URL format",
    U(
        "for the new job search page: filters are location, remote yes/no, salary range, tags (multi). design how the filter state maps to the URL so links are shareable, and the component props. React + react-router"
    ),
    A(
        "**URL format** (query string is the single source of truth):\n`/jobs?loc=berlin&remote=1&salary=60000-90000&tag=go&tag=k8s&page=2`\n- repeat `tag` for multi-values (works with `URLSearchParams.getAll`)\n- omit defaults; changing a filter resets `page`\n- salary as `min-max`, either side optional (`-90000`)\n\n**State**\n```ts\ntype JobFilters = { loc?: string; remote?: boolean; salary?: { min?: number; max?: number }; tags: string[]; page: number };\n\nfunction parseFilters(sp: URLSearchParams): JobFilters\nfunction toSearchParams(f: JobFilters): URLSearchParams\n\nfunction useJobFilters(): [JobFilters, (patch: Partial<JobFilters>) => void] {\n  const [sp, setSp] = useSearchParams();\n  const filters = useMemo(() => parseFilters(sp), [sp]);\n  const update = (patch) => setSp(toSearchParams({ ...filters, page: 1, ...patch }), { replace: true });\n  return [filters, update];\n}\n```\n**Components**\n- `<FilterBar value={filters} onChange={update} facets={facets} />`\n- `<SalaryRange value={filters.salary} onChange={(salary) => update({ salary })} />`\n- `<TagPicker selected={filters.tags} options={facets.tags} onChange={(tags) => update({ tags })} />`\n\nText input (location) debounced 300 ms before touching the URL; `replace: true` for filters, `push` for page changes so Back goes to the previous page of results."
    ),
)

S(
    "feature/design",
    "copilot",
    "Design of referral program data model and rules",
    U(
        "product wants a referral program: user gets a link, friend signs up and subscribes, both get 1 month free. design the data model and the rules (fraud etc) before implementation. rails app"
    ),
    A(
        "**Model**\n```ruby\n# referral_codes: one per user\ncreate_table :referral_codes do |t|\n  t.references :user, null: false, index: { unique: true }\n  t.string :code, null: false, index: { unique: true }   # short, human-friendly\nend\n\n# referrals: one per referred user\ncreate_table :referrals do |t|\n  t.references :referrer, null: false, foreign_key: { to_table: :users }\n  t.references :referee,  null: false, foreign_key: { to_table: :users }, index: { unique: true }\n  t.string :status, null: false, default: \"signed_up\"   # signed_up → qualified → rewarded | rejected\n  t.datetime :qualified_at, :rewarded_at\n  t.string :rejection_reason\nend\n```\nRewards are applied as billing credits (`credits` table / Stripe customer balance), linked to the referral, not as plan changes.\n\n**Rules**\n- Attribution: code captured at signup from `?ref=` (cookie 30 days); first code wins; can't be changed later.\n- Qualifies when the referee's first paid invoice is paid and not refunded for 14 days → then both get the credit.\n- No self-referral: reject if same payment fingerprint, same device ID, or same email domain + IP within 24 h.\n- Cap: max 12 rewarded referrals per referrer per year.\n- Referee must be a new customer (no previous subscription on any account with the same card).\n\n**Flow**: `Referrals::Attribute` on signup, `Referrals::Qualify` from the `invoice.paid` webhook + 14-day scheduled check, `Referrals::Reward` issues credits idempotently (unique index on credits.referral_id)."
    ),
)

# ---------------------------------------------------------------- feature/implementation
S(
    "feature/implementation",
    "claude-code",
    "Implement 'remember me' login option",
    U(
        "add a 'remember me' checkbox to login. checked → session lasts 30 days, unchecked → browser session. express + express-session. design is already agreed, just build it"
    ),
    T(
        "Read",
        "src/routes/auth.ts",
        "router.post('/login', async (req, res) => {\n  const user = await verify(req.body.email, req.body.password);\n  if (!user) return res.status(401).render('login', { error: 'Invalid credentials' });\n  req.session.regenerate(() => {\n    req.session.userId = user.id;\n    res.redirect('/');\n  });\n});",
    ),
    T(
        "Edit",
        "src/routes/auth.ts",
        "The file src/routes/auth.ts has been updated.",
        old="    req.session.userId = user.id;",
        new="    req.session.userId = user.id;\n    if (req.body.remember === 'on') {\n      req.session.cookie.maxAge = 30 * 24 * 60 * 60 * 1000;\n    } else {\n      req.session.cookie.expires = undefined; // browser-session cookie\n    }",
    ),
    T(
        "Edit",
        "views/login.ejs",
        "The file views/login.ejs has been updated.",
        old='  <button type="submit">Log in</button>',
        new='  <label><input type="checkbox" name="remember"> Remember me for 30 days</label>\n  <button type="submit">Log in</button>',
    ),
    T(
        "Write",
        "test/auth.remember.test.ts",
        "File created successfully at: test/auth.remember.test.ts",
        content="it('sets a 30 day cookie when remember is checked', async () => { ... })\nit('sets a session cookie otherwise', async () => { ... })",
    ),
    T(
        "Bash",
        "npm test -- auth",
        " PASS  test/auth.remember.test.ts\n  ✓ sets a 30 day cookie when remember is checked (48 ms)\n  ✓ sets a session cookie otherwise (21 ms)\n PASS  test/auth.test.ts (6 tests)",
    ),
    A(
        "Implemented: checkbox on the login form, `maxAge` 30 days when checked, no expiry (browser session) otherwise. The Redis session TTL follows the cookie's maxAge via connect-redis, so server-side sessions also expire after 30 days. Two new tests."
    ),
)

S(
    "feature/implementation",
    "codex",
    "Add CSV export endpoint for transactions",
    U(
        "implement the transactions CSV export we specced (ticket FIN-212): GET /api/transactions/export?from=&to=&status= streams CSV, utf-8 BOM, ; delimiter option. FastAPI + SQLAlchemy async"
    ),
    T(
        "shell",
        "sed -n 1,30p app/api/transactions.py",
        'router = APIRouter(prefix="/api/transactions")\n\n@router.get("")\nasync def list_transactions(f: TxFilter = Depends(), db: AsyncSession = Depends(get_db), user=Depends(current_user)):\n    q = filtered_query(f, user.org_id)\n    ...',
    ),
    T(
        "apply_patch",
        {
            "patch": '+@router.get("/export")\n+async def export_transactions(\n+    f: TxFilter = Depends(), delimiter: Literal[",", ";"] = ",",\n+    db: AsyncSession = Depends(get_db), user=Depends(current_user),\n+):\n+    q = filtered_query(f, user.org_id).order_by(Transaction.created_at)\n+\n+    async def rows():\n+        buf = io.StringIO()\n+        w = csv.writer(buf, delimiter=delimiter)\n+        buf.write("\\ufeff")\n+        w.writerow(HEADER)\n+        async for tx in await db.stream_scalars(q.execution_options(yield_per=1000)):\n+            w.writerow(row_for(tx, user.tz))\n+            if buf.tell() > 64_000:\n+                yield buf.getvalue(); buf.seek(0); buf.truncate()\n+        yield buf.getvalue()\n+\n+    name = f"transactions-{date.today()}.csv"\n+    return StreamingResponse(rows(), media_type="text/csv; charset=utf-8",\n+                             headers={"Content-Disposition": f\'attachment; filename="{name}"\'})'
        },
        "Success. Updated app/api/transactions.py",
    ),
    T("shell", "pytest tests/api/test_transactions_export.py -q", "......\n6 passed in 1.84s"),
    A(
        "Endpoint added, streaming in 64 KB chunks with server-side cursor (`yield_per=1000`) so memory stays flat for 500k rows. Tests cover filters, BOM, `;` delimiter, timezone in header, permission (403 for users without transactions:read), and empty result (header only)."
    ),
    U("add audit log entry too"),
    T(
        "apply_patch",
        {
            "patch": '+    await audit.log(db, user, "transactions.export", {"filters": f.model_dump(), "delimiter": delimiter})'
        },
        "Success.",
    ),
    A(
        "Audit entry written before streaming starts (row count isn't known up front in streaming mode; I log filters instead)."
    ),
)

S(
    "feature/implementation",
    "cursor",
    "Build the notification bell component",
    U(
        "implement the notification bell in the header per the MVP doc: unread badge, dropdown list with last 50, mark all read. API endpoints exist already (/api/notifications, /api/notifications/read-all). use react-query, we have it"
    ),
    T(
        "run_terminal_cmd",
        "curl -s localhost:4000/api/notifications -H \"Authorization: Bearer $DEV_TOKEN\" | jq '.items[0], .unread'",
        '{\n  "id": "n_81",\n  "type": "mention",\n  "text": "Ana mentioned you in “Q3 roadmap”",\n  "url": "/tasks/421#c-9",\n  "read": false,\n  "created_at": "2024-08-02T09:14:00Z"\n}\n3',
    ),
    T(
        "edit_file",
        "src/components/header/NotificationBell.tsx",
        "Created file",
        old="",
        new="export function NotificationBell() {\n  const qc = useQueryClient();\n  const { data } = useQuery({ queryKey: ['notifications'], queryFn: fetchNotifications, refetchInterval: 30_000 });\n  const readAll = useMutation({ mutationFn: markAllRead, onSuccess: () => qc.invalidateQueries({ queryKey: ['notifications'] }) });\n  const [open, setOpen] = useState(false);\n  const unread = data?.unread ?? 0;\n  return (\n    <Popover open={open} onOpenChange={setOpen}>\n      <PopoverTrigger aria-label={`Notifications, ${unread} unread`}>\n        <BellIcon />{unread > 0 && <Badge>{unread > 99 ? '99+' : unread}</Badge>}\n      </PopoverTrigger>\n      <PopoverContent>\n        <button onClick={() => readAll.mutate()} disabled={unread === 0}>Mark all as read</button>\n        <ul>{data?.items.map(n => <NotificationItem key={n.id} n={n} onNavigate={() => setOpen(false)} />)}</ul>\n      </PopoverContent>\n    </Popover>\n  );\n}",
    ),
    T(
        "edit_file",
        "src/components/header/Header.tsx",
        "Applied edit",
        old="      <UserMenu />",
        new="      <NotificationBell />\n      <UserMenu />",
    ),
    T(
        "run_terminal_cmd",
        "npx vitest run src/components/header",
        " ✓ NotificationBell.test.tsx (4)\n   ✓ shows unread count\n   ✓ caps at 99+\n   ✓ mark all as read clears badge\n   ✓ clicking an item closes the popover\n Test Files  1 passed (1)",
    ),
    A(
        'Bell is in the header, polling every 30 s as per the MVP ("without reload within 30 s"). Clicking an item marks it read via `NotificationItem` (PATCH /api/notifications/:id) and navigates.'
    ),
    U("it flashes the old count after mark all read"),
    A(
        "Because invalidation refetches after the mutation resolves. I'll add an optimistic update: set `unread: 0` and all `read: true` in `onMutate`, roll back in `onError`."
    ),
    T(
        "edit_file",
        "src/components/header/NotificationBell.tsx",
        "Applied edit",
        old="mutationFn: markAllRead, onSuccess:",
        new="mutationFn: markAllRead,\n    onMutate: async () => { await qc.cancelQueries({ queryKey: ['notifications'] }); const prev = qc.getQueryData(['notifications']); qc.setQueryData(['notifications'], (d: any) => d && { ...d, unread: 0, items: d.items.map((n: any) => ({ ...n, read: true })) }); return { prev }; },\n    onError: (_e, _v, ctx) => qc.setQueryData(['notifications'], ctx?.prev),\n    onSettled:",
    ),
    A("No flash anymore."),
)

S(
    "feature/implementation",
    "aider",
    "Add dark mode support to Flutter app",
    U(
        "implement dark mode in the flutter app: follow system setting by default, plus an override in settings (system/light/dark), persisted with shared_preferences"
    ),
    A(
        "lib/theme/theme_controller.dart\n<<<<<<< SEARCH\n=======\nclass ThemeController extends ChangeNotifier {\n  ThemeController(this._prefs) : _mode = _read(_prefs);\n  final SharedPreferences _prefs;\n  ThemeMode _mode;\n  ThemeMode get mode => _mode;\n\n  static ThemeMode _read(SharedPreferences p) =>\n      ThemeMode.values.byName(p.getString('theme_mode') ?? 'system');\n\n  Future<void> setMode(ThemeMode m) async {\n    _mode = m;\n    notifyListeners();\n    await _prefs.setString('theme_mode', m.name);\n  }\n}\n>>>>>>> REPLACE\n\nlib/app.dart\n<<<<<<< SEARCH\n    return MaterialApp(\n      theme: appTheme,\n=======\n    final mode = context.watch<ThemeController>().mode;\n    return MaterialApp(\n      theme: lightTheme,\n      darkTheme: darkTheme,\n      themeMode: mode,\n>>>>>>> REPLACE\n\nlib/settings/appearance_tile.dart: a `SegmentedButton<ThemeMode>` with System / Light / Dark calling `setMode`.\n\n`darkTheme` is `ThemeData.from(colorScheme: ColorScheme.fromSeed(seedColor: brand, brightness: Brightness.dark))`."
    ),
    U("some screens have hardcoded Colors.white backgrounds, they look bad in dark"),
    A(
        "Replaced the 7 hardcoded `Colors.white`/`Colors.black87` in lib/screens with `Theme.of(context).colorScheme.surface` / `onSurface`:\n\nlib/screens/profile_screen.dart\n<<<<<<< SEARCH\n      color: Colors.white,\n=======\n      color: Theme.of(context).colorScheme.surface,\n>>>>>>> REPLACE\n\n(+6 similar edits in order_list.dart, cart_screen.dart, empty_state.dart)"
    ),
    U("/run flutter test"),
    A("00:06 +23: All tests passed!"),
)

S(
    "feature/implementation",
    "gemini-cli",
    "Implement rate-limited email digest job",
    U(
        "build the weekly digest email feature: every monday 8:00 user local time, send summary of last week's activity. celery beat + django. template exists at templates/email/digest.html. skip users with no activity or who opted out"
    ),
    T(
        "read_file",
        "templates/email/digest.html",
        "{% extends 'email/base.html' %}\n{% block body %}<h1>Your week</h1>\n<p>{{ stats.tasks_done }} tasks done, {{ stats.comments }} comments</p>\n{% for p in top_projects %}...{% endfor %}{% endblock %}",
    ),
    T(
        "write_file",
        "notifications/digest.py",
        "Successfully created notifications/digest.py",
        content="@shared_task\ndef schedule_digests():\n    \"\"\"Runs hourly; picks users for whom it is now Monday 08:xx locally.\"\"\"\n    now = timezone.now()\n    for tz in due_timezones(now, weekday=0, hour=8):\n        for uid in (User.objects.filter(profile__timezone=tz, profile__digest_opt_in=True)\n                    .values_list('id', flat=True).iterator()):\n            send_digest.apply_async(args=[uid, now.date().isoformat()], queue='email')\n\n@shared_task(rate_limit='20/s', autoretry_for=(SMTPException,), retry_backoff=True)\ndef send_digest(user_id, week_key):\n    if DigestLog.objects.filter(user_id=user_id, week=week_key).exists():\n        return  # idempotent if the hourly scheduler overlaps\n    user = User.objects.get(pk=user_id)\n    stats = weekly_stats(user)\n    if stats.is_empty():\n        return\n    send_mail_template('email/digest.html', user, {'stats': stats, 'top_projects': stats.top_projects})\n    DigestLog.objects.create(user_id=user_id, week=week_key)\n",
    ),
    T(
        "replace",
        "config/celery.py",
        "Successfully modified file.",
        old="app.conf.beat_schedule = {",
        new="app.conf.beat_schedule = {\n    'weekly-digest': {'task': 'notifications.digest.schedule_digests', 'schedule': crontab(minute=0)},",
    ),
    T(
        "run_shell_command",
        "python manage.py makemigrations notifications && pytest notifications/tests/test_digest.py -q",
        "Migrations for 'notifications':\n  notifications/migrations/0007_digestlog.py\n    - Create model DigestLog\n.....\n5 passed in 2.03s",
    ),
    A(
        "Implemented: an hourly beat task finds timezones where it's Monday 08:00, enqueues one `send_digest` per opted-in user, rate limited to 20/s, idempotent via `DigestLog` (unique on user+week). Users with no activity are skipped. New migration 0007_digestlog."
    ),
)

S(
    "feature/implementation",
    "copilot",
    "Add search-as-you-type to product list (Vue)",
    U(
        "implement search as you type on the products page, vue 3 composition api, debounce 250ms, cancel previous request, show 'no results'. backend already supports ?q="
    ),
    T(
        "read_file",
        "src/pages/Products.vue",
        '<script setup lang="ts">\nconst products = ref<Product[]>([])\nonMounted(async () => { products.value = await api.products() })\n</script>\n<template><ProductGrid :items="products" /></template>',
    ),
    T(
        "replace_string_in_file",
        "src/pages/Products.vue",
        "File updated.",
        old="const products = ref<Product[]>([])\nonMounted(async () => { products.value = await api.products() })",
        new="const products = ref<Product[]>([])\nconst q = ref('')\nconst loading = ref(false)\nlet ctrl: AbortController | null = null\n\nconst load = useDebounceFn(async (term: string) => {\n  ctrl?.abort()\n  ctrl = new AbortController()\n  loading.value = true\n  try {\n    products.value = await api.products({ q: term || undefined }, { signal: ctrl.signal })\n  } catch (e) {\n    if ((e as Error).name !== 'AbortError') throw e\n  } finally {\n    loading.value = false\n  }\n}, 250)\n\nwatch(q, (term) => load(term.trim()), { immediate: true })",
    ),
    T(
        "replace_string_in_file",
        "src/pages/Products.vue",
        "File updated.",
        old='<template><ProductGrid :items="products" /></template>',
        new='<template>\n  <input v-model="q" type="search" placeholder="Search products" aria-label="Search products" />\n  <p v-if="!loading && q && products.length === 0">No results for “{{ q }}”</p>\n  <ProductGrid v-else :items="products" />\n</template>',
    ),
    T(
        "run_in_terminal",
        "npx vitest run src/pages/Products.spec.ts",
        " ✓ src/pages/Products.spec.ts (3)\n   ✓ debounces typing\n   ✓ aborts the previous request\n   ✓ shows no results\n Test Files  1 passed (1)",
    ),
    A(
        "Search-as-you-type is in: `useDebounceFn` from VueUse (already a dependency), AbortController cancels the in-flight request, empty-state message shown."
    ),
)
# ---------------------------------------------------------------- project/setup
S(
    "project/setup",
    "claude-code",
    "Set up GitHub Actions CI for Go monorepo",
    U(
        "we have no CI at all lol. set up github actions for the go repo: lint (golangci-lint), test with race, build, on PRs and main. go 1.22. cache modules"
    ),
    T(
        "Bash",
        "ls; cat go.mod | head -3",
        "Makefile  cmd  go.mod  go.sum  internal  README.md\nmodule github.com/acme/ledger\n\ngo 1.22",
    ),
    T(
        "Write",
        ".github/workflows/ci.yml",
        "File created successfully at: .github/workflows/ci.yml",
        content="name: ci\non:\n  pull_request:\n  push:\n    branches: [main]\n\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5\n        with: { go-version-file: go.mod }\n      - uses: golangci/golangci-lint-action@v6\n        with: { version: v1.59 }\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5\n        with: { go-version-file: go.mod, cache: true }\n      - run: go test -race -count=1 ./...\n      - run: go build ./cmd/...\n",
    ),
    T(
        "Write",
        ".golangci.yml",
        "File created successfully at: .golangci.yml",
        content="linters:\n  enable: [errcheck, govet, staticcheck, gosimple, ineffassign, unused, revive, gofmt]\nrun:\n  timeout: 5m\n",
    ),
    T(
        "Bash",
        "golangci-lint run ./... | tail -5",
        "internal/ledger/post.go:41:12: Error return value of `tx.Rollback` is not checked (errcheck)\ncmd/ledgerd/main.go:88:2: ineffectual assignment to err (ineffassign)\n2 issues.",
    ),
    A(
        "Workflow and golangci config added. Locally the linter finds 2 existing issues, so the first CI run would fail on lint. Options: fix them now (both are trivial) or add `new-from-rev: origin/main` to lint only new code."
    ),
    U("fix them"),
    T(
        "Bash",
        "golangci-lint run ./... && go test -race ./... | tail -3",
        "ok  \tgithub.com/acme/ledger/internal/ledger\t1.932s\nok  \tgithub.com/acme/ledger/internal/api\t0.811s\nok  \tgithub.com/acme/ledger/cmd/ledgerd\t0.102s",
    ),
    A(
        "Fixed both (deferred rollback now ignores `sql.ErrTxDone` explicitly; removed the dead assignment). Lint and tests are clean locally; push and the workflow will run on the PR."
    ),
)

S(
    "project/setup",
    "cursor",
    "Scaffold new TS library with tsup and vitest",
    U(
        "new internal package @acme/money: typescript, build with tsup to esm+cjs, vitest, eslint. set it up in packages/money in our pnpm workspace"
    ),
    T(
        "run_terminal_cmd",
        "mkdir -p packages/money/src && cd packages/money && pnpm init && pnpm add -D tsup typescript vitest @acme/eslint-config",
        "Wrote to packages/money/package.json\nPackages: +97\nProgress: resolved 412, reused 389, downloaded 23, added 97, done\ndevDependencies:\n+ @acme/eslint-config 2.1.0 <- ../eslint-config\n+ tsup 8.1.0\n+ typescript 5.4.5\n+ vitest 1.6.0",
    ),
    T(
        "edit_file",
        "packages/money/package.json",
        "Applied edit",
        old='  "main": "index.js",',
        new='  "type": "module",\n  "exports": {\n    ".": { "import": "./dist/index.js", "require": "./dist/index.cjs", "types": "./dist/index.d.ts" }\n  },\n  "files": ["dist"],\n  "scripts": {\n    "build": "tsup src/index.ts --format esm,cjs --dts --clean",\n    "test": "vitest run",\n    "lint": "eslint src"\n  },',
    ),
    T(
        "edit_file",
        "packages/money/tsconfig.json",
        "Created file",
        old="",
        new='{ "extends": "../../tsconfig.base.json", "include": ["src"] }',
    ),
    T(
        "edit_file",
        "packages/money/src/index.ts",
        "Created file",
        old="",
        new="export type Money = { amountMinor: bigint; currency: string };\n",
    ),
    T(
        "run_terminal_cmd",
        "pnpm --filter @acme/money build && ls packages/money/dist",
        "CLI Building entry: src/index.ts\nESM Build success in 12ms\nCJS Build success in 13ms\nDTS Build success in 402ms\nindex.cjs  index.d.cts  index.d.ts  index.js",
    ),
    A(
        "Package scaffolded: tsup builds ESM+CJS+types, vitest and eslint scripts wired, tsconfig extends the base. `pnpm -r build` picks it up automatically via the workspace glob."
    ),
)

S(
    "project/setup",
    "codex",
    "Dev environment with docker compose for Django app",
    U(
        "onboarding a new dev takes a day. make a docker compose dev env: django app, postgres 16, redis, celery worker, mailpit. hot reload for the app. one command to start"
    ),
    T(
        "shell",
        "cat requirements/dev.txt | head -5; ls",
        "-r base.txt\npytest-django==4.8.0\ndjango-debug-toolbar==4.3\nmanage.py  config  apps  requirements  README.md",
    ),
    T(
        "apply_patch",
        {
            "patch": '*** Add File: compose.yaml\n+services:\n+  db:\n+    image: postgres:16\n+    environment: { POSTGRES_PASSWORD: dev, POSTGRES_DB: app }\n+    volumes: [pgdata:/var/lib/postgresql/data]\n+    healthcheck: { test: ["CMD", "pg_isready", "-U", "postgres"], interval: 2s }\n+  redis:\n+    image: redis:7\n+  mailpit:\n+    image: axllent/mailpit\n+    ports: ["8025:8025"]\n+  web:\n+    build: { context: ., target: dev }\n+    command: python manage.py runserver 0.0.0.0:8000\n+    volumes: [".:/app"]\n+    ports: ["8000:8000"]\n+    env_file: .env.dev\n+    depends_on: { db: { condition: service_healthy }, redis: { condition: service_started } }\n+  worker:\n+    build: { context: ., target: dev }\n+    command: watchfiles --filter python \'celery -A config worker -l info\' apps config\n+    volumes: [".:/app"]\n+    env_file: .env.dev\n+    depends_on: [db, redis]\n+volumes:\n+  pgdata:\n*** Add File: .env.dev\n+DATABASE_URL=postgres://postgres:dev@db:5432/app\n+REDIS_URL=redis://redis:6379/0\n+EMAIL_HOST=mailpit\n+EMAIL_PORT=1025\n+DJANGO_DEBUG=1\n'
        },
        "Success. Added compose.yaml, .env.dev",
    ),
    T(
        "shell",
        "docker compose up -d --build && docker compose exec web python manage.py migrate | tail -2 && curl -s -o /dev/null -w '%{http_code}\\n' localhost:8000/health/",
        " ✔ Container app-db-1       Healthy\n ✔ Container app-web-1      Started\n ✔ Container app-worker-1   Started\n  Applying sessions.0001_initial... OK\n  Applying users.0014_profile_timezone... OK\n200",
    ),
    A(
        "`docker compose up` brings up everything; runserver reloads on changes via the bind mount, the worker restarts through `watchfiles`. Mail UI at localhost:8025. I also added a `make dev` target and a README section. The Dockerfile got a `dev` stage with dev requirements."
    ),
)

S(
    "project/setup",
    "gemini-cli",
    "Set up pre-commit hooks for Python repo",
    U(
        "set up pre-commit for our repo: ruff (lint+format), mypy, trailing whitespace, and block commits of files > 1MB. also make CI run the same hooks"
    ),
    T(
        "write_file",
        ".pre-commit-config.yaml",
        "Successfully created .pre-commit-config.yaml",
        content="repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.6.0\n    hooks:\n      - id: trailing-whitespace\n      - id: end-of-file-fixer\n      - id: check-added-large-files\n        args: [--maxkb=1024]\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.4.8\n    hooks:\n      - id: ruff\n        args: [--fix]\n      - id: ruff-format\n  - repo: https://github.com/pre-commit/mirrors-mypy\n    rev: v1.10.0\n    hooks:\n      - id: mypy\n        additional_dependencies: [types-requests, pydantic]\n",
    ),
    T(
        "run_shell_command",
        "pip install pre-commit && pre-commit install && pre-commit run --all-files",
        "pre-commit installed at .git/hooks/pre-commit\ntrim trailing whitespace.................................................Failed\n- hook id: trailing-whitespace\n- files were modified by this hook\nFixing docs/setup.md\ncheck for added large files..............................................Passed\nruff.....................................................................Passed\nruff-format..............................................................Passed\nmypy.....................................................................Passed",
    ),
    T(
        "replace",
        ".github/workflows/ci.yml",
        "Successfully modified file.",
        old="jobs:",
        new="jobs:\n  pre-commit:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-python@v5\n        with: { python-version: '3.12' }\n      - uses: pre-commit/action@v3.0.1",
    ),
    A(
        "pre-commit is installed with the hooks you listed, CI runs them via pre-commit/action. The first run fixed whitespace in docs/setup.md — commit that along with the config."
    ),
)

S(
    "project/setup",
    "copilot",
    "Bootstrap Android project CI with Gradle cache and emulator tests",
    U(
        "set up CI for our android app on github actions: assembleDebug, unit tests, lint, and instrumented tests on an emulator for PRs. use gradle caching. we are on AGP 8.4"
    ),
    T(
        "create_file",
        ".github/workflows/android.yml",
        "File created.",
        content='name: android\non: [pull_request]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-java@v4\n        with: { distribution: temurin, java-version: 17 }\n      - uses: gradle/actions/setup-gradle@v3\n      - run: ./gradlew assembleDebug testDebugUnitTest lintDebug\n      - uses: actions/upload-artifact@v4\n        if: always()\n        with: { name: reports, path: \'**/build/reports\' }\n  instrumented:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Enable KVM\n        run: |\n          echo \'KERNEL=="kvm", GROUP="kvm", MODE="0666", OPTIONS+="static_node=kvm"\' | sudo tee /etc/udev/rules.d/99-kvm.rules\n          sudo udevadm control --reload-rules && sudo udevadm trigger --name-match=kvm\n      - uses: actions/setup-java@v4\n        with: { distribution: temurin, java-version: 17 }\n      - uses: gradle/actions/setup-gradle@v3\n      - uses: reactivecircus/android-emulator-runner@v2\n        with:\n          api-level: 34\n          arch: x86_64\n          script: ./gradlew connectedDebugAndroidTest\n',
    ),
    A(
        "Two jobs: build/unit/lint, and instrumented tests on an API 34 emulator with KVM enabled (needed on ubuntu-latest for usable speed). `setup-gradle` handles caching of the Gradle user home and configuration cache. Reports are uploaded as artifacts even on failure."
    ),
    U("instrumented job takes 18 min, can we cache the emulator?"),
    A(
        "Yes — cache the AVD snapshot: add an `actions/cache` step for `~/.android/avd/*` and `~/.android/adb*` keyed on api-level, and a first emulator-runner step with `force-avd-creation: false`, `emulator-options: -no-window -noaudio -no-boot-anim` that only creates the snapshot on a cache miss. Typically saves 3–5 min of boot. The rest is test time; sharding with `numShards` across a matrix would be the next step."
    ),
)

S(
    "project/setup",
    "cline",
    "Initialize Terraform repo layout with remote state",
    U(
        "starting infra-as-code for our team. set up a terraform repo: envs dev/prod, modules folder, remote state in S3 with dynamodb locking, and a github action that runs plan on PR. the state bucket doesn't exist yet"
    ),
    T(
        "write_to_file",
        "bootstrap/main.tf",
        "File created.",
        content='resource "aws_s3_bucket" "state" { bucket = "acme-tf-state" }\nresource "aws_s3_bucket_versioning" "state" {\n  bucket = aws_s3_bucket.state.id\n  versioning_configuration { status = "Enabled" }\n}\nresource "aws_dynamodb_table" "lock" {\n  name = "acme-tf-lock"\n  billing_mode = "PAY_PER_REQUEST"\n  hash_key = "LockID"\n  attribute { name = "LockID" type = "S" }\n}\n',
    ),
    T(
        "write_to_file",
        "envs/dev/backend.tf",
        "File created.",
        content='terraform {\n  backend "s3" {\n    bucket         = "acme-tf-state"\n    key            = "dev/terraform.tfstate"\n    region         = "eu-central-1"\n    dynamodb_table = "acme-tf-lock"\n    encrypt        = true\n  }\n}\n',
    ),
    T(
        "execute_command",
        "cd bootstrap && terraform init -input=false && terraform apply -auto-approve",
        "Apply complete! Resources: 3 added, 0 changed, 0 destroyed.",
    ),
    T(
        "execute_command",
        "cd envs/dev && terraform init -input=false",
        'Successfully configured the backend "s3"! Terraform will automatically\nuse this backend unless the backend configuration changes.\nTerraform has been successfully initialized!',
    ),
    A(
        "Layout:\n```\nbootstrap/      # state bucket + lock table (local state, applied once)\nmodules/        # reusable modules (empty for now)\nenvs/dev/       # backend key dev/terraform.tfstate\nenvs/prod/      # backend key prod/terraform.tfstate\n.github/workflows/plan.yml  # fmt -check, validate, plan per env on PRs, posts plan as a comment\n```\nBootstrap applied, dev backend initialised. The workflow uses OIDC (`aws-actions/configure-aws-credentials` with a role ARN) — you need to create that IAM role; I left the ARN as a repo variable `TF_PLAN_ROLE_ARN`."
    ),
)

# ---------------------------------------------------------------- project/config
S(
    "project/config",
    "claude-code",
    "Configure ESLint flat config migration",
    U(
        "eslint 9 complains .eslintrc is deprecated. migrate our config to eslint.config.js, same rules. it's a react+ts project"
    ),
    T(
        "Read",
        ".eslintrc.json",
        '{\n  "parser": "@typescript-eslint/parser",\n  "extends": ["eslint:recommended", "plugin:@typescript-eslint/recommended", "plugin:react-hooks/recommended"],\n  "rules": { "no-console": ["warn", { "allow": ["error"] }], "@typescript-eslint/no-unused-vars": ["error", { "argsIgnorePattern": "^_" }] },\n  "ignorePatterns": ["dist", "coverage"]\n}',
    ),
    T(
        "Write",
        "eslint.config.js",
        "File created successfully at: eslint.config.js",
        content="import js from '@eslint/js';\nimport tseslint from 'typescript-eslint';\nimport reactHooks from 'eslint-plugin-react-hooks';\n\nexport default tseslint.config(\n  { ignores: ['dist', 'coverage'] },\n  js.configs.recommended,\n  ...tseslint.configs.recommended,\n  {\n    plugins: { 'react-hooks': reactHooks },\n    rules: {\n      ...reactHooks.configs.recommended.rules,\n      'no-console': ['warn', { allow: ['error'] }],\n      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],\n    },\n  },\n);\n",
    ),
    T("Bash", "rm .eslintrc.json && npx eslint . | tail -3", "✖ 4 problems (0 errors, 4 warnings)"),
    A(
        "Migrated to `eslint.config.js` with the same rules; removed `.eslintrc.json`. Same 4 console warnings as before the migration, so behaviour is unchanged. (Needed `typescript-eslint` meta package — it was already installed transitively; I added it to devDependencies explicitly.)"
    ),
)

S(
    "project/config",
    "cursor",
    "Set environment variables per environment in Next.js",
    U(
        "how do I set different API_URL for dev/staging/prod in our next.js app? right now its hardcoded in lib/api.ts. also one of them must be available in the browser. set it up"
    ),
    T(
        "read_file",
        "lib/api.ts",
        "const API_URL = 'https://api.staging.acme.io';\nexport const api = (path: string) => fetch(`${API_URL}${path}`);",
    ),
    T(
        "edit_file",
        "lib/api.ts",
        "Applied edit",
        old="const API_URL = 'https://api.staging.acme.io';",
        new="const API_URL = process.env.NEXT_PUBLIC_API_URL;\nif (!API_URL) throw new Error('NEXT_PUBLIC_API_URL is not set');",
    ),
    T("edit_file", ".env.development", "Created file", old="", new="NEXT_PUBLIC_API_URL=http://localhost:8080\n"),
    T(
        "edit_file",
        ".env.example",
        "Created file",
        old="",
        new="# Public, inlined into the client bundle at build time\nNEXT_PUBLIC_API_URL=\n# Server-only\nAPI_INTERNAL_TOKEN=\n",
    ),
    A(
        "- `NEXT_PUBLIC_` vars are inlined into the browser bundle **at build time**, so staging and prod need separate builds, or the value must be set in the build environment (Vercel: per-environment env vars in project settings).\n- `.env.development` is used by `next dev`; `.env.production` would be used by `next build` — I didn't create that since staging and prod differ; set them in the deployment platform instead.\n- `.env.example` documents the variables; `.env*.local` stays git-ignored for secrets."
    ),
    U("we use the same docker image for staging and prod though"),
    A(
        "Then build-time inlining doesn't work. Options: expose the URL via a server-side `/api/config` route or read `process.env.API_URL` in a Server Component and pass it down as a prop — both read at runtime. I'd do the Server Component variant: rename to `API_URL` (no NEXT_PUBLIC_), read it in `app/layout.tsx`, provide it via context."
    ),
)

S(
    "project/config",
    "codex",
    "Tune Postgres config for 16GB server",
    U(
        "we moved our postgres 16 to a dedicated 16GB / 4 vCPU VM with SSD. everything is default config. set sensible values in postgresql.conf, mostly OLTP, ~200 connections via pgbouncer"
    ),
    T(
        "shell",
        "sudo -u postgres psql -Atc \"select name, setting, unit from pg_settings where name in ('shared_buffers','effective_cache_size','work_mem','maintenance_work_mem','random_page_cost','max_connections','wal_buffers','checkpoint_completion_target','max_wal_size')\"",
        "checkpoint_completion_target|0.9|\neffective_cache_size|524288|8kB\nmaintenance_work_mem|65536|kB\nmax_connections|100|\nmax_wal_size|1024|MB\nrandom_page_cost|4|\nshared_buffers|16384|8kB\nwal_buffers|512|8kB\nwork_mem|4096|kB",
    ),
    T(
        "shell",
        "sudo tee /etc/postgresql/16/main/conf.d/tuning.conf <<'CONF'\nshared_buffers = 4GB\neffective_cache_size = 12GB\nmaintenance_work_mem = 1GB\nwork_mem = 16MB\nrandom_page_cost = 1.1\neffective_io_concurrency = 200\nmax_wal_size = 4GB\nmin_wal_size = 1GB\nwal_buffers = 16MB\nmax_connections = 120\nmax_worker_processes = 4\nmax_parallel_workers_per_gather = 2\nmax_parallel_workers = 4\nCONF\nsudo systemctl restart postgresql && sudo -u postgres psql -Atc 'show shared_buffers'",
        "4GB",
    ),
    A(
        "Applied in `conf.d/tuning.conf` (keeps the distro file untouched):\n- `shared_buffers` 4GB (25% RAM), `effective_cache_size` 12GB\n- `random_page_cost` 1.1 for SSD, `effective_io_concurrency` 200\n- `work_mem` 16MB: with 120 backends × a few sort nodes this stays well under RAM\n- `max_connections` 120 — pgbouncer in transaction mode multiplexes your 200 clients; set its `default_pool_size` ≈ 80\n- WAL sizes raised to reduce checkpoint frequency\nRestarted; `shared_buffers` shows 4GB."
    ),
)

S(
    "project/config",
    "aider",
    "Configure logging format in Spring Boot application.yml",
    U(
        "make our spring boot logs JSON in prod but human readable locally. and set log level of org.hibernate.SQL to debug only in dev profile. we're on boot 3.4"
    ),
    A(
        "Boot 3.4 has structured logging built in, so no logback XML needed.\n\nsrc/main/resources/application.yml\n<<<<<<< SEARCH\nlogging:\n  level:\n    root: INFO\n=======\nlogging:\n  level:\n    root: INFO\n---\nspring:\n  config:\n    activate:\n      on-profile: prod\nlogging:\n  structured:\n    format:\n      console: ecs\n---\nspring:\n  config:\n    activate:\n      on-profile: dev\nlogging:\n  level:\n    org.hibernate.SQL: DEBUG\n    org.hibernate.orm.jdbc.bind: TRACE\n>>>>>>> REPLACE\n\n`ecs` is Elastic Common Schema; `logstash` and `gelf` are the other built-in formats. Locally (no prod profile) the default pattern layout stays."
    ),
    U("we ship to datadog, does ecs work"),
    A(
        "Datadog parses any JSON; ECS field names (`@timestamp`, `log.level`, `message`) are mapped by its pipeline, but trace correlation expects `dd.trace_id`. With the Datadog Java agent's `DD_LOGS_INJECTION=true` those fields are added to the MDC and appear in the JSON. So yes, plus that env var in the prod deployment."
    ),
)

S(
    "project/config",
    "gemini-cli",
    "Configure k8s resource limits and HPA",
    U(
        "setting up our api deployment in k8s while also setting up the CI pipeline to deploy it — first I need the deployment yaml config right: requests/limits, HPA on cpu 70%, min 3 max 12, and readiness probe on /healthz. current yaml attached in deploy/api.yaml"
    ),
    T(
        "read_file",
        "deploy/api.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: api }\nspec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n        - name: api\n          image: ghcr.io/acme/api:latest\n          ports: [{ containerPort: 8080 }]",
    ),
    T(
        "replace",
        "deploy/api.yaml",
        "Successfully modified file.",
        old="          ports: [{ containerPort: 8080 }]",
        new="          ports: [{ containerPort: 8080 }]\n          resources:\n            requests: { cpu: 250m, memory: 384Mi }\n            limits: { memory: 512Mi }\n          readinessProbe:\n            httpGet: { path: /healthz, port: 8080 }\n            periodSeconds: 5\n            failureThreshold: 3\n          livenessProbe:\n            httpGet: { path: /healthz, port: 8080 }\n            initialDelaySeconds: 20\n            periodSeconds: 10",
    ),
    T(
        "write_file",
        "deploy/api-hpa.yaml",
        "Successfully created deploy/api-hpa.yaml",
        content="apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: api }\nspec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: api }\n  minReplicas: 3\n  maxReplicas: 12\n  metrics:\n    - type: Resource\n      resource: { name: cpu, target: { type: Utilization, averageUtilization: 70 } }\n",
    ),
    T(
        "run_shell_command",
        "kubectl apply --dry-run=server -f deploy/",
        "deployment.apps/api configured (server dry run)\nhorizontalpodautoscaler.autoscaling/api created (server dry run)",
    ),
    A(
        "Config done: CPU request 250m (the HPA's 70% is relative to it), memory request/limit, no CPU limit to avoid throttling, readiness + liveness on /healthz. I removed `replicas: 2` from the Deployment so it doesn't fight the HPA on each apply. Also the image tag is `latest` — for the CI part you'll want to set an immutable tag."
    ),
)

S(
    "project/config",
    "copilot",
    "VS Code settings for team: format on save, python interpreter",
    U(
        "can you create a shared .vscode/settings.json for the team: format on save with ruff for python and prettier for ts, use the .venv interpreter, exclude node_modules and .venv from search, and recommend the extensions"
    ),
    T(
        "create_file",
        ".vscode/settings.json",
        "File created.",
        content='{\n  "editor.formatOnSave": true,\n  "[python]": {\n    "editor.defaultFormatter": "charliermarsh.ruff",\n    "editor.codeActionsOnSave": { "source.organizeImports.ruff": "explicit" }\n  },\n  "[typescript]": { "editor.defaultFormatter": "esbenp.prettier-vscode" },\n  "[typescriptreact]": { "editor.defaultFormatter": "esbenp.prettier-vscode" },\n  "python.defaultInterpreterPath": "${workspaceFolder}/.venv/bin/python",\n  "search.exclude": { "**/node_modules": true, "**/.venv": true },\n  "files.watcherExclude": { "**/.venv/**": true }\n}\n',
    ),
    T(
        "create_file",
        ".vscode/extensions.json",
        "File created.",
        content='{\n  "recommendations": ["charliermarsh.ruff", "esbenp.prettier-vscode", "ms-python.python", "dbaeumer.vscode-eslint"]\n}\n',
    ),
    A(
        "Added both files. Check that `.vscode/` isn't in .gitignore — it currently is (`.vscode/*`); I added `!.vscode/settings.json` and `!.vscode/extensions.json` exceptions so only these two are shared."
    ),
)

# ---------------------------------------------------------------- project/dependency
S(
    "project/dependency",
    "claude-code",
    "Upgrade Django 4.2 to 5.0",
    U("bump django to 5.0, fix whatever breaks"),
    T(
        "Bash",
        "pip install 'django==5.0.6' && python -W error::DeprecationWarning manage.py check 2>&1 | tail -5",
        "Successfully installed django-5.0.6\nSystem check identified no issues (0 silenced).",
    ),
    T(
        "Bash",
        "pytest -q -x 2>&1 | tail -8",
        "E   TypeError: Field.__init__() got an unexpected keyword argument 'index_together'\n...\nE   ImportError: cannot import name 'ugettext_lazy' from 'django.utils.translation'\nFAILED apps/catalog/tests/test_models.py - ImportError\n1 failed, 12 passed",
    ),
    T(
        "Grep",
        "ugettext_lazy|index_together|DEFAULT_FILE_STORAGE",
        'apps/catalog/models.py:3:from django.utils.translation import ugettext_lazy as _\napps/catalog/models.py:44:        index_together = [("category", "slug")]\nconfig/settings.py:88:DEFAULT_FILE_STORAGE = "storages.backends.s3.S3Storage"',
    ),
    A(
        "Three removals hit us: `ugettext_lazy` (use `gettext_lazy`), `Meta.index_together` (use `indexes = [models.Index(...)]`, needs a migration that Django generates as a rename, no table rebuild), and `DEFAULT_FILE_STORAGE` (deprecated in favour of the `STORAGES` dict)."
    ),
    T(
        "Bash",
        "python manage.py makemigrations catalog && pytest -q 2>&1 | tail -2",
        "Migrations for 'catalog':\n  apps/catalog/migrations/0019_rename_index_together.py\n    - Rename unnamed index for ('category', 'slug') on product to catalog_pro_categor_3f8a1b_idx\n312 passed, 4 warnings in 58.31s",
    ),
    A(
        "Django 5.0.6 pinned in requirements/base.txt; code fixed; new migration 0019. django-storages had to go to 1.14.3 for `STORAGES` support. 312 tests pass; the 4 remaining warnings come from djangorestframework-simplejwt and are harmless."
    ),
)

S(
    "project/dependency",
    "cursor",
    "Pin transitive dependency causing build break",
    U(
        "build broke overnight, nothing changed on our side. npm ci ok but vite build fails: 'SyntaxError: The requested module 'postcss-selector-parser' does not provide an export named default'. we don't even use that package directly"
    ),
    T(
        "run_terminal_cmd",
        "npm ls postcss-selector-parser",
        "web@1.0.0\n└─┬ tailwindcss@3.4.4\n  ├─┬ postcss-nested@6.0.1\n  │ └── postcss-selector-parser@7.0.0\n  └── postcss-selector-parser@6.1.0",
    ),
    A(
        "`postcss-nested` allows `^6 || ^7`... and 7.0.0 was published yesterday as ESM-only with a different export shape. Our lockfile isn't committed for the web package (it's in .gitignore!), so CI resolved the new version. Quick fix: pin it with `overrides`; proper fix: commit the lockfile."
    ),
    T(
        "edit_file",
        "package.json",
        "Applied edit",
        old='  "devDependencies": {',
        new='  "overrides": {\n    "postcss-selector-parser": "6.1.0"\n  },\n  "devDependencies": {',
    ),
    T(
        "run_terminal_cmd",
        "rm -rf node_modules package-lock.json && npm install && npx vite build | tail -2",
        "added 412 packages in 14s\n✓ 1287 modules transformed.\n✓ built in 8.91s",
    ),
    A(
        "Builds again with `postcss-selector-parser` pinned to 6.1.0 via overrides. I also removed `package-lock.json` from .gitignore so the lockfile gets committed — that's what would have prevented this."
    ),
)

S(
    "project/dependency",
    "codex",
    "Replace deprecated request library with undici",
    U(
        "npm audit screams about 'request' (deprecated + vulns via tough-cookie). we use it in 3 files. swap for undici, remove request from deps"
    ),
    T(
        "shell",
        "grep -rln \"require('request')\" src && npm audit --omit=dev | tail -4",
        "src/clients/geo.js\nsrc/clients/crm.js\nsrc/jobs/sync.js\ntough-cookie  <4.1.3\nSeverity: moderate\n2 moderate severity vulnerabilities",
    ),
    T(
        "apply_patch",
        {
            "patch": "*** Update File: src/clients/geo.js\n-const request = require('request');\n-function lookup(ip, cb) {\n-  request({ url: `${BASE}/ip/${ip}`, json: true, timeout: 3000 }, (err, res, body) => cb(err, body));\n-}\n+const { request } = require('undici');\n+async function lookup(ip) {\n+  const { statusCode, body } = await request(`${BASE}/ip/${ip}`, { headersTimeout: 3000 });\n+  if (statusCode >= 400) throw new Error(`geo ${statusCode}`);\n+  return body.json();\n+}\n*** Update File: src/clients/crm.js\n...\n*** Update File: src/jobs/sync.js\n..."
        },
        "Success. Updated 3 files.",
    ),
    T(
        "shell",
        "npm uninstall request @types/request && npm install undici@6 && npm test 2>&1 | tail -3 && npm audit --omit=dev | tail -1",
        "added 1 package, removed 47 packages\nTests: 58 passed, 58 total\nfound 0 vulnerabilities",
    ),
    A(
        "`request` removed (47 packages less), undici 6 added; the 3 call sites are async now and their callers were updated. Note: `request` never threw on 4xx/5xx — I added explicit status checks to keep the error behaviour equivalent to how callers used it. Audit is clean."
    ),
)

S(
    "project/dependency",
    "gemini-cli",
    "Cargo: tokio version conflict between crates",
    U(
        "cargo build fails after adding `aws-sdk-s3`:\nerror[E0308]: mismatched types ... expected `tokio::runtime::Handle`, found a different `tokio::runtime::Handle`\nnote: perhaps two different versions of crate `tokio` are being used?\nhow do I sort out the deps?"
    ),
    T(
        "run_shell_command",
        "cargo tree -d -i tokio",
        "tokio v0.2.25\n└── legacy-mq v0.4.1\n    └── worker v0.1.0 (/src/worker)\n\ntokio v1.38.0\n├── aws-sdk-s3 v1.36.0\n├── hyper v1.3.1\n└── worker v0.1.0 (/src/worker)",
    ),
    A(
        "`legacy-mq 0.4.1` pulls tokio 0.2; everything else uses tokio 1. You're passing a handle across the two. Options: upgrade `legacy-mq` (0.6 is on tokio 1) or replace it."
    ),
    T(
        "run_shell_command",
        "cargo search legacy-mq --limit 1 && cargo add legacy-mq@0.6 && cargo build 2>&1 | tail -3",
        'legacy-mq = "0.6.2"    # AMQP client\n      Adding legacy-mq v0.6.2 to dependencies\n   Compiling worker v0.1.0 (/src/worker)\nerror[E0599]: no method named `basic_consume_stream` found for struct `Channel`',
    ),
    A(
        "After bumping to 0.6.2 only tokio 1 remains; one API rename: `basic_consume_stream` → `basic_consume` (returns a `Consumer` that implements `Stream`)."
    ),
    T(
        "replace",
        "src/consumer.rs",
        "Successfully modified file.",
        old="    let mut stream = chan.basic_consume_stream(QUEUE, opts).await?;",
        new='    let mut stream = chan.basic_consume(QUEUE, "worker", opts, FieldTable::default()).await?;',
    ),
    T(
        "run_shell_command",
        "cargo build && cargo tree -d -i tokio",
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 21.40s\nwarning: nothing to print.",
    ),
    A("Builds, single tokio version."),
)

S(
    "project/dependency",
    "copilot",
    "Add and pin Pydantic v2 alongside FastAPI",
    U(
        "we need pydantic v2 for a new lib but our fastapi is 0.95 which wants v1. what's the least painful upgrade path? poetry project"
    ),
    T(
        "run_in_terminal",
        "poetry show --tree fastapi | head -4 && poetry show pydantic",
        "fastapi 0.95.2 FastAPI framework\n├── pydantic >=1.6.2,!=1.7,!=1.7.1,!=1.7.2,!=1.7.3,!=1.8,!=1.8.1,<2.0.0\n└── starlette >=0.26.1,<0.28.0\n name         : pydantic\n version      : 1.10.13",
    ),
    A(
        "FastAPI supports Pydantic v2 from 0.100. Path: bump FastAPI to the latest 0.111, let it pull pydantic 2, and fix the v1 APIs we use. Pydantic ships `pydantic.v1` for things you can't migrate yet."
    ),
    T(
        "run_in_terminal",
        "poetry add 'fastapi@^0.111' 'pydantic@^2.7' pydantic-settings && pytest -q 2>&1 | tail -4",
        "Updating fastapi (0.95.2 -> 0.111.0)\nUpdating pydantic (1.10.13 -> 2.7.4)\nInstalling pydantic-settings (2.3.3)\nE   pydantic.errors.PydanticUserError: `BaseSettings` has been moved to the `pydantic-settings` package.\n9 errors in 1.22s",
    ),
    T(
        "run_in_terminal",
        "bump-pydantic app/ && pytest -q 2>&1 | tail -2",
        "[13:22:09] Refactored 14 files.\n187 passed, 22 warnings in 9.80s",
    ),
    A(
        "Upgraded: fastapi 0.111.0, pydantic 2.7.4, pydantic-settings added (BaseSettings moved there). `bump-pydantic` rewrote `validator` → `field_validator`, `.dict()` → `.model_dump()`, `Config` classes → `model_config`. Tests pass; the 22 warnings are remaining `json_encoders` usages, deprecated but working."
    ),
)

S(
    "project/dependency",
    "cline",
    "Dependabot PR for log4j bump broke build",
    U(
        "dependabot PR bumping log4j-core 2.17.1 -> 2.23.1 fails the build with 'package org.apache.logging.log4j.core.config.plugins does not exist'... wait no, it's NoClassDefFoundError at test time. can you make the upgrade work?"
    ),
    T(
        "execute_command",
        "./gradlew test --tests '*AuditAppenderTest' 2>&1 | grep -m3 -E 'NoClassDef|Caused'",
        "java.lang.NoClassDefFoundError: org/apache/logging/log4j/util/ProcessIdUtil\nCaused by: java.lang.ClassNotFoundException: org.apache.logging.log4j.util.ProcessIdUtil",
    ),
    T(
        "execute_command",
        "./gradlew dependencies --configuration testRuntimeClasspath | grep log4j",
        "+--- org.apache.logging.log4j:log4j-core:2.23.1\n+--- org.apache.logging.log4j:log4j-api:2.17.1\n+--- org.apache.logging.log4j:log4j-slf4j2-impl:2.17.1",
    ),
    A(
        "Dependabot bumped only log4j-core; log4j-api stays at 2.17.1 and core 2.23 needs classes from the matching api version. Log4j publishes a BOM — use it so all log4j modules move together."
    ),
    T(
        "replace_in_file",
        "build.gradle",
        "Changes applied.",
        old="    implementation 'org.apache.logging.log4j:log4j-core:2.23.1'\n    implementation 'org.apache.logging.log4j:log4j-api:2.17.1'\n    implementation 'org.apache.logging.log4j:log4j-slf4j2-impl:2.17.1'",
        new="    implementation platform('org.apache.logging.log4j:log4j-bom:2.23.1')\n    implementation 'org.apache.logging.log4j:log4j-core'\n    implementation 'org.apache.logging.log4j:log4j-api'\n    implementation 'org.apache.logging.log4j:log4j-slf4j2-impl'",
    ),
    T(
        "execute_command",
        "./gradlew test 2>&1 | tail -2",
        "BUILD SUCCESSFUL in 1m 12s\n41 actionable tasks: 12 executed, 29 up-to-date",
    ),
    A(
        "All log4j modules now come from the 2.23.1 BOM; build green. Dependabot will now bump the BOM as a single PR in the future."
    ),
)
# ---------------------------------------------------------------- decision/technical
S(
    "decision/technical",
    "claude-code",
    "Choose a date library: date-fns vs dayjs vs Temporal polyfill",
    U(
        "we have moment in the frontend (huge bundle). need to pick a replacement today: date-fns, dayjs, luxon or the temporal polyfill. we need timezones (users in 14 countries) and formatting in 6 locales. help me decide"
    ),
    T(
        "Bash",
        'grep -rhoE "moment(\\.tz)?\\(\\)?\\.[a-zA-Z]+" src | sort | uniq -c | sort -rn | head -8',
        "    212 moment().format\n     64 moment.tz\n     41 moment().add\n     30 moment().diff\n     18 moment().startOf\n      9 moment.duration\n      4 moment().isBetween",
    ),
    A(
        "Usage is mostly format + tz + arithmetic. Against your two hard requirements:\n\n- **date-fns (+ date-fns-tz)**: tree-shakable, immutable, good locales; timezone support is an add-on with a different API style. Migrating 212 chained calls to functions is the most rewrite.\n- **dayjs**: moment-like chained API (lowest migration effort), 2 KB core; tz via plugin relying on Intl; plugins are global mutation and the tz plugin has had DST edge-case bugs.\n- **luxon**: built on Intl, first-class zones and locales, immutable, API closest in spirit to moment (`DateTime.now().setZone(..).toFormat(..)`); ~20 KB.\n- **Temporal polyfill**: the future standard, but the polyfill is ~50 KB+ and the API is still settling in browsers.\n\nRecommendation: **luxon** — timezones across 14 countries are your core need and it handles them natively, the migration is mechanical, and bundle drops from ~290 KB (moment + moment-timezone data) to ~20 KB."
    ),
    U("ok luxon it is. write it in docs/decisions so the team knows"),
    T(
        "Write",
        "docs/decisions/2024-08-date-library.md",
        "File created successfully at: docs/decisions/2024-08-date-library.md",
        content="# Date library: luxon replaces moment\n\nDecision: luxon. Chosen over date-fns (largest rewrite, tz as add-on), dayjs (plugin-based tz, DST bugs) and the Temporal polyfill (size, API still moving).\nMigration: new code uses luxon now; moment removed module by module; ESLint `no-restricted-imports` on moment once done.\n",
    ),
    A("Recorded in docs/decisions/2024-08-date-library.md."),
)

S(
    "decision/technical",
    "cursor",
    "Pick state management for new React app",
    U(
        "starting a new react app at work, team of 3. redux toolkit, zustand or just react query + context? we have a lot of server data and a bit of UI state (filters, modals). I need to choose this week"
    ),
    A(
        "Split the question: **server state** and **client state** are different problems.\n\n- Server data (lists, details, mutations) → **TanStack Query**. Caching, refetching, invalidation, loading states — this is most of what people used Redux for. Non-negotiable with \"a lot of server data\".\n- Remaining UI state (filters, modals): filters belong in the URL (shareable, back button works); modals in local state. What's left global is small.\n\nSo the choice is really about the leftover global UI state:\n- **Context + useReducer**: zero deps; fine for rarely-changing values, but every consumer re-renders on change.\n- **Zustand**: ~1 KB, selector-based subscriptions (no re-render storm), no provider, easy to test. Low ceremony.\n- **Redux Toolkit**: great devtools, strong conventions, RTK Query — but with TanStack Query already handling server data, it's mostly boilerplate for little state.\n\nDecision I'd make: **TanStack Query + URL state + Zustand** for the few global bits."
    ),
    U("team lead worries zustand is 'less standard' than redux"),
    A(
        "Fair concern for hiring/onboarding, but Zustand's API is a single `create()` call and hooks — a new dev learns it in an hour. The lock-in is small: stores are plain functions, and moving to Redux later would touch only the handful of global stores. If the lead prefers RTK for conventions, that's a defensible choice too; the bigger decision is TanStack Query for server state, and that holds either way."
    ),
    U("ok going with query + zustand. thx"),
)

S(
    "decision/technical",
    "codex",
    "Decide between Celery and RQ for background jobs",
    U(
        "our flask app needs background jobs (sending emails, PDF generation, nightly cleanup). choose between celery, rq, dramatiq, or huey. we already have redis. small team, want low ops. give me a decision with reasoning"
    ),
    T(
        "shell",
        "grep -rn 'threading.Thread\\|ThreadPoolExecutor' app | head",
        "app/mail.py:22:    threading.Thread(target=_send, args=(msg,)).start()\napp/reports/pdf.py:57:    executor = ThreadPoolExecutor(max_workers=2)",
    ),
    A(
        "Your needs: fire-and-forget tasks, retries, one scheduled job, Redis already there, low ops.\n\n- **Celery**: most features (canvas, routing, many brokers), but heavy config surface and known pain points (prefetch, visibility timeout on Redis, beat as a separate process). Overkill for 3 task types.\n- **RQ**: simplest, Redis-only, easy to inspect (rq-dashboard). Scheduling needs rq-scheduler or cron; retries are basic. Fork-per-job can be slow for tiny tasks — irrelevant here.\n- **Dramatiq**: sane defaults (retries with backoff on by default, acks late), Redis or RabbitMQ, middleware; scheduling via APScheduler/periodiq.\n- **Huey**: tiny, Redis or SQLite, built-in periodic tasks and retries, one consumer process.\n\nDecision: **Dramatiq** — retries/backoff and at-least-once semantics are defaults rather than config you have to remember, it's lightweight to run, and `periodiq` covers the nightly cleanup. RQ would be my second pick if you value the dashboard more than retries.\n\nThe two ad-hoc thread usages in app/mail.py and app/reports/pdf.py are what move first."
    ),
    U("ok dramatiq. note it in the ADR folder"),
    T(
        "shell",
        "cat > docs/adr/0006-background-jobs-dramatiq.md <<'MD'\n# 6. Background jobs with Dramatiq\nStatus: accepted\nWe use Dramatiq on our existing Redis for background jobs (emails, PDFs, nightly cleanup). Considered Celery (too much configuration for our needs), RQ (weaker retries), Huey (fine, smaller ecosystem).\nMD\ngit add docs/adr/0006-background-jobs-dramatiq.md",
        "",
    ),
    A("Added docs/adr/0006-background-jobs-dramatiq.md."),
)

S(
    "decision/technical",
    "gemini-cli",
    "Choose auth approach: Auth0 vs Keycloak vs roll our own",
    U(
        "need to decide how we do auth for our new saas. options: auth0, keycloak self hosted, or build with passport.js + our db. we need SSO (SAML) for enterprise customers within a year, social login now. 2 backend devs. cost matters, we're pre-series A"
    ),
    A(
        "Decision criteria: SAML SSO within a year, social login now, 2 devs, cost-sensitive.\n\n- **Roll your own (passport)**: cheapest in money, most expensive in time and risk — password reset, MFA, brute-force protection, SAML (the hardest part, per customer IdP quirks). With 2 devs this competes directly with product work. Reject.\n- **Keycloak self-hosted**: free license, full SAML/OIDC, very capable. But you run it: upgrades (frequent, sometimes breaking), HA, DB, theming for login pages. Realistically 10–20% of a dev ongoing.\n- **Auth0**: fastest to ship, SAML on enterprise connections; cost scales badly — enterprise SSO connections are on higher tiers, and MAU pricing jumps.\n- Also consider **WorkOS / Clerk / Supabase Auth**: WorkOS in particular prices SSO per connection (per enterprise customer), which maps cost to revenue.\n\nRecommendation: a hosted provider for social/email login now (Clerk or Auth0 free/low tier), and add WorkOS for SAML when the first enterprise deal needs it — or Auth0 for both if you'd rather have one vendor and accept the price. Keep user IDs in your DB decoupled from the provider (map `provider_sub` → your `user_id`) so switching later is a migration, not a rewrite."
    ),
    U("we go with clerk now + workos later. thanks, that's the decision"),
)

S(
    "decision/technical",
    "aider",
    "Decide on UUID v7 vs bigserial primary keys",
    U(
        "new service, postgres. team split on primary keys: bigserial vs uuid v4 vs uuid v7. ids appear in URLs and we merge data from mobile clients offline. make a call"
    ),
    A(
        "Requirements that matter: ids created offline on mobile clients, ids exposed in URLs.\n\n- **bigserial**: smallest, fastest index, but the DB must assign them — offline clients can't, so you need temp-id remapping. Also leaks business volume (order 10234 → 10301 a week later) and is guessable in URLs.\n- **UUIDv4**: client-generatable, unguessable; but random inserts fragment the B-tree, index bloat and worse cache locality at scale.\n- **UUIDv7**: client-generatable, time-ordered (inserts append at the right edge like a sequence), 16 bytes. Leaks creation time (ms), which is usually fine.\n\nDecision: **UUIDv7** as primary key. It's the only option satisfying offline generation without the v4 index penalty. Use the native `uuid` type (not text). Postgres 18 has `uuidv7()` built in; before that generate in the app (`uuid6`/`uuid-utils` in Python, `uuid` npm ≥10 in JS). If you need short URLs later, add a separate slug; don't change the PK."
    ),
    U("ok v7. thanks"),
)

S(
    "decision/technical",
    "copilot",
    "Choose between Kotlin Multiplatform and Flutter for new app",
    U(
        "we have native android (kotlin) and iOS (swift) apps, 2 devs each. management wants to share code. KMP or rewrite in flutter? I need to recommend one in the planning meeting"
    ),
    A(
        "Key facts for your situation: two existing native apps, native-skilled teams, goal is sharing code rather than a new app.\n\n**Kotlin Multiplatform (share logic, keep native UI)**\n+ Incremental: start with networking/models/validation in a shared module; the existing apps keep working.\n+ Android team already knows Kotlin; iOS keeps SwiftUI.\n+ Compose Multiplatform for shared UI later, if wanted.\n− iOS devs consume Kotlin via an Obj-C/Swift bridge (SKIE helps); build tooling on iOS side is more complex.\n− Shares maybe 40–60% of code, not 90%.\n\n**Flutter (rewrite)**\n+ Highest sharing (UI + logic), one codebase.\n− Full rewrite of two working apps; months without feature parity.\n− Both teams retrain in Dart; platform-specific features via plugins/channels.\n\nRecommendation: **KMP**, starting with the data/domain layer. It delivers sharing without stopping feature work, builds on the Kotlin skills you have, and is reversible at module granularity. Flutter makes more sense for a greenfield app or if the teams were to be merged into one."
    ),
)

# ---------------------------------------------------------------- decision/process
S(
    "decision/process",
    "claude-code",
    "Agree on code review rules for the team",
    U(
        "our PRs sit for days. I want to propose a review policy to the team: max PR size, response time, who approves. we're 6 devs, 2 timezones (Berlin, São Paulo). draft it for me"
    ),
    A(
        "**Code review policy (proposal)**\n\n1. **Size:** aim for < 400 changed lines excluding generated files and tests. Bigger changes are split or get a 15-min walkthrough call.\n2. **Response time:** first review within 1 working day of the reviewer's timezone. With Berlin/São Paulo (4–5 h offset), the overlap 13:00–17:00 CET is for reviews and unblocking.\n3. **Who:** one approval required. Author picks a reviewer; CODEOWNERS auto-assigns for infra/ and billing/ which need an owner's approval.\n4. **Blocking vs non-blocking comments:** prefix `nit:` or `optional:` for non-blocking; everything else must be resolved. Approve with nits rather than requesting changes for style.\n5. **Author duties:** description says why + how to test; self-review first; CI green before requesting review.\n6. **Stale PRs:** a PR idle > 2 days is raised in standup.\n7. **Review:** 30 min slot after lunch (each TZ).\n\nTrial for 4 sprints, then check median time-to-first-review (today: ~2.5 days per GitHub insights)."
    ),
    U("2.5 days where did you get that"),
    A(
        "I shouldn't have stated it as fact — I didn't measure it. You can get the number with `gh pr list --state merged --limit 100 --json createdAt,reviews` and a small jq script; I'll replace it with \"measure baseline before trial\"."
    ),
    U("yes do that and save it as docs/process/code-review.md"),
    T(
        "Write",
        "docs/process/code-review.md",
        "File created successfully at: docs/process/code-review.md",
        content="# Code review policy (trial, 4 sprints)\n...",
    ),
    A("Saved."),
)

S(
    "decision/process",
    "cursor",
    "Decide branching strategy: trunk-based vs git flow",
    U(
        "we're 12 devs on one web app, currently git flow (develop, release branches) and releases every 2 weeks are painful merges. should we move to trunk based? what would change concretely for the team, I need to get buy in"
    ),
    A(
        "Moving to trunk-based is a good fit for 12 devs on one app, and your pain (release merges) is exactly what it removes.\n\n**What changes**\n- One long-lived branch, `main`. Feature branches live < 2 days and merge via PR.\n- No `develop`, no release branches to merge back. Releases are tags on main (or a short-lived `release/x` cut only for hotfixing, cherry-picked from main).\n- Unfinished features ship dark behind feature flags (you'd need a flag service or a simple config-based one).\n- CI on main must be trustworthy: every merge is releasable, so flaky tests get fixed or quarantined immediately.\n\n**What the team has to accept**\n- Smaller PRs, more often; work is split to be mergeable incrementally.\n- Flags are a new discipline: remove them after rollout (owner + expiry date).\n\n**Migration plan**\n1. Sprint 1: merge develop into main, make main the default, protect it. Keep the 2-week release cadence, tag from main.\n2. Sprint 2: introduce flags for the two big features in flight.\n3. Then shorten the cadence if desired.\n\nSuccess criteria to review after 6 weeks: release prep time, number of merge conflicts, lead time."
    ),
    U("some seniors say flags add complexity. counter-argument?"),
    A(
        "They do add complexity — but it's visible and local (an `if` with an owner and expiry), whereas long-lived branches hide the same complexity until the merge. Limit it: flags only for work spanning more than a few days, max ~10 active flags, removed within 2 sprints of full rollout."
    ),
)

S(
    "decision/process",
    "gemini-cli",
    "Define on-call rotation and incident process",
    U(
        "we have no on-call, the CTO gets paged for everything. 8 engineers. help me decide how the rotation and incident process should work. we're in one timezone (India) but customers in EU + US"
    ),
    A(
        "**Rotation**\n- Weekly rotation, primary + secondary, handover Monday 11:00 IST with a 15 min sync. 8 engineers → primary every 8 weeks.\n- Coverage: customers in EU+US means incidents at night IST. Options: (a) true 24/7 with compensation (per-night stipend + time off after a night page), or (b) business hours + P1-only at night. I'd start with (b).\n- CTO is escalation only, not on the rotation.\n\n**Severity**\n- P1: product down / data loss / security — page immediately, 24/7.\n- P2: major feature degraded — page during 08:00–23:00 IST, otherwise ticket.\n- P3: minor — ticket, next working day.\n\n**Incident process**\n1. Page → acknowledge in 10 min.\n2. Open #inc-<date>-<slug>; on-call is incident lead unless handed over.\n3. Status page update within 30 min for P1.\n4. Blameless post-mortem within 5 working days for P1/P2, with action items in the backlog.\n\n**Prerequisites:** runbooks for the top 5 alerts; alerts tuned so each page is actionable (target < 2 pages/week).\n\nReview after the first full cycle (8 weeks)."
    ),
    U("good. we take option b. please make it a short doc I can post in slack"),
    A(
        "*On-call starting 1 July*\n• Weekly rotation, primary + secondary, handover Mon 11:00 IST\n• Nights: only P1 pages (product down, data loss, security)\n• Ack within 10 min, open #inc-… channel, status page within 30 min for P1\n• Post-mortem within 5 days for P1/P2, blameless\n• CTO = escalation only\n• Review after 8 weeks"
    ),
)

S(
    "decision/process",
    "codex",
    "Decide how we version and release the SDK",
    U(
        "we publish a python SDK and keep breaking people. need to decide the release process: versioning scheme, changelog, deprecation policy, who can release. let's nail it down"
    ),
    T(
        "shell",
        "git tag --sort=-creatordate | head -6 && ls",
        "v2.14.0\nv2.13.1\nv2.13.0\nv2.12.0\nv2.11.3\nv2.11.2\nCHANGELOG.md  pyproject.toml  src  tests",
    ),
    A(
        "**Proposed process**\n\n1. **Versioning:** strict SemVer. Any removal/rename/behaviour change of a public symbol → major. Public = anything importable without an underscore and documented. Your 2.x line has shipped breaking changes in minors (2.12.0 removed `Client.retry`), which is the root problem.\n2. **Deprecation policy:** deprecate in a minor with `DeprecationWarning` naming the replacement and the removal version; remove no earlier than the next major and ≥ 3 months later.\n3. **Changelog:** towncrier fragments in `changes/` per PR (feature/bugfix/deprecation/removal), required by a CI check; rendered at release.\n4. **Breaking-change detection:** `griffe check` in CI against the last release tag fails PRs that break the public API without a `removal` fragment.\n5. **Who/how releases:** any maintainer, by pushing a tag; GitHub Actions builds and publishes with PyPI trusted publishing. No local uploads.\n6. **Cadence:** minor releases when ready; patch releases only for fixes.\n\nNext major (3.0) collects the accumulated removals."
    ),
    U("agreed, except deprecation period 6 months not 3. write it to RELEASING.md"),
    T(
        "shell",
        "cat > RELEASING.md <<'MD'\n# Releasing the SDK\n\n- SemVer. Breaking changes to the public API only in a major release.\n- Deprecations: DeprecationWarning in a minor, removal in the next major, at least 6 months later.\n- Every PR adds a towncrier fragment in changes/.\n- CI runs `griffe check` against the last tag.\n- Releases: a maintainer pushes a `vX.Y.Z` tag; CI publishes via trusted publishing.\nMD\ngit add RELEASING.md && git status --short",
        "A  RELEASING.md",
    ),
    A("RELEASING.md added with the 6-month deprecation period."),
)

S(
    "decision/process",
    "cline",
    "Decide sprint length and estimation approach",
    U(
        "our team (5 devs + 1 designer) does 3 week sprints with story points and planning poker takes 3 hours. it's painful. I want to propose: 2 week sprints, no story points, just count tickets. is that reasonable? help me argue and decide"
    ),
    A(
        "Reasonable, and there's evidence behind it: when tickets are sliced to similar size, throughput (tickets/week) forecasts about as well as story points at a fraction of the cost.\n\n**Proposal**\n- 2-week sprints: faster feedback, smaller planning scope.\n- Replace points with a \"can this be done in ≤ 3 days?\" check. If not, split. Planning becomes slicing, not estimating.\n- Forecast with throughput: last 6 sprints' ticket counts give a range (e.g. 14–19 per sprint).\n- Planning meeting capped at 60 min; refinement 2×30 min per sprint, async comments before.\n\n**Risks / counter-arguments**\n- Tickets of wildly different size break counting → the ≤3-day rule addresses it.\n- Stakeholders used to velocity charts → show throughput + cycle time instead.\n- Designer work: keep design tickets in the same board but don't count them toward dev throughput.\n\nTrial for 3 sprints; measure planning time and forecast accuracy (planned vs done)."
    ),
    U(
        "decided, we start next monday. can you write the team agreement in docs/team/working-agreement.md, section 'Planning'"
    ),
    T(
        "read_file",
        "docs/team/working-agreement.md",
        "# Working agreement\n\n## Communication\n...\n## Definition of done\n...",
    ),
    T(
        "replace_in_file",
        "docs/team/working-agreement.md",
        "Changes applied.",
        old="## Definition of done",
        new="## Planning\n- Sprints are 2 weeks, starting Monday.\n- No story points. Every ticket must be doable in ≤ 3 days; otherwise we split it.\n- Sprint forecast = range of tickets done in the last 6 sprints.\n- Planning ≤ 60 min; two 30 min refinements per sprint.\n- Trial until end of Q3, then review planning time and planned-vs-done.\n\n## Definition of done",
    ),
    A("Added the Planning section."),
)

S(
    "decision/process",
    "copilot",
    "Definition of done: merged or deployed?",
    U(
        "team keeps arguing whether a ticket is 'done' when merged or when deployed. also docs. help me settle a definition of done we can all agree on. web team, continuous deploy to staging, weekly prod release"
    ),
    A(
        "**Definition of Done (proposal)**\nA ticket is Done when:\n1. Code merged to main via reviewed PR, CI green.\n2. Tests: new behaviour covered by automated tests at the appropriate level; no new flaky tests.\n3. Deployed to **staging** automatically and verified there by the author against the acceptance criteria.\n4. Feature flags: if behind a flag, flag state for prod is documented in the ticket.\n5. Docs: user-facing changes update the help center draft; API changes update the OpenAPI spec; ops-relevant changes update the runbook.\n6. Product owner has accepted it (or it's a tech task the team accepts).\n\n**Why staging, not prod:** with weekly prod releases, waiting for prod would hold tickets open up to a week and blur sprint metrics; the release itself is tracked separately (release checklist). Bugs found in prod reopen the ticket or create a new one.\n\nPut it in the team wiki and link it from the PR template checklist."
    ),
    U("ok we go with this, exactly. thanks!"),
)

# ---------------------------------------------------------------- decision/tooling
S(
    "decision/tooling",
    "claude-code",
    "Pick monorepo tool: Nx vs Turborepo",
    U(
        "we're consolidating 7 TS repos into a monorepo (pnpm). nx or turborepo? we want remote caching, and only rebuild what changed in CI. decide with me"
    ),
    T(
        "Bash",
        'for r in web admin api worker shared-ui sdk docs; do echo -n "$r "; jq -r \'.scripts | keys | join(",")\' ../$r/package.json; done',
        "web build,dev,lint,test\nadmin build,dev,lint,test\napi build,dev,lint,test,migrate\nworker build,lint,test\nshared-ui build,lint,test,storybook\nsdk build,lint,test\ndocs build,dev",
    ),
    A(
        'Your repos already have uniform `build/lint/test` scripts, which suits either tool.\n\n- **Turborepo**: minimal — a `turbo.json` describing task dependencies and outputs; runs your existing npm scripts; `--filter=...[origin/main]` for affected builds; remote cache via Vercel or self-hosted (open API, e.g. ducktors/turborepo-remote-cache). Learning curve: an afternoon.\n- **Nx**: more powerful — project graph from imports, generators, module boundary lint rules, distributed task execution (Nx Agents), Nx Cloud caching. More concepts and config; plugins can take over your build config.\n\nFor "remote caching + affected-only CI" both do it. Nx pays off when you want enforced boundaries and code generators across many apps; for 7 packages with uniform scripts, Turborepo gets you there with less commitment.\n\nMy call: **Turborepo**, self-hosted remote cache on S3 to avoid vendor pricing.'
    ),
    U("agree. turborepo + self hosted cache. put it in the decisions log"),
    T(
        "Bash",
        "printf '\\n## 2024-09-02 Monorepo tool: Turborepo\\nTurborepo with a self-hosted remote cache (S3). Nx considered: more features (boundaries, generators) than we need for 7 packages.\\n' >> docs/decisions.md && tail -3 docs/decisions.md",
        "## 2024-09-02 Monorepo tool: Turborepo\nTurborepo with a self-hosted remote cache (S3). Nx considered: more features (boundaries, generators) than we need for 7 packages.",
    ),
    A("Logged in docs/decisions.md."),
)

S(
    "decision/tooling",
    "cursor",
    "Choose error tracking tool: Sentry vs Bugsnag vs self-hosted GlitchTip",
    U(
        "we need error tracking for a django backend + react frontend + react native app. budget maybe 100$/month. sentry, bugsnag, glitchtip self-hosted, or rollbar? help me pick"
    ),
    A(
        "For Django + React + React Native on ~$100/month:\n\n- **Sentry (SaaS)**: best SDK coverage for all three (RN includes native crashes + source maps), performance tracing, release health. Team plan ~$26/mo base; you'll pay more with volume, but sampling + spike protection keep it near budget.\n- **Bugsnag**: strong on mobile stability scores; Django support is weaker; pricing per event quickly exceeds $100.\n- **Rollbar**: solid for backend/web, weaker RN story.\n- **GlitchTip (self-hosted)**: Sentry-SDK compatible, cheap to run, but no performance tracing depth, no session replay, and you operate it (Postgres, Redis, workers, upgrades).\n\nPick **Sentry SaaS**. It's the only one that's first-class on all three platforms, and it keeps the door open: since GlitchTip speaks the Sentry protocol, you can move to it later by changing the DSN if cost becomes a problem."
    ),
    U("ok sentry. anything I should set from day one to stay in budget?"),
    A(
        "Set `traces_sample_rate` low (0.05) on backend, filter noisy errors (`ignore_errors` for DisallowedHost, network aborts in RN), enable spike protection, and set per-project quotas in the org settings."
    ),
)

S(
    "decision/tooling",
    "gemini-cli",
    "Decide on Python package manager: uv vs poetry",
    U(
        "we use poetry in 15 repos and CI installs take 3-4 min. people say uv is much faster. should we switch everything to uv? what do we lose?"
    ),
    T(
        "run_shell_command",
        "cd services/billing && time (poetry install --no-root --sync >/dev/null) 2>&1 | tail -3 && rm -rf .venv && time (uv sync --frozen >/dev/null) 2>&1 | tail -3",
        "real\t2m48.113s\nuser\t1m02.404s\nsys\t0m11.870s\nreal\t0m7.902s\nuser\t0m3.118s\nsys\t0m4.261s",
    ),
    A(
        "On billing (cold cache both): poetry 2m48s vs uv 7.9s (uv read the lock after converting pyproject to PEP 621 metadata).\n\nWhat you lose/change moving from poetry:\n- `poetry.lock` → `uv.lock` (migration per repo; `uvx migrate-to-uv` automates most)\n- `[tool.poetry.dependencies]` → standard `[project]` table; dependency groups map to `[dependency-groups]`\n- Poetry plugins (e.g. dynamic versioning) need equivalents (hatch-vcs as build backend)\n- Publishing: `uv publish` exists; fine for your internal index\n\nWhat you gain: ~20× faster installs, Python version management built in, standard metadata.\n\nDecision recommendation: switch, repo by repo, starting with the 3 with the slowest CI. Keep a short migration checklist so all 15 end up consistent."
    ),
    U("ok decided, uv. start with billing, search, and notifications"),
)

S(
    "decision/tooling",
    "codex",
    "Pick a load testing tool for our API",
    U(
        "we need to load test our public API before black friday. k6, locust, gatling, or artillery? team knows JS and Python, no Scala. we want to run it from CI and compare runs."
    ),
    A(
        "- **k6**: scripts in JS, single Go binary, very efficient (one machine can do tens of thousands of RPS), thresholds (`http_req_duration: ['p(95)<300']`) make CI pass/fail trivial, JSON/Prometheus output for comparing runs. Grafana Cloud k6 optional for distributed runs.\n- **Locust**: Python, nice web UI, easy to write complex user flows; Python workers are less efficient (need more machines for high RPS), CI thresholds are DIY.\n- **Gatling**: excellent reports, but Scala/Java/Kotlin DSL — your team doesn't know it.\n- **Artillery**: YAML + JS, decent; smaller ecosystem, best with their cloud.\n\nChoice: **k6** — JS fits the team, thresholds give CI gating out of the box, and run-to-run comparison works with `--summary-export` diffed in CI."
    ),
    U("fine, k6. set up a first script for the /search endpoint so we can try"),
    T(
        "shell",
        "mkdir -p load && cat > load/search.js <<'JS'\nimport http from 'k6/http';\nimport { check } from 'k6';\nexport const options = {\n  stages: [{ duration: '1m', target: 50 }, { duration: '3m', target: 200 }, { duration: '1m', target: 0 }],\n  thresholds: { http_req_failed: ['rate<0.01'], http_req_duration: ['p(95)<400'] },\n};\nconst terms = ['shoe', 'jacket', 'socks', 'rain coat', 'sneaker'];\nexport default function () {\n  const q = terms[Math.floor(Math.random() * terms.length)];\n  const r = http.get(`${__ENV.BASE_URL}/search?q=${encodeURIComponent(q)}`);\n  check(r, { '200': (res) => res.status === 200 });\n}\nJS\nk6 run -e BASE_URL=https://staging.api.acme.io --duration 30s --vus 10 load/search.js | tail -6",
        "     ✓ 200\n     http_req_duration..............: avg=88.12ms min=41.2ms med=79.9ms max=412.6ms p(90)=131ms p(95)=164ms\n     http_req_failed................: 0.00%  ✓ 0   ✗ 3412\n     iterations.....................: 3412   113.6/s",
    ),
    A("Smoke run against staging works (p95 164 ms at 10 VUs). The staged profile in the script goes up to 200 VUs."),
)

S(
    "decision/tooling",
    "aider",
    "Replace Jenkins after moving to GitHub?",
    U(
        "we're moving our code from bitbucket to github. jenkins currently runs CI. team wants to drop jenkins. github actions or keep jenkins? decide, we have 40 pipelines, some need GPU runners and one needs a mac"
    ),
    A(
        "Recommendation: **GitHub Actions**, with self-hosted runners for the special cases.\n\n- Code on GitHub → Actions gives PR checks, required status checks, OIDC to cloud, and marketplace actions with zero integration work. Jenkins would need webhooks, GitHub App auth, and its plugin upkeep stays with you.\n- GPU pipelines: self-hosted runners on your GPU machines (label `gpu`), or GitHub's larger GPU runners if budget allows.\n- Mac pipeline: GitHub-hosted `macos-14` runners (billed at 10× Linux minutes) or a self-hosted Mac mini.\n- 40 Jenkinsfiles: most declarative pipelines map mechanically; GitHub's Actions Importer (`gh actions-importer`) can audit and convert Jenkins pipelines to estimate the effort.\n\nKeep Jenkins only if you depend on plugins with no Actions equivalent — the importer's audit report will tell you."
    ),
    U("ok actions + self hosted gpu runners, mac hosted. decided. can you write a short note for the #eng channel"),
    A(
        "*CI decision:* With the move to GitHub we're replacing Jenkins with **GitHub Actions**. GPU jobs will run on self-hosted runners (label `gpu`), the iOS pipeline on GitHub-hosted macOS runners. We'll convert the 40 pipelines over the next sprints using GitHub Actions Importer; Jenkins stays read-only until the last one moves. Questions → #ci-migration."
    ),
)

S(
    "decision/tooling",
    "copilot",
    "Pick an API documentation tool",
    U(
        "which tool for our public API docs: redoc, swagger ui, stoplight elements, or mintlify/readme.com? we have an openapi 3.1 spec generated from fastapi. want nice docs + guides pages + versioning. small budget"
    ),
    A(
        '- **Swagger UI**: free, interactive "try it", but looks dated and has no guides pages.\n- **Redoc (OSS)**: clean three-panel reference from the spec, static, free; no try-it in OSS, no guides (you\'d combine with a static site).\n- **Stoplight Elements**: free web component with try-it, decent look; guides need your own site around it.\n- **Mintlify / ReadMe**: polished docs + guides + versioning + search + analytics out of the box; ~$150+/month (Mintlify\'s free tier is limited).\n\nGiven "guides + versioning + small budget": **Docusaurus (or Starlight) + Redoc/Scalar plugin** — free, versioned docs, guides as markdown in the repo, API reference rendered from your OpenAPI 3.1 file at build time, hosted on GitHub Pages. Scalar has a nicer try-it than Redoc OSS and supports 3.1.\n\nIf budget allows later, Mintlify saves the maintenance.'
    ),
    U("ok we go with starlight + scalar. decided."),
)
# ---------------------------------------------------------------- topic/learning
S(
    "topic/learning",
    "claude-code",
    "Teach me Rust lifetimes step by step",
    U(
        "I'm a python dev learning rust. lifetimes make no sense to me. can you teach me step by step, with small exercises? don't dump everything at once"
    ),
    A(
        'Step 1 — the problem lifetimes solve.\n\n```rust\nfn main() {\n    let r;\n    {\n        let x = 5;\n        r = &x;\n    }\n    println!("{r}");\n}\n```\nThis doesn\'t compile: `x` is dropped at the inner `}`, but `r` still points to it. In Python the GC keeps `x` alive as long as something references it; Rust has no GC, so the compiler must *prove* every reference is used only while its target lives. A lifetime is the name for "the region of code where a reference is valid".\n\nExercise 1: move `println!` inside the block. Does it compile? Why?'
    ),
    U("yes it compiles because x still exists when we print"),
    A(
        "Exactly. Step 2 — when you need to write lifetimes yourself: functions returning references.\n\n```rust\nfn longest(a: &str, b: &str) -> &str {\n    if a.len() > b.len() { a } else { b }\n}\n```\nThe compiler can't tell whether the result borrows from `a` or `b`, so it can't check callers. You tell it: \"the result lives as long as both inputs\":\n\n```rust\nfn longest<'a>(a: &'a str, b: &'a str) -> &'a str { ... }\n```\n`'a` doesn't change how long anything lives — it's a constraint the compiler checks.\n\nExercise 2: why doesn't this compile?\n```rust\nlet s1 = String::from(\"long string\");\nlet res;\n{\n    let s2 = String::from(\"xyz\");\n    res = longest(&s1, &s2);\n}\nprintln!(\"{res}\");\n```"
    ),
    U("because 'a becomes the shorter one, s2, and s2 is dropped before println?"),
    A(
        "Right — `'a` is inferred as the overlap of both borrows, which ends with `s2`. Step 3 — lifetime elision, i.e. why you rarely write them:\n\n1. Each reference parameter gets its own lifetime.\n2. If there's exactly one input lifetime, the output gets it.\n3. If a method takes `&self`, outputs get `self`'s lifetime.\n\nSo `fn first_word(s: &str) -> &str` needs nothing (rule 2). `longest` has two inputs → rules don't decide → you annotate.\n\nExercise 3: does `fn get(&self, key: &str) -> &Value` need annotations? Which borrow does the result come from according to rule 3?"
    ),
    U("no annotation, result tied to self. makes sense now. next step structs?"),
    A(
        "Step 4 — structs holding references:\n```rust\nstruct Parser<'a> { input: &'a str, pos: usize }\n```\nA `Parser` can't outlive the string it reads. Rule of thumb for now: if a struct holds references and it gets painful, store owned data (`String`) instead — cloning is fine while you learn.\n\nExercise 4: write `impl<'a> Parser<'a> { fn next_word(&mut self) -> Option<&'a str> }`. Note the return is `'a`, not tied to `&mut self` — think about why that's useful."
    ),
)

S(
    "topic/learning",
    "gemini-cli",
    "Learn Kubernetes basics hands-on with kind",
    U(
        "i know docker but never used kubernetes. teach me the basics hands on, I have kind installed. go slow pls, english is not my first language"
    ),
    A(
        "Good. We go in small steps. Step 1: create a cluster. A cluster is some machines (here: docker containers) that run your containers for you."
    ),
    T(
        "run_shell_command",
        "kind create cluster --name learn && kubectl get nodes",
        'Creating cluster "learn" ...\n ✓ Ensuring node image (kindest/node:v1.30.0)\n ✓ Starting control-plane\nSet kubectl context to "kind-learn"\nNAME                  STATUS   ROLES           AGE   VERSION\nlearn-control-plane   Ready    control-plane   31s   v1.30.0',
    ),
    A(
        "You have one node (one machine). Step 2: a **Pod** is the smallest thing Kubernetes runs: one or more containers together. Let's start nginx in a pod."
    ),
    T(
        "run_shell_command",
        "kubectl run web --image=nginx:1.27 && kubectl get pods -w --request-timeout=20s",
        "pod/web created\nNAME   READY   STATUS              RESTARTS   AGE\nweb    0/1     ContainerCreating   0          2s\nweb    1/1     Running             0          9s",
    ),
    A(
        'The pod is Running. But if the pod dies, nobody makes a new one. Step 3: a **Deployment** says "I want 3 copies always" and Kubernetes keeps it true. Try to guess: what happens if you delete one pod of a deployment?'
    ),
    U("it make a new one automatic?"),
    T(
        "run_shell_command",
        "kubectl delete pod web && kubectl create deployment web --image=nginx:1.27 --replicas=3 && sleep 8 && kubectl get pods && kubectl delete pod $(kubectl get pods -o name | head -1) && sleep 5 && kubectl get pods",
        'pod "web" deleted\ndeployment.apps/web created\nNAME                   READY   STATUS    RESTARTS   AGE\nweb-6d7b8f9c4d-4xk2p   1/1     Running   0          7s\nweb-6d7b8f9c4d-9qmzt   1/1     Running   0          7s\nweb-6d7b8f9c4d-tr8lw   1/1     Running   0          7s\npod "web-6d7b8f9c4d-4xk2p" deleted\nNAME                   READY   STATUS    RESTARTS   AGE\nweb-6d7b8f9c4d-9qmzt   1/1     Running   0          13s\nweb-6d7b8f9c4d-tr8lw   1/1     Running   0          13s\nweb-6d7b8f9c4d-zz71c   1/1     Running   0          4s',
    ),
    A(
        "Yes! You were right: a new pod (age 4s) was created. Step 4 next time: a **Service** gives the 3 pods one stable address. Exercise for you: run `kubectl scale deployment web --replicas=5` and check with `kubectl get pods`."
    ),
    U("ok it show 5 now. next step service please"),
    T(
        "run_shell_command",
        "kubectl expose deployment web --port=80 && kubectl port-forward svc/web 8080:80 >/dev/null & sleep 3; curl -s localhost:8080 | grep -o '<title>.*</title>'",
        "service/web exposed\n<title>Welcome to nginx!</title>",
    ),
    A(
        "The Service `web` sends traffic to any of the 5 pods. `port-forward` connects your laptop to it. Summary so far: Pod = running containers, Deployment = keeps N pods, Service = one address for them."
    ),
)

S(
    "topic/learning",
    "cursor",
    "Walk me through writing my first SQL window function",
    U(
        "I want to learn window functions in SQL, I only know GROUP BY. can you teach me with our orders table? postgres. start simple"
    ),
    T(
        "run_terminal_cmd",
        "psql shop -c 'select id, customer_id, created_at::date, total from orders order by customer_id, created_at limit 6'",
        " id  | customer_id | created_at | total\n-----+-------------+------------+-------\n 101 |           1 | 2024-01-03 |  40.00\n 140 |           1 | 2024-02-11 |  25.50\n 188 |           1 | 2024-03-09 |  90.00\n 102 |           2 | 2024-01-04 |  12.00\n 177 |           2 | 2024-03-01 |  60.00\n 203 |           3 | 2024-03-15 |  33.00",
    ),
    A(
        'Lesson 1. GROUP BY collapses rows: one row per customer. A window function computes over a group *but keeps every row*. Compare:\n\n```sql\nselect customer_id, sum(total) from orders group by customer_id;\n```\nvs\n```sql\nselect id, customer_id, total,\n       sum(total) over (partition by customer_id) as customer_total\nfrom orders;\n```\n`over (partition by customer_id)` = "the group is all rows with the same customer". Run the second one and look at customer 1\'s rows.'
    ),
    U("every row of customer 1 has 155.50. ok I get it"),
    A(
        "Lesson 2: add `order by` inside `over` and the sum becomes a *running* total:\n```sql\nsum(total) over (partition by customer_id order by created_at) as running_total\n```\nCustomer 1 → 40.00, 65.50, 155.50.\n\nLesson 3: ranking functions.\n```sql\nrow_number() over (partition by customer_id order by created_at) as nth_order\n```\nTask for you: write a query returning only each customer's **first** order. Hint: you can't use a window function in WHERE directly — wrap it in a subquery or CTE."
    ),
    U(
        "with x as (select *, row_number() over (partition by customer_id order by created_at) rn from orders) select * from x where rn = 1"
    ),
    A(
        "Perfect, that's the standard pattern. Lesson 4 (last for today): `lag()` looks at the previous row: `created_at - lag(created_at) over (partition by customer_id order by created_at)` gives days between orders. Try computing the average gap per customer."
    ),
)

S(
    "topic/learning",
    "codex",
    "Guided intro to writing a Go HTTP server with tests",
    U(
        "teach me how to write a small HTTP server in Go the idiomatic way, with tests. step by step, I'll type the code myself, just guide me and check my code"
    ),
    A(
        'Step 1: a handler is any type with `ServeHTTP(w http.ResponseWriter, r *http.Request)`; `http.HandlerFunc` adapts a function. Create `main.go` with a `/healthz` handler that writes `ok`, registered on a `http.NewServeMux()` (not the default mux — avoids global state). Start it with `http.ListenAndServe(":8080", mux)`. Paste your code when done.'
    ),
    U(
        'package main\nimport "net/http"\nfunc main() {\n  mux := http.NewServeMux()\n  mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })\n  http.ListenAndServe(":8080", mux)\n}'
    ),
    A(
        'Good. Two details: `ListenAndServe` returns an error you ignore — wrap in `log.Fatal(...)`. And since Go 1.22 you can write `mux.HandleFunc("GET /healthz", ...)` to restrict the method.\n\nStep 2: testing without a real server. `net/http/httptest` gives you a fake `ResponseWriter` (`httptest.NewRecorder()`) and requests (`httptest.NewRequest`). To test, the handler needs a name: move it to `func healthz(w http.ResponseWriter, r *http.Request)`. Write `main_test.go` with `TestHealthz` that calls it and checks status 200 and body `ok`.'
    ),
    U(
        'func TestHealthz(t *testing.T) {\n rec := httptest.NewRecorder()\n healthz(rec, httptest.NewRequest("GET", "/healthz", nil))\n if rec.Body.String() != "ok" { t.Fatal("bad body") }\n}'
    ),
    T("shell", "go test ./... -v", "=== RUN   TestHealthz\n--- PASS: TestHealthz (0.00s)\nPASS\nok  \thello\t0.004s"),
    A(
        'Passes. Improvements: check `rec.Code` too, and use `t.Errorf("body = %q, want %q", got, "ok")` so failures say what happened.\n\nStep 3 (next): a JSON endpoint `POST /greet` taking `{"name": ...}`. You\'ll use `json.NewDecoder(r.Body).Decode(&req)` and return 400 on bad JSON. Then a table-driven test with several cases — that\'s the most idiomatic Go testing style.'
    ),
)

S(
    "topic/learning",
    "cline",
    "Learn Elixir pattern matching and pipes via exercises",
    U(
        "Im starting elixir (from ruby). give me a small lesson + exercises on pattern matching and the pipe operator, check my answers"
    ),
    A(
        '**Lesson: `=` is match, not assignment**\n```elixir\n{:ok, user} = {:ok, %{name: "Ana"}}   # binds user\n{:ok, user} = {:error, :not_found}     # ** (MatchError)\n[head | tail] = [1, 2, 3]              # head = 1, tail = [2, 3]\n%{name: name} = %{name: "Ana", age: 30} # maps match partially\n```\nFunction heads match too, which replaces many `if`s:\n```elixir\ndef greet(%{name: name}), do: "Hi #{name}"\ndef greet(_), do: "Hi stranger"\n```\n**Pipe:** `x |> f(y)` is `f(x, y)` — the left value becomes the first argument.\n```elixir\n"  Hello World " |> String.trim() |> String.downcase() |> String.split()\n# ["hello", "world"]\n```\n**Exercises**\n1. Write `area/1` with clauses for `{:circle, r}` and `{:rect, w, h}`.\n2. Using pipes, sum the squares of the even numbers in `1..10`.'
    ),
    U(
        "1.\ndef area({:circle, r}), do: 3.14 * r * r\ndef area({:rect, w, h}), do: w * h\n\n2.\n1..10 |> Enum.filter(fn x -> rem(x,2) == 0 end) |> Enum.map(fn x -> x*x end) |> Enum.sum()"
    ),
    T(
        "execute_command",
        "elixir -e 'defmodule S do\n def area({:circle, r}), do: 3.14 * r * r\n def area({:rect, w, h}), do: w * h\nend\nIO.inspect(S.area({:rect, 2, 3}))\nIO.inspect(1..10 |> Enum.filter(fn x -> rem(x,2) == 0 end) |> Enum.map(fn x -> x*x end) |> Enum.sum())'",
        "6\n220",
    ),
    A(
        "Both correct (6 and 220). Idiomatic touches: `:math.pi()` instead of 3.14, and the capture syntax `&rem(&1, 2) == 0`, `&(&1 * &1)`. Next lesson: `case`, `with` for chaining `{:ok, _}` results — the Elixir answer to Ruby's early returns."
    ),
)

S(
    "topic/learning",
    "copilot",
    "Tutorial: first steps with Terraform for AWS S3",
    U(
        "new to terraform. walk me through creating an s3 bucket with it, explaining each command as we go. I have aws cli configured with a sandbox account"
    ),
    T(
        "create_file",
        "main.tf",
        "File created.",
        content='terraform {\n  required_providers {\n    aws = { source = "hashicorp/aws", version = "~> 5.0" }\n  }\n}\n\nprovider "aws" {\n  region = "eu-west-1"\n}\n\nresource "aws_s3_bucket" "demo" {\n  bucket = "tf-learning-demo-7731"\n}\n',
    ),
    A(
        'Three blocks:\n- `terraform { required_providers }` — which plugins to download. The AWS provider translates your config into AWS API calls.\n- `provider "aws"` — settings for that plugin (region; credentials come from your AWS CLI config).\n- `resource "aws_s3_bucket" "demo"` — the thing you want to exist. `demo` is the name *inside Terraform*; `bucket` is the real name in AWS (must be globally unique).\n\nFirst command: `terraform init` downloads the provider.'
    ),
    T(
        "run_in_terminal",
        "terraform init",
        "Initializing provider plugins...\n- Installing hashicorp/aws v5.54.1...\nTerraform has been successfully initialized!",
    ),
    A(
        "Now `terraform plan`: it compares your config with reality (and the state file) and shows what it *would* do. Nothing changes yet."
    ),
    T(
        "run_in_terminal",
        "terraform plan",
        '  # aws_s3_bucket.demo will be created\n  + resource "aws_s3_bucket" "demo" {\n      + bucket = "tf-learning-demo-7731"\n      + arn    = (known after apply)\n    }\nPlan: 1 to add, 0 to change, 0 to destroy.',
    ),
    A(
        "`+` means create; `(known after apply)` are values AWS assigns. Now `terraform apply` does it and writes `terraform.tfstate` — Terraform's memory of what it manages."
    ),
    U("applied. what if I change the bucket name in the file?"),
    A(
        "Try it and run `plan`: you'll see `-/+ ... forces replacement` — S3 bucket names can't be renamed, so Terraform would destroy and recreate it. That's the most important habit: always read the plan. When done, `terraform destroy` removes everything so your sandbox stays clean."
    ),
)

# ---------------------------------------------------------------- topic/explanation
S(
    "topic/explanation",
    "claude-code",
    "How does Python's GIL affect our thread pool",
    U(
        "why does our ThreadPoolExecutor with 8 workers not speed up the image hashing at all? someone said GIL. how does that actually work? I don't want to change anything yet, just understand"
    ),
    T(
        "Read",
        "tools/hash_images.py",
        "def phash(path):\n    img = load_gray(path)            # pure-python PNG decode\n    px = [img[y][x] for y in range(32) for x in range(32)]\n    return dct_hash(px)              # pure-python DCT\n\nwith ThreadPoolExecutor(8) as ex:\n    hashes = list(ex.map(phash, paths))",
    ),
    A(
        "The GIL (global interpreter lock) is a mutex in CPython that a thread must hold to execute Python bytecode. Only one thread runs Python code at a time; the interpreter switches between threads every 5 ms (`sys.getswitchinterval()`) or when a thread blocks.\n\nThreads still help when work happens *outside* the interpreter and the GIL is released: waiting on sockets/files (`read`, `recv`), `time.sleep`, and C extensions that release it explicitly (NumPy on large arrays, hashlib for big buffers, zlib, Pillow's decoders).\n\nYour `phash` is pure Python: the PNG decode and DCT are loops of bytecode. So 8 threads just take turns holding the GIL — total CPU is the same as one thread, plus switching overhead. That's why there's no speedup.\n\nWhy the GIL exists: CPython's memory management uses reference counts on every object; the GIL makes those updates thread-safe cheaply. Python 3.13 has an experimental free-threaded build (`python3.13t`) without it.\n\nWhat would change the picture (for later): processes (`ProcessPoolExecutor`, each with its own GIL), or doing the decode/DCT in a C library (Pillow + NumPy) that releases the GIL."
    ),
)

S(
    "topic/explanation",
    "cursor",
    "Why does useEffect run twice in dev",
    U("why does my useEffect fetch run twice? I see 2 requests in network tab. only in development it seems"),
    A(
        "That's React 18's **StrictMode** in development: it mounts every component, immediately unmounts it, and mounts it again. Effects therefore run → cleanup → run. It's intentional: it surfaces effects that don't clean up properly (subscriptions, timers, in-flight requests) — bugs that would otherwise show up with fast refresh, Suspense, or future features that reuse component state (like offscreen rendering).\n\nIn production builds StrictMode does nothing, so you get one request.\n\nWhat it tells you about your effect: if running it twice causes a problem (duplicate POST, race where the first response overwrites the second), the effect isn't resilient. For fetches, the usual shape is an `AbortController` aborted in the cleanup, or a data-fetching library (TanStack Query, SWR) which dedupes requests."
    ),
    U("so it's not a bug in my code?"),
    A(
        "The double request itself isn't a bug. It's only a bug if the second run changes behaviour — e.g. a POST that creates two records. A GET that's aborted on cleanup is fine."
    ),
)

S(
    "topic/explanation",
    "gemini-cli",
    "Explain how Postgres MVCC and VACUUM work",
    U(
        "our DBA keeps talking about 'dead tuples' and 'vacuum' and 'bloat'. can you explain how postgres MVCC works so I understand why vacuum is needed? I'm a backend dev, not a dba"
    ),
    T(
        "run_shell_command",
        'psql app -c "select relname, n_live_tup, n_dead_tup, last_autovacuum from pg_stat_user_tables order by n_dead_tup desc limit 3"',
        "   relname   | n_live_tup | n_dead_tup |        last_autovacuum\n-------------+------------+------------+-------------------------------\n sessions    |     120431 |    2310877 | 2024-05-01 03:12:40.118+00\n jobs        |      9013 |     411822 | 2024-05-06 11:02:03.550+00\n orders      |    8412201 |      91230 | 2024-05-06 10:44:12.002+00",
    ),
    A(
        "**MVCC (multi-version concurrency control):** Postgres never overwrites a row in place. An UPDATE writes a *new version* of the row (a new tuple) and marks the old one as expired by the updating transaction (its `xmax`). A DELETE only marks. Each transaction sees the versions that were committed when its snapshot was taken. That's why readers never block writers: old readers keep seeing the old version.\n\n**Dead tuples:** once no running transaction can possibly see an old version anymore, it's dead — but it still occupies space in the table and its indexes.\n\n**VACUUM** scans tables, finds dead tuples and marks their space reusable (plain VACUUM doesn't return space to the OS; VACUUM FULL rewrites the table but locks it). It also updates the visibility map (enables index-only scans) and freezes old transaction IDs to prevent wraparound.\n\n**Bloat** is when dead tuples accumulate faster than vacuum reclaims them: the table grows, scans read more pages.\n\nYour data illustrates it: `sessions` has 2.3M dead vs 120k live tuples and last autovacuum was 5 days ago — it's updated constantly (e.g. `last_seen` per request), each update leaves a dead version, and autovacuum's default thresholds (20% of the table) plus something holding back cleanup (a long-running transaction or an idle-in-transaction connection keeps old versions \"visible\") means it falls behind. That's what your DBA means."
    ),
)

S(
    "topic/explanation",
    "codex",
    "Email regex in validators.py rejects some addresses",
    U(
        "what does this regex in validators.py actually do? nobody on the team knows and it's rejecting some emails\n\n^(?=.{1,254}$)(?=.{1,64}@)[\\w!#$%&'*+/=?^`{|}~-]+(?:\\.[\\w!#$%&'*+/=?^`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,}$"
    ),
    A(
        "Piece by piece:\n\n- `^(?=.{1,254}$)` — lookahead: whole string is 1–254 chars (max email length per RFC 5321). Consumes nothing.\n- `(?=.{1,64}@)` — lookahead: the local part (before `@`) is 1–64 chars.\n- `[\\w!#$%&'*+/=?^`{|}~-]+` — local part: letters, digits, underscore and the special characters RFC 5322 allows in an unquoted local part.\n- `(?:\\.[...]+)*` — optional dot-separated further pieces, so `first.last` works but `.first`, `first.` and `first..last` don't.\n- `@`\n- `(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+` — one or more domain labels: start and end with alphanumeric, hyphens inside, max 63 chars, each followed by a dot.\n- `[A-Za-z]{2,}$` — top-level domain: letters only, at least 2.\n\nWhat it rejects that people may still use:\n1. Internationalised domains in Unicode (`user@münchen.de`) — domain labels are ASCII-only; punycode (`xn--mnchen-3ya.de`) passes.\n2. Quoted local parts (`\"john smith\"@x.com`) — rare in practice.\n3. `\\w` in Python 3 is Unicode-aware, so the *local part* accepts `josé@...` but the *domain* doesn't — inconsistent.\n4. TLDs with digits (none real today except punycode TLDs like `xn--p1ai`, which it rejects since they contain digits and hyphens).\n\nMy guess for your rejections: IDN domains. If you paste an example I can confirm."
    ),
)

S(
    "topic/explanation",
    "aider",
    "How does git rebase --onto work",
    U("can you explain git rebase --onto with an example? I read the man page 3 times"),
    A(
        '`git rebase --onto <newbase> <upstream> <branch>` means: take the commits that are in `<branch>` but not in `<upstream>`, and replay them on top of `<newbase>`.\n\nThe normal `git rebase main` is just `--onto main main HEAD` — the "cut point" and the "new base" are the same. `--onto` lets them differ.\n\nExample: you branched `feature-b` off `feature-a`, but `feature-a` got squash-merged into main, so its commits now exist on main under different hashes:\n```\nmain:      M1 - M2 - S(a1+a2)\nfeature-a:  M1 - a1 - a2\nfeature-b:  M1 - a1 - a2 - b1 - b2\n```\n`git rebase main feature-b` would try to replay a1, a2 (conflicts, since S contains them) and b1, b2. Instead:\n```\ngit rebase --onto main feature-a feature-b\n```\n= "take commits after `feature-a` (b1, b2) and put them on main":\n```\nmain - S - b1\' - b2\'\n```\nAnother use: dropping commits from the middle: `git rebase --onto X~3 X~1 X` removes the two commits X~2 and X~1... more precisely it keeps commits after X~1 (just X) and places them on X~3.'
    ),
    U("ah the squash merge case is exactly my situation. thanks"),
)

S(
    "topic/explanation",
    "copilot",
    "Why is my Java HashMap iteration order different between runs",
    U(
        "why does iterating our HashMap give different order on different machines/JDKs? a test compares the output string and fails on the CI JDK 21 but not my JDK 17"
    ),
    A(
        "`HashMap` iteration order depends on the bucket layout: the key's `hashCode()` (spread with `h ^ (h >>> 16)`), the table capacity, and insertion/resize history. The spec explicitly makes no ordering guarantee, so any of these can change the order:\n\n- **Different hashCode**: `String.hashCode` is stable, but keys whose hashCode is identity-based (enums? no — enums use `Object.hashCode`, i.e. memory-address-derived, which differs per run and JVM) or records/classes with custom hashCodes that changed between versions.\n- **Different capacity**: a map created with a different initial size or via a different code path (e.g. `Map.copyOf`, `Collectors.toMap`) has different buckets.\n- **JDK implementation changes**: between releases, internals of collections like `Set.of`/`Map.of` deliberately randomize iteration order per JVM run (SALT). If your map comes from `Map.of(...)`, order changes on *every* run, not just per JDK.\n\nSo your test depends on undefined behaviour. It passes on 17 by coincidence. The fix is in the test or in the code's contract: `LinkedHashMap` if insertion order matters, `TreeMap` for sorted output, or compare maps instead of strings in the test."
    ),
    U("the keys are enums. so that's the identity hashcode thing?"),
    A(
        "Yes — `Enum.hashCode()` is `Object`'s identity hash, different per JVM run. For enum keys use `EnumMap`: faster, and iterates in declaration order, always."
    ),
)

# ---------------------------------------------------------------- topic/comparison
S(
    "topic/comparison",
    "claude-code",
    "Difference between Promise.all, allSettled, race, any",
    U("difference between Promise.all, allSettled, race and any? always mix them up"),
    A(
        "| | resolves when | rejects when | result |\n|---|---|---|---|\n| `Promise.all` | all fulfil | **first** rejection (fail-fast) | array of values |\n| `Promise.allSettled` | all settle (fulfil or reject) | never | array of `{status, value|reason}` |\n| `Promise.race` | first settles, if it fulfils | first settles, if it rejects | that one value/reason |\n| `Promise.any` | first fulfils | all reject → `AggregateError` | that one value |\n\nTypical uses: `all` — load several things you need together; `allSettled` — batch jobs where you report each outcome; `race` — timeouts (`race([fetch(u), timeout(5000)])`); `any` — fastest of several mirrors, ignoring failures.\n\nNote `all` doesn't cancel the others on rejection; they keep running."
    ),
)

S(
    "topic/comparison",
    "cursor",
    "Compare Django select_related vs prefetch_related",
    U(
        "whats the difference between select_related and prefetch_related, when to use which? here's my view that's slow\n\nfor book in Book.objects.all():\n    print(book.author.name, [t.name for t in book.tags.all()])"
    ),
    A(
        '**select_related**: follows *single-valued* relations (ForeignKey, OneToOne) with a SQL **JOIN** in the same query. One query, wider rows.\n\n**prefetch_related**: for *multi-valued* relations (ManyToMany, reverse ForeignKey). Runs a **separate query** per relation (`WHERE book_id IN (...)`) and joins in Python. 1 + N_relations queries total, regardless of row count.\n\nWhy not JOIN for M2M: it would multiply rows (one book × 5 tags = 5 rows), duplicating the book columns.\n\nYour loop: `book.author` → FK → select_related; `book.tags` → M2M → prefetch_related:\n```python\nBook.objects.select_related("author").prefetch_related("tags")\n```\nThat\'s 2 queries instead of 1 + 2N.\n\nGotcha: calling `.filter()` on `book.tags` inside the loop bypasses the prefetch cache; use `Prefetch("tags", queryset=Tag.objects.filter(...))` instead.'
    ),
    T(
        "run_terminal_cmd",
        "python manage.py shell -c \"from django.db import connection, reset_queries; from django.conf import settings; settings.DEBUG=True; from books.models import Book; [ (b.author.name, list(b.tags.all())) for b in Book.objects.select_related('author').prefetch_related('tags')]; print(len(connection.queries))\"",
        "2",
    ),
    A("Confirmed: 2 queries now (was 401 for your 200 books)."),
)

S(
    "topic/comparison",
    "gemini-cli",
    "Postgres or MySQL for the new SaaS",
    U(
        "new project, we need to choose postgres or mysql. what are the real differences today (2024), not the 2010 flamewar stuff. workload: saas, json columns, some full text search, reporting queries"
    ),
    A(
        "Real differences that matter for your workload:\n\n- **JSON**: Postgres `jsonb` is binary, indexable with GIN (containment, path queries), rich operators. MySQL `JSON` is also binary and validated, indexing is via generated columns or multi-valued indexes — workable but more manual.\n- **Full-text search**: Postgres `tsvector` with language dictionaries, ranking, phrase search, plus `pg_trgm` for fuzzy. MySQL InnoDB FULLTEXT is simpler, fewer tuning options, weaker for non-English.\n- **Reporting/SQL features**: both have CTEs and window functions now. Postgres has more: `FILTER` on aggregates, `DISTINCT ON`, `LATERAL`, partial and expression indexes, parallel query, materialized views.\n- **Replication/ops**: MySQL's replication and tooling (Group Replication, Vitess for sharding) are very mature; Postgres logical replication has caught up. Managed offerings are equal for both.\n- **Write-heavy updates**: MySQL (InnoDB) updates in place with undo logs — less bloat for hot-row updates; Postgres MVCC needs vacuum tuning.\n- **Extensions**: Postgres (PostGIS, pgvector, Timescale) is a big plus if you ever need geo/vectors.\n- **Defaults/strictness**: MySQL 8 fixed most of the old silent-truncation issues with strict mode on by default."
    ),
    U("ok so for us postgres? we go with it then"),
    A(
        "Yes — JSON querying, full-text search and reporting SQL all favour Postgres for your workload, and nothing in your list favours MySQL. Going with Postgres is the right call."
    ),
)

S(
    "topic/comparison",
    "codex",
    "Rust: Box vs Rc vs Arc",
    U("in rust whats the difference between Box, Rc and Arc? when do I use each"),
    A(
        "All three are owning pointers to heap data; they differ in how many owners and across threads.\n\n- **`Box<T>`**: exactly one owner. Zero overhead beyond the allocation. Use for recursive types (`enum List { Cons(i32, Box<List>), Nil }`), trait objects (`Box<dyn Error>`), or moving large values cheaply.\n- **`Rc<T>`**: shared ownership, single thread. `Rc::clone` increments a non-atomic counter; value dropped when the count hits 0. Use for graphs/trees with multiple parents in single-threaded code. Not `Send`: the compiler stops you from sharing it across threads.\n- **`Arc<T>`**: like Rc but the counter is atomic → `Send + Sync` (if T is). Slightly slower clone/drop. Use when sharing across threads (e.g. config shared by tokio tasks).\n\nAll three give only *shared* (`&T`) access when shared. For mutation add interior mutability: `Rc<RefCell<T>>` (single thread, runtime borrow checks) or `Arc<Mutex<T>>` / `Arc<RwLock<T>>` (threads).\n\nRule of thumb: start with plain ownership/references; `Box` when you need heap/indirection; `Rc` only when ownership is truly shared; switch to `Arc` when the compiler says `Rc` isn't `Send`."
    ),
)

S(
    "topic/comparison",
    "cline",
    "Compare Kafka consumer groups vs RabbitMQ competing consumers",
    U(
        "im coming from rabbitmq. in kafka how are consumer groups different from rabbit's competing consumers on a queue? our team is confused about ordering and scaling"
    ),
    A(
        "**RabbitMQ competing consumers**: one queue, N consumers; the broker pushes each message to one consumer (round-robin, limited by prefetch). Scale by adding consumers — any number. Ordering: lost once you have >1 consumer (and with redeliveries). Message is deleted after ack; no replay.\n\n**Kafka consumer group**: a topic has P partitions; within a group each partition is assigned to exactly one consumer. Consumers pull and track their position (offset). Consequences:\n- Parallelism is capped at P: the 7th consumer on a 6-partition topic sits idle.\n- Ordering is guaranteed *per partition*; messages with the same key go to the same partition, so per-key order holds even with many consumers.\n- Messages aren't deleted on consumption (retention-based), so another group reads the same data independently — this replaces RabbitMQ's fanout exchange + one queue per consumer type.\n- A slow message blocks its partition (head-of-line blocking); RabbitMQ just gives the next message to another consumer.\n- Adding/removing consumers triggers a rebalance.\n\nSo: in Kafka, plan partition count for max parallelism up front, and choose keys for the ordering you need."
    ),
    U("so if we need per-customer order we key by customer id?"),
    A(
        "Yes. All events of a customer land in one partition and are consumed in order by a single consumer of the group. Watch for hot keys — one very active customer then limits throughput of its partition."
    ),
)

S(
    "topic/comparison",
    "aider",
    "channels or mutex for counter map",
    U(
        "for a shared map of counters updated from many goroutines, is channel or mutex better? people say 'share memory by communicating' but mutex seems simpler"
    ),
    A(
        'Both are correct; they fit different shapes of problem.\n\n**Mutex (`sync.Mutex`/`RWMutex`)** — protects shared state in place:\n```go\ntype Counters struct { mu sync.Mutex; m map[string]int }\nfunc (c *Counters) Inc(k string) { c.mu.Lock(); c.m[k]++; c.mu.Unlock() }\n```\nSimple, fast (uncontended lock is a few ns), easy to read. For a map of counters this is the idiomatic choice. Under heavy contention: shard the map or use `atomic.Int64` per key.\n\n**Channel (owner goroutine)** — one goroutine owns the map, others send it messages:\n```go\nincs := make(chan string, 1024)\ngo func() { for k := range incs { m[k]++ } }()\n```\nGood when the state has a lifecycle or complex transitions, or when you want a pipeline/back-pressure. Costs: more code (reading needs request/reply channels), channel ops are slower than an uncontended mutex, and shutdown handling.\n\nThe proverb is about designing *communication between components*, not a ban on mutexes — the Go wiki\'s "Use a sync.Mutex or a channel?" page says: mutex for caches and state, channels for passing ownership of data and coordinating goroutines.\n\nFor counters: mutex (or `sync.Map`/atomics if profiling shows contention).'
    ),
)
# ---------------------------------------------------------------- uncategorized
X(
    "claude-code",
    "continue",
    U("continue"),
    A("There's no earlier conversation in this session for me to continue. What would you like to work on?"),
)

X("cursor", "Greeting", U("hello!"), A("Hi! How can I help you today?"))

X("codex", "Aborted session", U("ok so"), A("Go ahead — what do you need?"), U("nvm"))

X(
    "gemini-cli",
    "Fully redacted transcript",
    U("[REDACTED]"),
    A("[REDACTED]"),
    U("[REDACTED] [REDACTED]"),
    A("[REDACTED]"),
)

X(
    "copilot",
    "Birthday message for colleague",
    U("write a funny birthday card text for my colleague Marta, she loves cats and hates mondays"),
    A(
        "Happy birthday, Marta! 🎂 May your day have the energy of a cat at 3 a.m., the calm of a cat in a sunbeam, and absolutely zero Monday in it. If anyone schedules a meeting today, we've agreed you may knock their coffee off the table. Purrfect year ahead!"
    ),
    U("haha great"),
)

X(
    "aider",
    "Pasta recipe",
    U("what can I cook with spinach, ricotta and some old pasta, 20 min"),
    A(
        "Spinach-ricotta pasta: boil the pasta; meanwhile wilt the spinach in a pan with olive oil and garlic, stir in ricotta with a splash of pasta water, lemon zest, salt and pepper. Toss with the drained pasta, top with parmesan or chili flakes. About 15 minutes."
    ),
)

X(
    "cline",
    "Chit-chat about the weekend",
    U("do you ever get tired lol. long week"),
    A(
        "I don't get tired, but it sounds like you've had a long week. Hope the weekend gives you a real break — anything fun planned?"
    ),
    U("hiking if it doesnt rain. bye"),
    A("Enjoy the hike! 🥾"),
)

X("claude-code", "Interrupted before anything happened", U("can you look at the"), A("[Request interrupted by user]"))

X(
    "gemini-cli",
    "Travel question",
    U("is it better to take the train or fly from Munich to Vienna? with 2 kids"),
    A(
        "Train, most likely: the Railjet takes about 4 h centre to centre, with no security lines or airport transfers, and kids can move around; there's a family zone on some trains. Flying is ~1 h in the air but about 3.5–4 h door to door. Book early for Sparschiene fares."
    ),
)

X("codex", "Test message", U("test"), A("Received. What would you like to do?"))

X("copilot", "Thanks only", U("thanks, that's all for today!"), A("You're welcome — have a good evening!"))

X(
    "cursor",
    "Translate a wedding toast",
    U(
        "can u translate this to spanish for my sisters wedding: 'To Ana and Luis — may your home always be full of laughter, good food and friends.'"
    ),
    A('"Por Ana y Luis: que su hogar esté siempre lleno de risas, buena comida y amigos."'),
    U("perfect gracias"),
)
# ---------------------------------------------------------------- follow-up turns
# Later turns of sessions defined above, kept here so the long sessions stay readable.
_BY_ID = {s["id"]: s for s in SESSIONS}


def MORE(sid: str, *items: Msg | list[Msg]) -> None:
    for it in items:
        _BY_ID[sid]["messages"].extend(it if isinstance(it, list) else [it])


MORE(
    "h4-code-pattern-6",
    U("we run 4 replicas of the service, how exactly does the relay not send things twice"),
    A(
        'Each replica\'s relay selects with `FOR UPDATE SKIP LOCKED`, so rows locked by one replica\'s transaction are invisible to the others:\n```sql\nSELECT * FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED;\n```\nIn Spring Data: `@Lock(PESSIMISTIC_WRITE)` + `@QueryHints(@QueryHint(name = "jakarta.persistence.lock.timeout", value = "-2"))` (-2 = SKIP LOCKED in Hibernate). Duplicates can still happen if a replica crashes after publishing and before commit — that\'s the at-least-once part, so consumers dedupe on the event id.'
    ),
)
MORE(
    "h4-code-review-6",
    U("he answered 'GlobalScope is fine because repo.fetch uses its own scope inside'. is he right?"),
    A(
        "No. The scope inside `fetch` doesn't matter: the coroutine launched in GlobalScope is the one that suspends on `fetch` and then writes `state`, and nothing cancels it when the ViewModel is cleared. With `viewModelScope`, `onCleared()` cancels it and the request is cancelled too (Retrofit propagates cancellation). Keep the comment as blocking."
    ),
)
MORE(
    "h4-code-snippet-1",
    T(
        "Bash",
        "node -e \"const r=/^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$/; for (const v of ['1.4.0-rc.1+build.7','01.4.0','2.0.0-alpha..1','10.20.30']) console.log(v, r.test(v))\"",
        "1.4.0-rc.1+build.7 true\n01.4.0 false\n2.0.0-alpha..1 false\n10.20.30 true",
    ),
    A("Checked against a few cases, behaves as expected."),
)
MORE(
    "h4-code-snippet-3",
    U("run it"),
    T(
        "run_terminal_cmd",
        "git branch --merged main | grep -vE '^\\*|\\b(main|develop)$' | xargs -r git branch -d",
        "Deleted branch fix/login-typo (was 3e1a9c0).\nDeleted branch feat/export-csv (was 91bd2f7).\nDeleted branch chore/bump-eslint (was 0c44aa1).",
    ),
    A("Deleted 3 merged branches."),
)
MORE(
    "h4-architecture-design-4",
    U("and the events, on(event, handler) — sync or async? a slow plugin shouldnt block the cli"),
    A(
        'Synchronous, in registration order, with a per-handler timeout warning rather than async machinery: a CLI runs one command and exits, so an event loop would add complexity without concurrency benefits. Rules: handlers get an immutable event object, exceptions are caught and reported per plugin, and a handler that takes > 2 s logs "plugin X slowed down `deploy` by 3.1 s" so users know whom to blame. Long work belongs in a plugin\'s own command, not in an event hook.'
    ),
)
MORE(
    "h4-architecture-design-5",
    U("how do schema migrations work then with the dedicated cells"),
    A(
        "Same migration files everywhere; the migration runner iterates over the distinct databases in `tenant_directory` (shared cluster first, then each cell) and records per database which version it's on. Migrations must be backward compatible (expand/contract), because during a rollout cells are briefly on different versions and the app version talking to them is the same. A cell failing its migration blocks the rollout of the *next* app version, not the others."
    ),
)
MORE(
    "h4-architecture-design-6",
    U("what happens if inventory is down for an hour?"),
    A(
        'Orders are still accepted and stay PENDING; `OrderPlaced` events wait in Kafka. When inventory comes back it consumes the backlog in order per partition and emits results. Two things to design for: the UI must present PENDING as "confirming your order" (with an email when confirmed), and reservation happens later than placement, so items may be out of stock by then → `StockReservationFailed` → the order is rejected and the customer notified. Set an alert on consumer lag for the inventory group.'
    ),
)
MORE(
    "h4-architecture-decision-4",
    U("add an 'alternatives considered' part, the team will ask"),
    A(
        "Alternatives considered:\n- *Keep federation, add composition checks in CI*: reduces broken deploys but keeps release coupling between teams.\n- *One shared REST gateway*: recreates the coupling in a different form; the web and mobile needs diverge.\n- *Clients call domain services directly*: leaks internal APIs to clients and multiplies round trips on mobile."
    ),
)
MORE(
    "h4-architecture-decision-6",
    U("/commit"),
    A("Commit 7b2e91d: docs: add ADR-0009 ports and adapters for billing-service"),
)
MORE(
    "h4-architecture-tradeoff-3",
    U("is json really that much slower? our services do maybe 200 rps each"),
    A(
        "Per message, protobuf decoding is typically several times faster than JSON and payloads are 30–60% smaller, but at 200 rps per service that's microseconds of CPU per request — noise next to DB queries. HTTP/2 connection reuse helps more than the encoding, and you can get that with REST too. So at your load the performance argument is weak; the contract/codegen argument is the real one."
    ),
)
MORE(
    "h4-architecture-tradeoff-5",
    T(
        "run_in_terminal",
        "npx source-map-explorer build/static/js/main.*.js --json | jq -r '.results[0].files | to_entries | sort_by(-.value.size) | .[:5][] | \"\\(.value.size/1024|floor) KB  \\(.key)\"'",
        "612 KB  node_modules/@mui/icons-material/esm/index.js\n288 KB  node_modules/moment/moment.js + locales\n201 KB  node_modules/xlsx/xlsx.mjs\n143 KB  node_modules/react-dom/cjs/react-dom.production.min.js\n 96 KB  src/pages/Reports/ReportBuilder.tsx",
    ),
    A(
        'The bundle explains the 4 s: a barrel import of all MUI icons (612 KB), moment with all locales, and xlsx (only used on the export page) are all in the main chunk. Fixing those three is a day of work and would probably cut the initial JS by ~1 MB — a strong point for the "optimise the SPA" side before considering SSR.'
    ),
)
MORE(
    "h4-architecture-tradeoff-6",
    U("we don't have kafka. is running kafka just for this worth it?"),
    A(
        "No — for 200 events/minute and one consumer, don't introduce Kafka. The event option works with what you have: an outbox table in the catalog DB plus a small relay, or Postgres LISTEN/NOTIFY, or a managed queue (SQS) if you're on AWS. The trade-off between coupling and consistency is the same; the infrastructure cost of the event side is what changes, and with an outbox it's close to zero."
    ),
)
MORE(
    "h4-feature-requirement-3",
    U("compliance will ask about SMS pumping fraud (bots triggering SMS to premium numbers). add a requirement"),
    A(
        "- SR7 SMS codes are only sent to numbers already verified on the account (never to a number entered on the reset form).\n- SR8 Per-country SMS sending limits and an allowlist of destination countries; alert when daily SMS volume exceeds 3× the 7-day average.\n- SR9 CAPTCHA on the reset request after the first attempt from an IP within 1 h."
    ),
)
MORE(
    "h4-feature-requirement-4",
    U("great, put it in docs/features/recurring-bookings.md with the ticket numbers as sources"),
    T(
        "shell",
        "mkdir -p docs/features && cat > docs/features/recurring-bookings.md <<'MD'\n# Recurring bookings — requirements\nSources: SUP-4411, SUP-4432, SUP-4438, SUP-4450, SUP-4457, SUP-4462, SUP-4471, SUP-4479, SUP-4485\n\n| ID | Priority | Requirement | Tickets |\n|---|---|---|---|\n| R1 | Must | Repeat every 1–4 weeks, end date or count | 1, 2, 7, 8 |\n| R2 | Must | Change/cancel one occurrence or the rest | 4, 7 |\n| R3 | Must | Salon sets max horizon; per-service opt-out | 6 |\n| R4 | Should | Staff absence: notify + offer alternatives | 3 |\n| R5 | Should | Series overview in client profile | 9 |\n| R6 | Should | Reminder per occurrence | 5 |\n| R7 | Could | Skip dates | 7 |\nMD\ngit add docs/features/recurring-bookings.md && git status --short",
        "A  docs/features/recurring-bookings.md",
    ),
    A(
        "Written and staged. I numbered the tickets in the order you pasted them; please replace the SUP ids if I mapped them wrong — you didn't give me the actual ids, I made placeholders."
    ),
)
MORE(
    "h4-feature-requirement-6",
    T(
        "write_to_file",
        "docs/requirements/gdpr-data-export.md",
        "File created.",
        content="# Download my data (GDPR Art. 15/20)\n\n## Requirements\n1. ...\n## Acceptance criteria\n...\n## Open questions for legal\n- Retention of export files\n- Derived data (fitness score)\n",
    ),
    A("Saved as docs/requirements/gdpr-data-export.md so legal can comment on the PR."),
)
MORE(
    "h4-feature-design-3",
    U(
        "on the product page, how do I know which combinations are available so I can grey out e.g. XL when red is selected"
    ),
    A(
        "Send the variant matrix with the product: `[{id, attrs: {color: red, size: m}, stock, price}, ...]` (a product rarely has more than ~100 variants). The picker computes availability client-side: for each option value, is there a variant with stock > 0 matching the other current selections plus this value? Keep it out of the data model — it's a derived view of the variants you already store."
    ),
)
MORE(
    "h4-feature-design-5",
    U("and sort? should it be in the url as well"),
    A(
        "Yes: `sort=salary_desc|newest|relevance`, omitted when it's the default (`relevance` with a query, `newest` without). Anything that changes the result list belongs in the URL; purely visual state (list vs grid view) goes to localStorage."
    ),
)
MORE(
    "h4-feature-design-6",
    U("what if the referee cancels in the first month"),
    A(
        "Then the referral never qualifies: qualification requires the first paid invoice plus 14 days without refund or cancellation. If they cancel on day 20 after qualifying, the credits stay (clawing back credits is bad UX and rarely worth it) — the 14-day window is the fraud guard. Status `rejected` with reason `referee_cancelled` when cancellation happens before qualification."
    ),
)
MORE(
    "h4-decision-technical-6",
    U("meeting done — we go KMP. which module do we share first?"),
    A(
        "Networking + DTOs + the auth/session logic: it's pure logic, both apps have it, and bugs there are the most expensive when they differ between platforms (token refresh, error mapping). Use Ktor client + kotlinx.serialization in the shared module; expose suspend functions to Swift via SKIE. Leave persistence and UI for later."
    ),
)
MORE(
    "h4-topic-explanation-4",
    U("example that fails: info@bücher.de"),
    T(
        "shell",
        "python3 -c \"import re; from apps.accounts.validators import EMAIL_RE as r; print(bool(r.match('info@bücher.de')), bool(r.match('info@xn--bcher-kva.de')), bool(r.match('josé@example.com')))\"",
        "False True True",
    ),
    A(
        "Confirmed: the Unicode domain fails, its punycode form passes, and a Unicode local part passes. So it's point 1 — the domain labels only allow ASCII."
    ),
)
MORE(
    "h4-topic-comparison-1",
    U("so load user + settings, page should still render if settings fail → allSettled?"),
    A(
        "Yes, `allSettled`, then use defaults when the settings result has `status: 'rejected'`. Or `Promise.all([loadUser(), loadSettings().catch(() => DEFAULTS)])` — same effect, keeps the fail-fast for the user request."
    ),
)
MORE(
    "h4-topic-comparison-4",
    U("and Cow? where does that fit"),
    A(
        "`Cow<'a, T>` (clone-on-write) isn't about sharing ownership — it's either a borrow or an owned value, decided at runtime. Typical use: a function that usually returns its input unchanged but sometimes needs to modify it, e.g. `fn normalize(s: &str) -> Cow<str>` returns `Cow::Borrowed(s)` when nothing changes and `Cow::Owned(new_string)` otherwise, avoiding an allocation in the common case."
    ),
)
MORE(
    "h4-topic-comparison-6",
    U("what's sync.Map for then"),
    A(
        "A concurrent map optimised for two cases: keys written once and read many times (caches), or goroutines working on disjoint key sets. For a counter map where every key is updated constantly it's usually slower than a mutex-guarded map, and it's untyped (`any`). Benchmark before switching."
    ),
)

# long sessions
MORE(
    "h4-code-implementation-1",
    U("nice. do the same for src/download.js and src/sync.js, same rules"),
    T(
        "Read",
        "src/download.js",
        "function downloadFile(key, dest, cb) {\n  getSignedUrl(BUCKET, key, (err, url) => {\n    if (err) return cb(err);\n    const out = fs.createWriteStream(dest);\n    https.get(url, (res) => {\n      if (res.statusCode !== 200) return cb(new Error('HTTP ' + res.statusCode));\n      res.pipe(out);\n      out.on('finish', () => cb(null, dest));\n      out.on('error', cb);\n    }).on('error', cb);\n  });\n}\nmodule.exports = { downloadFile };",
    ),
    A(
        "`downloadFile` takes a callback (not a promise) — that's its public API. Converting it to async would change the signature for callers. I'll keep a callback-compatible wrapper: the implementation becomes async, and `downloadFile(key, dest, cb)` still works, plus it returns a promise when no callback is given."
    ),
    T(
        "Grep",
        "downloadFile\\(",
        "src/cli.js:44:  downloadFile(argv.key, argv.out, (err) => { if (err) die(err); })\nsrc/sync.js:31:        downloadFile(obj.Key, local, next);\ntest/download.test.js:12:    downloadFile('a.txt', tmp, (err, p) => {",
    ),
    T(
        "Edit",
        "src/download.js",
        "The file src/download.js has been updated.",
        old="function downloadFile(key, dest, cb) {",
        new="const { pipeline } = require('stream/promises');\n\nasync function downloadFileAsync(key, dest) {\n  const url = await getSignedUrlP(BUCKET, key);\n  const res = await httpsGet(url);\n  if (res.statusCode !== 200) {\n    res.resume();\n    throw new Error('HTTP ' + res.statusCode);\n  }\n  await pipeline(res, fs.createWriteStream(dest));\n  return dest;\n}\n\nfunction downloadFile(key, dest, cb) {\n  const p = downloadFileAsync(key, dest);\n  if (typeof cb !== 'function') return p;\n  p.then((d) => cb(null, d), cb);\n}",
    ),
    T(
        "Bash",
        "npm test -- download",
        "PASS test/download.test.js\n  ✓ downloads to dest (15 ms)\n  ✓ errors on 404 (4 ms)\nTests: 2 passed",
    ),
    A(
        "download.js done, tests pass. A small behaviour improvement worth knowing: on non-200 the response body is drained (`res.resume()`), which the old code didn't do and which kept sockets open. Now sync.js."
    ),
    T(
        "Read",
        "src/sync.js",
        "function syncDir(prefix, dir, done) {\n  listObjects(prefix, (err, objs) => {\n    if (err) return done(err);\n    let i = 0;\n    (function next(err) {\n      if (err) return done(err);\n      if (i >= objs.length) return done(null, objs.length);\n      const obj = objs[i++];\n      const local = path.join(dir, obj.Key.slice(prefix.length));\n      fs.stat(local, (e, st) => {\n        if (!e && st.size === obj.Size) return next();\n        mkdirp(path.dirname(local), () => downloadFile(obj.Key, local, next));\n      });\n    })();\n  });\n}",
    ),
    A(
        "Sequential download loop with a hand-written iterator. Straight conversion keeps it sequential. Note `mkdirp`'s error is ignored in the original — I'll keep ignoring it? No: with `fs.mkdir({recursive: true})` an error would be thrown; a failing mkdir would fail the download anyway, so surfacing it earlier doesn't change the outcome in practice."
    ),
    T(
        "Edit",
        "src/sync.js",
        "The file src/sync.js has been updated.",
        old="function syncDir(prefix, dir, done) {",
        new="async function syncDirAsync(prefix, dir) {\n  const objs = await listObjectsP(prefix);\n  for (const obj of objs) {\n    const local = path.join(dir, obj.Key.slice(prefix.length));\n    const st = await fs.promises.stat(local).catch(() => null);\n    if (st && st.size === obj.Size) continue;\n    await fs.promises.mkdir(path.dirname(local), { recursive: true });\n    await downloadFile(obj.Key, local);\n  }\n  return objs.length;\n}\n\nfunction syncDir(prefix, dir, done) {\n  const p = syncDirAsync(prefix, dir);\n  if (typeof done !== 'function') return p;\n  p.then((n) => done(null, n), done);\n}\n\nfunction _old(prefix, dir, done) {",
    ),
    T(
        "Bash",
        "node -e \"const s=require('fs').readFileSync('src/sync.js','utf8'); const a=s.indexOf('function _old'); const b=s.indexOf('module.exports'); require('fs').writeFileSync('src/sync.js', s.slice(0,a)+s.slice(b))\" && npx eslint src && npm test",
        "PASS test/upload.test.js\nPASS test/download.test.js\nPASS test/sync.test.js\n  ✓ skips files with same size (9 ms)\n  ✓ downloads missing files (18 ms)\n  ✓ propagates list errors (2 ms)\nTest Suites: 3 passed, 3 total\nTests:       8 passed, 8 total",
    ),
    A(
        "All three modules converted, lint clean, 8 tests pass. Summary:\n- upload.js: async, same promise API\n- download.js / sync.js: async internally; callback signature preserved, and they now also return a promise when called without a callback\n- behaviour change: non-200 download responses are drained"
    ),
    U("could sync download in parallel now? like 4 at a time"),
    A(
        "Easily, but that's a behaviour change (order of writes, load on S3), so I'd do it as a separate commit. With `p-limit`: `const limit = pLimit(4); await Promise.all(objs.map(o => limit(() => syncOne(o))))`. Want it?"
    ),
    U("yes separate commit, limit 4"),
    T(
        "Bash",
        "npm install p-limit@3 && git add -A && git commit -qm 'refactor: async/await for upload, download and sync (no behaviour change)' && echo ok",
        "added 2 packages in 1s\nok",
    ),
    T(
        "Edit",
        "src/sync.js",
        "The file src/sync.js has been updated.",
        old="  for (const obj of objs) {",
        new="  const limit = pLimit(4);\n  await Promise.all(objs.map((obj) => limit(() => syncOne(prefix, dir, obj))));\n  return objs.length;\n}\n\nasync function syncOne(prefix, dir, obj) {\n  {",
    ),
    T(
        "Bash",
        "npx eslint src && npm test -- sync && git commit -qam 'sync: download up to 4 objects in parallel' && git log --oneline -2",
        "PASS test/sync.test.js\nTests: 3 passed\n4f0b1e2 sync: download up to 4 objects in parallel\n9a7c3d1 refactor: async/await for upload, download and sync (no behaviour change)",
    ),
    A(
        "Two commits: the pure refactor, then parallel sync with concurrency 4. p-limit is pinned to 3.x because 4+ is ESM-only and this package is CommonJS."
    ),
)

MORE(
    "h4-bug-fix-1",
    U("ok pushed. now test_weekly_rollup fails on CI, same thing?"),
    T(
        "Bash",
        "gh run view --log-failed | grep -A3 FAILED",
        "FAILED tests/test_reports.py::test_weekly_rollup - AssertionError: assert ['2024-03-04', '2024-03-11'] == ['2024-03-04', '2024-03-11', '2024-03-18']\n  Right contains one more item: '2024-03-18'",
    ),
    T(
        "Read",
        "tests/test_reports.py",
        "def test_weekly_rollup():\n    start = datetime(2024, 3, 4)\n    end = datetime.fromtimestamp(1710721800)  # 2024-03-18 00:30 UTC\n    assert weeks_between(start, end) == ['2024-03-04', '2024-03-11', '2024-03-18']",
    ),
    A(
        "Related but not the same. My first guess was DST (the US switched on March 10), but the cause is simpler: `datetime.fromtimestamp(ts)` without `tz` returns *local* naive time. On CI (LA) that's 2024-03-17 17:30, and since `rollup_day` now — correctly — treats naive datetimes as UTC, the range ends before the third week. Before my change the two host-timezone dependencies cancelled out."
    ),
    T("Bash", "TZ=America/Los_Angeles pytest tests/test_reports.py -q -k weekly 2>&1 | tail -1", "1 failed in 0.31s"),
    T(
        "Grep",
        "fromtimestamp\\(",
        'tests/test_reports.py:19:    end = datetime.fromtimestamp(1710721800)  # 2024-03-18 00:30 UTC\nreports/ingest.py:58:        ts = datetime.fromtimestamp(row["epoch"])',
    ),
    A(
        "Same pattern in production code: `reports/ingest.py` converts event epochs to local naive time, so events ingested on a machine outside UTC land on the wrong day. Fixing both."
    ),
    T(
        "Edit",
        "reports/ingest.py",
        "The file reports/ingest.py has been updated.",
        old='        ts = datetime.fromtimestamp(row["epoch"])',
        new='        ts = datetime.fromtimestamp(row["epoch"], tz=timezone.utc)',
    ),
    T(
        "Edit",
        "tests/test_reports.py",
        "The file tests/test_reports.py has been updated.",
        old="    end = datetime.fromtimestamp(1710721800)  # 2024-03-18 00:30 UTC",
        new="    end = datetime.fromtimestamp(1710721800, tz=timezone.utc)  # 2024-03-18 00:30 UTC",
    ),
    T(
        "Bash",
        "for tz in UTC America/Los_Angeles Europe/Berlin Asia/Kolkata; do TZ=$tz pytest tests/test_reports.py tests/test_ingest.py -q | tail -1; done",
        "15 passed in 0.81s\n15 passed in 0.79s\n15 passed in 0.80s\n15 passed in 0.83s",
    ),
    A(
        "Passes in 4 timezones. I added `test_ingest_epoch_is_utc` for the ingest fix, since that one was a real bug affecting data, not just a test."
    ),
    U("good catch on ingest. can we stop this class of bug? people will write fromtimestamp again"),
    A(
        "A lint rule does it: ruff's `DTZ` rules (flake8-datetimez) flag `datetime.now()`, `fromtimestamp()` and `utcnow()` without `tz`. Enabling it now reports 6 more places, all in scripts/ — I'd enable the rule and fix those in the same PR."
    ),
    T(
        "Bash",
        "ruff check --select DTZ . | tail -2",
        "scripts/backfill.py:12:9: DTZ005 `datetime.datetime.now()` called without a `tz` argument\nFound 6 errors.",
    ),
    U("yes do it"),
    T(
        "Bash",
        "sed -i 's/^select = \\[/select = [\\\"DTZ\\\", /' pyproject.toml && ruff check --select DTZ --fix --unsafe-fixes . ; ruff check . && TZ=America/Los_Angeles pytest -q 2>&1 | tail -1",
        "Found 6 errors (6 fixed, 0 remaining).\nAll checks passed!\n216 passed in 40.12s",
    ),
    A(
        "DTZ enabled in pyproject, the 6 script call sites now pass `tz=timezone.utc`, full suite green under the CI timezone (216 passed)."
    ),
)

MORE(
    "h4-project-setup-1",
    U("also test on go 1.21 and 1.22 both, and upload coverage to codecov"),
    T(
        "Edit",
        ".github/workflows/ci.yml",
        "The file .github/workflows/ci.yml has been updated.",
        old="  test:\n    runs-on: ubuntu-latest\n    steps:",
        new="  test:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        go: ['1.21', '1.22']\n    steps:",
    ),
    T(
        "Edit",
        ".github/workflows/ci.yml",
        "The file .github/workflows/ci.yml has been updated.",
        old="        with: { go-version-file: go.mod, cache: true }\n      - run: go test -race -count=1 ./...",
        new="        with: { go-version: '${{ matrix.go }}', cache: true }\n      - run: go test -race -count=1 -coverprofile=coverage.out ./...\n      - uses: codecov/codecov-action@v4\n        if: matrix.go == '1.22'\n        with:\n          files: coverage.out\n          token: ${{ secrets.CODECOV_TOKEN }}",
    ),
    A(
        'go.mod says `go 1.22`, so Go 1.21 will refuse to build it ("go.mod requires go >= 1.22"). Testing on 1.21 only makes sense if you lower the go directive. Do you want to support 1.21?'
    ),
    U("ah no then just 1.22 and 1.23"),
    T(
        "Bash",
        "sed -i \"s/go: \\['1.21', '1.22'\\]/go: ['1.22', '1.23']/; s/matrix.go == '1.22'/matrix.go == '1.23'/\" .github/workflows/ci.yml && grep -n -E \"go:|matrix.go\" .github/workflows/ci.yml",
        "21:        go: ['1.22', '1.23']\n27:        if: matrix.go == '1.23'",
    ),
    T("Bash", "actionlint .github/workflows/ci.yml && echo ok", "ok"),
    U("push it on a branch and open PR so we see it run"),
    T(
        "Bash",
        "git checkout -qb ci/github-actions && git add .github .golangci.yml internal cmd && git commit -qm 'ci: add GitHub Actions (lint, race tests on 1.22/1.23, coverage)' && git push -qu origin ci/github-actions && gh pr create --fill",
        "https://github.com/acme/ledger/pull/57",
    ),
    T(
        "Bash",
        "sleep 90; gh pr checks 57",
        "lint           pass  41s\ntest (1.22)    pass  1m12s\ntest (1.23)    fail  1m09s\ncodecov/patch  pending",
    ),
    T(
        "Bash",
        "gh run view --log-failed | tail -14",
        "==================\nWARNING: DATA RACE\nWrite at 0x00c0001a2f38 by goroutine 41:\n  github.com/acme/ledger/internal/ledger.(*memStore).Append()\n      internal/ledger/memstore_test.go:33 +0x8c\nPrevious write at 0x00c0001a2f38 by goroutine 40:\n  github.com/acme/ledger/internal/ledger.(*memStore).Append()\n      internal/ledger/memstore_test.go:33 +0x8c\n==================\n--- FAIL: TestPostEntry_Concurrent (0.41s)\n    testing.go:1398: race detected during execution of test\nFAIL\tgithub.com/acme/ledger/internal/ledger\t1.203s",
    ),
    A(
        "Not a Go 1.23 difference: it's a data race in the test's in-memory fake store (`memStore.Append` appends to a slice without a lock). `-race` only catches it when goroutines actually interleave, so it's luck which matrix job hits it. It never ran with `-race` before today. Let me confirm on 1.22 locally."
    ),
    T(
        "Bash",
        "go test -race -count=20 -run TestPostEntry_Concurrent ./internal/ledger/ 2>&1 | tail -2",
        "--- FAIL: TestPostEntry_Concurrent (0.38s)\nFAIL\tgithub.com/acme/ledger/internal/ledger\t6.118s",
    ),
    T(
        "Edit",
        "internal/ledger/memstore_test.go",
        "The file internal/ledger/memstore_test.go has been updated.",
        old="func (m *memStore) Append(e Entry) error {\n\tm.entries = append(m.entries, e)",
        new="func (m *memStore) Append(e Entry) error {\n\tm.mu.Lock()\n\tdefer m.mu.Unlock()\n\tm.entries = append(m.entries, e)",
    ),
    T(
        "Bash",
        "go test -race -count=20 ./internal/ledger/ && git commit -qam 'test: guard memStore with a mutex (race found by CI)' && git push -q && sleep 80 && gh pr checks 57",
        "ok  \tgithub.com/acme/ledger/internal/ledger\t7.402s\nlint           pass  39s\ntest (1.22)    pass  1m10s\ntest (1.23)    pass  1m08s\ncodecov/patch  pass",
    ),
    A(
        "All checks green on PR #57 — the race detector paid off on its first run. Remaining manual steps: add `CODECOV_TOKEN` to the repo secrets, and mark `lint` and `test` as required checks in branch protection."
    ),
)

MORE(
    "h4-feature-implementation-3",
    U("design review feedback: empty state missing, and keyboard users can't get into the list"),
    T(
        "read_file",
        "src/components/header/NotificationItem.tsx",
        "export function NotificationItem({ n, onNavigate }: Props) {\n  return (\n    <li className={n.read ? 'read' : 'unread'} onClick={() => { markRead(n.id); navigate(n.url); onNavigate(); }}>\n      {n.text}<RelativeTime date={n.created_at} />\n    </li>\n  );\n}",
    ),
    A(
        'The item is a clickable `<li>` — not focusable and no Enter handling. I\'ll render a real link (`<Link>`) inside the `li`, so Tab/Enter work natively, and use `role="menu"` semantics from our Popover... actually a plain list of links is more appropriate than ARIA menu semantics here (the items are navigation). Empty state: "You\'re all caught up".'
    ),
    T(
        "edit_file",
        "src/components/header/NotificationItem.tsx",
        "Applied edit",
        old="    <li className={n.read ? 'read' : 'unread'} onClick={() => { markRead(n.id); navigate(n.url); onNavigate(); }}>\n      {n.text}<RelativeTime date={n.created_at} />\n    </li>",
        new="    <li className={n.read ? 'read' : 'unread'}>\n      <Link to={n.url} onClick={() => { markRead(n.id); onNavigate(); }}>\n        {!n.read && <span className=\"sr-only\">Unread: </span>}\n        {n.text} <RelativeTime date={n.created_at} />\n      </Link>\n    </li>",
    ),
    T(
        "edit_file",
        "src/components/header/NotificationBell.tsx",
        "Applied edit",
        old="        <ul>{data?.items.map(n => <NotificationItem key={n.id} n={n} onNavigate={() => setOpen(false)} />)}</ul>",
        new='        {data && data.items.length === 0 ? (\n          <p className="empty">You\'re all caught up 🎉</p>\n        ) : (\n          <ul aria-label="Notifications">{data?.items.map(n => <NotificationItem key={n.id} n={n} onNavigate={() => setOpen(false)} />)}</ul>\n        )}',
    ),
    T(
        "run_terminal_cmd",
        "npx vitest run src/components/header",
        ' ❯ NotificationBell.test.tsx (5)\n   ✓ shows unread count\n   ✓ caps at 99+\n   ✓ mark all as read clears badge\n   × clicking an item closes the popover\n   ✓ shows empty state\n AssertionError: expected "navigate" to be called once, but got 0 times',
    ),
    A(
        "That test mocked `navigate`; with a `<Link>` navigation happens through the router. Updating the test to render inside a `MemoryRouter` and assert the location instead."
    ),
    T(
        "edit_file",
        "src/components/header/NotificationBell.test.tsx",
        "Applied edit",
        old="  expect(navigate).toHaveBeenCalledOnce();",
        new="  expect(screen.getByTestId('location').textContent).toBe('/tasks/421');",
    ),
    T(
        "run_terminal_cmd",
        "npx vitest run src/components/header && npx eslint src/components/header && npx axe-cli http://localhost:5173 --include '#header' --exit",
        " ✓ NotificationBell.test.tsx (6)\n Test Files  1 passed (1)\n\nRunning axe-core 4.9.1 in chrome-headless\n0 violations found!",
    ),
    A(
        'Keyboard: Tab reaches each notification link, Enter opens it; screen readers hear "Unread:" for unread items; empty state added; axe reports 0 violations on the header. 6 tests pass.'
    ),
    U("👍 last thing: the badge should say '9+' on mobile not 99+ because no space"),
    T(
        "edit_file",
        "src/components/header/NotificationBell.tsx",
        "Applied edit",
        old="<Badge>{unread > 99 ? '99+' : unread}</Badge>",
        new="<Badge>{formatCount(unread, isMobile ? 9 : 99)}</Badge>",
    ),
    T(
        "run_terminal_cmd",
        "npx vitest run src/components/header",
        " ✓ NotificationBell.test.tsx (7)\n Test Files  1 passed (1)",
    ),
    A("Badge caps at 9+ below the `md` breakpoint (uses our `useBreakpoint` hook), 99+ otherwise; test added."),
)

MORE(
    "h4-topic-learning-1",
    U(
        "impl<'a> Parser<'a> {\n    fn next_word(&mut self) -> Option<&'a str> {\n        let rest = &self.input[self.pos..];\n        let end = rest.find(' ').unwrap_or(rest.len());\n        self.pos += end + 1;\n        if end == 0 { None } else { Some(&rest[..end]) }\n    }\n}\nis this right? and why 'a and not &self lifetime"
    ),
    A(
        "It compiles and is the right signature. Why `'a`: the returned slice points into `input`, which lives for `'a` — not into the `Parser` itself. Tying it to `&mut self` (elision rule 3) would mean the word is only valid while the parser is borrowed, so you couldn't call `next_word` twice and keep both words:\n```rust\nlet a = p.next_word();\nlet b = p.next_word(); // with elided lifetime: error, `p` is still mutably borrowed by `a`\n```\nWith `'a` both words can live as long as the input string.\n\nSmall bug: `self.pos += end + 1` can go past the end; the next call's `&self.input[self.pos..]` then panics. Try `self.pos = (self.pos + end + 1).min(self.input.len())`."
    ),
    U("ok got it!! last question for today: what is 'static, I see it everywhere in tokio errors"),
    A(
        "`'static` means \"valid for the whole rest of the program\". Two flavours:\n- `&'static str`: a reference to data that never goes away — string literals are baked into the binary.\n- `T: 'static` as a *bound* (what tokio wants for `tokio::spawn`): the type contains no borrowed references with a shorter lifetime. Owned types like `String`, `Vec<u8>` or `Arc<Config>` are `'static` even though they're dropped at some point.\n\nTokio requires it because a spawned task may outlive the function that spawned it; if the task borrowed a local variable, it could read it after it's gone. The fix is almost always: move owned data into the task (`async move`), cloning an `Arc` first if several tasks need it.\n\nThat's a good stopping point — next session: traits and generics with lifetimes."
    ),
)

MORE(
    "h4-bug-investigation-3",
    U(
        "wait, before I write the ticket — are we sure refunds never take part? finance says deadlocks also happened on a sunday when no batch runs"
    ),
    T(
        "run_terminal_cmd",
        "grep -h 'deadlock detected' logs/postgres-*.log | awk '{print $1}' | sort | uniq -c",
        "      4 2024-04-28\n      3 2024-04-29\n      4 2024-04-30\n      1 2024-05-01\n      3 2024-05-02\n      2 2024-05-05",
    ),
    A("2024-05-05 was a Sunday, so finance is right that something else also deadlocks. Let me look at those two."),
    T(
        "run_terminal_cmd",
        "grep -h -A4 'deadlock detected' logs/postgres-2024-05-05.log",
        '2024-05-05 14:22:10.441 UTC ERROR:  deadlock detected\nDETAIL:  Process 90112 waits for ShareLock on transaction 120331; blocked by process 90120.\n\tProcess 90120 waits for ShareLock on transaction 120329; blocked by process 90112.\n\tProcess 90112: UPDATE wallets SET balance = balance + $1 WHERE id = $2\n\tProcess 90120: UPDATE wallets SET balance = balance - $1 WHERE id = $2\n2024-05-05 14:22:10.441 UTC CONTEXT:  while updating tuple (88,3) in relation "wallets"',
    ),
    A(
        "Same statement shapes — a `+` and a `-` on wallets. The `+` alone could be `settle` line 42 or `refund` line 17. Postgres doesn't log which code path, so I'll check the application log for the same second."
    ),
    T(
        "run_terminal_cmd",
        "grep -h '2024-05-05 14:22:1' logs/worker-*.log logs/api-*.log",
        "logs/api-2.log:2024-05-05 14:22:10.402 refund wallet=3310 order=A-88123\nlogs/api-2.log:2024-05-05 14:22:10.405 refund wallet=9051 order=A-88124\nlogs/worker-1.log:2024-05-05 14:22:10.398 settle wallet=9051->3310",
    ),
    T(
        "read_file",
        "payments/refund.py",
        'def refund_order(order):\n    with transaction.atomic():\n        for item in order.items.select_related(\'merchant\'):\n            cur.execute("UPDATE wallets SET balance = balance - %s WHERE id = %s", (item.amount, item.merchant.wallet_id))\n        cur.execute("UPDATE wallets SET balance = balance + %s WHERE id = %s", (order.total, order.customer.wallet_id))',
    ),
    A(
        "My earlier claim was wrong: `refund.py` touches *several* wallets in one transaction — every merchant wallet of the order, then the customer wallet. So refunds can deadlock with settlements (or with each other) whenever they lock two wallets in opposite order. On Sunday 14:22 a settlement 9051→3310 ran concurrently with refunds touching 3310 and 9051.\n\nCorrected root cause for the ticket: *any* code path updating more than one wallet in a transaction locks them in whatever order the data comes in. settle.py is the frequent case (nightly batch), refund.py the rarer one."
    ),
    U("ok so the fix must cover both. any other places?"),
    T(
        "grep_search",
        "UPDATE wallets|Wallet.objects.*update\\(|select_for_update",
        "payments/settle.py:41,42\npayments/refund.py:17,19\npayments/payouts.py:63:    Wallet.objects.filter(id__in=ids).update(frozen=True)\nadmin/adjust.py:22:    w = Wallet.objects.select_for_update().get(pk=wallet_id)",
    ),
    A(
        "payouts.py updates several wallets with one `UPDATE ... WHERE id IN (...)` — Postgres locks rows in scan order, which is usually but not guaranteed to be id order, so it can participate too (rarely). admin/adjust.py locks a single wallet: safe. So three paths for the ticket: settle, refund, payouts. The common remedy stays the same: lock all involved wallets up front ordered by id."
    ),
)

MORE(
    "h4-topic-learning-2",
    U("how I see the logs of my nginx pods? in docker I do docker logs"),
    T(
        "run_shell_command",
        "kubectl logs deployment/web --tail=3 && kubectl logs -l app=web --prefix --tail=1",
        'Found 5 pods, using pod/web-6d7b8f9c4d-9qmzt\n10.244.0.1 - - [12/Jun/2024:09:14:02 +0000] "GET / HTTP/1.1" 200 615 "-" "curl/8.5.0"\n[pod/web-6d7b8f9c4d-9qmzt/nginx] 10.244.0.1 - - [12/Jun/2024:09:14:02 +0000] "GET / HTTP/1.1" 200 615\n[pod/web-6d7b8f9c4d-tr8lw/nginx] 2024/06/12 09:10:11 [notice] 1#1: start worker processes',
    ),
    A(
        "Almost the same as docker: `kubectl logs <pod>`. With `deployment/web` it picks one pod. With `-l app=web` (a **label**) you get all pods of the deployment, and `--prefix` shows which pod each line is from. Labels are how Kubernetes groups things — the Deployment and the Service find their pods by label too."
    ),
    U("and configuration? like env variables"),
    A(
        "Step 5: a **ConfigMap** stores configuration; pods read it as env variables or files. Let's make one and give it to the deployment."
    ),
    T(
        "run_shell_command",
        "kubectl create configmap web-config --from-literal=GREETING=namaste && kubectl set env deployment/web --from=configmap/web-config && sleep 10 && kubectl exec deploy/web -- printenv GREETING",
        "configmap/web-config created\ndeployment.apps/web env updated\nnamaste",
    ),
    A(
        "Notice: `set env` changed the deployment, so Kubernetes replaced all pods with new ones (a **rolling update**) — check `kubectl get pods`, the ages are new. Changing a ConfigMap later does *not* restart pods automatically; you restart with `kubectl rollout restart deployment/web`.\n\nFor passwords use a **Secret** instead of a ConfigMap — same idea, but stored separately and not shown by default."
    ),
    U("thank you very much, this is very clear. tomorrow I continue. how I delete everything?"),
    T("run_shell_command", "kind delete cluster --name learn", 'Deleting cluster "learn" ...'),
    A(
        "Deleted — the whole cluster is gone, nothing left running. Tomorrow we create it again in 30 seconds. Summary of today: Pod, Deployment, Service, labels, logs, ConfigMap, rolling update."
    ),
)

MORE(
    "h4-code-review-1",
    U("Kenji pushed fixes, take another look"),
    T(
        "Bash",
        "gh pr diff 482 | head -40",
        "+var allowScript = redis.NewScript(`\n+local n = redis.call('INCR', KEYS[1])\n+if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end\n+return n`)\n+\n+func (l *Limiter) Allow(ctx context.Context, key string) (bool, error) {\n+\tn, err := allowScript.Run(ctx, l.rdb, []string{l.name + \":\" + key}, l.window.Milliseconds()).Int64()\n+\tif err != nil {\n+\t\tl.metrics.RedisErrors.Inc()\n+\t\treturn true, fmt.Errorf(\"rate limit %s: %w\", l.name, err)\n+\t}\n+\treturn n <= l.limit, nil\n+}",
    ),
    T(
        "Bash",
        "gh pr view 482 --json files -q '.files[].path' && gh pr checks 482",
        "internal/ratelimit/limiter.go\ninternal/ratelimit/limiter_test.go\nREADME.md\nbuild   pass\ntest    pass\nlint    pass",
    ),
    T(
        "Bash",
        "gh pr diff 482 -- internal/ratelimit/limiter_test.go | grep -E '^\\+func Test'",
        "+func TestAllow_ExpiresAfterWindow(t *testing.T) {\n+func TestAllow_RedisDown_FailsOpenWithError(t *testing.T) {\n+func TestAllow_SeparateLimitersDoNotCollide(t *testing.T) {",
    ),
    A(
        "Second pass:\n\n- ✅ Atomicity: INCR+PEXPIRE in one Lua script — fixes the stuck-key problem.\n- ✅ Errors: returns `true` plus the wrapped error and counts a metric. Callers need to know that `err != nil` doesn't mean \"deny\"; the doc comment says so now.\n- ✅ Key collision: prefixed with the limiter name, with a test.\n- ✅ Expiry test with miniredis FastForward.\n- Fixed-window burst: documented in README as a known limitation — fine by me.\n- New nit: `l.window.Milliseconds()` truncates windows < 1 ms to 0, and `PEXPIRE key 0` deletes the key immediately. Nobody will configure that, but a guard in `New` (`window >= time.Millisecond`) costs one line.\n\nI'd approve with that nit."
    ),
    U("approve it with the nit as comment"),
    T(
        "Bash",
        "gh pr review 482 --approve --body 'Thanks, all points addressed. nit (non-blocking): window < 1ms becomes PEXPIRE 0, which deletes the key immediately; maybe validate window >= 1ms in New.'",
        "✓ Approved pull request acme/gateway#482",
    ),
    A("Approved with the nit."),
)


def _validate(sessions: list[dict[str, Any]], per_label: int | None, total: int) -> None:
    """Every session well-formed, ids/keys unique, counts per label as planned."""
    ids = [s["id"] for s in sessions]
    assert len(ids) == len(set(ids)), "duplicate ids"
    assert len(sessions) == total, (len(sessions), total)
    agents = {"claude-code", "codex", "cursor", "aider", "gemini-cli", "copilot", "cline"}
    for s in sessions:
        assert s["agent"] in agents, s["id"]
        assert s["messages"] and s["messages"][0]["role"] == "user", s["id"]
        for m in s["messages"]:
            assert m["role"] in {"user", "assistant", "tool"} and m["text"] is not None, s["id"]
    if per_label is not None:
        counts = Counter(s["expect"] for s in sessions)
        assert all(n == per_label for n in counts.values()), counts
        assert all("/" in label for label in counts), counts


def _write(path: Path, sessions: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as f:
        for s in sessions:
            f.write(json.dumps(s, ensure_ascii=False) + "\n")


def main() -> None:
    key = 40000
    for s in SESSIONS + UNCAT:
        for m in s["messages"]:
            key += 1
            m["key"] = f"m4{key:05d}"
    _validate(SESSIONS, per_label=6, total=132)
    _validate(UNCAT, per_label=None, total=12)
    _write(HERE / "eval_holdout4.jsonl", SESSIONS)
    _write(HERE / "eval_holdout4_uncat.jsonl", UNCAT)
    # re-read: every line parses and round-trips
    for name in ("eval_holdout4.jsonl", "eval_holdout4_uncat.jsonl"):
        for line in (HERE / name).read_text(encoding="utf-8").splitlines():
            json.loads(line)
    print(f"wrote {len(SESSIONS)} + {len(UNCAT)} sessions")


if __name__ == "__main__":
    main()
