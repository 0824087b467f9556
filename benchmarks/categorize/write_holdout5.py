# ruff: noqa: E501
"""Write eval_holdout5.jsonl and eval_holdout5_uncat.jsonl: a hand-written, never-seen categorization set.

Each session below was written individually (no shared template); the helpers only turn a compact
list of turns into the transcript schema used by eval_holdout3.jsonl, with tool names per agent.
Run: python benchmarks/categorize/write_holdout5.py
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

# Tool names differ per agent; sessions name the generic action and the agent's own name is filled in.
TOOLS: dict[str, dict[str, str]] = {
    "claude-code": {"sh": "Bash", "read": "Read", "edit": "Edit", "write": "Write", "grep": "Grep"},
    "codex": {"sh": "shell", "read": "shell", "edit": "apply_patch", "write": "apply_patch", "grep": "shell"},
    "cursor": {
        "sh": "run_terminal_cmd",
        "read": "read_file",
        "edit": "edit_file",
        "write": "edit_file",
        "grep": "grep_search",
    },
    "aider": {"sh": "run", "read": "read", "edit": "edit", "write": "edit", "grep": "run"},
    "gemini-cli": {
        "sh": "run_shell_command",
        "read": "read_file",
        "edit": "replace",
        "write": "write_file",
        "grep": "search_file_content",
    },
    "copilot": {
        "sh": "runInTerminal",
        "read": "readFile",
        "edit": "editFile",
        "write": "createFile",
        "grep": "findTextInFiles",
    },
    "cline": {
        "sh": "execute_command",
        "read": "read_file",
        "edit": "replace_in_file",
        "write": "write_to_file",
        "grep": "search_files",
    },
}


def U(text: str) -> tuple[str, ...]:
    return ("u", text)


def A(text: str) -> tuple[str, ...]:
    return ("a", text)


def SH(cmd: str, out: str) -> tuple[str, ...]:
    return ("sh", cmd, out)


def RD(path: str, out: str) -> tuple[str, ...]:
    return ("read", path, out)


def ED(path: str, old: str, new: str, out: str = "") -> tuple[str, ...]:
    return ("edit", path, old, new, out)


def WR(path: str, content: str) -> tuple[str, ...]:
    return ("write", path, content)


def GR(pattern: str, out: str) -> tuple[str, ...]:
    return ("grep", pattern, out)


SESSIONS: list[dict[str, Any]] = []


def S(sid: str, agent: str, expect: str, title: str, turns: list[tuple[str, ...]]) -> None:
    SESSIONS.append({"id": sid, "agent": agent, "expect": expect, "title": title, "turns": turns})


_key = [50000]


def _k() -> str:
    _key[0] += 1
    return f"m5{_key[0]:05d}"


def _msg(
    role: str, kind: str, text: str, tool_name: Any = None, tool_input: Any = None, files: Any = None
) -> dict[str, Any]:
    return {
        "role": role,
        "kind": kind,
        "text": text,
        "key": _k(),
        "tool_name": tool_name,
        "tool_input": tool_input,
        "files": files or [],
    }


def build(s: dict[str, Any]) -> dict[str, Any]:
    names = TOOLS[s["agent"]]
    msgs: list[dict[str, Any]] = []
    for t in s["turns"]:
        op = t[0]
        if op == "u":
            msgs.append(_msg("user", "prompt", t[1]))
        elif op == "a":
            msgs.append(_msg("assistant", "response", t[1]))
        else:
            name = names[op]
            if op == "sh" or op == "grep":
                inp: dict[str, Any] = {"command": t[1]} if op == "sh" else {"pattern": t[1]}
                label, files, out = t[1], [], t[2]
            elif op == "read":
                inp, label, files, out = {"file_path": t[1]}, t[1], [t[1]], t[2]
            elif op == "edit":
                inp = {"file_path": t[1], "old_string": t[2], "new_string": t[3]}
                label, files, out = t[1], [t[1]], t[4] or f"The file {t[1]} has been updated."
            else:
                inp, label, files, out = {"file_path": t[1], "content": t[2]}, t[1], [t[1]], f"File created: {t[1]}"
            msgs.append(_msg("assistant", "tool_call", f"{name}: {label}", name, inp, files))
            msgs.append(_msg("tool", "tool_result", out, name))
    return {
        "id": s["id"],
        "agent": s["agent"],
        "expect": s["expect"],
        "title": s["title"],
        "agent_title": None,
        "messages": msgs,
    }


# ---------------------------------------------------------------- bug/fix
S(
    "h5-bug-fix-1",
    "claude-code",
    "bug/fix",
    "Fix pytest failing only on CI (timezone)",
    [
        U("pytest fails on ci only, pls look"),
        SH(
            "gh run view 88213 --log-failed | tail -30",
            "tests/test_reports.py::test_daily_rollup FAILED\nE   AssertionError: assert '2024-03-09' == '2024-03-10'\nE     - 2024-03-10\nE     + 2024-03-09\n\ntests/test_reports.py:41: AssertionError\n=========================== short test summary info ============================\nFAILED tests/test_reports.py::test_daily_rollup - AssertionError\n1 failed, 212 passed in 38.11s",
        ),
        RD(
            "reports/rollup.py",
            "from datetime import datetime, date\n\n\ndef bucket_day(ts: float) -> str:\n    # group events by calendar day\n    return datetime.fromtimestamp(ts).date().isoformat()\n\n\ndef daily_rollup(events):\n    out = {}\n    for e in events:\n        out.setdefault(bucket_day(e.ts), []).append(e)\n    return out",
        ),
        A(
            "`datetime.fromtimestamp` uses the machine's local zone. Your laptop is on Europe/Berlin, the CI runner is UTC, and the fixture event is at 23:30 UTC, so it lands on different days. The rollup should be UTC regardless of the host. Shall I switch it to `datetime.fromtimestamp(ts, tz=timezone.utc)`? Reports for users in other zones would still be UTC days — that's what the dashboard assumes anyway."
        ),
        U("yes do it"),
        ED("reports/rollup.py", "from datetime import datetime, date\n", "from datetime import datetime, timezone\n"),
        ED(
            "reports/rollup.py",
            "    return datetime.fromtimestamp(ts).date().isoformat()",
            "    return datetime.fromtimestamp(ts, tz=timezone.utc).date().isoformat()",
        ),
        SH(
            "TZ=Pacific/Auckland pytest tests/test_reports.py -q && TZ=UTC pytest tests/test_reports.py -q",
            "........\n8 passed in 0.31s\n........\n8 passed in 0.29s",
        ),
        U("nice. while ur there the flake8 config says max-line 79 but we use black 88, can u fix that too"),
        ED("setup.cfg", "max-line-length = 79", "max-line-length = 88\nextend-ignore = E203"),
        A(
            "Done: rollup buckets by UTC day (tests pass under TZ=Pacific/Auckland and UTC), and flake8 now matches black's 88 columns with E203 ignored."
        ),
    ],
)

S(
    "h5-bug-fix-2",
    "codex",
    "bug/fix",
    "Goroutine leak in websocket hub",
    [
        U(
            "our ws hub leaks goroutines, pprof shows ~40k stuck in hub.writePump after a day. i think it's when clients disconnect mid-send. fix it please, i dont want a redesign of the hub just the leak"
        ),
        SH(
            "sed -n 1,70p internal/ws/hub.go",
            'package ws\n\nimport (\n\t"log"\n\t"time"\n\n\t"github.com/gorilla/websocket"\n)\n\ntype Client struct {\n\tconn *websocket.Conn\n\tsend chan []byte\n}\n\ntype Hub struct {\n\tclients    map[*Client]bool\n\tregister   chan *Client\n\tunregister chan *Client\n\tbroadcast  chan []byte\n}\n\nfunc (h *Hub) Run() {\n\tfor {\n\t\tselect {\n\t\tcase c := <-h.register:\n\t\t\th.clients[c] = true\n\t\tcase c := <-h.unregister:\n\t\t\tdelete(h.clients, c)\n\t\tcase msg := <-h.broadcast:\n\t\t\tfor c := range h.clients {\n\t\t\t\tc.send <- msg\n\t\t\t}\n\t\t}\n\t}\n}\n\nfunc (c *Client) writePump() {\n\tticker := time.NewTicker(50 * time.Second)\n\tdefer ticker.Stop()\n\tfor {\n\t\tselect {\n\t\tcase msg := <-c.send:\n\t\t\tif err := c.conn.WriteMessage(websocket.TextMessage, msg); err != nil {\n\t\t\t\tlog.Println("write:", err)\n\t\t\t\treturn\n\t\t\t}\n\t\tcase <-ticker.C:\n\t\t\tc.conn.WriteMessage(websocket.PingMessage, nil)\n\t\t}\n\t}\n}\n\nfunc (c *Client) readPump(h *Hub) {\n\tdefer func() {\n\t\th.unregister <- c\n\t\tc.conn.Close()\n\t}()\n\tfor {\n\t\tif _, _, err := c.conn.ReadMessage(); err != nil {\n\t\t\treturn\n\t\t}\n\t}\n}',
        ),
        A(
            "Two problems: on unregister the hub deletes the client but never closes `c.send`, so `writePump` blocks forever on `<-c.send` (the ping error is ignored, so it never returns). And the broadcast does a blocking `c.send <- msg`, so one slow client stalls the whole hub. Minimal fix: close `send` on unregister, make writePump exit on a closed channel and on ping error, and drop messages for a client whose buffer is full."
        ),
        ED(
            "internal/ws/hub.go",
            "\t\tcase c := <-h.unregister:\n\t\t\tdelete(h.clients, c)",
            "\t\tcase c := <-h.unregister:\n\t\t\tif _, ok := h.clients[c]; ok {\n\t\t\t\tdelete(h.clients, c)\n\t\t\t\tclose(c.send)\n\t\t\t}",
        ),
        ED(
            "internal/ws/hub.go",
            "\t\t\t\tc.send <- msg",
            "\t\t\t\tselect {\n\t\t\t\tcase c.send <- msg:\n\t\t\t\tdefault: // slow client: drop it rather than block every other client\n\t\t\t\t\tdelete(h.clients, c)\n\t\t\t\t\tclose(c.send)\n\t\t\t\t}",
        ),
        ED(
            "internal/ws/hub.go",
            "\t\tcase msg := <-c.send:\n",
            "\t\tcase msg, ok := <-c.send:\n\t\t\tif !ok {\n\t\t\t\tc.conn.WriteMessage(websocket.CloseMessage, nil)\n\t\t\t\treturn\n\t\t\t}\n",
        ),
        SH("go test ./internal/ws/ -run TestHub -race -count=3", "ok  \tgithub.com/acme/chat/internal/ws\t2.418s"),
        U("add a test that proves no leak? goleak maybe"),
        SH(
            "go get go.uber.org/goleak@v1.3.0 && go test ./internal/ws/ -run TestHubNoLeak -v",
            "=== RUN   TestHubNoLeak\n--- PASS: TestHubNoLeak (0.21s)\nPASS\nok  \tgithub.com/acme/chat/internal/ws\t0.254s",
        ),
        A(
            "Added TestHubNoLeak: connects 50 clients via httptest, disconnects half mid-broadcast, and `goleak.VerifyNone` passes. Before the fix it reported 25 leaked writePump goroutines."
        ),
    ],
)

S(
    "h5-bug-fix-3",
    "cursor",
    "bug/fix",
    "React list re-renders lose input focus",
    [
        U(
            "When i type in the todo edit input it loses focus after every key stroke. Very annoying, users complain. Component is TodoList.tsx"
        ),
        RD(
            "src/components/TodoList.tsx",
            "import { useState } from 'react';\nimport type { Todo } from '../types';\n\nexport function TodoList({ todos, onChange }: { todos: Todo[]; onChange: (t: Todo) => void }) {\n  const [editing, setEditing] = useState<string | null>(null);\n\n  function Row({ todo }: { todo: Todo }) {\n    return (\n      <li>\n        {editing === todo.id ? (\n          <input\n            autoFocus\n            value={todo.title}\n            onChange={(e) => onChange({ ...todo, title: e.target.value })}\n          />\n        ) : (\n          <span onDoubleClick={() => setEditing(todo.id)}>{todo.title}</span>\n        )}\n      </li>\n    );\n  }\n\n  return (\n    <ul>\n      {todos.map((t, i) => (\n        <Row key={i} todo={t} />\n      ))}\n    </ul>\n  );\n}",
        ),
        A(
            "`Row` is declared inside `TodoList`, so every render creates a new component type; React unmounts and remounts the `<input>` on each keystroke and focus is lost. The index key makes it worse when items reorder. Move `Row` to module scope and key by `todo.id`."
        ),
        ED(
            "src/components/TodoList.tsx",
            "  function Row({ todo }: { todo: Todo }) {",
            "  // (moved Row to module scope)",
        ),
        SH(
            "npx vitest run src/components/TodoList.test.tsx",
            " ✓ src/components/TodoList.test.tsx (3)\n   ✓ keeps focus while typing\n   ✓ saves on blur\n   ✓ escape cancels\n\n Test Files  1 passed (1)\n      Tests  3 passed (3)",
        ),
        U("works. is there eslint rule to catch this in future?"),
        A(
            "Yes: `react/no-unstable-nested-components` from eslint-plugin-react flags components defined inside render. I can add it as an error to .eslintrc if you want."
        ),
        U("add it"),
        ED(
            ".eslintrc.cjs",
            "    'react/prop-types': 'off',",
            "    'react/prop-types': 'off',\n    'react/no-unstable-nested-components': 'error',",
        ),
        SH("npx eslint src --max-warnings 0", ""),
        A("Rule added; the codebase is clean under it now."),
    ],
)

S(
    "h5-bug-fix-4",
    "aider",
    "bug/fix",
    "Rails N+1 makes invoices page time out",
    [
        U("/add app/controllers/invoices_controller.rb app/views/invoices/index.html.erb"),
        A("Added app/controllers/invoices_controller.rb and app/views/invoices/index.html.erb to the chat."),
        U(
            "invoices#index times out (30s) for the big customers since last deploy, we added customer name + line item count in the table. fix please"
        ),
        A(
            "The view now calls `invoice.customer.name` and `invoice.line_items.count` per row; for a customer with 4k invoices that's 8k extra queries, and `.count` always hits SQL even if loaded. I'll eager-load the customer, use a counter cache for line items... actually a counter cache needs a migration and backfill; smaller fix: `includes(:customer)` and `left_joins(:line_items).select('invoices.*, COUNT(line_items.id) AS line_items_count').group('invoices.id')`. Ok?"
        ),
        U("smaller fix yes. and paginate, we have kaminari"),
        ED(
            "app/controllers/invoices_controller.rb",
            "    @invoices = current_account.invoices.order(issued_on: :desc)",
            "    @invoices = current_account.invoices\n                               .includes(:customer)\n                               .left_joins(:line_items)\n                               .select('invoices.*, COUNT(line_items.id) AS line_items_count')\n                               .group('invoices.id')\n                               .order(issued_on: :desc)\n                               .page(params[:page]).per(50)",
        ),
        ED(
            "app/views/invoices/index.html.erb",
            "<td><%= invoice.line_items.count %></td>",
            "<td><%= invoice.line_items_count %></td>",
        ),
        SH(
            "bin/rails test test/controllers/invoices_controller_test.rb",
            "Running 6 tests in a single process\n......\nFinished in 1.204s, 4.98 runs/s, 11.62 assertions/s.\n6 runs, 14 assertions, 0 failures, 0 errors, 0 skips",
        ),
        A(
            "Index is now 3 queries per page regardless of size, paginated at 50. Added `<%= paginate @invoices %>` under the table."
        ),
    ],
)

S(
    "h5-bug-fix-5",
    "gemini-cli",
    "bug/fix",
    "Terraform plan wants to recreate RDS every run",
    [
        U(
            "every terraform plan wants to destroy and recreate our prod postgres (forces replacement) even though nobody changed anything. 3am and on-call, need this stopped before the nightly apply at 4"
        ),
        SH(
            "terraform plan -target=module.db -no-color | grep -B2 -A4 'forces replacement'",
            '  # module.db.aws_db_instance.main must be replaced\n-/+ resource "aws_db_instance" "main" {\n      ~ snapshot_identifier = "rds:prod-2024-01-03" -> null # forces replacement',
        ),
        RD(
            "modules/db/main.tf",
            'resource "aws_db_instance" "main" {\n  identifier          = "${var.env}-pg"\n  engine              = "postgres"\n  engine_version      = "15.4"\n  instance_class      = var.instance_class\n  snapshot_identifier = var.restore_snapshot\n  skip_final_snapshot = false\n}',
        ),
        A(
            "The instance was restored from a snapshot in January, so state has `snapshot_identifier` set; `var.restore_snapshot` now defaults to null, and that attribute forces replacement. Setting it only matters at creation, so ignore later changes. This stops the replacement without touching the DB."
        ),
        ED(
            "modules/db/main.tf",
            "  skip_final_snapshot = false\n}",
            "  skip_final_snapshot = false\n\n  lifecycle {\n    # restore-time only; changing it later must never replace the prod database\n    ignore_changes  = [snapshot_identifier]\n    prevent_destroy = true\n  }\n}",
        ),
        SH(
            "terraform plan -target=module.db -no-color | tail -3",
            "No changes. Your infrastructure matches the configuration.",
        ),
        U("ok. and the nightly apply, will it be fine"),
        A(
            "Yes: with the lifecycle block the plan is empty for module.db, and `prevent_destroy` makes any future replacement fail the plan instead of dropping the database. Merge this before 04:00 and the nightly apply will be a no-op for RDS."
        ),
    ],
)

# ---------------------------------------------------------------- bug/investigation
S(
    "h5-bug-investigation-1",
    "claude-code",
    "bug/investigation",
    "Why is the Spring service slowly leaking memory",
    [
        U(
            'orders-service (spring boot 3) heap grows ~200MB/day until OOMKilled every ~5 days. Don\'t change anything yet, I want to understand what holds the memory. heap dump is at /tmp/orders.hprof, summary from MAT below.\n\nProblem Suspect 1: 1,412,884 instances of "java.util.concurrent.ConcurrentHashMap$Node", loaded by "<system class loader>" occupy 1.1 GB (71%). Referenced by io.micrometer.core.instrument.MeterRegistry'
        ),
        GR(
            "Counter.builder|registry.counter|Timer.builder",
            'src/main/java/com/acme/orders/web/OrderController.java:58:        meterRegistry.counter("orders.lookup", "orderId", id).increment();\nsrc/main/java/com/acme/orders/pay/PaymentClient.java:33:        Timer.builder("payment.call").tag("status", status).register(registry)',
        ),
        A(
            "Line 58 tags a counter with `orderId`. Every distinct order id creates a new meter that Micrometer keeps forever — unbounded cardinality. That would match 1.4M map nodes under MeterRegistry. Let me confirm from the live metrics endpoint."
        ),
        SH(
            "curl -s localhost:8080/actuator/metrics/orders.lookup | jq '.availableTags[] | select(.tag==\"orderId\") | .values | length'",
            "1388201",
        ),
        A(
            "1,388,201 distinct orderId tag values on one meter — that's the leak. The PaymentClient timer is fine (status has ~5 values)."
        ),
        U("when did that line come in?"),
        SH(
            "git log -L58,58:src/main/java/com/acme/orders/web/OrderController.java --oneline | head -5",
            'a91f3c2 add per-order lookup metric for support dashboard\ndiff --git a/src/main/java/com/acme/orders/web/OrderController.java b/src/main/java/com/acme/orders/web/OrderController.java\n+        meterRegistry.counter("orders.lookup", "orderId", id).increment();',
        ),
        A(
            'Added in a91f3c2 ("per-order lookup metric for support dashboard") on Sept 2, which matches when the OOM kills started. Root cause: high-cardinality tag. Fix options when you\'re ready: drop the tag and log the id instead, or add a MeterFilter that denies the `orderId` tag.'
        ),
        U("ok thats enough, I'll talk with support team what they actually need from it"),
    ],
)

S(
    "h5-bug-investigation-2",
    "cline",
    "bug/investigation",
    "Find why Elixir GenServer mailbox grows",
    [
        U(
            "phoenix app, the `Notifier` genserver message queue grows to 100k+ at peak and notifications get minutes late. find out why. I pasted observer output:\n\nProcess Notifier  message_queue_len: 118233  current_function: {Notifier, handle_info, 2}  reductions: 9.1e9"
        ),
        RD(
            "lib/app/notifier.ex",
            "defmodule App.Notifier do\n  use GenServer\n\n  def start_link(_), do: GenServer.start_link(__MODULE__, %{}, name: __MODULE__)\n\n  def notify(user_id, event), do: send(__MODULE__, {:notify, user_id, event})\n\n  @impl true\n  def init(state), do: {:ok, state}\n\n  @impl true\n  def handle_info({:notify, user_id, event}, state) do\n    prefs = App.Accounts.get_prefs!(user_id)\n    if prefs.push, do: App.Push.send!(user_id, event)\n    if prefs.email, do: App.Mailer.deliver_now!(App.Emails.event(user_id, event))\n    {:noreply, state}\n  end\nend",
        ),
        A(
            "Everything runs inside one process, serially: a DB query, an HTTP push, and `deliver_now!` (synchronous SMTP) per message. If SMTP takes ~300ms, throughput caps around 3/s. Let me check timing from telemetry to confirm which call dominates."
        ),
        SH(
            "grep -h 'notifier' log/prod.log | tail -5",
            "14:02:11.120 [info] notifier step=prefs ms=4\n14:02:11.124 [info] notifier step=push ms=61\n14:02:11.874 [info] notifier step=email ms=750\n14:02:11.875 [info] notifier step=prefs ms=3\n14:02:12.630 [info] notifier step=email ms=755",
        ),
        A(
            "Email delivery is ~750ms per message and blocks the mailbox; push is 61ms, prefs 4ms. At peak you get ~40 events/s, so the queue must grow. Cause: synchronous SMTP inside a singleton GenServer."
        ),
        U("why 750ms? smtp provider slow or us"),
        SH(
            "grep -n 'smtp\\|relay\\|tls' config/prod.exs",
            '41:config :app, App.Mailer,\n42:  adapter: Swoosh.Adapters.SMTP,\n43:  relay: "smtp.mailprovider.net",\n44:  port: 587,\n45:  tls: :always,\n46:  no_mx_lookups: false',
        ),
        A(
            "Swoosh SMTP adapter opens a new connection and TLS handshake per email (no pooling), plus MX lookups. ~750ms is typical for that. So: provider is fine, the cost is our per-message TLS connection. Fix direction: move email to Oban jobs or the provider's HTTP API adapter; I won't change it since you asked only for the cause."
        ),
    ],
)

S(
    "h5-bug-investigation-3",
    "copilot",
    "bug/investigation",
    "Investigate intermittent 502s from nginx ingress",
    [
        U("we get random 502 from ingress-nginx on the api, like 0.3% requests. pods look healthy. what is going on"),
        SH(
            "kubectl -n ingress logs deploy/ingress-nginx-controller --since=1h | grep ' 502 ' | head -3",
            '2024/05/14 09:12:41 [error] 31#31: *88211 upstream prematurely closed connection while reading response header from upstream, client: 10.2.0.14, server: api.acme.io, request: "GET /v1/items HTTP/1.1", upstream: "http://10.4.3.22:8000/v1/items"\n2024/05/14 09:15:02 [error] 31#31: *90312 upstream prematurely closed connection while reading response header from upstream\n2024/05/14 09:15:09 [error] 31#31: *90388 upstream prematurely closed connection while reading response header',
        ),
        A(
            '"upstream prematurely closed connection" usually means the backend closed a keep-alive connection that nginx was about to reuse. Which server runs in the pod? If its keep-alive timeout is shorter than nginx\'s upstream keepalive timeout (60s), you get exactly this race.'
        ),
        U("gunicorn with uvicorn workers"),
        SH(
            "kubectl -n api exec deploy/api -- cat /app/gunicorn.conf.py",
            'bind = "0.0.0.0:8000"\nworkers = 4\nworker_class = "uvicorn.workers.UvicornWorker"\ntimeout = 30\nkeepalive = 2',
        ),
        A(
            "Confirmed: gunicorn `keepalive = 2` seconds vs ingress-nginx upstream-keepalive-timeout 60s. Nginx reuses an idle connection that gunicorn closed at 2s, the request hits a closed socket, 502. Rate ~0.3% fits: only requests landing in that narrow window."
        ),
        U("can you prove it before we change stuff?"),
        SH(
            "kubectl -n ingress logs deploy/ingress-nginx-controller --since=1h | grep -c 'prematurely closed'; kubectl -n ingress logs deploy/ingress-nginx-controller --since=1h | grep -c ' 502 '",
            "412\n412",
        ),
        A(
            "All 412 502s in the last hour are 'prematurely closed' errors, none from timeouts or resets. The fix would be gunicorn keepalive > 60s (e.g. 75) or lowering `upstream-keepalive-timeout` on the ingress below 2s — the first is the usual choice."
        ),
    ],
)

S(
    "h5-bug-investigation-4",
    "gemini-cli",
    "bug/investigation",
    "Root cause of wrong totals in monthly SQL report",
    [
        U(
            "finance says the monthly revenue report is ~3% higher than stripe. query is in reports/monthly_revenue.sql. dont fix yet, I need to explain it to them first what the cause is"
        ),
        RD(
            "reports/monthly_revenue.sql",
            "SELECT date_trunc('month', o.paid_at) AS month,\n       SUM(oi.quantity * oi.unit_price) AS revenue\nFROM orders o\nJOIN order_items oi ON oi.order_id = o.id\nLEFT JOIN refunds r ON r.order_id = o.id\nWHERE o.status IN ('paid', 'refunded')\nGROUP BY 1\nORDER BY 1;",
        ),
        A(
            "Two suspects: the `LEFT JOIN refunds` fans out rows (an order with 2 refunds counts each item twice), and refunded orders are included but refunds never subtracted. Let me measure each."
        ),
        SH(
            'psql $RO_DB -c "SELECT count(*) FROM (SELECT order_id FROM refunds GROUP BY order_id HAVING count(*)>1) x;"',
            " count \n-------\n   318\n(1 row)",
        ),
        SH(
            "psql $RO_DB -f /tmp/diff_oct.sql",
            " variant              | revenue_oct\n----------------------+-------------\n report as-is         |  1,284,220.50\n no refunds join      |  1,261,907.10\n minus refunded amt   |  1,246,118.35\n stripe payout report |  1,246,090.00",
        ),
        A(
            "For October: the refunds join inflates revenue by 22,313 (318 orders have multiple partial refunds, so their items are counted 2–3×). Refunded amounts (15,789) are never subtracted. Correcting both gives 1,246,118, within 28 of Stripe (that's the currency rounding on 4 EUR orders). So the 3% is ~1.8% fan-out + ~1.2% refunds not netted."
        ),
        U("thanks, can u write that as 3 bullet points for finance people, no sql words"),
        A(
            "- The report counted some orders more than once: when a customer got several partial refunds, each of those refunds made the order appear again.\n- Money we refunded was never taken off the total.\n- Fixing both brings October to within €28 of Stripe; the rest is rounding on orders in other currencies."
        ),
    ],
)

S(
    "h5-bug-investigation-5",
    "codex",
    "bug/investigation",
    "Android app crashes on resume for some users",
    [
        U(
            "crashlytics: IllegalStateException on resume, only Android 14, ~1% sessions. stack:\n\njava.lang.IllegalStateException: Can not perform this action after onSaveInstanceState\n  at androidx.fragment.app.FragmentManager.checkStateLoss(FragmentManager.java:1672)\n  at androidx.fragment.app.FragmentManager.enqueueAction(FragmentManager.java:1712)\n  at androidx.fragment.app.BackStackRecord.commitInternal(BackStackRecord.java:321)\n  at com.acme.shop.ui.MainActivity$onPaymentResult$1.invoke(MainActivity.kt:144)\n\nwhat causes it"
        ),
        SH(
            "sed -n 120,160p app/src/main/java/com/acme/shop/ui/MainActivity.kt",
            "    private val paymentLauncher = registerForActivityResult(PaymentContract()) { result ->\n        onPaymentResult(result)\n    }\n\n    private fun onPaymentResult(result: PaymentResult) {\n        lifecycleScope.launch(Dispatchers.IO) {\n            val order = repo.confirm(result.token)\n            withContext(Dispatchers.Main) {\n                supportFragmentManager.beginTransaction()\n                    .replace(R.id.container, ReceiptFragment.new(order))\n                    .commit()\n            }\n        }\n    }",
        ),
        A(
            "After the payment activity returns, `repo.confirm` runs on IO; if the user backgrounds the app (or Android 14's predictive back / task switch) before it finishes, the activity is already past onSaveInstanceState when `commit()` runs. `lifecycleScope.launch` doesn't pause at STOPPED. That's the race."
        ),
        U("why only android 14 tho"),
        A(
            "Likely the payment SDK: on Android 14 it returns via a new task flow that triggers onStop on MainActivity briefly. Let me check if the crash correlates with the SDK version."
        ),
        SH(
            "grep -n 'payments-sdk' app/build.gradle.kts gradle/libs.versions.toml",
            'gradle/libs.versions.toml:22:payments-sdk = "5.2.0"\ngradle/libs.versions.toml:23:# 5.2.0: uses PendingIntent + separate task on API 34 (see changelog)',
        ),
        A(
            "Yes — SDK 5.2.0 launches its sheet in a separate task on API 34, so MainActivity gets stopped and restarted, widening the window. Cause: fragment commit from a coroutine not bound to STARTED state, exposed by the SDK's new task behaviour on API 34. Fix would be `repeatOnLifecycle`/`withStarted {}` around the commit."
        ),
    ],
)

# ---------------------------------------------------------------- bug/report
S(
    "h5-bug-report-1",
    "claude-code",
    "bug/report",
    "Write GitHub issue for CSV export encoding bug",
    [
        U(
            "help me write a bug report for the export team. problem: CSV export from the admin panel opens in Excel with garbled umlauts (MÃ¼ller instead of Müller). happens with Excel on windows, numbers on mac is fine. i need repro steps and expected/actual, they will fix it not me"
        ),
        SH(
            "curl -s -H \"Cookie: $ADMIN\" 'http://localhost:3000/admin/customers/export.csv' | head -c 64 | xxd | head -3",
            "00000000: 6964 2c6e 616d 652c 6369 7479 0a31 2c4d  id,name,city.1,M\n00000010: c3bc 6c6c 6572 2c4d c3bc 6e63 6865 6e0a  ..ller,M..nchen.\n00000020: 322c 4ac3 a972 c3b4 6d65 2c4c 796f 6e0a  2,J..r..me,Lyon.",
        ),
        A(
            "The file is valid UTF-8 but has no BOM; Excel on Windows assumes the ANSI code page (cp1252) for BOM-less CSV, which turns `c3 bc` into `Ã¼`. Here is a draft issue:\n\n**Title:** CSV export shows garbled non-ASCII characters in Excel (Windows)\n\n**Steps to reproduce**\n1. Admin → Customers → Export CSV\n2. Open the file by double-click in Excel 365 on Windows\n\n**Expected:** `Müller`, `München`, `Jérôme`\n**Actual:** `MÃ¼ller`, `MÃ¼nchen`, `JÃ©rÃ´me`\n\n**Environment:** Excel 365 16.0 Windows 11; not reproducible in Numbers or LibreOffice\n\n**Notes:** file bytes are correct UTF-8 (hexdump attached), no BOM at offset 0."
        ),
        U("add severity and which customers hit it, support said 14 tickets last month mostly DACH region"),
        A(
            "Added:\n\n**Severity:** Medium — data is correct, but unreadable for Windows Excel users; workaround exists (Data → From Text/CSV → UTF-8).\n**Impact:** 14 support tickets in October, mostly DACH customers (names/cities with umlauts).\n**Workaround for support:** import via Data → From Text/CSV and choose 65001: Unicode (UTF-8)."
        ),
        U("perfect, file it"),
        SH(
            "gh issue create --repo acme/admin --title 'CSV export shows garbled non-ASCII characters in Excel (Windows)' --label bug,export --body-file /tmp/issue.md",
            "https://github.com/acme/admin/issues/2291",
        ),
        A("Filed as acme/admin#2291 with the export label."),
    ],
)

S(
    "h5-bug-report-2",
    "cursor",
    "bug/report",
    "Minimal repro for Next.js hydration mismatch",
    [
        U(
            "I want to report upstream to next.js a hydration error we see with their Image component in app router when basePath set. Can you make a minimal repro repo? Our app is too big to share."
        ),
        SH(
            "npx create-next-app@14.2.3 next-basepath-repro --ts --app --no-eslint --no-tailwind --no-src-dir --import-alias '@/*'",
            "Creating a new Next.js app in /home/dev/next-basepath-repro.\n...\nSuccess! Created next-basepath-repro",
        ),
        WR(
            "next-basepath-repro/next.config.mjs",
            "/** @type {import('next').NextConfig} */\nexport default { basePath: '/docs', images: { unoptimized: true } };\n",
        ),
        WR(
            "next-basepath-repro/app/page.tsx",
            'import Image from \'next/image\';\n\nexport default function Page() {\n  return <Image src="/logo.png" width={120} height={40} alt="logo" />;\n}\n',
        ),
        SH(
            "cd next-basepath-repro && npm run build && npm start & sleep 6; curl -s localhost:3000/docs | grep -o '<img[^>]*>'",
            '<img alt="logo" loading="lazy" width="120" height="40" decoding="async" data-nimg="1" style="color:transparent" src="/logo.png"/>',
        ),
        A(
            'Reproduced: server HTML renders `src="/logo.png"` (no basePath) while the client renders `/docs/logo.png`, giving "Warning: Prop `src` did not match. Server: "/logo.png" Client: "/docs/logo.png"" in the browser console. Only with `images.unoptimized: true`.'
        ),
        U(
            "great, write the issue text in their template (Link to the code, To Reproduce, Current vs Expected, env info)"
        ),
        SH(
            "npx next info",
            "Operating System:\n  Platform: linux\n  Arch: x64\nBinaries:\n  Node: 20.12.2\n  npm: 10.5.0\nRelevant Packages:\n  next: 14.2.3\n  react: 18.3.1\n  react-dom: 18.3.1",
        ),
        A(
            "### Link to the code that reproduces this issue\nhttps://github.com/yourname/next-basepath-repro\n\n### To Reproduce\n1. `npm i && npm run build && npm start`\n2. open http://localhost:3000/docs\n3. see console\n\n### Current vs. Expected behavior\nCurrent: hydration warning, server `src=/logo.png`, client `src=/docs/logo.png`; image 404s until hydration.\nExpected: both prefixed with basePath when `images.unoptimized` is true.\n\n### Provide environment information\n(next info output above)\n\n### Which area(s) are affected?\nImage (next/image), App Router"
        ),
    ],
)

S(
    "h5-bug-report-3",
    "aider",
    "bug/report",
    "Failing test that reproduces decimal rounding bug",
    [
        U(
            "I'm QA. Dev team asked me for a failing test reproducing the rounding bug in invoice tax, ticket PAY-812: invoice of 3 items 19.99 with 7.7% VAT shows total 64.58 but the swiss calculator says 64.59. Don't fix the code, only write the test so they can see it. File tests/test_tax.py"
        ),
        A(
            "I'll add a test asserting per-line rounding to 0.05 CHF isn't the question here — the ticket compares to a standard calculator. First, what rule does the business expect: round the total once (64.59), or round each line (3×21.53=64.59)? Both give 64.59 here, so the test is valid either way."
        ),
        U("round total once, half up. thats the law thing"),
        ED(
            "tests/test_tax.py",
            "",
            'from decimal import Decimal\n\nfrom billing.tax import invoice_total\n\n\ndef test_pay_812_total_rounds_half_up_once():\n    # PAY-812: 3 x 19.99 at 7.7% VAT = 64.587... -> 64.59 (round half up on the total)\n    items = [Decimal("19.99")] * 3\n    assert invoice_total(items, vat=Decimal("0.077")) == Decimal("64.59")\n',
        ),
        SH(
            "pytest tests/test_tax.py -q",
            'F\n=================================== FAILURES ===================================\n____________________ test_pay_812_total_rounds_half_up_once ____________________\n    def test_pay_812_total_rounds_half_up_once():\n        items = [Decimal("19.99")] * 3\n>       assert invoice_total(items, vat=Decimal("0.077")) == Decimal("64.59")\nE       AssertionError: assert Decimal(\'64.58\') == Decimal(\'64.59\')\n1 failed in 0.08s',
        ),
        A(
            "The test fails as intended: actual 64.58, expected 64.59. Marked it with the ticket id in the name so it's easy to find."
        ),
        U("add it to the ticket comment, short"),
        A(
            'PAY-812 comment: "Reproduced in tests/test_tax.py::test_pay_812_total_rounds_half_up_once — 3×19.99 @7.7% returns 64.58, expected 64.59 (half-up on total). Test currently fails on main."'
        ),
    ],
)

S(
    "h5-bug-report-4",
    "gemini-cli",
    "bug/report",
    "Document flaky Kafka consumer duplicate processing for the team",
    [
        U(
            "Hi. We see duplicated orders emails sometimes. I am not sure it is bug of our consumer or Kafka. My lead want me to write a bug ticket with reproduction. Can you help me reproduce in local docker compose first?"
        ),
        SH(
            "docker compose up -d kafka zookeeper && docker compose ps",
            "NAME        STATUS\nkafka       running (healthy)\nzookeeper   running",
        ),
        A(
            "To reproduce duplicates we need a consumer that is killed between processing a message and committing its offset. I'll run the order-mailer consumer, produce 100 messages, and kill it mid-batch."
        ),
        SH(
            "python scripts/produce_orders.py --n 100 && (timeout 3 python -m mailer.consumer; true) && python -m mailer.consumer --once && sqlite3 /tmp/sent.db 'select order_id, count(*) from sent group by 1 having count(*)>1 limit 5'",
            "produced 100\nconsumed batch size=50 ... killed\nresumed from offset 0\n17|2\n18|2\n19|2\n20|2\n21|2",
        ),
        A(
            "Reproduced: after the kill, the consumer resumed from offset 0 and re-sent 34 emails (orders 17–50). `enable.auto.commit` is true with a 5s interval, so anything processed in the last 5s before a crash is delivered again. That's at-least-once delivery working as designed; our consumer is not idempotent."
        ),
        U("So it's our bug? how I write it so lead understand"),
        A(
            "Yes, ours. Ticket draft:\n\n**Title:** Order emails sent twice after mailer consumer restart\n**Repro (local):** `docker compose up kafka`, produce 100 orders, kill `mailer.consumer` after ~3s, restart → 34 duplicate emails in /tmp/sent.db.\n**Expected:** each order emailed once.\n**Actual:** orders processed since the last auto-commit (up to 5s) are emailed again after restart or rebalance.\n**Frequency in prod:** matches deploys and rebalances.\n**Note:** Kafka gives at-least-once; consumer has no dedup on order_id."
        ),
        U("thank you!! 🙏"),
    ],
)

S(
    "h5-bug-report-5",
    "copilot",
    "bug/report",
    "Triage user report into reproducible iOS bug",
    [
        U(
            'support forwarded this: "app freezes when i rotate phone while video uploading, have to kill it". iPhone 12 iOS 17.4 app 3.8.1. turn this into a proper bug with steps, I\'ll try reproduce on simulator with you'
        ),
        SH(
            "xcrun simctl boot 'iPhone 12' && xcrun simctl install booted build/Shoot.app && xcrun simctl launch booted com.acme.shoot",
            "com.acme.shoot: 48213",
        ),
        A(
            "Launched on iPhone 12 simulator (iOS 17.4). Start an upload of the 200MB sample video and rotate with Cmd+→ during progress."
        ),
        U("ok froze. progress bar stuck at 41%, ui not responding"),
        SH(
            "xcrun simctl spawn booted log show --last 1m --predicate 'process == \"Shoot\"' | tail -5",
            "2024-04-02 10:21:44 Shoot: [UploadVC] viewWillTransition(to:) relayout\n2024-04-02 10:21:44 Shoot: [Uploader] progress 0.41\n2024-04-02 10:21:44 Shoot: Thread Performance Checker: Thread running at User-interactive quality-of-service class waiting on a thread without a QoS class specified\n2024-04-02 10:21:49 Shoot: Hang detected: 5.02s (main thread)",
        ),
        A(
            "Bug report:\n\n**Title:** App hangs when device rotates during video upload\n**Version:** 3.8.1 (iOS 17.4, iPhone 12 and simulator)\n**Steps:** 1) pick a >100MB video 2) tap Upload 3) rotate device while progress < 100%\n**Expected:** layout updates, upload continues\n**Actual:** UI frozen, progress stops, main thread hang >5s, app must be force-quit\n**Reproducibility:** 3/3 on simulator\n**Logs:** Thread Performance Checker warning right after `viewWillTransition` — main thread waits on uploader thread (attached)."
        ),
        U("good. attach log and assign to ios team in linear"),
        A(
            "I can't access Linear from here; the log is saved at /tmp/shoot-hang.log — attach it and assign the ticket to iOS."
        ),
    ],
)


# ---------------------------------------------------------------- feature/requirement
S(
    "h5-feature-requirement-1",
    "claude-code",
    "feature/requirement",
    "Acceptance criteria for team invitations",
    [
        U(
            "I need acceptance criteria for 'invite teammates by email' for next sprint. Context: B2B SaaS, workspace admins invite, invitees may or may not have accounts. Gherkin please, the QA team uses it. Don't design the DB, just behaviour."
        ),
        A("Before writing: should invitations expire, and can non-admin members invite?"),
        U("expire after 7 days. only admins and owners"),
        A(
            'Feature: Invite teammates by email\n\n  Scenario: Admin invites a new user\n    Given I am an admin of workspace "Acme"\n    When I invite "sam@example.com" as Member\n    Then sam@example.com receives an email with a join link\n    And the invite appears as Pending in Members settings\n\n  Scenario: Invitee already has an account\n    Given "lee@example.com" has an account\n    When an admin invites lee@example.com\n    Then Lee sees the invitation on next login and can accept or decline\n\n  Scenario: Invitation expires\n    Given an invite was sent 7 days ago\n    When the invitee opens the link\n    Then they see "This invitation has expired" and a button to ask the admin\n\n  Scenario: Member cannot invite\n    Given I am a Member\n    Then I do not see the Invite button\n\n  Scenario: Duplicate invite\n    When an admin invites an address with a pending invite\n    Then the existing invite is re-sent and its expiry reset'
        ),
        U("add seat limit case: plan has 10 seats"),
        A(
            '  Scenario: Seat limit reached\n    Given workspace "Acme" has 10 of 10 seats used including pending invites\n    When an admin tries to invite another person\n    Then the invite is blocked with "Your plan includes 10 seats"\n    And an Upgrade link is shown to owners only'
        ),
        U("and what's out of scope, list it"),
        A(
            "Out of scope for this story: SSO/SCIM provisioning, bulk CSV invites, custom roles beyond Admin/Member, invite links without email, reminders before expiry."
        ),
        WR(
            "docs/stories/invite-teammates.feature",
            "Feature: Invite teammates by email\n  # ... 6 scenarios as agreed, out-of-scope list in the story description",
        ),
    ],
)

S(
    "h5-feature-requirement-2",
    "cursor",
    "feature/requirement",
    "Scope the offline mode for the field app",
    [
        U(
            "PM here (kind of, also write code). We want 'offline mode' for the field inspector mobile app. Inspectors go to basements with no signal. Can you help me write what exactly offline mode means for v1? I keep getting asked 'what's in scope' and I don't have an answer"
        ),
        RD(
            "docs/personas.md",
            "## Field inspector\n- Visits 6–10 sites a day, often underground\n- Fills checklists (20–80 items), takes 5–30 photos per site\n- Needs yesterday's findings for re-inspections\n- Syncs at the office or in the car",
        ),
        A(
            "Proposed v1 scope, from the persona:\n\n**Must**\n- Checklists for today's assigned sites are downloaded when the app opens with signal\n- An inspector can fill a checklist and take photos with no connection\n- Work is saved on the device immediately; killing the app loses nothing\n- When signal returns, data uploads automatically; a badge shows 'n items waiting'\n\n**Should**\n- Previous inspection of the same site is available offline (read-only)\n\n**Won't (v1)**\n- Creating new sites offline\n- Editing the same checklist from two devices (conflicts)\n- Offline map tiles"
        ),
        U("what about when 2 inspectors same site? it happens sometimes"),
        A(
            "Then we need a rule. Simplest for v1: checklists are assigned to one inspector; a second inspector gets a read-only copy. Is that acceptable for the business?"
        ),
        U("yes do it that way"),
        A(
            'Added to Must: "A checklist belongs to one assignee; others see it read-only, offline too." And to acceptance: "Given the device is in airplane mode, when the inspector completes a 50-item checklist with 20 photos and reopens the app after force-quit, all answers and photos are present."'
        ),
        U("how do we measure it's done? success metrics"),
        A(
            "- 0 lost inspections reported in the first month (today: ~4/month)\n- ≥95% of offline-completed checklists synced within 1h of signal\n- Median sync of a 20-photo checklist under 2 min on 4G"
        ),
        WR(
            "docs/offline-mode-v1.md",
            "# Offline mode v1 — scope\n\n## Must\n...\n## Should\n...\n## Won't\n...\n## Acceptance\n...\n## Success metrics\n...",
        ),
    ],
)

S(
    "h5-feature-requirement-3",
    "codex",
    "feature/requirement",
    "User stories for GDPR data export",
    [
        U(
            "legal wants 'download my data' feature by Q3. write user stories + acceptance, short. we're a fitness app (workouts, heart rate, photos)"
        ),
        A(
            "1. As a user, I can request an export of all my data from Settings → Privacy, so I can exercise my right of access.\n   - AC: request confirmed on screen and by email; only one pending request at a time.\n2. As a user, I receive a download link within 30 days (target: 24h).\n   - AC: link valid 7 days, requires login, ZIP contains workouts.json, heart_rate.csv, photos/, profile.json.\n3. As a user, I can read the export without our app.\n   - AC: JSON/CSV with a README explaining fields; timestamps in ISO 8601 UTC.\n4. As support, I can see export status for a user.\n   - AC: status (requested/processing/ready/expired) in admin."
        ),
        U("do we include data we got from apple health / garmin?"),
        A(
            "Legal's call, but usually yes — it's personal data we hold, regardless of source. I'd add: \"Imported data (Apple Health, Garmin) is included and marked with its source.\" Worth confirming with legal: does 'inferred' data (fitness score, recommendations) count? Many teams include derived scores."
        ),
        U("include derived, legal said yes earlier. also rate limit"),
        A(
            "Added:\n5. Derived data (fitness score history, recommendations shown) is included in derived.json.\n6. A user can request at most one export per 24h; a second request shows when the next is possible."
        ),
        SH("ls docs/product/", "analytics.md\nonboarding.md\nsubscriptions.md"),
        WR(
            "docs/product/data-export.md",
            "# Download my data (GDPR art. 15)\n\n## Stories\n1. ...\n6. ...\n\n## Out of scope\n- Deleting data (separate story: account deletion)\n- Export in other formats than JSON/CSV",
        ),
        A("Written to docs/product/data-export.md with 6 stories and an out-of-scope section."),
    ],
)

S(
    "h5-feature-requirement-4",
    "cline",
    "feature/requirement",
    "Define requirements for rate limiting public API",
    [
        U(
            "before we build rate limiting for the public API, I want the requirements nailed with the customer success team. draft a one-pager: who gets which limits, what happens when exceeded, what customers see. we have free/pro/enterprise plans"
        ),
        RD(
            "docs/api/plans.md",
            "| plan | price | API access |\n|---|---|---|\n| Free | 0 | yes, best effort |\n| Pro | 49/mo | yes |\n| Enterprise | custom | yes, SLA 99.9 |",
        ),
        GR("429|rate.?limit", "docs/api/errors.md:12:| 429 | reserved |"),
        A(
            'Draft:\n\n**Goal:** protect the API from bursts without surprising paying customers.\n\n**Limits (per API key)**\n| plan | sustained | burst |\n|---|---|---|\n| Free | 60/min | 10/s |\n| Pro | 600/min | 50/s |\n| Enterprise | contract, default 3000/min | 200/s |\n\n**When exceeded:** HTTP 429 with `Retry-After`; body `{"error":"rate_limited","retry_after":12}`.\n**Visibility:** every response has `X-RateLimit-Limit/Remaining/Reset`; dashboard shows usage for the last 24h.\n**Communication:** Pro/Enterprise get an email at 80% of daily quota for 3 consecutive days.\n**Not in v1:** per-endpoint limits, paid overage.'
        ),
        U("CS asks: can enterprise customer exceed temporarily for migrations?"),
        A(
            'Add a requirement: "Support can grant a temporary limit increase (max 7 days) per key from admin, logged with reason." Should that need approval from engineering?'
        ),
        U("no, CS alone is fine"),
        ED(
            "docs/api/rate-limits.md",
            "**Not in v1:**",
            "**Temporary increase:** CS can raise a key's limit up to 10× for up to 7 days from admin; every change logged with reason and author.\n\n**Not in v1:**",
        ),
        A(
            "Updated the one-pager with the temporary-increase rule; also noted 429 in docs/api/errors.md should stop being 'reserved' once this ships."
        ),
    ],
)

S(
    "h5-feature-requirement-5",
    "gemini-cli",
    "feature/requirement",
    "Clarify requirements for multi-currency pricing",
    [
        U(
            "ticket says only 'support multiple currencies'. that's it. Help me ask the right questions and write the requirement properly before anyone codes. e-commerce, currently EUR only, shopify-like"
        ),
        A(
            "Questions to resolve first:\n1. Display only (convert for viewing) or charge in the customer's currency?\n2. Who sets prices per currency — automatic FX or merchant-defined?\n3. Which currencies at launch?\n4. Rounding rules (e.g. .99 endings)?\n5. Refunds: in original currency?\n6. Reports: converted to EUR at which rate?"
        ),
        U(
            "answers from PM: 1 charge in local. 2 merchant can override, default automatic daily rate. 3 EUR GBP USD CHF. 4 merchant chooses rounding. 5 original. 6 rate on the day of order"
        ),
        A(
            "Requirement:\n\n- Customers see prices and pay in their currency (EUR, GBP, USD, CHF), chosen by geo-IP with a manual switcher.\n- Each product has a EUR base price. Other currencies are computed daily from the ECB rate unless the merchant sets an explicit price.\n- Merchant picks a rounding rule per currency: none, .99, .95, whole.\n- The price at checkout is locked for the order; refunds are in the order's currency and amount.\n- Reports show each order in its currency and in EUR at that order's day rate.\n\nAcceptance example: product base 20.00 EUR, GBP rate 0.86, rounding .99 → shows £17.99; merchant override £18.50 → shows £18.50."
        ),
        U("what if rate changes while item in cart"),
        A(
            'Suggest: cart prices refresh on each view; the price is locked only when checkout starts, valid 30 minutes. Add as AC: "If the daily rate changes while the item is in the cart, the cart shows the new price and a notice."'
        ),
        U("ok good, put all in the ticket"),
        SH("jira issue edit SHOP-1420 --body-file /tmp/multicurrency.md", "✓ Issue SHOP-1420 updated"),
    ],
)

# ---------------------------------------------------------------- feature/design
S(
    "h5-feature-design-1",
    "claude-code",
    "feature/design",
    "Design REST API for scheduled reports",
    [
        U(
            "we're adding scheduled reports (user picks a saved report, a cron-ish schedule, recipients). design the REST API and the table, no implementation yet. FastAPI app, postgres."
        ),
        RD(
            "app/api/reports.py",
            'router = APIRouter(prefix="/reports")\n\n@router.get("/{report_id}")\nasync def get_report(report_id: UUID, user=Depends(current_user)): ...\n\n@router.post("/{report_id}/run")\nasync def run_report(report_id: UUID, user=Depends(current_user)): ...',
        ),
        A(
            'Proposal, following the existing `/reports` routes:\n\n```\nPOST   /reports/{id}/schedules        create\nGET    /reports/{id}/schedules        list\nPATCH  /schedules/{sid}              change cadence/recipients/paused\nDELETE /schedules/{sid}\nGET    /schedules/{sid}/runs          history (last 50)\n```\nBody:\n```json\n{"cadence": {"freq": "weekly", "weekday": "mon", "time": "08:00", "tz": "Europe/Paris"},\n "recipients": ["a@x.com"], "format": "pdf", "paused": false}\n```\nI\'d avoid raw cron strings in the API: users pick daily/weekly/monthly in the UI, and validation is easier.\n\nTable:\n```sql\nCREATE TABLE report_schedules (\n  id uuid PRIMARY KEY, report_id uuid REFERENCES reports ON DELETE CASCADE,\n  owner_id uuid NOT NULL, freq text CHECK (freq IN (\'daily\',\'weekly\',\'monthly\')),\n  weekday smallint, monthday smallint, local_time time NOT NULL, tz text NOT NULL,\n  recipients text[] NOT NULL, format text NOT NULL, paused bool DEFAULT false,\n  next_run_at timestamptz NOT NULL);\nCREATE INDEX ON report_schedules (next_run_at) WHERE NOT paused;\n```'
        ),
        U("why store tz and not just utc time?"),
        A(
            '"Monday 08:00 Paris" is 07:00 UTC in winter and 06:00 UTC in summer. If we stored UTC, every report would shift by an hour at DST. We store local time + tz and compute `next_run_at` (UTC) after each run.'
        ),
        U("recipients outside the org, allowed?"),
        A(
            "I'd restrict to workspace members in v1 (recipient = user ids, not emails) — avoids data leaks to arbitrary addresses. If you need external, add an `external_recipients` list that requires admin permission. Which do you want?"
        ),
        U("members only"),
        A(
            "Updated: `recipients uuid[]` of workspace members; API validates membership, and removing a member drops them from schedules. Written to docs/design/scheduled-reports.md."
        ),
    ],
)

S(
    "h5-feature-design-2",
    "copilot",
    "feature/design",
    "UX flow for 2FA enrollment",
    [
        U(
            "we need to add TOTP 2FA. before coding, help me design the user flow and screens, and what we store. Vue frontend. keep it simple"
        ),
        A(
            'Flow:\n1. Settings → Security → "Enable two-factor" button\n2. Re-enter password (protects against a hijacked session)\n3. Screen: QR code + manual key, input for the 6-digit code\n4. On valid code: show 10 recovery codes, require "I saved them" checkbox\n5. Done screen; email notification "2FA enabled"\n\nLogin: after password, if 2FA on → code screen with "Use a recovery code" link; "Trust this device 30 days" checkbox.\n\nStore: `totp_secret` (encrypted), `totp_enabled_at`, recovery codes hashed (argon2) with used_at.'
        ),
        U("should we force it for admins?"),
        A(
            'Common approach: workspace setting "Require 2FA for admins"; admins without it get a blocking enrollment screen at next login. Want that in this design?'
        ),
        U("yes"),
        RD(
            "src/router/guards.ts",
            "export function authGuard(to, from, next) {\n  const auth = useAuth();\n  if (to.meta.public) return next();\n  if (!auth.user) return next({ name: 'login', query: { r: to.fullPath } });\n  next();\n}",
        ),
        A(
            "Added to the design: the guard checks `auth.user.mustEnroll2fa`; if true, redirects every route except `/security/2fa` and logout. Screens list: SecurityPage (toggle), Enroll2faModal (3 steps), RecoveryCodesView, LoginCodeStep. API: `POST /2fa/setup` → {otpauth_url}, `POST /2fa/verify` {code} → {recovery_codes}, `POST /2fa/disable` {password, code}."
        ),
        U("disable needs code too? what if lost phone"),
        A(
            "Disable needs password + (TOTP code or recovery code). Lost phone and no recovery codes → support flow with identity check; that's manual, out of the app. I'll note it in the design doc under 'Account recovery'."
        ),
    ],
)

S(
    "h5-feature-design-3",
    "cline",
    "feature/design",
    "Data model for product variants",
    [
        U(
            "shop backend (django). currently Product has size and color as charfields. need real variants: tshirt in S/M/L × red/blue, each with own SKU, price, stock. how should models look? some products have no variants"
        ),
        RD(
            "shop/models.py",
            "class Product(models.Model):\n    name = models.CharField(max_length=200)\n    slug = models.SlugField(unique=True)\n    price = models.DecimalField(max_digits=10, decimal_places=2)\n    stock = models.PositiveIntegerField(default=0)\n    size = models.CharField(max_length=10, blank=True)\n    color = models.CharField(max_length=30, blank=True)\n    sku = models.CharField(max_length=40, unique=True)",
        ),
        A(
            'Proposed model:\n\n```python\nclass Product(models.Model):\n    name, slug, description\n\nclass Option(models.Model):          # "Size", "Color"\n    product = FK(Product, related_name="options")\n    name = CharField()\n    position = PositiveSmallIntegerField()\n\nclass OptionValue(models.Model):     # "S", "Red"\n    option = FK(Option, related_name="values")\n    value = CharField()\n\nclass Variant(models.Model):\n    product = FK(Product, related_name="variants")\n    sku = CharField(unique=True)\n    price = DecimalField()\n    stock = PositiveIntegerField()\n    values = M2M(OptionValue)\n```\nProducts without variants get exactly one Variant with no values — so cart/order/stock code always deals with Variant, no special case.'
        ),
        U("hmm, M2M means I can't make unique (product, S, Red) easily no?"),
        A(
            "Right, uniqueness across an M2M isn't a DB constraint. Options: (a) validate in `Variant.clean()` + a unique `signature` field like `size=S|color=red`, or (b) cap options at 3 and use `option1/option2/option3` columns with a unique constraint (Shopify does this). (b) is simpler to query. Which one?"
        ),
        U("b, we will never need more than 3"),
        A(
            'Final: `Variant(product, sku, price, stock, option1, option2, option3)` with `UniqueConstraint(fields=["product", "option1", "option2", "option3"])`; `Product.option_names = ArrayField(max 3)`. OrderLine points to Variant. Data migration plan: each existing Product → one Variant copying sku/price/stock/size/color.'
        ),
        WR(
            "docs/design/variants.md",
            "# Product variants\n\nModel: Product(option_names[≤3]) → Variant(sku, price, stock, option1..3)\n...",
        ),
    ],
)

S(
    "h5-feature-design-4",
    "codex",
    "feature/design",
    "Design CLI flags for new export command",
    [
        U(
            "adding `vault export` to our go CLI. Need to decide flags and output before implementing. Users want: choose format json/csv/env, filter by path prefix, optionally include metadata. existing cmds use cobra"
        ),
        SH(
            "go run ./cmd/vault --help",
            'Usage:\n  vault [command]\n\nAvailable Commands:\n  get         Read a secret\n  list        List secrets under a path\n  put         Write a secret\n\nFlags:\n  -o, --output string   output format: table|json (default "table")\n  -n, --namespace string',
        ),
        A(
            "Proposal consistent with existing commands:\n\n```\nvault export [PATH_PREFIX] [flags]\n  -o, --output json|csv|env   (default json; reuse -o like list/get)\n      --with-metadata          include version, created_at, created_by\n      --out FILE               write to file instead of stdout (0600 perms)\n  -r, --recursive              descend into sub-paths (default true)\n```\n`env` format prints `KEY=value` with keys upper-snake from the last path segment; collisions → error listing both paths. Exit codes: 0 ok, 2 bad flags, 3 nothing matched."
        ),
        U("secrets to stdout by default is scary. thoughts"),
        A(
            "Agree. Option: refuse to write to a TTY unless `--force`, like `gpg` does; piping and `--out` work normally. That blocks accidental display in a terminal or screen share without hurting scripts."
        ),
        U("yes do it that way. write the help text"),
        WR(
            "docs/cli/export.md",
            "vault export [PATH_PREFIX]\n\nExport secrets under PATH_PREFIX.\n\nRefuses to print to a terminal; pipe the output or use --out, or pass --force.\n\nFlags:\n  -o, --output json|csv|env\n      --with-metadata\n      --out FILE\n  -r, --recursive (default true)\n      --force\n\nExit codes: 0 ok, 2 usage, 3 no secrets matched",
        ),
        A("Design written to docs/cli/export.md; implementation can follow it."),
    ],
)

S(
    "h5-feature-design-5",
    "aider",
    "feature/design",
    "Notification preferences data model and API",
    [
        U(
            "we want users to choose per notification type and per channel (email, push, in-app) whether they get it. like github settings. propose schema + API, postgres + node. we have ~25 notification types and they grow"
        ),
        A(
            "Store only deviations from defaults:\n\n```sql\nCREATE TABLE notification_prefs (\n  user_id bigint REFERENCES users,\n  type text NOT NULL,          -- 'comment.mention'\n  channel text NOT NULL CHECK (channel IN ('email','push','in_app')),\n  enabled boolean NOT NULL,\n  PRIMARY KEY (user_id, type, channel));\n```\nDefaults live in code (`notificationTypes.ts`: type → default channels, category for UI grouping). Adding a type = code change only, no migration or backfill.\n\nAPI:\n- `GET /me/notification-prefs` → merged matrix `{type: {email: true, push: false, in_app: true, locked: [\"in_app\"]}}`\n- `PUT /me/notification-prefs` with a list of `{type, channel, enabled}` changes."
        ),
        U("what is locked"),
        A(
            "Some notifications must not be turned off on some channel — e.g. security alerts by email. `locked` lists channels the UI shows disabled; the API rejects changes to them."
        ),
        U("ok. also a 'mute everything' toggle?"),
        A(
            "Separate column on users: `notifications_paused_until timestamptz` — covers 'mute for 1h / until tomorrow / forever (far future)'. Sender checks it first. Keeps the matrix untouched so unmuting restores previous choices."
        ),
        U("good. write it to docs"),
        ED(
            "docs/design/notifications.md",
            "## Preferences\nTBD",
            "## Preferences\n\n- Table `notification_prefs` stores overrides only; defaults in `notificationTypes.ts`.\n- `locked` channels cannot be disabled (security, billing).\n- `users.notifications_paused_until` mutes all non-locked notifications.\n- API: GET/PUT /me/notification-prefs (merged matrix / list of changes).",
        ),
    ],
)

# ---------------------------------------------------------------- feature/implementation
S(
    "h5-feature-implementation-1",
    "claude-code",
    "feature/implementation",
    "Add dark mode toggle to React settings",
    [
        U("add dark mode toggle in settings page. we use tailwind. should remember the choice. default = system"),
        RD(
            "tailwind.config.js",
            "module.exports = {\n  content: ['./src/**/*.{ts,tsx}'],\n  theme: { extend: {} },\n  plugins: [],\n};",
        ),
        ED(
            "tailwind.config.js",
            "  content: ['./src/**/*.{ts,tsx}'],",
            "  darkMode: 'class',\n  content: ['./src/**/*.{ts,tsx}'],",
        ),
        WR(
            "src/hooks/useTheme.ts",
            "import { useEffect, useState } from 'react';\n\nexport type Theme = 'light' | 'dark' | 'system';\n\nexport function useTheme() {\n  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem('theme') as Theme) ?? 'system');\n\n  useEffect(() => {\n    const mq = window.matchMedia('(prefers-color-scheme: dark)');\n    const apply = () => {\n      const dark = theme === 'dark' || (theme === 'system' && mq.matches);\n      document.documentElement.classList.toggle('dark', dark);\n    };\n    apply();\n    localStorage.setItem('theme', theme);\n    mq.addEventListener('change', apply);\n    return () => mq.removeEventListener('change', apply);\n  }, [theme]);\n\n  return { theme, setTheme };\n}\n",
        ),
        ED(
            "src/pages/Settings.tsx",
            '      <h2 className="text-lg">Appearance</h2>',
            '      <h2 className="text-lg">Appearance</h2>\n      <ThemeSelect value={theme} onChange={setTheme} />',
        ),
        SH(
            "npx vitest run src/hooks/useTheme.test.ts",
            " ✓ src/hooks/useTheme.test.ts (4)\n Test Files  1 passed (1)\n      Tests  4 passed (4)",
        ),
        U("there's a white flash on load when dark"),
        A(
            "The class is applied only after React mounts. Fix: a tiny inline script in index.html that sets the class before first paint."
        ),
        ED(
            "index.html",
            "  <head>",
            "  <head>\n    <script>\n      // set before first paint to avoid a light flash; mirrors useTheme\n      (function () { var t = localStorage.getItem('theme') || 'system';\n        if (t === 'dark' || (t === 'system' && matchMedia('(prefers-color-scheme: dark)').matches))\n          document.documentElement.classList.add('dark'); })();\n    </script>",
        ),
        U("👍 commit"),
        SH(
            "git add -A && git commit -m 'Add theme setting (light/dark/system) with no-flash init'",
            "[feat/dark-mode 3c1e0a9] Add theme setting (light/dark/system) with no-flash init\n 5 files changed, 61 insertions(+), 1 deletion(-)",
        ),
    ],
)

S(
    "h5-feature-implementation-2",
    "cursor",
    "feature/implementation",
    "Implement CSV import for contacts in Spring",
    [
        U(
            "implement POST /contacts/import that accepts CSV (name,email,phone), validates rows, saves valid ones, returns report of errors per line. spring boot 3, jpa. max 10k rows"
        ),
        RD(
            "src/main/java/com/acme/crm/contacts/ContactController.java",
            '@RestController\n@RequestMapping("/contacts")\n@RequiredArgsConstructor\npublic class ContactController {\n    private final ContactService service;\n\n    @GetMapping\n    public Page<ContactDto> list(Pageable p) { return service.list(p); }\n\n    @PostMapping\n    public ContactDto create(@Valid @RequestBody CreateContact req) { return service.create(req); }\n}',
        ),
        ED(
            "src/main/java/com/acme/crm/contacts/ContactController.java",
            "    @PostMapping\n    public ContactDto create",
            '    @PostMapping(path = "/import", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)\n    public ImportReport importCsv(@RequestPart("file") MultipartFile file) throws IOException {\n        return service.importCsv(file.getInputStream());\n    }\n\n    @PostMapping\n    public ContactDto create',
        ),
        WR(
            "src/main/java/com/acme/crm/contacts/ContactImporter.java",
            '@Component\n@RequiredArgsConstructor\nclass ContactImporter {\n    static final int MAX_ROWS = 10_000;\n    private final Validator validator;\n    private final ContactRepository repo;\n\n    @Transactional\n    ImportReport run(InputStream in) throws IOException {\n        var errors = new ArrayList<RowError>();\n        var ok = new ArrayList<Contact>();\n        try (var parser = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build()\n                .parse(new InputStreamReader(in, StandardCharsets.UTF_8))) {\n            for (var rec : parser) {\n                if (rec.getRecordNumber() > MAX_ROWS) throw new TooManyRows(MAX_ROWS);\n                var c = new CreateContact(rec.get("name"), rec.get("email"), rec.get("phone"));\n                var v = validator.validate(c);\n                if (v.isEmpty()) ok.add(c.toEntity());\n                else v.forEach(e -> errors.add(new RowError(rec.getRecordNumber() + 1, e.getPropertyPath().toString(), e.getMessage())));\n            }\n        }\n        repo.saveAll(ok);\n        return new ImportReport(ok.size(), errors);\n    }\n}',
        ),
        SH(
            "./mvnw -q test -Dtest=ContactImportTest",
            "[ERROR] Tests run: 4, Failures: 0, Errors: 1\n[ERROR] ContactImportTest.duplicateEmails:58 » DataIntegrity could not execute statement; SQL [n/a]; constraint [uk_contact_email]",
        ),
        A(
            "Duplicate emails (within the file or already in DB) hit the unique constraint and roll back the whole import. Should duplicates be reported as row errors, or update the existing contact?"
        ),
        U("report as error, no updates"),
        ED(
            "src/main/java/com/acme/crm/contacts/ContactImporter.java",
            "                if (v.isEmpty()) ok.add(c.toEntity());",
            '                if (v.isEmpty() && !seen.add(c.email().toLowerCase())) {\n                    errors.add(new RowError(rec.getRecordNumber() + 1, "email", "duplicate in file"));\n                } else if (v.isEmpty() && existing.contains(c.email().toLowerCase())) {\n                    errors.add(new RowError(rec.getRecordNumber() + 1, "email", "already exists"));\n                } else if (v.isEmpty()) ok.add(c.toEntity());',
        ),
        SH("./mvnw -q test -Dtest=ContactImportTest", "[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0"),
        A(
            "Import endpoint done: validates each row, reports line-numbered errors (validation, duplicate in file, already exists), saves the rest in one transaction, rejects files over 10k rows with 413."
        ),
    ],
)

S(
    "h5-feature-implementation-3",
    "gemini-cli",
    "feature/implementation",
    "Add search to Rust CLI tool",
    [
        U(
            "hey, my rust cli `notes` stores markdown notes in ~/.notes. add `notes search <query>` that prints matching files with line numbers, case insensitive, and --tag filter (tags are in frontmatter `tags: [a, b]`)"
        ),
        RD(
            "src/main.rs",
            "use clap::{Parser, Subcommand};\n\nmod store;\n\n#[derive(Parser)]\nstruct Cli {\n    #[command(subcommand)]\n    cmd: Cmd,\n}\n\n#[derive(Subcommand)]\nenum Cmd {\n    New { title: String },\n    List,\n    Edit { id: String },\n}\n\nfn main() -> anyhow::Result<()> {\n    let cli = Cli::parse();\n    let store = store::Store::open_default()?;\n    match cli.cmd {\n        Cmd::New { title } => store.create(&title),\n        Cmd::List => store.list(),\n        Cmd::Edit { id } => store.edit(&id),\n    }\n}",
        ),
        ED(
            "src/main.rs",
            "    Edit { id: String },\n}",
            "    Edit { id: String },\n    /// Search notes (case-insensitive)\n    Search {\n        query: String,\n        #[arg(long)]\n        tag: Option<String>,\n    },\n}",
        ),
        WR(
            "src/search.rs",
            "use crate::store::Note;\n\npub struct Hit<'a> { pub note: &'a Note, pub line: usize, pub text: &'a str }\n\npub fn search<'a>(notes: &'a [Note], query: &str, tag: Option<&str>) -> Vec<Hit<'a>> {\n    let q = query.to_lowercase();\n    notes.iter()\n        .filter(|n| tag.map_or(true, |t| n.tags.iter().any(|x| x.eq_ignore_ascii_case(t))))\n        .flat_map(|n| n.body.lines().enumerate()\n            .filter(|(_, l)| l.to_lowercase().contains(&q))\n            .map(move |(i, l)| Hit { note: n, line: i + 1, text: l }))\n        .collect()\n}\n",
        ),
        SH(
            "cargo test search",
            "error[E0432]: unresolved import `crate::store::Note`\n --> src/search.rs:1:5\n  |\n1 | use crate::store::Note;\n  |     ^^^^^^^^^^^^^^^^^^ no `Note` in `store`\n  |\nhelp: a similar name exists: `NoteFile`",
        ),
        ED("src/search.rs", "use crate::store::Note;", "use crate::store::NoteFile as Note;"),
        SH(
            "cargo test search",
            "running 3 tests\ntest search::tests::case_insensitive ... ok\ntest search::tests::tag_filter ... ok\ntest search::tests::line_numbers ... ok\n\ntest result: ok. 3 passed; 0 failed",
        ),
        U("can it highlight the match with color when tty?"),
        ED(
            "src/main.rs",
            "        Cmd::Edit { id } => store.edit(&id),",
            '        Cmd::Edit { id } => store.edit(&id),\n        Cmd::Search { query, tag } => {\n            let color = std::io::IsTerminal::is_terminal(&std::io::stdout());\n            for h in search::search(&store.load_all()?, &query, tag.as_deref()) {\n                println!("{}:{}: {}", h.note.path.display(), h.line, highlight(h.text, &query, color));\n            }\n            Ok(())\n        }',
        ),
        A("`notes search` done with --tag and colored highlighting only when stdout is a terminal (plain when piped)."),
    ],
)

S(
    "h5-feature-implementation-4",
    "copilot",
    "feature/implementation",
    "Implement password reset flow in Phoenix",
    [
        U(
            "implement forgot password for our phoenix app. we didnt use phx.gen.auth at start so do it by hand: request form, email with token, reset form. token valid 1h, single use"
        ),
        RD(
            "lib/app/accounts.ex",
            "defmodule App.Accounts do\n  import Ecto.Query\n  alias App.{Repo, Accounts.User}\n\n  def get_user_by_email(email), do: Repo.get_by(User, email: String.downcase(email))\n\n  def update_password(%User{} = user, attrs) do\n    user |> User.password_changeset(attrs) |> Repo.update()\n  end\nend",
        ),
        WR(
            "priv/repo/migrations/20240611090000_create_reset_tokens.exs",
            "defmodule App.Repo.Migrations.CreateResetTokens do\n  use Ecto.Migration\n\n  def change do\n    create table(:reset_tokens) do\n      add :user_id, references(:users, on_delete: :delete_all), null: false\n      add :token_hash, :binary, null: false\n      add :used_at, :utc_datetime\n      timestamps(updated_at: false)\n    end\n    create unique_index(:reset_tokens, [:token_hash])\n  end\nend\n",
        ),
        ED(
            "lib/app/accounts.ex",
            "  def update_password(",
            "  @reset_ttl_seconds 3600\n\n  def deliver_reset(email, url_fun) do\n    # always succeed so the form does not reveal which emails exist\n    with %User{} = user <- get_user_by_email(email) do\n      token = :crypto.strong_rand_bytes(32)\n      Repo.insert!(%ResetToken{user_id: user.id, token_hash: :crypto.hash(:sha256, token)})\n      App.Emails.reset(user, url_fun.(Base.url_encode64(token, padding: false))) |> App.Mailer.deliver()\n    end\n    :ok\n  end\n\n  def update_password(",
        ),
        SH(
            "mix test test/app/accounts_reset_test.exs",
            "....\n1) test reset with expired token is rejected (App.AccountsResetTest)\n   Assertion with == failed\n   left:  {:ok, %App.Accounts.User{}}\n   right: {:error, :invalid_token}\n\nFinished in 0.4 seconds\n5 tests, 1 failure",
        ),
        A("`reset_password/2` doesn't check `inserted_at` yet. Adding the 1h window to the query."),
        ED(
            "lib/app/accounts.ex",
            "where: t.token_hash == ^hash and is_nil(t.used_at)",
            'where: t.token_hash == ^hash and is_nil(t.used_at) and\n               t.inserted_at > ago(@reset_ttl_seconds, "second")',
        ),
        SH("mix test test/app/accounts_reset_test.exs", ".....\nFinished in 0.4 seconds\n5 tests, 0 failures"),
        U("also log out other sessions after reset"),
        ED(
            "lib/app/accounts.ex",
            "      |> Ecto.Multi.update(:token, ResetToken.use_changeset(t))",
            "      |> Ecto.Multi.update(:token, ResetToken.use_changeset(t))\n      |> Ecto.Multi.delete_all(:sessions, from(s in UserSession, where: s.user_id == ^t.user_id))",
        ),
        A(
            "Reset flow in place: request page, hashed single-use token valid 1h, reset page, and all sessions deleted on success. Controllers + templates under lib/app_web/controllers/password_reset_*."
        ),
    ],
)

S(
    "h5-feature-implementation-5",
    "cline",
    "feature/implementation",
    "Add webhook retries with backoff to Python service",
    [
        U(
            "customers want us to retry failed webhooks. right now we POST once and forget. add retries: 5 attempts, exponential backoff, give up after 24h, and show delivery attempts in the admin. we use django + celery"
        ),
        RD(
            "hooks/tasks.py",
            "import requests\nfrom celery import shared_task\n\nfrom .models import Endpoint\n\n\n@shared_task\ndef deliver(endpoint_id, payload):\n    ep = Endpoint.objects.get(pk=endpoint_id)\n    requests.post(ep.url, json=payload, timeout=10)",
        ),
        A(
            "Plan: a `Delivery` model (endpoint, payload, attempts, status, next_attempt_at, last_status_code, last_error) so the admin can show history; the task retries itself with countdown 1m, 5m, 30m, 2h, 12h (sums under 24h). Non-2xx and timeouts retry; 410 Gone disables the endpoint. OK?"
        ),
        U("yes. 4xx other than 410 and 429 should not retry"),
        WR(
            "hooks/models.py",
            'class Delivery(models.Model):\n    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")\n    payload = models.JSONField()\n    status = models.CharField(max_length=12, default="pending")  # pending/ok/failed\n    attempts = models.PositiveSmallIntegerField(default=0)\n    last_status_code = models.PositiveSmallIntegerField(null=True)\n    last_error = models.TextField(blank=True)\n    created_at = models.DateTimeField(auto_now_add=True)\n',
        ),
        ED(
            "hooks/tasks.py",
            "@shared_task\ndef deliver(endpoint_id, payload):\n    ep = Endpoint.objects.get(pk=endpoint_id)\n    requests.post(ep.url, json=payload, timeout=10)",
            'BACKOFF = [60, 300, 1800, 7200, 43200]\n\n\n@shared_task(bind=True, max_retries=len(BACKOFF))\ndef deliver(self, delivery_id):\n    d = Delivery.objects.select_related("endpoint").get(pk=delivery_id)\n    d.attempts += 1\n    try:\n        r = requests.post(d.endpoint.url, json=d.payload, timeout=10)\n        d.last_status_code = r.status_code\n        retry = r.status_code >= 500 or r.status_code == 429\n        if r.status_code == 410:\n            d.endpoint.disable(reason="410 Gone")\n    except requests.RequestException as e:\n        d.last_error, retry = str(e)[:500], True\n    d.status = "ok" if d.last_status_code and d.last_status_code < 300 else ("pending" if retry and self.request.retries < len(BACKOFF) else "failed")\n    d.save()\n    if d.status == "pending":\n        raise self.retry(countdown=BACKOFF[self.request.retries])',
        ),
        SH(
            "python manage.py makemigrations hooks && pytest hooks -q",
            "Migrations for 'hooks':\n  hooks/migrations/0007_delivery.py\n    - Create model Delivery\n.........\n9 passed in 2.81s",
        ),
        U("admin?"),
        ED(
            "hooks/admin.py",
            "admin.site.register(Endpoint)",
            'class DeliveryInline(admin.TabularInline):\n    model = Delivery\n    extra = 0\n    readonly_fields = ["status", "attempts", "last_status_code", "last_error", "created_at"]\n    ordering = ["-created_at"]\n\n\n@admin.register(Endpoint)\nclass EndpointAdmin(admin.ModelAdmin):\n    inlines = [DeliveryInline]',
        ),
        A(
            "Retries implemented (5 attempts: 1m/5m/30m/2h/12h), 410 disables the endpoint, other 4xx fail immediately, and deliveries show inline on the endpoint admin page."
        ),
    ],
)


# ---------------------------------------------------------------- code/implementation
S(
    "h5-code-implementation-1",
    "claude-code",
    "code/implementation",
    "Refactor god class OrderService into smaller services",
    [
        U(
            "OrderService.java is 1400 lines. split it, no behaviour change. the bug in discount calc we saw last week is separate, don't touch it"
        ),
        SH(
            "grep -c 'public ' src/main/java/com/acme/shop/OrderService.java && grep -n 'public .*(' src/main/java/com/acme/shop/OrderService.java | head -12",
            "41\n52:    public Order place(Cart cart, Customer c) {\n140:    public Money computeDiscount(Cart cart, Customer c) {\n212:    public Money computeTax(Cart cart, Address a) {\n290:    public Shipment ship(Order o) {\n371:    public void sendConfirmation(Order o) {\n402:    public void sendShippedEmail(Order o) {\n455:    public Refund refund(Order o, Money amount) {\n530:    public Invoice invoice(Order o) {",
        ),
        A(
            "Clusters: pricing (discount, tax), fulfilment (ship, tracking), notifications (emails), refunds/invoices. I'll extract PricingService, FulfilmentService, OrderNotifier, RefundService; OrderService keeps `place` and delegates. Moving methods verbatim, including computeDiscount with its bug."
        ),
        SH("./mvnw -q test", "[INFO] Tests run: 318, Failures: 0, Errors: 0, Skipped: 2"),
        U("ok go"),
        RD(
            "src/main/java/com/acme/shop/OrderService.java",
            "package com.acme.shop;\n\nimport java.math.BigDecimal;\nimport java.math.RoundingMode;\nimport java.util.List;\n\nimport org.springframework.stereotype.Service;\nimport org.springframework.transaction.annotation.Transactional;\n\n@Service\npublic class OrderService {\n    private final OrderRepository orders;\n    private final CouponRepository coupons;\n    private final TaxTable taxTable;\n    private final CarrierClient carrier;\n    private final Mailer mailer;\n    private final PaymentGateway payments;\n\n    public OrderService(OrderRepository orders, CouponRepository coupons, TaxTable taxTable,\n                        CarrierClient carrier, Mailer mailer, PaymentGateway payments) {\n        this.orders = orders;\n        this.coupons = coupons;\n        this.taxTable = taxTable;\n        this.carrier = carrier;\n        this.mailer = mailer;\n        this.payments = payments;\n    }\n\n    @Transactional\n    public Order place(Cart cart, Customer c) {\n        Money discount = computeDiscount(cart, c);\n        Money tax = computeTax(cart, c.billingAddress());\n        Order o = Order.from(cart, c, discount, tax);\n        orders.save(o);\n        payments.authorize(o);\n        sendConfirmation(o);\n        return o;\n    }\n\n    public Money computeDiscount(Cart cart, Customer c) {\n        Money total = Money.zero(cart.currency());\n        for (Coupon cp : coupons.activeFor(c)) {\n            if (cp.isPercent()) {\n                total = total.plus(cart.subtotal().times(cp.percent()).divide(100));\n            } else {\n                total = total.plus(cp.amount());\n            }\n        }\n        return total; // TODO cap at subtotal\n    }\n\n    public Money computeTax(Cart cart, Address a) {\n        BigDecimal rate = taxTable.rateFor(a.country(), a.region());\n        return cart.subtotal().times(rate).round(RoundingMode.HALF_UP);\n    }\n\n    public Shipment ship(Order o) {\n        Shipment s = carrier.book(o.shippingAddress(), o.parcels());\n        o.markShipped(s.trackingNumber());\n        orders.save(o);\n        sendShippedEmail(o);\n        return s;\n    }\n",
        ),
        SH("./mvnw -q compile", "[INFO] BUILD SUCCESS"),
        A("Extracted the four classes, constructor-injected into OrderService. OrderService is now 310 lines."),
        SH("./mvnw -q test", "[INFO] Tests run: 318, Failures: 0, Errors: 0, Skipped: 2"),
        U("same 318 good. any callers outside need change?"),
        GR(
            "orderService\\.(computeTax|ship|refund|invoice)",
            "src/main/java/com/acme/shop/admin/AdminController.java:88:        return orderService.refund(order, amount);\nsrc/main/java/com/acme/shop/jobs/ShippingJob.java:31:        orderService.ship(o);",
        ),
        A(
            "Two callers updated to use RefundService and FulfilmentService directly. All 318 tests pass, no public behaviour changed."
        ),
    ],
)

S(
    "h5-code-implementation-2",
    "codex",
    "code/implementation",
    "Speed up slow pandas aggregation",
    [
        U(
            "this script takes 14 min on the 8M row file. make it faster pls, output must stay identical\n\n```python\nrows = []\nfor _, r in df.iterrows():\n    key = (r['store'], r['date'][:7])\n    rows.append({'k': key, 'rev': r['qty'] * r['price']})\nout = pd.DataFrame(rows).groupby('k')['rev'].sum()\n```"
        ),
        SH(
            "python -c \"import pandas as pd; df=pd.read_parquet('sales.parquet'); print(df.dtypes); print(len(df))\"",
            "store      object\ndate       object\nqty         int64\nprice     float64\ndtype: object\n8012345",
        ),
        A(
            "`iterrows` builds a Series per row — that's most of the 14 minutes. Vectorized version:\n\n```python\ndf['month'] = df['date'].str[:7]\ndf['rev'] = df['qty'] * df['price']\nout = df.groupby(['store', 'month'])['rev'].sum()\n```\nThe index becomes a MultiIndex instead of tuples; I'll convert back to match exactly."
        ),
        WR(
            "agg_fast.py",
            "import pandas as pd\n\ndf = pd.read_parquet('sales.parquet', columns=['store', 'date', 'qty', 'price'])\ndf['store'] = df['store'].astype('category')\nrev = (df['qty'] * df['price']).groupby([df['store'], df['date'].str[:7]], observed=True).sum()\nrev.index = pd.Index(list(rev.index), tupleize_cols=False, name='k')\nrev.name = 'rev'\nrev.to_pickle('out_fast.pkl')\n",
        ),
        SH(
            "time python agg_fast.py && python -c \"import pandas as pd; a=pd.read_pickle('out_old.pkl'); b=pd.read_pickle('out_fast.pkl'); print(a.sort_index().equals(b.sort_index()))\"",
            "real\t0m6.9s\nuser\t0m6.1s\nsys\t0m0.8s\nTrue",
        ),
        U("wow. 7s. and memory?"),
        SH("/usr/bin/time -v python agg_fast.py 2>&1 | grep Maximum", "\tMaximum resident set size (kbytes): 2143880"),
        A(
            "Peak 2.1 GB (the old one peaked ~5.6 GB from the list of dicts). Output is identical (`equals` → True after sorting; order was groupby-sorted in both anyway)."
        ),
    ],
)

S(
    "h5-code-implementation-3",
    "cursor",
    "code/implementation",
    "Convert class components to hooks",
    [
        U(
            "convert src/legacy/*.jsx class components to function components with hooks, 6 files. keep props the same. we're going to redesign the dashboard later but not now"
        ),
        SH(
            "ls src/legacy && grep -l 'componentDidMount\\|componentDidUpdate' src/legacy/*.jsx",
            "ChartCard.jsx\nFilterBar.jsx\nKpiTile.jsx\nRangePicker.jsx\nUserMenu.jsx\nWidgetGrid.jsx\nsrc/legacy/ChartCard.jsx\nsrc/legacy/WidgetGrid.jsx",
        ),
        RD(
            "src/legacy/ChartCard.jsx",
            "export default class ChartCard extends React.Component {\n  state = { data: null, error: null };\n\n  componentDidMount() { this.load(); }\n\n  componentDidUpdate(prev) {\n    if (prev.metric !== this.props.metric || prev.range !== this.props.range) this.load();\n  }\n\n  componentWillUnmount() { this.cancelled = true; }\n\n  async load() {\n    try {\n      const data = await api.series(this.props.metric, this.props.range);\n      if (!this.cancelled) this.setState({ data });\n    } catch (error) {\n      if (!this.cancelled) this.setState({ error });\n    }\n  }\n\n  render() {\n    const { data, error } = this.state;\n    if (error) return <ErrorBox error={error} />;\n    if (!data) return <Spinner />;\n    return <LineChart data={data} title={this.props.title} />;\n  }\n}",
        ),
        WR(
            "src/legacy/ChartCard.jsx",
            "export default function ChartCard({ metric, range, title }) {\n  const [data, setData] = useState(null);\n  const [error, setError] = useState(null);\n\n  useEffect(() => {\n    let cancelled = false;\n    setData(null);\n    api.series(metric, range).then(\n      (d) => !cancelled && setData(d),\n      (e) => !cancelled && setError(e),\n    );\n    return () => { cancelled = true; };\n  }, [metric, range]);\n\n  if (error) return <ErrorBox error={error} />;\n  if (!data) return <Spinner />;\n  return <LineChart data={data} title={title} />;\n}\n",
        ),
        SH(
            "npm test -- src/legacy",
            "PASS src/legacy/ChartCard.test.jsx\nPASS src/legacy/WidgetGrid.test.jsx\nPASS src/legacy/FilterBar.test.jsx\n\nTest Suites: 3 passed, 3 total\nTests:       17 passed, 17 total",
        ),
        U("WidgetGrid used getSnapshotBeforeUpdate, how did u handle"),
        A(
            "It only saved scroll position before re-render. I replaced it with a `useLayoutEffect` keyed on `widgets.length` that restores the scroll offset stored in a ref — runs before paint so no visible jump. No hook equivalent of getSnapshotBeforeUpdate exists, this is the usual substitute."
        ),
        U("ok fine. all 6 done?"),
        A(
            "Yes, all 6 converted; props unchanged, 17 tests pass, and `eslint-plugin-react-hooks` reports no exhaustive-deps warnings."
        ),
    ],
)

S(
    "h5-code-implementation-4",
    "aider",
    "code/implementation",
    "Rewrite bash deploy script in Python",
    [
        U("/add scripts/deploy.sh"),
        A("Added scripts/deploy.sh to the chat."),
        U(
            "rewrite this in python (3.11, stdlib only). its getting unmaintainable with all the if/else. same flags, same behavior. we'll design a proper pipeline later"
        ),
        A(
            "The script: parses `-e env -t tag [--dry-run]`, checks git is clean, builds and pushes a docker image, runs `kubectl set image`, waits for rollout, and on failure runs `kubectl rollout undo`. I'll mirror this with argparse + subprocess.run(check=True) and a `run()` helper that prints commands in dry-run mode."
        ),
        WR(
            "scripts/deploy.py",
            "#!/usr/bin/env python3\n\"\"\"Build, push and roll out the api image (port of deploy.sh).\"\"\"\nimport argparse\nimport subprocess\nimport sys\n\n\ndef run(cmd: list[str], dry: bool) -> None:\n    print('+', ' '.join(cmd), flush=True)\n    if not dry:\n        subprocess.run(cmd, check=True)\n\n\ndef main() -> int:\n    p = argparse.ArgumentParser()\n    p.add_argument('-e', '--env', required=True, choices=['staging', 'prod'])\n    p.add_argument('-t', '--tag', required=True)\n    p.add_argument('--dry-run', action='store_true')\n    a = p.parse_args()\n    if subprocess.run(['git', 'diff', '--quiet']).returncode != 0:\n        print('working tree dirty', file=sys.stderr)\n        return 1\n    image = f'registry.acme.io/api:{a.tag}'\n    run(['docker', 'build', '-t', image, '.'], a.dry_run)\n    run(['docker', 'push', image], a.dry_run)\n    run(['kubectl', '--context', a.env, 'set', 'image', 'deploy/api', f'api={image}'], a.dry_run)\n    try:\n        run(['kubectl', '--context', a.env, 'rollout', 'status', 'deploy/api', '--timeout=300s'], a.dry_run)\n    except subprocess.CalledProcessError:\n        run(['kubectl', '--context', a.env, 'rollout', 'undo', 'deploy/api'], a.dry_run)\n        return 2\n    return 0\n\n\nif __name__ == '__main__':\n    sys.exit(main())\n",
        ),
        SH(
            "python scripts/deploy.py -e staging -t v1.4.2 --dry-run",
            "+ docker build -t registry.acme.io/api:v1.4.2 .\n+ docker push registry.acme.io/api:v1.4.2\n+ kubectl --context staging set image deploy/api api=registry.acme.io/api:v1.4.2\n+ kubectl --context staging rollout status deploy/api --timeout=300s",
        ),
        U("bash version exit code on rollback was 2 too? "),
        A("Yes, `exit 2` after undo in deploy.sh line 61; kept the same."),
    ],
)

S(
    "h5-code-implementation-5",
    "gemini-cli",
    "code/implementation",
    "Optimize slow SQL query with index and rewrite",
    [
        U(
            "this query is 9 seconds on prod, its for the dashboard. make it fast\n\nSELECT * FROM events WHERE lower(email) = lower($1) AND created_at > now() - interval '30 days' ORDER BY created_at DESC LIMIT 50;"
        ),
        SH(
            "psql $DB -c \"EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM events WHERE lower(email)=lower('a@b.com') AND created_at > now()-interval '30 days' ORDER BY created_at DESC LIMIT 50;\"",
            " Limit  (actual time=9102.331..9102.402 rows=50 loops=1)\n   ->  Sort  (actual time=9102.330..9102.390 rows=50 loops=1)\n         Sort Key: created_at DESC\n         ->  Seq Scan on events  (actual time=0.04..9100.1 rows=212 loops=1)\n               Filter: ((lower(email) = 'a@b.com') AND (created_at > (now() - '30 days'::interval)))\n               Rows Removed by Filter: 41203118\n Buffers: shared read=1502231\n Execution Time: 9102.5 ms",
        ),
        A(
            "Seq scan over 41M rows because there's no index on `lower(email)`. An expression index on `(lower(email), created_at DESC)` serves both the filter and the order."
        ),
        SH(
            'psql $DB -c "CREATE INDEX CONCURRENTLY events_lower_email_created_idx ON events (lower(email), created_at DESC);"',
            "CREATE INDEX",
        ),
        SH(
            "psql $DB -c \"EXPLAIN (ANALYZE) SELECT * FROM events WHERE lower(email)=lower('a@b.com') AND created_at > now()-interval '30 days' ORDER BY created_at DESC LIMIT 50;\" | tail -3",
            "   ->  Index Scan using events_lower_email_created_idx on events  (actual time=0.031..0.412 rows=50 loops=1)\n Planning Time: 0.2 ms\n Execution Time: 0.48 ms",
        ),
        U("good. also SELECT * pulls the payload jsonb which is huge, dashboard shows only 4 columns"),
        ED("app/queries/events.sql", "SELECT * FROM events", "SELECT id, created_at, kind, source FROM events"),
        A(
            "9.1s → 0.48ms. Also narrowed the select to the 4 columns, which avoids TOAST reads of payload. Added the index as migration 0142 with CONCURRENTLY (non-transactional migration)."
        ),
    ],
)

# ---------------------------------------------------------------- code/pattern
S(
    "h5-code-pattern-1",
    "claude-code",
    "code/pattern",
    "Repository pattern vs active record in our Go service",
    [
        U(
            "in go, how should I structure db access idiomatically? right now handlers call sql directly everywhere. junior here, sorry if basic"
        ),
        RD(
            "internal/http/users.go",
            'func (s *Server) getUser(w http.ResponseWriter, r *http.Request) {\n\tid := chi.URLParam(r, "id")\n\trow := s.db.QueryRowContext(r.Context(), "SELECT id, name, email FROM users WHERE id=$1", id)\n\tvar u User\n\tif err := row.Scan(&u.ID, &u.Name, &u.Email); err != nil {\n\t\thttp.Error(w, err.Error(), 500)\n\t\treturn\n\t}\n\tjson.NewEncoder(w).Encode(u)\n}',
        ),
        A(
            "Common Go idiom: a small store type per aggregate, and handlers depend on an interface defined where it's used (\"accept interfaces, return structs\"):\n\n```go\n// internal/users/store.go\ntype Store struct{ db *sql.DB }\nfunc (s *Store) Get(ctx context.Context, id string) (User, error) { ... }\n\n// internal/http/users.go\ntype userGetter interface { Get(ctx context.Context, id string) (users.User, error) }\ntype Server struct { users userGetter }\n```\nThe handler no longer knows SQL; tests can pass a fake. Keep the interface tiny and in the consumer package, not next to the implementation — that's the opposite of Java habits."
        ),
        U("and errors like not found? now we return 500 for everything"),
        A(
            'Define a sentinel in the users package and wrap:\n\n```go\nvar ErrNotFound = errors.New("user not found")\n...\nif errors.Is(err, sql.ErrNoRows) { return User{}, ErrNotFound }\n```\nHandler: `if errors.Is(err, users.ErrNotFound) { http.Error(w, "not found", 404); return }`. Callers check with `errors.Is`, never by comparing strings.'
        ),
        U("should every function take context?"),
        A(
            "Every function that does I/O or may block: yes, as the first parameter named `ctx`. Don't store it in structs. Pure helpers don't need it."
        ),
        U("ok can u show one full file so I copy the style"),
        WR(
            "internal/users/store.go",
            'package users\n\nimport (\n\t"context"\n\t"database/sql"\n\t"errors"\n)\n\nvar ErrNotFound = errors.New("user not found")\n\ntype User struct {\n\tID, Name, Email string\n}\n\ntype Store struct{ db *sql.DB }\n\nfunc NewStore(db *sql.DB) *Store { return &Store{db: db} }\n\nfunc (s *Store) Get(ctx context.Context, id string) (User, error) {\n\tvar u User\n\terr := s.db.QueryRowContext(ctx, `SELECT id, name, email FROM users WHERE id = $1`, id).Scan(&u.ID, &u.Name, &u.Email)\n\tif errors.Is(err, sql.ErrNoRows) {\n\t\treturn User{}, ErrNotFound\n\t}\n\treturn u, err\n}\n',
        ),
    ],
)

S(
    "h5-code-pattern-2",
    "cline",
    "code/pattern",
    "Builder vs options object for TypeScript client",
    [
        U(
            "our TS sdk constructor has 11 optional params now (new Client(url, key, undefined, undefined, 3, ...)). which pattern is idiomatic in TS? builder like java? we will refactor after deciding"
        ),
        RD(
            "src/client.ts",
            "export class Client {\n  constructor(\n    baseUrl: string,\n    apiKey: string,\n    timeoutMs?: number,\n    retries?: number,\n    backoffMs?: number,\n    userAgent?: string,\n    fetchImpl?: typeof fetch,\n    logger?: Logger,\n    proxy?: string,\n    headers?: Record<string, string>,\n    region?: 'eu' | 'us',\n  ) { /* ... */ }\n}",
        ),
        A(
            "In TypeScript the idiom is an options object with defaults, not a builder:\n\n```ts\nexport interface ClientOptions {\n  baseUrl: string;\n  apiKey: string;\n  timeoutMs?: number;   // default 10_000\n  retry?: { attempts?: number; backoffMs?: number };\n  fetch?: typeof fetch;\n  logger?: Logger;\n  headers?: Record<string, string>;\n  region?: 'eu' | 'us';\n}\nconst DEFAULTS = { timeoutMs: 10_000, retry: { attempts: 3, backoffMs: 200 }, region: 'eu' } as const;\n\nconstructor(opts: ClientOptions) { this.opts = { ...DEFAULTS, ...opts, retry: { ...DEFAULTS.retry, ...opts.retry } }; }\n```\nNamed at the call site, extensible without breaking order, and type-checked. Builders add value in TS mainly when construction needs validation between steps or immutable fluent configuration."
        ),
        U("backwards compat for current users?"),
        A(
            "Overload: keep the positional signature marked `@deprecated` and map it into the options object; remove in the next major."
        ),
        U("show the overload"),
        A(
            "```ts\n/** @deprecated pass an options object */\nconstructor(baseUrl: string, apiKey: string, timeoutMs?: number, retries?: number);\nconstructor(opts: ClientOptions);\nconstructor(a: string | ClientOptions, apiKey?: string, timeoutMs?: number, retries?: number) {\n  const opts = typeof a === 'string' ? { baseUrl: a, apiKey: apiKey!, timeoutMs, retry: { attempts: retries } } : a;\n  ...\n}\n```"
        ),
        U("makes sense, thx"),
        A(
            "One more idiom: freeze the resolved options (`Object.freeze`) so nobody mutates client config after creation."
        ),
        U("ok"),
    ],
)

S(
    "h5-code-pattern-3",
    "copilot",
    "code/pattern",
    "Strategy pattern for payment providers in Ruby",
    [
        U(
            "we have `if provider == 'stripe' ... elsif 'adyen' ... elsif 'paypal'` in like 9 places in the rails app. what's the clean ruby way"
        ),
        GR(
            "provider == ['\"]",
            "app/services/checkout.rb:14:    if order.provider == 'stripe'\napp/services/checkout.rb:31:    elsif order.provider == 'adyen'\napp/services/refunds.rb:8:    case order.provider\napp/jobs/capture_job.rb:12:    if order.provider == 'paypal'\napp/controllers/webhooks_controller.rb:20:    if params[:provider] == 'stripe'",
        ),
        A(
            "Strategy with duck typing: one class per provider implementing the same methods, and a registry that resolves by name.\n\n```ruby\nmodule Payments\n  class Stripe\n    def charge(order) = ...\n    def refund(order, amount) = ...\n    def capture(order) = ...\n  end\n\n  PROVIDERS = { 'stripe' => Stripe, 'adyen' => Adyen, 'paypal' => PayPal }.freeze\n\n  def self.for(name) = PROVIDERS.fetch(name).new\nend\n\nPayments.for(order.provider).refund(order, amount)\n```\nNo base class needed in Ruby; a shared spec (`it_behaves_like 'a payment provider'`) enforces the interface."
        ),
        U("what about webhooks, each provider parses differently"),
        A(
            "Same object gets `parse_webhook(request) -> Payments::Event` so the controller becomes `event = Payments.for(params[:provider]).parse_webhook(request)` and then handles provider-neutral events."
        ),
        U("should the registry be a constant or configurable"),
        A(
            "Constant is fine until you need per-tenant providers or test doubles; then use `Rails.configuration.x.payment_providers` set in an initializer. Don't build that until needed."
        ),
        U("nice. shared example syntax?"),
        A(
            "```ruby\nRSpec.shared_examples 'a payment provider' do\n  it { is_expected.to respond_to(:charge, :refund, :capture, :parse_webhook) }\nend\n\nRSpec.describe Payments::Stripe do\n  subject { described_class.new }\n  it_behaves_like 'a payment provider'\nend\n```"
        ),
    ],
)

S(
    "h5-code-pattern-4",
    "codex",
    "code/pattern",
    "Result type error handling idiom in Rust",
    [
        U(
            "rust: my functions return Result<T, String> and I have .map_err(|e| e.to_string()) everywhere. what is the idiomatic way? library crate + a binary"
        ),
        SH("grep -rc 'map_err(|e| e.to_string())' src | grep -v ':0'", "src/parse.rs:14\nsrc/fetch.rs:9\nsrc/lib.rs:3"),
        A(
            'Idiom: library → a typed error enum (with `thiserror`), binary → `anyhow` for context and reporting.\n\n```rust\n#[derive(Debug, thiserror::Error)]\npub enum Error {\n    #[error("io: {0}")]\n    Io(#[from] std::io::Error),\n    #[error("bad header at line {line}")]\n    BadHeader { line: usize },\n    #[error("http: {0}")]\n    Http(#[from] reqwest::Error),\n}\npub type Result<T> = std::result::Result<T, Error>;\n```\n`#[from]` makes `?` convert automatically, so the map_errs vanish. Callers can `match` on variants — impossible with String.'
        ),
        U("and in main?"),
        A(
            '```rust\nfn main() -> anyhow::Result<()> {\n    let cfg = mylib::load(&path).with_context(|| format!("loading {}", path.display()))?;\n    Ok(())\n}\n```\nanyhow prints the chain: `loading cfg.toml: bad header at line 3`.'
        ),
        U("when should I NOT use #[from]"),
        A(
            "When the same source error type can mean different things — e.g. two io errors (reading config vs writing cache). Then make explicit variants with a field and use `.map_err(|e| Error::CacheWrite(e))`, because `#[from]` would collapse them into one variant."
        ),
        SH(
            "cargo add thiserror@1 && cargo build 2>&1 | tail -2",
            "    Updating crates.io index\n      Adding thiserror v1.0.61 to dependencies\n   Compiling mylib v0.3.0\n    Finished dev [unoptimized + debuginfo] target(s) in 4.12s",
        ),
    ],
)

S(
    "h5-code-pattern-5",
    "gemini-cli",
    "code/pattern",
    "Context managers and cleanup idioms in Python",
    [
        U(
            "in our python tests people write try/finally to cleanup temp dirs and mocks and db connections, its very verbose. whats the pythonic pattern"
        ),
        RD(
            "tests/test_sync.py",
            "def test_sync():\n    d = tempfile.mkdtemp()\n    conn = sqlite3.connect(os.path.join(d, 'x.db'))\n    try:\n        old = os.environ.get('SYNC_DIR')\n        os.environ['SYNC_DIR'] = d\n        try:\n            run_sync(conn)\n            assert count(conn) == 3\n        finally:\n            if old is None:\n                del os.environ['SYNC_DIR']\n            else:\n                os.environ['SYNC_DIR'] = old\n    finally:\n        conn.close()\n        shutil.rmtree(d)",
        ),
        A(
            "In pytest, fixtures with `yield` are the pattern for setup/teardown, plus built-ins `tmp_path` and `monkeypatch`:\n\n```python\n@pytest.fixture\ndef conn(tmp_path):\n    c = sqlite3.connect(tmp_path / 'x.db')\n    yield c\n    c.close()\n\ndef test_sync(conn, tmp_path, monkeypatch):\n    monkeypatch.setenv('SYNC_DIR', str(tmp_path))\n    run_sync(conn)\n    assert count(conn) == 3\n```\n`tmp_path` is removed by pytest, `monkeypatch` restores env automatically."
        ),
        U("and outside tests? same problem in scripts"),
        A(
            "`contextlib`: `with closing(sqlite3.connect(p)) as c:` (note: sqlite3's own `with conn` only commits, it doesn't close), `tempfile.TemporaryDirectory()`, and `ExitStack` when the number of resources is dynamic:\n\n```python\nwith ExitStack() as stack:\n    files = [stack.enter_context(open(p)) for p in paths]\n```\nFor your own resources write `@contextmanager` generators instead of classes with __enter__/__exit__."
        ),
        U("the sqlite thing is surprising, are you sure"),
        A(
            "Yes — `sqlite3.Connection.__exit__` commits or rolls back the transaction but leaves the connection open; that's documented behaviour. Hence `closing()`."
        ),
    ],
)

# ---------------------------------------------------------------- code/review
S(
    "h5-code-review-1",
    "claude-code",
    "code/review",
    "Review PR adding caching to product API",
    [
        U("review PR #482 pls, be strict. it adds redis caching to product endpoints"),
        SH(
            "gh pr diff 482",
            "diff --git a/api/products.py b/api/products.py\n+CACHE_TTL = 3600\n+\n @router.get('/products/{pid}')\n-async def get_product(pid: int, db=Depends(get_db)):\n-    return await db.fetch_product(pid)\n+async def get_product(pid: int, db=Depends(get_db), user=Depends(current_user)):\n+    key = f'product:{pid}'\n+    if (hit := await redis.get(key)):\n+        return json.loads(hit)\n+    p = await db.fetch_product(pid)\n+    await redis.set(key, json.dumps(p.dict()), ex=CACHE_TTL)\n+    return p\n@@ def update_product\n+    await db.update_product(pid, body)\n+    return {'ok': True}",
        ),
        A(
            "Review:\n\n1. **Blocking — personalized data cached globally.** `current_user` was added and `fetch_product` returns `price` with the user's B2B discount (see db.fetch_product line 40). The key has no user/tier, so the first caller's price is served to everyone for an hour.\n2. **Blocking — no invalidation.** `update_product` doesn't delete `product:{pid}`; edits are invisible for up to 1h.\n3. `json.dumps(p.dict())` will fail on Decimal/datetime fields; use `p.model_dump_json()`.\n4. Cache miss stampede on hot products — fine for now, mention it.\n5. Nit: a redis outage now fails the endpoint; wrap cache calls so errors fall back to the DB.\n6. No tests for hit/miss/invalidation."
        ),
        U("is 1 really true? check fetch_product"),
        RD(
            "api/db.py",
            "async def fetch_product(self, pid: int, tier: str | None = None):\n    row = await self.pool.fetchrow(PRODUCT_SQL, pid)\n    p = Product(**row)\n    if tier:\n        p.price = apply_tier(p.price, tier)\n    return p",
        ),
        A(
            "Correction: the PR calls `fetch_product(pid)` without tier, so the cached price is the list price — point 1 doesn't leak discounts today. But then `user` is unused, and B2B users now see list price instead of their tier price: that's a regression vs main? No — main also didn't pass tier. So point 1 downgrades to: remove the unused `current_user` dependency. Points 2, 3, 5, 6 stand."
        ),
        U("ok post the review, request changes"),
        SH(
            "gh pr review 482 --request-changes --body-file /tmp/review482.md",
            "✓ Requested changes to pull request acme/shop#482",
        ),
    ],
)

S(
    "h5-code-review-2",
    "cursor",
    "code/review",
    "Review Terraform module PR for S3 bucket",
    [
        U(
            'can you look at this diff before I approve? its from a junior, I want feedback thats educational not harsh\n\n```hcl\nresource "aws_s3_bucket" "uploads" {\n  bucket = "acme-uploads"\n  acl    = "public-read"\n}\n\nresource "aws_s3_bucket_policy" "uploads" {\n  bucket = aws_s3_bucket.uploads.id\n  policy = jsonencode({\n    Statement = [{ Effect = "Allow", Principal = "*", Action = "s3:*", Resource = "${aws_s3_bucket.uploads.arn}/*" }]\n  })\n}\n```'
        ),
        SH(
            "tfsec modules/uploads --no-color | tail -8",
            "  Result #1 CRITICAL Bucket has a public ACL: 'public-read'.\n  Result #2 CRITICAL Bucket policy grants s3:* to any principal.\n  Result #3 HIGH Bucket does not have encryption enabled.\n  Result #4 MEDIUM Bucket does not have versioning enabled.\n\n  4 potential problems detected.",
        ),
        A(
            "Suggested review comments (kind tone):\n\n- **Policy `s3:*` to `*`** — this lets anyone on the internet delete or overwrite every upload. If the goal is public downloads, `s3:GetObject` is enough; better still, keep the bucket private and serve via CloudFront with an origin access control.\n- **`acl` argument** is deprecated since AWS provider v4 and new buckets block ACLs by default; apply will fail or be ignored. Use `aws_s3_bucket_public_access_block` and ownership controls.\n- **Encryption/versioning**: add `aws_s3_bucket_server_side_encryption_configuration` (SSE-S3 is free) and versioning so accidental overwrites are recoverable.\n- Nice: using `aws_s3_bucket.uploads.arn` instead of hardcoding the ARN 👍"
        ),
        U("does the uploads feature need public read at all? check the app"),
        GR(
            "uploads.*(url|presign)",
            "web/src/lib/uploads.ts:22:  const url = await api.post('/uploads/presign', { key });\nserver/uploads.go:48:\treq, _ := s3c.PresignGetObject(ctx, &s3.GetObjectInput{Bucket: &bucket, Key: &key}, s3.WithPresignExpires(15*time.Minute))",
        ),
        A(
            'The app already uses presigned GET URLs (server/uploads.go:48), so the bucket doesn\'t need to be public at all. Add to the review: "We serve files via presigned URLs, so the bucket can stay fully private — you can drop the policy and ACL entirely."'
        ),
        U("good, ill paste it"),
    ],
)

S(
    "h5-code-review-3",
    "aider",
    "code/review",
    "Review Elixir PR for LiveView performance",
    [
        U("/add lib/app_web/live/feed_live.ex"),
        A("Added lib/app_web/live/feed_live.ex to the chat."),
        RD(
            "lib/app_web/live/feed_live.ex",
            'defmodule AppWeb.FeedLive do\n  use AppWeb, :live_view\n\n  alias App.Posts\n\n  @impl true\n  def mount(_params, _session, socket) do\n    Phoenix.PubSub.subscribe(App.PubSub, "posts")\n    posts = Posts.list_all()\n    {:ok, assign(socket, posts: posts, query: "")}\n  end\n\n  @impl true\n  def handle_event("search", %{"q" => q}, socket) do\n    posts = Posts.search(q)\n    {:noreply, assign(socket, posts: posts, query: q)}\n  end\n\n  def handle_event("like", %{"id" => id}, socket) do\n    Posts.like!(id, socket.assigns.current_user)\n    {:noreply, socket}\n  end\n\n  @impl true\n  def handle_info({:new_post, post}, socket) do\n    {:noreply, assign(socket, posts: [post | socket.assigns.posts])}\n  end\n\n  @impl true\n  def render(assigns) do\n    ~H"""\n    <form phx-change="search"><input name="q" value={@query} phx-debounce="300" /></form>\n    <div :for={post <- @posts} id={"post-#{post.id}"}>\n      <p class="author"><%= author_name(post) %></p>\n      <p><%= post.body %></p>\n      <button phx-click="like" phx-value-id={post.id}>Like</button>\n    </div>\n    """\n  end\n\n  defp author_name(post), do: App.Repo.preload(post, :author).author.name\nend\n',
        ),
        U("this is my colleague's PR. review it, I'm not confident in liveview. dont change the code, just comments"),
        A(
            "Review of feed_live.ex:\n\n1. `mount/3` loads all posts (`Posts.list_all()`) and assigns a list — for a feed with thousands of posts every diff resends the list. Use `stream(socket, :posts, ...)` with pagination.\n2. `handle_info({:new_post, p}, socket)` does `assign(socket, posts: [p | socket.assigns.posts])` — with streams this becomes `stream_insert(socket, :posts, p, at: 0)`.\n3. PubSub subscribe happens in `mount` unconditionally; it should be inside `if connected?(socket)` or you subscribe twice (dead render + live).\n4. `Repo.preload(post, :author)` inside `render` via a helper — DB calls in render run on every re-render. Preload in the query.\n5. Good: uses `phx-debounce` on the search input."
        ),
        U("point 3, why twice?"),
        A(
            "LiveView mounts once for the static HTTP render and again when the websocket connects. Only the second has a long-lived process; subscribing in the first is wasted and, in the disconnected mount, the process exits right away — harmless but pointless. The idiom is `if connected?(socket), do: Phoenix.PubSub.subscribe(...)`."
        ),
        U("ok and how severe is 1, is it blocking"),
        A(
            "At today's size (~300 posts per feed per the seed data) it works; it becomes a problem as feeds grow. I'd mark it 'should fix before launch' rather than blocking this PR. 4 is the one I'd block on."
        ),
        U("ok thanks"),
    ],
)

S(
    "h5-code-review-4",
    "copilot",
    "code/review",
    "Review Kubernetes manifests in PR",
    [
        U("PR adds deployment for new worker. review the yaml?"),
        RD(
            "deploy/worker/deployment.yaml",
            'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: report-worker\nspec:\n  replicas: 3\n  selector:\n    matchLabels: { app: report-worker }\n  template:\n    metadata:\n      labels: { app: report-worker }\n    spec:\n      containers:\n        - name: worker\n          image: registry.acme.io/report-worker:latest\n          env:\n            - name: DB_PASSWORD\n              value: "s3cr3t-prod"\n          resources:\n            limits: { memory: 4Gi }\n          livenessProbe:\n            httpGet: { path: /health, port: 8080 }\n            initialDelaySeconds: 0\n            periodSeconds: 5\n            failureThreshold: 1',
        ),
        A(
            "Findings:\n\n- **Secret in plain text** (`DB_PASSWORD` value) — blocker. It's now in git history too; rotate the password and use `valueFrom.secretKeyRef`.\n- **`:latest` tag** — rollbacks and `kubectl rollout undo` won't work reliably; pin to the commit SHA like other services.\n- **Liveness probe** with delay 0 and failureThreshold 1 — one slow response kills the pod; the worker does CPU-heavy PDF renders so this will restart-loop under load. Suggest initialDelay 20, period 10, failureThreshold 3.\n- **No requests** — only a memory limit; scheduler assumes 0, pods can pile on one node. Add requests (cpu 500m, memory 1Gi?).\n- No `terminationGracePeriodSeconds` — if a job runs ~2min, default 30s cuts it off on deploy."
        ),
        U("how long are jobs actually?"),
        GR("timeout|TIMEOUT", "worker/config.py:9:JOB_TIMEOUT_S = 180"),
        A(
            "Jobs can run up to 180s, so set `terminationGracePeriodSeconds: 200` and make sure the worker stops taking new jobs on SIGTERM."
        ),
        U("put all that as review comments"),
        SH("gh pr review 77 --comment --body-file /tmp/review-worker.md", "✓ Reviewed pull request acme/infra#77"),
    ],
)

S(
    "h5-code-review-5",
    "gemini-cli",
    "code/review",
    "Second opinion on my own diff before pushing",
    [
        U("i refactored the retry helper, can you review my staged changes before i push? focus on correctness"),
        SH(
            "git diff --staged",
            "diff --git a/pkg/retry/retry.go b/pkg/retry/retry.go\n-func Do(fn func() error, attempts int) error {\n-\tvar err error\n-\tfor i := 0; i < attempts; i++ {\n-\t\tif err = fn(); err == nil {\n-\t\t\treturn nil\n-\t\t}\n-\t\ttime.Sleep(time.Duration(1<<i) * 100 * time.Millisecond)\n-\t}\n-\treturn err\n+func Do(ctx context.Context, fn func() error, attempts int) error {\n+\tvar err error\n+\tfor i := 0; i <= attempts; i++ {\n+\t\tif err = fn(); err == nil {\n+\t\t\treturn nil\n+\t\t}\n+\t\tselect {\n+\t\tcase <-time.After(time.Duration(1<<i) * 100 * time.Millisecond):\n+\t\tcase <-ctx.Done():\n+\t\t\treturn err\n+\t\t}\n+\t}\n+\treturn err\n }",
        ),
        A(
            "Review:\n\n1. **Off-by-one**: `i <= attempts` now runs attempts+1 times. Callers passing 3 get 4 calls. Intentional?\n2. **Sleeps after the last attempt**: the loop waits the longest backoff (e.g. 1.6s) before returning the final error. Check `i == attempts-1` and return early.\n3. On `ctx.Done()` you return the last fn error; returning `ctx.Err()` (or joining both with `errors.Join`) tells callers it was cancelled.\n4. `time.After` in a loop leaks a timer until it fires when ctx is cancelled — minor, use `time.NewTimer` + Stop.\n5. No jitter: many clients retrying in sync. Optional."
        ),
        U("1 not intentional oops. 3 - errors.Join good idea"),
        SH(
            "go test ./pkg/retry/ -run . -v 2>&1 | tail -6",
            "=== RUN   TestDoRetriesN\n    retry_test.go:22: calls = 4, want 3\n--- FAIL: TestDoRetriesN (0.70s)\nFAIL\nFAIL\tgithub.com/acme/svc/pkg/retry\t0.712s",
        ),
        A(
            "The existing test catches the off-by-one (4 calls vs 3). Once you change `<=` to `<` it should pass; the other points aren't covered by tests — worth adding one for cancellation."
        ),
        U("ok fixing myself, thx"),
    ],
)

# ---------------------------------------------------------------- code/snippet
S(
    "h5-code-snippet-1",
    "claude-code",
    "code/snippet",
    "Regex to validate semver tags",
    [
        U("regex for semver git tags like v1.2.3, v1.2.3-rc.1, but not v01.2.3. for a github actions if condition"),
        A(
            '```\n^v(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?$\n```\nActions\' `if:` has no regex though; use it in a bash step:\n```bash\n[[ "$GITHUB_REF_NAME" =~ ^v(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]] || exit 1\n```'
        ),
        SH(
            'for t in v1.2.3 v1.2.3-rc.1 v01.2.3 v1.2 1.2.3 v10.20.30-beta; do [[ $t =~ ^v(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]] && echo "ok   $t" || echo "no   $t"; done',
            "ok   v1.2.3\nok   v1.2.3-rc.1\nno   v01.2.3\nno   v1.2\nno   1.2.3\nok   v10.20.30-beta",
        ),
        U("and how to detect prerelease so we dont publish as latest"),
        A(
            '```bash\nif [[ "$GITHUB_REF_NAME" == *-* ]]; then echo "prerelease=true" >> "$GITHUB_OUTPUT"; fi\n```\nthen `--tag next` for npm when `steps.ver.outputs.prerelease == \'true\'`.'
        ),
        U("thx"),
        A("👍"),
        U("oh also build metadata +abc allowed?"),
        A(
            "Add `(\\+[0-9A-Za-z.-]+)?` before `$`. Note git tags with `+` are legal but some registries (Docker tags) reject `+`."
        ),
    ],
)

S(
    "h5-code-snippet-2",
    "codex",
    "code/snippet",
    "SQL to find duplicate customers",
    [
        U(
            "postgres query: find customers with same email ignoring case and whitespace, show groups with ids and created dates, oldest first"
        ),
        A(
            "```sql\nSELECT lower(trim(email)) AS norm_email,\n       array_agg(id ORDER BY created_at) AS ids,\n       array_agg(created_at ORDER BY created_at) AS created,\n       count(*) AS n\nFROM customers\nGROUP BY 1\nHAVING count(*) > 1\nORDER BY min(created_at);\n```"
        ),
        SH(
            "psql $RO_DB -f /tmp/dups.sql | head -6",
            '   norm_email        |     ids      |                 created                  | n \n---------------------+--------------+------------------------------------------+---\n ana@mail.pt         | {104,9921}   | {"2021-02-01 10:02","2023-07-11 08:40"} | 2\n j.smith@corp.com    | {388,401,77} | {"2021-03-09 ..."}                      | 3\n(214 rows)',
        ),
        U("also emails with gmail dots, j.smith@gmail = jsmith@gmail"),
        A(
            "Normalise gmail local parts:\n\n```sql\nWITH n AS (\n  SELECT id, created_at,\n    CASE WHEN split_part(lower(trim(email)), '@', 2) IN ('gmail.com','googlemail.com')\n         THEN replace(split_part(split_part(lower(trim(email)), '@', 1), '+', 1), '.', '') || '@gmail.com'\n         ELSE lower(trim(email)) END AS norm_email\n  FROM customers)\nSELECT norm_email, array_agg(id ORDER BY created_at) ids, count(*) n\nFROM n GROUP BY 1 HAVING count(*) > 1 ORDER BY min(created_at);\n```\nAlso strips `+tags` for gmail."
        ),
        SH("psql $RO_DB -f /tmp/dups2.sql | tail -1", "(251 rows)"),
        A("251 groups with gmail normalisation (vs 214)."),
    ],
)

S(
    "h5-code-snippet-3",
    "cursor",
    "code/snippet",
    "jq one-liner to extract failing checks",
    [
        U("jq: from `gh pr checks --json name,state,link` get only failed ones as 'name: link' lines"),
        SH(
            'gh pr checks 512 --json name,state,link | jq -r \'.[] | select(.state=="FAILURE") | "\\(.name): \\(.link)"\'',
            "lint: https://github.com/acme/web/actions/runs/9112/job/1\ne2e (chromium): https://github.com/acme/web/actions/runs/9112/job/7",
        ),
        U("perfect. make it a git alias"),
        A(
            'Shell aliases need `!`:\n\n```\ngit config --global alias.failed \'!f() { gh pr checks "${1:-}" --json name,state,link | jq -r ".[] | select(.state==\\"FAILURE\\") | \\"\\\\(.name): \\\\(.link)\\""; }; f\'\n```\nQuoting gets ugly; a small script on PATH named `git-failed` is cleaner — git runs `git failed` automatically.'
        ),
        U("script then"),
        WR(
            "~/bin/git-failed",
            '#!/bin/sh\n# usage: git failed [PR]  (defaults to the current branch\'s PR)\nexec gh pr checks "$@" --json name,state,link \\\n  | jq -r \'.[] | select(.state=="FAILURE") | "\\(.name): \\(.link)"\'\n',
        ),
        SH(
            "chmod +x ~/bin/git-failed && git failed 512",
            "lint: https://github.com/acme/web/actions/runs/9112/job/1\ne2e (chromium): https://github.com/acme/web/actions/runs/9112/job/7",
        ),
        A("`git failed [PR]` works."),
    ],
)

S(
    "h5-code-snippet-4",
    "copilot",
    "code/snippet",
    "Bash script to clean old docker images",
    [
        U(
            "need small script for our build box: delete docker images older than 14 days except ones tagged 'keep' or currently used by a container. cron nightly"
        ),
        WR(
            "/usr/local/bin/docker-prune-old",
            '#!/usr/bin/env bash\nset -euo pipefail\n# nightly: remove images older than 14d, except tagged *keep* or used by any container\nused=$(docker ps -a --format \'{{.Image}}\' | sort -u)\ncutoff=$(date -d \'14 days ago\' +%s)\ndocker images --format \'{{.ID}} {{.Repository}}:{{.Tag}} {{.CreatedAt}}\' | while read -r id ref d t z _; do\n  created=$(date -d "$d $t $z" +%s)\n  [[ $created -lt $cutoff ]] || continue\n  [[ $ref == *keep* ]] && continue\n  grep -qxF "$ref" <<<"$used" && continue\n  docker rmi "$id" >/dev/null 2>&1 && echo "removed $ref" || echo "skip $ref (in use or shared)"\ndone\n',
        ),
        SH(
            "bash -n /usr/local/bin/docker-prune-old && DRY=1 /usr/local/bin/docker-prune-old 2>&1 | head -4",
            "removed ci-cache:20240401\nremoved <none>:<none>\nskip node:20 (in use or shared)\nremoved api:pr-4412",
        ),
        U("oops it actually removed, I wanted dry run"),
        A(
            "Sorry — the script doesn't read DRY; only old images not used by containers were removed (all rebuildable CI artefacts). Adding a real dry-run flag:"
        ),
        ED(
            "/usr/local/bin/docker-prune-old",
            '  docker rmi "$id"',
            '  if [[ ${DRY:-0} == 1 ]]; then echo "would remove $ref"; continue; fi\n  docker rmi "$id"',
        ),
        SH("DRY=1 /usr/local/bin/docker-prune-old | head -2", "would remove api:pr-4390\nwould remove api:pr-4391"),
        U("ok. cron line?"),
        A(
            "`15 3 * * * root /usr/local/bin/docker-prune-old >> /var/log/docker-prune.log 2>&1` in /etc/cron.d/docker-prune."
        ),
    ],
)

S(
    "h5-code-snippet-5",
    "aider",
    "code/snippet",
    "Kotlin extension to format durations",
    [
        U("small kotlin function: Duration -> '1h 05m', '3m 09s', '45s'. no libs"),
        A(
            '```kotlin\nimport kotlin.time.Duration\n\nfun Duration.short(): String = toComponents { h, m, s, _ ->\n    when {\n        h > 0 -> "%dh %02dm".format(h, m)\n        m > 0 -> "%dm %02ds".format(m, s)\n        else -> "${s}s"\n    }\n}\n```'
        ),
        U("days? 26h should be 1d 02h"),
        A(
            '```kotlin\nfun Duration.short(): String = toComponents { d, h, m, s, _ ->\n    when {\n        d > 0 -> "%dd %02dh".format(d, h)\n        h > 0 -> "%dh %02dm".format(h, m)\n        m > 0 -> "%dm %02ds".format(m, s)\n        else -> "${s}s"\n    }\n}\n```\n`toComponents` has a days overload.'
        ),
        U("test it quick"),
        SH("kotlinc -script /tmp/dur.kts", "45s\n3m 09s\n1h 05m\n1d 02h"),
        A("Output for 45s, 189s, 3900s, 26h as expected. Note `%02d` uses the default locale; fine for digits."),
        U("negative durations?"),
        A('Prefix: `if (isNegative()) "-" + (-this).short() else ...` — add as first line.'),
    ],
)


# ---------------------------------------------------------------- architecture/design
S(
    "h5-architecture-design-1",
    "claude-code",
    "architecture/design",
    "Design event ingestion pipeline components",
    [
        U(
            "we need to ingest ~50k events/s from mobile SDKs, store raw for 90 days, and feed realtime dashboards + nightly batch. sketch the components and data flow. we're on GCP. no code"
        ),
        A(
            "Components and flow:\n\n1. **Edge collector** (Cloud Run, stateless): validates schema, adds server timestamp, batches → Pub/Sub topic `events.raw`. Returns 202 fast; no DB calls.\n2. **Pub/Sub `events.raw`**: the buffer and fan-out point; 7-day retention for replay.\n3. **Raw sink**: Pub/Sub → GCS subscription writing Avro hourly files, lifecycle rule deletes after 90 days.\n4. **Stream processor** (Dataflow): sessionization, dedup by event_id (10-min window), writes aggregates to BigQuery streaming table `rt_metrics`.\n5. **Batch**: nightly BigQuery load from GCS partitions → `events` table partitioned by day, clustered by app_id.\n6. **Dashboards** read `rt_metrics` (last 48h) and `events` for history.\n\nBoundaries: SDK ↔ collector is the only public contract (versioned schema); everything after Pub/Sub can be rebuilt from GCS."
        ),
        U("why not write straight to bigquery from collector"),
        A(
            "Streaming inserts from the request path couple SDK latency to BigQuery quotas and errors; at 50k/s a BQ hiccup would mean dropped events or slow clients. Pub/Sub absorbs bursts and lets you add consumers later without touching the collector."
        ),
        U("where does schema validation live? both collector and dataflow?"),
        A(
            "Structural validation (required fields, types, size ≤ 32KB) in the collector so bad clients get a 400. Semantic checks (unknown event names, app version rules) in Dataflow, routing failures to a `events.deadletter` topic so nothing is silently dropped. The schema registry (a versioned JSON Schema in a repo) is shared by both."
        ),
        U("write it as a doc with a mermaid diagram"),
        WR(
            "docs/architecture/event-pipeline.md",
            "# Event ingestion pipeline\n\n```mermaid\nflowchart LR\n  SDK-->C[Collector (Cloud Run)]\n  C-->P[(Pub/Sub events.raw)]\n  P-->G[GCS raw Avro, 90d]\n  P-->D[Dataflow stream]\n  D-->RT[(BQ rt_metrics)]\n  D-->DL[(events.deadletter)]\n  G-->B[Nightly BQ load]\n  B-->E[(BQ events)]\n```\n\n## Boundaries\n...",
        ),
        SH(
            "npx -y @mermaid-js/mermaid-cli -i docs/architecture/event-pipeline.md -o /tmp/out.md",
            "Found 1 mermaid charts in Markdown input\n ✅ /tmp/out-1.svg",
        ),
    ],
)

S(
    "h5-architecture-design-2",
    "cursor",
    "architecture/design",
    "Module boundaries for modular monolith",
    [
        U(
            "our django monolith is spaghetti: billing imports from courses, courses imports billing, users imports everything. we want a modular monolith, not microservices. help me define modules and allowed dependencies"
        ),
        SH(
            "pip install -q pydeps >/dev/null; pydeps lms --show-deps --no-output --max-bacon 2 2>/dev/null | python scripts/summarize_deps.py",
            "billing -> courses (41 imports), users (12)\ncourses -> billing (17), users (30), notifications (8)\nnotifications -> users (5), courses (9), billing (4)\nusers -> billing (6), courses (3)\nreporting -> * (88)",
        ),
        A(
            "Proposed modules and a dependency direction (arrows = may import):\n\n```\nreporting ──> courses, billing, users   (read-only, top layer)\nbilling ──> catalog, identity\ncourses ──> catalog, identity\nnotifications ──> identity  (listens to domain events, imports nobody else)\ncatalog ──> identity\nidentity ──> (nothing)\n```\nKey moves: split `users` into `identity` (accounts, auth) and per-module profile bits; extract `catalog` (what is sold: course, price) so billing stops importing courses. Cross-module calls go through each module's `api.py`; everything else is private. Notifications become subscribers to events (`enrollment_created`, `invoice_paid`) instead of being called."
        ),
        U("how do we enforce it? people will import anyway"),
        A("`import-linter` with a layers contract plus `forbidden` contracts for internals, run in CI:"),
        WR(
            ".importlinter",
            "[importlinter]\nroot_package = lms\n\n[importlinter:contract:layers]\nname = Module layers\ntype = layers\nlayers =\n    lms.reporting\n    lms.billing | lms.courses\n    lms.notifications\n    lms.catalog\n    lms.identity\n\n[importlinter:contract:public-api]\nname = Only api.py is public\ntype = forbidden\nsource_modules = lms.billing\nforbidden_modules = lms.courses.models\n",
        ),
        SH(
            "lint-imports",
            "Module layers BROKEN\nOnly api.py is public BROKEN\n\nContracts: 0 kept, 2 broken.\n...\n- lms.billing.invoices -> lms.courses.models (l.4)\n(71 more)",
        ),
        A(
            "72 violations today — expected. Suggest adding the contracts with an `ignore_imports` baseline so CI blocks new violations while the team burns the list down."
        ),
    ],
)

S(
    "h5-architecture-design-3",
    "gemini-cli",
    "architecture/design",
    "Multi-tenant isolation design for SaaS",
    [
        U(
            "we onboard first enterprise customers soon. how should tenant isolation work in our system? today: one postgres, tables have org_id, node api. I want a picture of where tenant context flows, not a debate of db-per-tenant"
        ),
        GR(
            "org_id",
            "src/db/projects.ts:12:  return db.query('SELECT * FROM projects WHERE org_id = $1', [orgId])\nsrc/db/tasks.ts:30:  return db.query('SELECT * FROM tasks WHERE id = $1', [id])\nsrc/jobs/export.ts:8:  const rows = await db.query('SELECT * FROM tasks')",
        ),
        A(
            "Tasks lookup by id and the export job have no org filter — exactly the class of leak to design out. Flow:\n\n1. **Edge**: auth middleware resolves `orgId` from the token and puts it in an AsyncLocalStorage `tenantContext`. No handler reads orgId from the request body.\n2. **Data access**: every DB session runs `SET LOCAL app.org_id = $1` in a transaction; Postgres **row-level security** policies `USING (org_id = current_setting('app.org_id')::uuid)` on every tenant table. A forgotten WHERE returns nothing instead of other tenants' rows.\n3. **Background jobs**: job payload carries orgId; the worker wrapper opens the tenant context before running. Jobs without a tenant (billing rollups) use a separate DB role with BYPASSRLS, reviewed explicitly.\n4. **Caches/storage**: keys and object paths prefixed with orgId.\n5. **Logs/traces**: orgId attribute on every span."
        ),
        U("rls with connection pool, does set local work?"),
        A(
            "Yes with `SET LOCAL` inside a transaction — it resets at commit, so pooled connections don't leak tenant state. Plain `SET` would persist on the pooled connection. With PgBouncer in transaction mode the same holds."
        ),
        U("what about admin staff who need to see all tenants"),
        A(
            "A separate 'support' path: distinct DB role with a policy that allows any org but only via a `support_session` table (who, which org, why, expiry), audited. Staff pick an org to impersonate; the context is set to that org — they never query across tenants in one request."
        ),
        U("ok write it down for the team"),
        WR(
            "docs/architecture/tenancy.md",
            "# Tenant isolation\n\nrequest → auth → tenantContext(orgId) → tx: SET LOCAL app.org_id → RLS on all tenant tables\njobs carry orgId; BYPASSRLS role only for listed system jobs\nsupport access via audited support_session\n",
        ),
    ],
)

S(
    "h5-architecture-design-4",
    "copilot",
    "architecture/design",
    "Offline sync architecture for mobile app",
    [
        U(
            "flutter app needs offline-first sync with our rails api. how should the pieces fit together? local db, sync engine, conflict handling. high level"
        ),
        A(
            "Pieces:\n\n- **Local store** (Drift/SQLite) is the source of truth for the UI; screens only read/write local tables and watch queries.\n- **Outbox table**: every local write also appends an operation (entity, id, op, payload, client_ts, op_id UUID).\n- **Sync engine** (background isolate): push outbox in order → `POST /sync/push` (idempotent by op_id); then pull `GET /sync/pull?since=cursor` returning changed rows + new cursor.\n- **Server**: a `changes` log (monotonic id per row change) powers the cursor; push applies ops with per-field last-writer-wins using server receive time, except fields marked 'merge' (e.g. checklist items as sets).\n- **Conflict surface**: server returns rejected ops (e.g. record deleted) and the app shows them in a 'needs attention' list.\n\nBoundary: the app never calls REST endpoints for data directly — only the sync API."
        ),
        U("why server time for LWW, not client time?"),
        A(
            "Device clocks drift and users set them wrong; a phone an hour ahead would always win. Server receive order is consistent. The cost: an edit made offline earlier but synced later wins over a newer online edit — usually acceptable, and the 'merge' fields cover the sensitive cases."
        ),
        U("big attachments photos?"),
        A(
            "Out of the sync log: upload via presigned URLs in a separate queue; the record stores the blob key and an `uploaded` flag. Sync of metadata never waits for photos."
        ),
        SH(
            "ls api/app/controllers/",
            "application_controller.rb\ninspections_controller.rb\nsites_controller.rb\nusers_controller.rb",
        ),
        A(
            "A new `SyncController` (push/pull) and a `changes` table fed by an `after_commit` concern on synced models would be the server side; the existing REST controllers stay for the web app."
        ),
        U("ok good overview, thx"),
    ],
)

S(
    "h5-architecture-design-5",
    "codex",
    "architecture/design",
    "Design of plugin system boundaries",
    [
        U(
            "our python CLI tool wants plugins (3rd party). how to structure: discovery, api surface, isolation. i dont want plugins importing our internals"
        ),
        SH(
            "tree -L 2 src/tool | head -20",
            "src/tool\n├── __init__.py\n├── cli.py\n├── core\n│   ├── engine.py\n│   ├── models.py\n│   └── storage.py\n├── formats\n│   ├── csv.py\n│   └── json.py\n└── util.py",
        ),
        A(
            'Structure:\n\n- **Discovery**: entry points group `tool.plugins` (`importlib.metadata.entry_points(group=...)`). No directory scanning.\n- **API surface**: a new package `tool.plugin_api` with the only importable things: `Plugin` protocol, `Format`/`Command` base classes, `Context` (read-only view of config + logger), and dataclasses for records. Versioned: `API_VERSION = (1, 0)`; plugins declare `requires_api = ">=1,<2"`.\n- **Registration**: `def register(registry: Registry) -> None` called once per plugin; the registry validates names and conflicts.\n- **Boundary enforcement**: everything else moves under `tool._internal`; import-linter forbids `tool.plugin_api` from exposing internals; docs say underscore = private.\n- **Isolation**: in-process (no sandbox) — plugin exceptions are caught per call and reported with the plugin name; a `--no-plugins` flag for debugging.\n\nThe built-in csv/json formats should become plugins themselves to dogfood the API.'
        ),
        U("should plugins be able to add cli subcommands?"),
        A(
            "Yes through `registry.add_command(name, fn, help)` with namespacing rules: names must not shadow built-ins; conflicts between plugins → both disabled with a warning. The CLI layer builds subcommands from the registry, so plugins never touch click/argparse."
        ),
        U("good. do a doc"),
        WR(
            "docs/design/plugins.md",
            "# Plugin architecture\n\n- discovery via entry points `tool.plugins`\n- public API: tool.plugin_api (versioned)\n- internals: tool._internal (private)\n- registry: formats, commands; conflicts disable both\n- errors isolated per plugin call\n",
        ),
        A("Written. Next step would be moving core/ and util.py under _internal."),
    ],
)

# ---------------------------------------------------------------- architecture/decision
S(
    "h5-architecture-decision-1",
    "claude-code",
    "architecture/decision",
    "ADR: move from REST polling to websockets for live updates",
    [
        U(
            "we decided in the meeting: live board updates via websockets (socket.io) instead of 5s polling. write ADR in docs/adr using our template, context is polling costs 40% of api traffic"
        ),
        SH(
            "ls docs/adr && sed -n 1,30p docs/adr/template.md",
            "0001-use-postgres.md\n0002-monorepo.md\n0003-feature-flags.md\ntemplate.md\n# NNNN Title\n\nDate:\nStatus: proposed | accepted | superseded by NNNN\n\n## Context\n\n## Decision\n\n## Consequences\n\n## Alternatives considered",
        ),
        WR(
            "docs/adr/0004-websockets-for-live-board.md",
            "# 0004 Websockets for live board updates\n\nDate: 2024-06-12\nStatus: accepted\n\n## Context\nBoards poll `GET /boards/:id/changes` every 5s. Polling is 40% of API requests and most return nothing. Users still see edits up to 5s late.\n\n## Decision\nBoard clients connect via socket.io to a `realtime` service; the API publishes board change events to Redis pub/sub, the realtime service fans them out to rooms per board. Clients fall back to 30s polling when the socket is down.\n\n## Consequences\n- Sticky sessions needed on the load balancer for socket.io.\n- New service to deploy and monitor; connection counts become a capacity metric.\n- Change events become a contract between API and realtime.\n\n## Alternatives considered\n- Server-Sent Events: simpler, one-way; rejected because presence (who's viewing) needs client→server messages.\n- Longer polling interval: cheaper but makes latency worse.\n",
        ),
        U("add that we keep polling endpoint for API customers"),
        ED(
            "docs/adr/0004-websockets-for-live-board.md",
            "- Change events become a contract between API and realtime.",
            "- Change events become a contract between API and realtime.\n- `GET /boards/:id/changes` stays for public API customers and as the fallback; it is not deprecated.",
        ),
        U("status accepted, link it from the index"),
        ED(
            "docs/adr/README.md",
            "- [0003 Feature flags](0003-feature-flags.md)",
            "- [0003 Feature flags](0003-feature-flags.md)\n- [0004 Websockets for live board updates](0004-websockets-for-live-board.md)",
        ),
        A("ADR 0004 written (accepted) and linked from the index."),
    ],
)

S(
    "h5-architecture-decision-2",
    "aider",
    "architecture/decision",
    "Decide and record splitting search into its own service",
    [
        U(
            "we keep going back and forth on pulling search out of the monolith. facts: search is 60% of CPU, deploys of monolith are 25min, search team is 3 people who want own release cycle. elastic already separate. I think yes we do it. help me record it properly so we stop rediscussing"
        ),
        A("Before writing: is the decision final (accepted) or a proposal for the architecture review on Thursday?"),
        U("final, CTO agreed this morning"),
        ED(
            "docs/decisions/ADR-017-search-service.md",
            "",
            "# ADR-017: Extract search into a separate service\n\nStatus: Accepted (2024-09-03, approved by CTO)\n\n## Context\n- Search handlers use ~60% of monolith CPU; scaling the monolith for search scales everything.\n- Monolith deploys take ~25 min; the search team (3 people) ships relevance changes weekly and waits on the shared pipeline.\n- Elasticsearch is already operated separately.\n\n## Decision\nCreate `search-api` owning query parsing, ranking and the Elasticsearch client. The monolith calls it over HTTP for `/search/*`; indexing stays event-driven from the monolith's `product_changed` events.\n\n## Consequences\n+ Independent scaling and deploys for search.\n- A network hop on search requests (budget: p95 +15ms).\n- Product permission checks must be duplicated or passed as filters; we pass an allowed-category list per request.\n- On-call rotation for search team.\n\n## Not decided here\nLanguage of the new service; timeline.\n",
        ),
        U("add the option we rejected: scaling monolith with dedicated search pods"),
        ED(
            "docs/decisions/ADR-017-search-service.md",
            "## Not decided here",
            "## Rejected alternative\nRoute `/search/*` to a dedicated pool of monolith pods. Solves CPU isolation cheaply, but not the release-cycle problem, which was the team's main pain.\n\n## Not decided here",
        ),
        SH(
            "git add docs/decisions/ADR-017-search-service.md && git commit -m 'ADR-017: extract search service (accepted)'",
            "[main 5b7e21d] ADR-017: extract search service (accepted)\n 1 file changed, 31 insertions(+)",
        ),
        A("Recorded as ADR-017 (accepted), including the rejected dedicated-pods option."),
    ],
)

S(
    "h5-architecture-decision-3",
    "cline",
    "architecture/decision",
    "Record decision to use event sourcing for ledger only",
    [
        U(
            "context: fintech, we had a long debate. conclusion = event sourcing ONLY for the ledger bounded context, rest stays CRUD. write the decision record. also the reasons people were worried about, with mitigations"
        ),
        RD(
            "docs/adr/0011-cqrs-spike.md",
            "# 0011 CQRS spike results\nStatus: informational\n- Projection rebuild of 12M events: 14 min on a laptop\n- EventStoreDB vs Postgres append-only table: Postgres good enough at our volume (200 tx/s peak)\n- Team unfamiliar with snapshotting",
        ),
        WR(
            "docs/adr/0012-event-sourcing-ledger.md",
            "# 0012 Event sourcing for the ledger context only\n\nStatus: Accepted\n\n## Decision\nThe ledger (accounts, postings, balances) is event-sourced: an append-only `ledger_events` table in Postgres is the source of truth; balances are projections. All other contexts (customers, KYC, notifications) remain CRUD.\n\n## Why\n- Auditors require full history of every balance change; events give it by construction.\n- Corrections are compensating events, never updates — matches accounting practice.\n- Spike (ADR-0011): Postgres handles our 200 tx/s peak; no new database.\n\n## Concerns raised and mitigations\n| concern | mitigation |\n|---|---|\n| projection rebuild time (14 min/12M events) | snapshots per account every 1k events; rebuilds run offline |\n| team unfamiliar | pairing + a ledger playbook; only 2 services touch events |\n| event schema evolution | events versioned; upcasters in one module |\n| leaking ES into other contexts | other contexts consume published integration events, never ledger_events |\n",
        ),
        U("mention we use postgres not eventstoredb explicitly in decision"),
        A(
            "It's in the Decision section (\"append-only `ledger_events` table in Postgres\") and the Why section cites ADR-0011; I'll add an explicit line."
        ),
        ED(
            "docs/adr/0012-event-sourcing-ledger.md",
            "- Spike (ADR-0011): Postgres handles our 200 tx/s peak; no new database.",
            "- Spike (ADR-0011): Postgres handles our 200 tx/s peak; no new database. EventStoreDB was not chosen for that reason.",
        ),
        U("good"),
    ],
)

S(
    "h5-architecture-decision-4",
    "copilot",
    "architecture/decision",
    "Document decision to adopt GraphQL federation gateway",
    [
        U(
            "mobile team and web team both agreed to go with apollo federation gateway in front of our 4 services instead of BFFs per client. pls write ADR, the meeting notes are in notes/2024-10-02.md"
        ),
        RD(
            "notes/2024-10-02.md",
            "Attendees: Priya, Tom, Kenji, Sara\n- BFF per client: duplicated logic (web BFF and mobile BFF both join users+orders)\n- Federation: each service owns its subgraph; gateway composes\n- Concern Tom: N+1 across subgraphs -> use @key + dataloaders\n- Concern Sara: who owns gateway? -> platform team\n- Decision: federation, start with users + orders subgraphs, Q4\n- Rejected: single monolithic GraphQL server (ownership bottleneck)",
        ),
        WR(
            "docs/adr/0009-graphql-federation.md",
            "# 0009 Apollo Federation gateway for client APIs\n\nStatus: Accepted (2024-10-02; Priya, Tom, Kenji, Sara)\n\n## Context\nWeb and mobile BFFs duplicate joins across users and orders services.\n\n## Decision\nExpose client APIs through an Apollo Federation gateway owned by the platform team. Each service owns its subgraph. Start with users and orders in Q4.\n\n## Consequences\n- Services must implement entity resolvers (`@key`) with dataloaders to avoid N+1 across subgraphs.\n- Schema composition checks in CI for every subgraph change.\n- Existing BFFs are retired after both clients migrate.\n\n## Alternatives\n- BFF per client (status quo): duplication.\n- One GraphQL server for all services: ownership bottleneck.\n",
        ),
        U("licensing of apollo router? we need to note it"),
        A(
            "Apollo Router is under the Elastic License v2: free to self-host, but you can't offer it as a managed service — fine for internal use. Some enterprise features (e.g. advanced auth directives at times) require GraphOS plans. Want a Consequences bullet saying we self-host the router and use only free features?"
        ),
        U("yes"),
        ED(
            "docs/adr/0009-graphql-federation.md",
            "- Existing BFFs are retired after both clients migrate.",
            "- Existing BFFs are retired after both clients migrate.\n- We self-host Apollo Router (Elastic License v2) using only features available without a GraphOS plan; revisit if we need enterprise features.",
        ),
    ],
)

S(
    "h5-architecture-decision-5",
    "gemini-cli",
    "architecture/decision",
    "Decide on monorepo service communication via queue",
    [
        U(
            "hi, i must write decision doc: services will talk async via rabbitmq for order lifecycle instead of direct http calls chain (order->payment->inventory->shipping). my english not so good, please help to make it clear and professional. key points: timeouts cascade today, we had outage 14 may, retries make double charge"
        ),
        A(
            "Here is a draft; tell me what is wrong:\n\n**Decision:** Order lifecycle steps communicate through RabbitMQ events instead of a synchronous HTTP chain.\n\n**Context:** Today the order service calls payment, which calls inventory, which calls shipping, all synchronously. A slow shipping service makes every upstream call time out (outage on 14 May, 47 minutes). Client retries after timeouts caused duplicate charges.\n\n**Decision details:** each service publishes a domain event (`OrderPlaced`, `PaymentCaptured`, `StockReserved`) and consumes the ones it needs. Consumers are idempotent (dedup by event id). Failures go to a dead-letter queue with alerting.\n\n**Consequences:** the order status becomes eventually consistent (the UI shows 'processing'); we need tracing across messages (correlation id header); RabbitMQ becomes critical infrastructure (quorum queues, 3 nodes)."
        ),
        U("correct! but also we keep http for reading, like get order status. add please"),
        A(
            'Added under details: "Queries stay synchronous HTTP (e.g. GET /orders/{id}/status); only state-changing steps use events."'
        ),
        U("and the status = Accepted, date today, decided by architecture board"),
        SH("date +%F", "2024-05-28"),
        WR(
            "docs/decisions/2024-05-28-async-order-lifecycle.md",
            "# Async order lifecycle via RabbitMQ\n\nStatus: Accepted — 2024-05-28, architecture board\n\n## Context\n...\n## Decision\n...\nQueries stay synchronous HTTP.\n## Consequences\n...\n",
        ),
        A("Saved with status and date. The English is clear now; I kept your structure."),
        U("thank you so much"),
    ],
)

# ---------------------------------------------------------------- architecture/tradeoff
S(
    "h5-architecture-tradeoff-1",
    "claude-code",
    "architecture/tradeoff",
    "Weigh shared database vs database per service",
    [
        U(
            "we're splitting out 'notifications' from the monolith. shared postgres or its own db? list pros/cons for OUR case, dont decide for me. it reads users and preferences tables today"
        ),
        GR(
            "FROM users|JOIN users|FROM notification_prefs",
            "app/notifications/sender.py:22: SELECT email, locale, tz FROM users WHERE id = %s\napp/notifications/digest.py:40: JOIN users u ON u.id = n.user_id\napp/notifications/prefs.py:11: SELECT * FROM notification_prefs WHERE user_id = %s",
        ),
        A(
            "**Shared database (notifications reads users directly)**\n+ No data sync; reads like `digest.py`'s join keep working.\n+ Fastest extraction (weeks, not months).\n− Schema coupling: any users column rename can break notifications; migrations need both teams.\n− One DB's load and outages hit both.\n\n**Own database**\n+ Independent schema and scaling; notifications' write-heavy log (~2M rows/day) stops bloating the main DB.\n− Needs a copy of user email/locale/tz: either call the users API per send (latency, availability coupling) or consume `user_updated` events into a local table (eventual consistency: a changed email may lag seconds).\n− The digest join must be rewritten.\n\n**Middle ground**: own schema in the same Postgres instance, read-only view `users_public(id, email, locale, tz)` as the contract. Gives decoupled migrations for most tables, keeps ops simple, and can become a separate DB later."
        ),
        U("how much data is it really, notifications tables"),
        SH(
            "psql $RO_DB -c \"SELECT relname, pg_size_pretty(pg_total_relation_size(relid)) FROM pg_catalog.pg_statio_user_tables WHERE relname LIKE 'notif%' ORDER BY pg_total_relation_size(relid) DESC;\"",
            "       relname        | pg_size_pretty \n----------------------+----------------\n notification_log     | 184 GB\n notification_prefs   | 412 MB\n notification_queue   | 3120 MB",
        ),
        A(
            "notification_log is 184 GB — about 40% of the main DB size. That strengthens the 'own database' side for the log specifically; prefs are small either way."
        ),
        U("ok thanks. I'll bring this to the arch meeting"),
    ],
)

S(
    "h5-architecture-tradeoff-2",
    "cursor",
    "architecture/tradeoff",
    "Serverless vs containers for image processing",
    [
        U(
            "image thumbnailing service: lambda or ECS fargate? traffic is spiky (0 at night, 2000 uploads/min during campaigns). images up to 50MB. weigh it"
        ),
        A(
            "**Lambda**\n+ Scales from zero instantly; pay nothing at night.\n+ S3 event trigger = no queue code.\n− 50MB images with libvips need ~1.5–3GB RAM and 2–6s; fine within limits (10GB, 15min) but cost per invocation grows with memory.\n− Cold starts with native libs (~1s) — irrelevant for async thumbnails.\n− Concurrency quota: 2000/min at ~4s each ≈ 135 concurrent; default account limit 1000 is fine.\n\n**Fargate + SQS**\n+ Cheaper at sustained high load, control over CPU/memory shape, long-running warm processes.\n− Autoscaling on queue depth lags 1–3 min; min 1 task at night costs money or you accept a cold scale-from-zero.\n− More infra: service, scaling policy, queue, DLQ."
        ),
        U("rough cost for campaign month? 3M images"),
        A(
            "Lambda: 3M × 4s × 2GB = 24M GB-s ≈ $400 + requests $0.60. Fargate: equivalent ~8 vCPU/16GB for ~200 campaign hours + 1 small task otherwise ≈ $250–300. Difference is small relative to engineering time."
        ),
        U("and if images go to 200MB next year"),
        A(
            "Then memory and /tmp (up to 10GB ephemeral, configurable) still fit Lambda, but processing time may approach 30–60s and the cost gap grows toward Fargate. Streaming decode with libvips keeps memory moderate. That's the main risk on the Lambda side."
        ),
        SH("aws lambda get-account-settings --query 'AccountLimit.ConcurrentExecutions'", "1000"),
        A("Account concurrency limit confirmed at 1000, enough headroom for 2000 uploads/min."),
    ],
)

S(
    "h5-architecture-tradeoff-3",
    "codex",
    "architecture/tradeoff",
    "Sync vs async API for report generation",
    [
        U(
            "reports endpoint takes 2-90s depending on size. we can't decide: keep sync with long timeout, or async job + polling, or async + webhook. whats the tradeoff in practice"
        ),
        SH(
            "grep -h 'GET /reports' logs/access-*.log | awk '{print $NF}' | sort -n | awk '{a[NR]=$1} END{print \"p50\",a[int(NR*.5)],\"p95\",a[int(NR*.95)],\"p99\",a[int(NR*.99)]}'",
            "p50 2.1 p95 38.4 p99 87.9",
        ),
        A(
            "With p50 2s but p95 38s and p99 88s:\n\n- **Sync, long timeout**: simplest for clients; but 38–90s requests hold a worker and a connection; load balancers/proxies (ALB 60s idle default, Cloudflare 100s) will cut the tail; a client retry reruns the whole report.\n- **Async + polling** (`POST /reports` → 202 + `Location: /reports/jobs/{id}`): robust, results cacheable, retry-safe; clients must write a loop; extra requests.\n- **Async + webhook**: no polling, but customers need a public endpoint and signature verification; harder to debug; still need polling as fallback.\n- **Hybrid**: wait up to ~5s server-side, return 200 with the result if done, else 202 with job URL. Keeps the p50 experience sync and fixes the tail."
        ),
        U("hybrid seems complex for clients? two code paths"),
        A(
            "True — every client must handle both 200 and 202 anyway, so in effect it's async with a fast path. Worth it if most clients are interactive UIs; for API/batch consumers plain async is more predictable."
        ),
        U("who are our clients"),
        SH(
            "grep -h 'GET /reports' logs/access-*.log | awk '{print $7}' | sort | uniq -c | sort -rn | head -3",
            " 81233 web-app/4.2\n  9120 python-requests/2.31\n  1322 Zapier",
        ),
        A(
            "88% web app (interactive), 10% scripts, 1% Zapier. That favours hybrid for the web app, with the scripts able to just follow the 202 path."
        ),
    ],
)

S(
    "h5-architecture-tradeoff-4",
    "cline",
    "architecture/tradeoff",
    "Cache layer placement tradeoffs",
    [
        U(
            "product catalog api is slow under load. where to cache: CDN, redis in front of db, or in-process LRU? we have 12 api pods. prices change few times a day, stock changes every second"
        ),
        A(
            "By layer:\n\n- **CDN (edge)**: biggest win for anonymous product pages; but stock every second means either very short TTLs (1–5s) or splitting stock out of the cached response. Personalised prices (B2B) can't be edge-cached without key explosion.\n- **Redis shared**: one cache for 12 pods, explicit invalidation on price change is easy; adds a network hop (~0.5ms) and a dependency.\n- **In-process LRU**: fastest, no dependency; 12 separate caches → 12× DB misses after deploys, and invalidation needs pub/sub or short TTLs; memory per pod.\n\nFor your data: cache the *catalog* (names, images, prices) aggressively, and never cache stock beyond seconds — serve stock from a separate lightweight endpoint."
        ),
        U("how much hit rate could we expect? we have 200k products"),
        SH(
            "psql $RO_DB -c \"SELECT count(*) FILTER (WHERE rank <= 2000) * 100.0 / count(*) FROM (SELECT product_id, rank() OVER (ORDER BY count(*) DESC) rank FROM product_views WHERE day > now() - interval '7 days' GROUP BY product_id) x;\"",
            " ?column? \n----------\n     0.99\n(1 row)",
        ),
        A("That measured share of products, not views — wrong query. Redoing by views."),
        SH(
            "psql $RO_DB -f /tmp/top_share.sql",
            " top_n | share_of_views\n-------+---------------\n  2000 |          71.4\n 20000 |          93.8",
        ),
        A(
            "Top 2,000 products get 71% of views; 20k get 94%. An in-process LRU of ~20k entries (~60MB) per pod would hit ~90%+; Redis would add the long tail and cheap invalidation. Both are reasonable; CDN only for anonymous traffic."
        ),
        U("ok, i'll think about it"),
    ],
)

S(
    "h5-architecture-tradeoff-5",
    "gemini-cli",
    "architecture/tradeoff",
    "Tradeoffs of gRPC vs REST between internal services",
    [
        U(
            "for new internal services (go + kotlin), grpc or keep REST/json? We have ~15 services, all REST now. pros and cons only, our platform lead decides next week"
        ),
        A(
            "**gRPC**\n+ Typed contracts from .proto; generated Go/Kotlin clients remove hand-written DTOs.\n+ Binary, HTTP/2 multiplexing: lower latency/CPU for chatty calls; streaming built in.\n+ Deadlines propagate natively.\n− Needs HTTP/2-aware load balancing (per-request, not per-connection) — your current NGINX ingress config balances per connection for gRPC unless configured.\n− Harder to debug with curl; need grpcurl, reflection.\n− Mixed fleet: the 15 REST services remain; two styles to support.\n\n**REST/JSON**\n+ Everyone knows it; tooling (curl, browser, proxies) just works.\n+ OpenAPI can give typed clients too.\n− JSON cost at high QPS; no streaming without websockets/SSE.\n− Contract drift unless OpenAPI is enforced in CI."
        ),
        U("do we have service mesh? that matters for LB no"),
        SH(
            "kubectl get pods -A -l app=istiod --no-headers 2>/dev/null | wc -l; kubectl get crd | grep -c linkerd",
            "0\n0",
        ),
        A(
            "No Istio or Linkerd in the cluster. Without a mesh, gRPC needs client-side balancing (headless services + `round_robin` policy in grpc-go / grpc-kotlin) or long-lived connections will pin to one pod. That's an extra operational cost worth listing for your lead."
        ),
        U("add to the list"),
        A(
            'Added under gRPC cons: "No service mesh today; needs headless Services + client-side round_robin, or adopting a mesh."'
        ),
        U("thanks"),
    ],
)


# ---------------------------------------------------------------- project/setup
S(
    "h5-project-setup-1",
    "claude-code",
    "project/setup",
    "Set up GitHub Actions CI for Go monorepo",
    [
        U(
            "no CI at all in this repo yet. set up github actions: go test with race, golangci-lint, on PR and main. 3 modules in the repo (api/, worker/, pkg/)"
        ),
        SH("find . -name go.mod -not -path './vendor/*'", "./api/go.mod\n./worker/go.mod\n./pkg/go.mod"),
        WR(
            ".github/workflows/ci.yml",
            "name: ci\non:\n  pull_request:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        module: [api, worker, pkg]\n    defaults:\n      run:\n        working-directory: ${{ matrix.module }}\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5\n        with:\n          go-version-file: ${{ matrix.module }}/go.mod\n          cache-dependency-path: ${{ matrix.module }}/go.sum\n      - run: go test -race ./...\n      - uses: golangci/golangci-lint-action@v6\n        with:\n          version: v1.59\n          working-directory: ${{ matrix.module }}\n",
        ),
        SH(
            "act pull_request -j test --matrix module:pkg 2>&1 | tail -4",
            "[ci/test-2] ✅  Success - Main go test -race ./...\n[ci/test-2] ❌  Failure - Main golangci/golangci-lint-action@v6\n| pkg/retry/retry.go:31:2: ineffectual assignment to err (ineffassign)\n[ci/test-2] 🏁  Job failed",
        ),
        A(
            "CI runs; lint found a real issue in pkg/retry (ineffectual assignment). Should I fix it or add a baseline so CI starts green?"
        ),
        U("fix it, its tiny"),
        ED("pkg/retry/retry.go", "\terr = nil\n\tfor", "\tfor"),
        SH(
            "act pull_request -j test 2>&1 | grep -E 'Job (succeeded|failed)'",
            "[ci/test-1] 🏁  Job succeeded\n[ci/test-2] 🏁  Job succeeded\n[ci/test-3] 🏁  Job succeeded",
        ),
        U("also want it required for merge"),
        SH(
            "gh api -X PUT repos/acme/platform/branches/main/protection -F required_status_checks[strict]=true -f 'required_status_checks[contexts][]=test (api)' -f 'required_status_checks[contexts][]=test (worker)' -f 'required_status_checks[contexts][]=test (pkg)' -F enforce_admins=false -F required_pull_request_reviews=null -F restrictions=null",
            '{"url": "https://api.github.com/repos/acme/platform/branches/main/protection", ...}',
        ),
        A(
            "CI workflow added (matrix over 3 modules, race tests + golangci-lint), lint fix applied, and the three checks are required on main."
        ),
    ],
)

S(
    "h5-project-setup-2",
    "cursor",
    "project/setup",
    "Bootstrap new TypeScript library repo",
    [
        U(
            "new repo for a small ts library (date utils). set up everything: tsconfig, build (esm+cjs), vitest, eslint, prettier, changesets. pnpm. I'm new to publishing libs so explain a bit"
        ),
        SH(
            "pnpm init && pnpm add -D typescript tsup vitest eslint @eslint/js typescript-eslint prettier @changesets/cli",
            "Wrote to /home/mia/dateutils/package.json\nPackages: +212\nDone in 14.2s",
        ),
        WR(
            "tsup.config.ts",
            "import { defineConfig } from 'tsup';\n\nexport default defineConfig({\n  entry: ['src/index.ts'],\n  format: ['esm', 'cjs'],\n  dts: true,\n  clean: true,\n  sourcemap: true,\n});\n",
        ),
        WR(
            "package.json",
            '{\n  "name": "@mia/dateutils",\n  "version": "0.0.0",\n  "type": "module",\n  "exports": {\n    ".": {\n      "import": "./dist/index.js",\n      "require": "./dist/index.cjs"\n    }\n  },\n  "files": ["dist"],\n  "scripts": {\n    "build": "tsup",\n    "test": "vitest run",\n    "lint": "eslint . && prettier --check .",\n    "release": "pnpm build && changeset publish"\n  }\n}\n',
        ),
        A(
            "`exports` tells Node which file to load for `import` vs `require`; tsup builds both plus `.d.ts` types. `files` keeps only dist in the published package. Changesets: each PR adds a small markdown file describing the change; `changeset version` bumps versions and writes the changelog."
        ),
        SH(
            "pnpm changeset init && pnpm build && pnpm test",
            ".changeset folder created\nCLI Building entry: src/index.ts\nESM dist/index.js 1.21 KB\nCJS dist/index.cjs 1.54 KB\nDTS dist/index.d.ts 612 B\n\n ✓ src/index.test.ts (2)\n Test Files  1 passed (1)",
        ),
        U("types for cjs users will work?"),
        A(
            "Partly: tsup emits `index.d.ts` for ESM and `index.d.cts` for CJS; add a `types` condition per branch in `exports` so TypeScript with `moduleResolution: node16` picks the right one. I'll add it and check with `@arethetypeswrong/cli`."
        ),
        SH(
            "npx @arethetypeswrong/cli --pack .",
            'No problems found 🌟\n\n┌───────────────────┬──────────────────┐\n│                   │ "@mia/dateutils" │\n├───────────────────┼──────────────────┤\n│ node10            │ 🟢               │\n│ node16 (from CJS) │ 🟢 (CJS)         │\n│ node16 (from ESM) │ 🟢 (ESM)         │\n│ bundler           │ 🟢               │\n└───────────────────┴──────────────────┘',
        ),
        A("All resolution modes green. Repo is set up: build, tests, lint/format, changesets."),
    ],
)

S(
    "h5-project-setup-3",
    "gemini-cli",
    "project/setup",
    "Dev environment with docker compose for Django app",
    [
        U(
            "new devs take 2 days to get our django app running locally. make a docker compose dev setup: postgres 15, redis, the web app with autoreload, celery worker. one command to start"
        ),
        RD(
            "requirements/dev.txt", "-r base.txt\ndjango-debug-toolbar==4.3.0\npytest-django==4.8.0\nfactory-boy==3.3.0"
        ),
        WR(
            "compose.yaml",
            'services:\n  db:\n    image: postgres:15\n    environment: { POSTGRES_PASSWORD: dev, POSTGRES_DB: app }\n    volumes: [pgdata:/var/lib/postgresql/data]\n    healthcheck: { test: ["CMD", "pg_isready", "-U", "postgres"], interval: 2s, retries: 20 }\n  redis:\n    image: redis:7\n  web:\n    build: { context: ., target: dev }\n    command: python manage.py runserver 0.0.0.0:8000\n    volumes: [.:/app]\n    ports: ["8000:8000"]\n    env_file: .env.dev\n    depends_on: { db: { condition: service_healthy }, redis: { condition: service_started } }\n  worker:\n    build: { context: ., target: dev }\n    command: watchmedo auto-restart -d app -p \'*.py\' -R -- celery -A app worker -l info\n    volumes: [.:/app]\n    env_file: .env.dev\n    depends_on: [db, redis]\nvolumes:\n  pgdata:\n',
        ),
        SH(
            "docker compose up -d --build && docker compose exec web python manage.py migrate",
            "[+] Running 5/5\n ✔ Container app-db-1      Healthy\n ✔ Container app-redis-1   Started\n ✔ Container app-web-1     Started\n ✔ Container app-worker-1  Started\nOperations to perform:\n  Apply all migrations: admin, auth, billing, contenttypes, sessions\nRunning migrations:\n  Applying billing.0001_initial... OK\n  ...",
        ),
        U("worker crashes"),
        SH(
            "docker compose logs worker | tail -3",
            "worker-1  | /bin/sh: 1: watchmedo: not found\nworker-1 exited with code 127",
        ),
        ED("requirements/dev.txt", "factory-boy==3.3.0", "factory-boy==3.3.0\nwatchdog[watchmedo]==4.0.1"),
        SH(
            "docker compose up -d --build worker && docker compose logs worker | tail -1",
            "worker-1  | [2024-07-01 09:12:03,551: INFO/MainProcess] celery@a1b2 ready.",
        ),
        U("make a `make dev` and seed data"),
        WR(
            "Makefile",
            "dev:\n\tdocker compose up -d --build\n\tdocker compose exec web python manage.py migrate\n\tdocker compose exec web python manage.py loaddata seed/dev.json\n",
        ),
        A(
            "`make dev` brings up db, redis, web (autoreload) and worker (restarts on .py changes), migrates and loads seed data. README section added."
        ),
    ],
)

S(
    "h5-project-setup-4",
    "copilot",
    "project/setup",
    "Set up pre-commit hooks for Python repo",
    [
        U(
            "pls set up pre-commit for this repo: ruff, ruff format, mypy, trailing whitespace, and check for big files. and in CI too"
        ),
        WR(
            ".pre-commit-config.yaml",
            "repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.6.0\n    hooks:\n      - id: trailing-whitespace\n      - id: end-of-file-fixer\n      - id: check-added-large-files\n        args: [--maxkb=500]\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.5.0\n    hooks:\n      - id: ruff\n        args: [--fix]\n      - id: ruff-format\n  - repo: https://github.com/pre-commit/mirrors-mypy\n    rev: v1.10.0\n    hooks:\n      - id: mypy\n        additional_dependencies: [types-requests, pydantic]\n",
        ),
        SH(
            "pre-commit install && pre-commit run --all-files",
            "trim trailing whitespace.................................................Failed\n- hook id: trailing-whitespace\n- files were modified by this hook\nfix end of files.........................................................Passed\ncheck for added large files..............................................Passed\nruff.....................................................................Passed\nruff-format..............................................................Failed\n- files were modified by this hook\n\n14 files reformatted\nmypy.....................................................................Passed",
        ),
        A(
            "First run reformatted 14 files and fixed whitespace — that's a one-time change. I'd commit it separately so the diff is easy to review."
        ),
        U("yes do it"),
        SH(
            "git add -A && git commit -qm 'Apply pre-commit formatting (no code changes)' && git log --oneline -1",
            "e41a0c2 Apply pre-commit formatting (no code changes)",
        ),
        WR(
            ".github/workflows/pre-commit.yml",
            "name: pre-commit\non: [pull_request]\njobs:\n  pre-commit:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-python@v5\n        with: { python-version: '3.12' }\n      - uses: pre-commit/action@v3.0.1\n",
        ),
        U("add that commit to git-blame-ignore-revs"),
        WR(".git-blame-ignore-revs", "# pre-commit formatting\ne41a0c2\n"),
    ],
)

S(
    "h5-project-setup-5",
    "codex",
    "project/setup",
    "Scaffold new Spring Boot service skeleton",
    [
        U(
            "new microservice 'invoicing'. scaffold spring boot 3.3, java 21, gradle kotlin dsl, web + actuator + flyway + postgres + testcontainers. dockerfile too. same layout as our other services (see ../payments)"
        ),
        SH(
            "ls ../payments && cat ../payments/settings.gradle.kts",
            'Dockerfile\nbuild.gradle.kts\ngradle\ngradlew\nsettings.gradle.kts\nsrc\nrootProject.name = "payments"',
        ),
        SH(
            "curl -s https://start.spring.io/starter.zip -d type=gradle-project-kotlin -d language=java -d javaVersion=21 -d bootVersion=3.3.1 -d groupId=com.acme -d artifactId=invoicing -d dependencies=web,actuator,flyway,postgresql,testcontainers -o invoicing.zip && unzip -q invoicing.zip -d invoicing && ls invoicing",
            "HELP.md\nbuild.gradle.kts\ngradle\ngradlew\ngradlew.bat\nsettings.gradle.kts\nsrc",
        ),
        SH(
            "cp ../payments/Dockerfile invoicing/ && sed -i 's/payments/invoicing/g' invoicing/Dockerfile && cat invoicing/Dockerfile",
            'FROM eclipse-temurin:21-jre\nWORKDIR /app\nCOPY build/libs/invoicing-*.jar app.jar\nUSER 10001\nENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "app.jar"]',
        ),
        SH(
            "cd invoicing && ./gradlew test",
            "> Task :test\nInvoicingApplicationTests > contextLoads() FAILED\n    org.springframework.beans.factory.BeanCreationException: Failed to configure a DataSource: 'url' attribute is not specified",
        ),
        A(
            "The generated test needs a database. Adding a Testcontainers config (`@ServiceConnection` PostgreSQLContainer) like payments has."
        ),
        WR(
            "invoicing/src/test/java/com/acme/invoicing/TestcontainersConfig.java",
            '@TestConfiguration(proxyBeanMethods = false)\nclass TestcontainersConfig {\n    @Bean\n    @ServiceConnection\n    PostgreSQLContainer<?> postgres() {\n        return new PostgreSQLContainer<>("postgres:16-alpine");\n    }\n}\n',
        ),
        SH("cd invoicing && ./gradlew test -q && echo OK", "OK"),
        U("add it to the root ci matrix"),
        ED(
            ".github/workflows/ci.yml",
            "        service: [payments, orders]",
            "        service: [payments, orders, invoicing]",
        ),
    ],
)

# ---------------------------------------------------------------- project/config
S(
    "h5-project-config-1",
    "claude-code",
    "project/config",
    "Configure ESLint flat config migration",
    [
        U("eslint 9 complains .eslintrc is deprecated. move us to flat config, keep same rules. react + ts project"),
        RD(
            ".eslintrc.json",
            '{\n  "root": true,\n  "parser": "@typescript-eslint/parser",\n  "plugins": ["@typescript-eslint", "react", "react-hooks"],\n  "extends": [\n    "eslint:recommended",\n    "plugin:@typescript-eslint/recommended",\n    "plugin:react/recommended",\n    "plugin:react-hooks/recommended"\n  ],\n  "settings": { "react": { "version": "detect" } },\n  "rules": {\n    "react/react-in-jsx-scope": "off",\n    "@typescript-eslint/no-unused-vars": ["error", { "argsIgnorePattern": "^_" }]\n  },\n  "ignorePatterns": ["dist", "coverage"]\n}',
        ),
        WR(
            "eslint.config.js",
            "import js from '@eslint/js';\nimport tseslint from 'typescript-eslint';\nimport react from 'eslint-plugin-react';\nimport reactHooks from 'eslint-plugin-react-hooks';\n\nexport default tseslint.config(\n  { ignores: ['dist', 'coverage'] },\n  js.configs.recommended,\n  ...tseslint.configs.recommended,\n  react.configs.flat.recommended,\n  {\n    plugins: { 'react-hooks': reactHooks },\n    rules: reactHooks.configs.recommended.rules,\n  },\n  {\n    settings: { react: { version: 'detect' } },\n    rules: {\n      'react/react-in-jsx-scope': 'off',\n      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],\n    },\n  },\n);\n",
        ),
        SH(
            "rm .eslintrc.json && npx eslint . 2>&1 | tail -3",
            "/app/src/setupTests.ts\n  3:1  error  'vi' is not defined  no-undef\n\n✖ 1 problem (1 error, 0 warnings)",
        ),
        A(
            "Flat config doesn't get env globals via `env:` anymore. The old config had no vitest globals either — but the old setup ran eslint with `--ext .ts,.tsx`, which skipped setupTests.ts? No, it matched. Likely `no-undef` was off because typescript-eslint's recommended disables it only for TS files in flat config when you use `tseslint.configs.recommended` with `files`. Simplest: add vitest globals for test files."
        ),
        ED(
            "eslint.config.js",
            "  { ignores: ['dist', 'coverage'] },",
            "  { ignores: ['dist', 'coverage'] },\n  { files: ['**/*.test.{ts,tsx}', 'src/setupTests.ts'], languageOptions: { globals: { vi: 'readonly' } } },",
        ),
        SH("npx eslint . && echo clean", "clean"),
        U("and the vscode extension picks it up?"),
        A(
            'Yes, vscode-eslint ≥3.0 detects eslint.config.js automatically; if you\'re on 2.x set `"eslint.useFlatConfig": true` in .vscode/settings.json.'
        ),
    ],
)

S(
    "h5-project-config-2",
    "cline",
    "project/config",
    "Environment variables and settings for staging",
    [
        U(
            "staging keeps using prod stripe keys because settings.py reads STRIPE_KEY with default. clean up the config: per-env settings from env vars, fail loudly if missing, .env.example for devs. django"
        ),
        RD(
            "app/settings.py",
            "import os\n\nDEBUG = os.getenv('DEBUG', 'true') == 'true'\nSECRET_KEY = os.getenv('SECRET_KEY', 'dev-secret')\nSTRIPE_KEY = os.getenv('STRIPE_KEY', 'sk_live_51Hx...')\nDATABASE_URL = os.getenv('DATABASE_URL', 'postgres://localhost/app')\nSENTRY_DSN = os.getenv('SENTRY_DSN')\nALLOWED_HOSTS = ['*']",
        ),
        A(
            "A live Stripe key is hardcoded as the default — it's in git history, so it should be rotated regardless. Plan: `django-environ`, no defaults for secrets, DEBUG default false, ALLOWED_HOSTS from env."
        ),
        SH(
            "pip install django-environ==0.11.2 && echo 'django-environ==0.11.2' >> requirements.txt",
            "Successfully installed django-environ-0.11.2",
        ),
        WR(
            "app/settings.py",
            "import environ\n\nenv = environ.Env()\nenviron.Env.read_env(BASE_DIR / '.env')  # local only; real envs set variables directly\n\nDEBUG = env.bool('DEBUG', default=False)\nSECRET_KEY = env('SECRET_KEY')  # no default: missing -> ImproperlyConfigured at startup\nSTRIPE_KEY = env('STRIPE_KEY')\nDATABASES = {'default': env.db('DATABASE_URL')}\nSENTRY_DSN = env('SENTRY_DSN', default=None)\nALLOWED_HOSTS = env.list('ALLOWED_HOSTS', default=['localhost'])\n",
        ),
        WR(
            ".env.example",
            "DEBUG=true\nSECRET_KEY=change-me\nSTRIPE_KEY=sk_test_xxx\nDATABASE_URL=postgres://postgres:dev@localhost:5432/app\nALLOWED_HOSTS=localhost,127.0.0.1\n",
        ),
        SH(
            "env -i PATH=$PATH python manage.py check 2>&1 | tail -1",
            "django.core.exceptions.ImproperlyConfigured: Set the SECRET_KEY environment variable",
        ),
        U("good fails. staging k8s secret needs STRIPE_KEY test key, where?"),
        A(
            "In the staging overlay: `kubectl -n staging create secret generic app-env --from-literal=STRIPE_KEY=sk_test_...` and reference it with `envFrom.secretRef` in deploy/overlays/staging. I won't touch the cluster myself. Also: please rotate the live key that was in the default."
        ),
    ],
)

S(
    "h5-project-config-3",
    "aider",
    "project/config",
    "Tune nginx config for large uploads and timeouts",
    [
        U("/add deploy/nginx/app.conf"),
        A("Added deploy/nginx/app.conf to the chat."),
        RD(
            "deploy/nginx/app.conf",
            'upstream app {\n    server 127.0.0.1:8000;\n    keepalive 32;\n}\n\nserver {\n    listen 443 ssl http2;\n    server_name app.acme.io;\n\n    ssl_certificate     /etc/letsencrypt/live/app.acme.io/fullchain.pem;\n    ssl_certificate_key /etc/letsencrypt/live/app.acme.io/privkey.pem;\n\n    client_max_body_size 20m;\n    proxy_http_version 1.1;\n    proxy_set_header Connection "";\n    proxy_set_header Host $host;\n    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n    proxy_set_header X-Forwarded-Proto $scheme;\n\n    location /static/ {\n        alias /srv/app/static/;\n        expires 30d;\n    }\n\n    location /api/ {\n        proxy_pass http://app;\n    }\n\n    location / {\n        try_files $uri /index.html;\n        root /srv/app/web;\n    }\n}\n',
        ),
        U(
            "users uploading videos >1GB get 413, and the long ones time out at 60s. change config: allow 5G, upload timeout 15 min, but only for /api/uploads, not globally"
        ),
        ED(
            "deploy/nginx/app.conf",
            "    location /api/ {\n        proxy_pass http://app;\n    }",
            "    location /api/uploads {\n        client_max_body_size 5g;\n        client_body_timeout 900s;\n        proxy_read_timeout 900s;\n        proxy_send_timeout 900s;\n        # stream to the app instead of buffering 5GB to disk first\n        proxy_request_buffering off;\n        proxy_pass http://app;\n    }\n\n    location /api/ {\n        proxy_pass http://app;\n    }",
        ),
        SH(
            "docker run --rm -v $PWD/deploy/nginx:/etc/nginx/conf.d:ro nginx:1.27 nginx -t",
            "nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\nnginx: configuration file /etc/nginx/nginx.conf test is successful",
        ),
        U("the app behind is gunicorn, it also has limits?"),
        A(
            "gunicorn has no body size limit, but its worker `timeout` (yours: 30s in gunicorn.conf.py) kills sync workers on long uploads. With `proxy_request_buffering off` the upload streams through, so raise gunicorn `timeout` to 900 for the upload workers, or route uploads to a separate worker class."
        ),
        U("set timeout 900 ok"),
        ED("gunicorn.conf.py", "timeout = 30", "timeout = 900  # long streaming uploads via /api/uploads"),
    ],
)

S(
    "h5-project-config-4",
    "copilot",
    "project/config",
    "Configure tsconfig paths and strict mode",
    [
        U(
            "tsconfig: want path aliases @/ -> src/, turn on strict but not break the build today, and vite needs to know the alias too"
        ),
        RD(
            "tsconfig.json",
            '{\n  "compilerOptions": {\n    "target": "ES2020",\n    "module": "ESNext",\n    "moduleResolution": "bundler",\n    "jsx": "react-jsx",\n    "strict": false,\n    "skipLibCheck": true\n  },\n  "include": ["src"]\n}',
        ),
        SH("npx tsc --noEmit --strict 2>&1 | tail -1", "Found 214 errors in 63 files."),
        A(
            "214 errors with full strict. Suggest turning on the strict family flags one by one: `noImplicitAny` and `strictNullChecks` are most of them. Let me count per flag."
        ),
        SH(
            "for f in noImplicitAny strictNullChecks strictFunctionTypes strictBindCallApply noImplicitThis alwaysStrict useUnknownInCatchVariables; do printf '%s ' $f; npx tsc --noEmit --$f 2>&1 | grep -c 'error TS'; done",
            "noImplicitAny 88\nstrictNullChecks 121\nstrictFunctionTypes 3\nstrictBindCallApply 0\nnoImplicitThis 0\nalwaysStrict 0\nuseUnknownInCatchVariables 2",
        ),
        ED(
            "tsconfig.json",
            '    "strict": false,',
            '    "strict": false,\n    "strictFunctionTypes": true,\n    "strictBindCallApply": true,\n    "noImplicitThis": true,\n    "alwaysStrict": true,\n    "baseUrl": ".",\n    "paths": { "@/*": ["src/*"] },',
        ),
        ED(
            "vite.config.ts",
            "  plugins: [react()],",
            "  plugins: [react()],\n  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },",
        ),
        SH(
            "npx tsc --noEmit 2>&1 | tail -1; npx vite build 2>&1 | tail -1",
            "Found 3 errors in 2 files.\n✓ built in 4.21s",
        ),
        U("fix the 3 and leave the others for later"),
        A(
            "The 3 strictFunctionTypes errors are event handler callbacks typed too narrowly; fixed by widening to `React.MouseEvent<HTMLElement>`. tsc is clean with the 4 flags on; noImplicitAny (88) and strictNullChecks (121) remain for later."
        ),
    ],
)

S(
    "h5-project-config-5",
    "gemini-cli",
    "project/config",
    "Helm values for staging and prod",
    [
        U(
            "k8s newbie question + task: our helm chart has everything hardcoded in values.yaml. I need staging with 1 replica and small resources, prod with 3 replicas and HPA. how to organize the values files?"
        ),
        RD(
            "chart/values.yaml",
            "replicaCount: 2\nimage:\n  repository: registry.acme.io/web\n  tag: latest\nresources:\n  requests: { cpu: 500m, memory: 512Mi }\n  limits: { memory: 1Gi }\nenv:\n  API_URL: https://api.acme.io\nautoscaling:\n  enabled: false",
        ),
        A(
            "Keep chart defaults in values.yaml and add per-env override files that only contain differences; Helm merges them in order (`-f values-prod.yaml` wins)."
        ),
        WR(
            "chart/values-staging.yaml",
            "replicaCount: 1\nresources:\n  requests: { cpu: 100m, memory: 256Mi }\n  limits: { memory: 512Mi }\nenv:\n  API_URL: https://api.staging.acme.io\n",
        ),
        WR(
            "chart/values-prod.yaml",
            "autoscaling:\n  enabled: true\n  minReplicas: 3\n  maxReplicas: 10\n  targetCPUUtilizationPercentage: 70\n",
        ),
        SH(
            "helm template web chart -f chart/values-prod.yaml | grep -A3 'kind: HorizontalPodAutoscaler'",
            'Error: template: web/templates/hpa.yaml:1:14: executing "web/templates/hpa.yaml" at <.Values.autoscaling.enabled>: ... file does not exist',
        ),
        A("The chart has no hpa.yaml template yet, only the flag. Adding it."),
        WR(
            "chart/templates/hpa.yaml",
            '{{- if .Values.autoscaling.enabled }}\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: {{ include "web.fullname" . }}\nspec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: {{ include "web.fullname" . }} }\n  minReplicas: {{ .Values.autoscaling.minReplicas }}\n  maxReplicas: {{ .Values.autoscaling.maxReplicas }}\n  metrics:\n    - type: Resource\n      resource: { name: cpu, target: { type: Utilization, averageUtilization: {{ .Values.autoscaling.targetCPUUtilizationPercentage }} } }\n{{- end }}\n',
        ),
        SH(
            "helm template web chart -f chart/values-prod.yaml | grep -c HorizontalPodAutoscaler; helm template web chart -f chart/values-staging.yaml | grep -c HorizontalPodAutoscaler",
            "1\n0",
        ),
        U("why replicaCount still in deployment when hpa on"),
        A(
            "Good catch: with HPA, the Deployment shouldn't set replicas or each `helm upgrade` resets the count. Wrapped `replicas:` in `{{- if not .Values.autoscaling.enabled }}`."
        ),
    ],
)

# ---------------------------------------------------------------- project/dependency
S(
    "h5-project-dependency-1",
    "claude-code",
    "project/dependency",
    "Upgrade Django 4.2 to 5.1",
    [
        U("upgrade django 4.2 -> 5.1. fix whatever breaks. we're on python 3.11"),
        SH(
            "pip install 'django==5.1.*' && python -W error::DeprecationWarning manage.py check 2>&1 | tail -4",
            "Successfully installed django-5.1.2\nTraceback (most recent call last):\n  File \"/app/core/forms.py\", line 3, in <module>\n    from django.utils.encoding import force_text\nImportError: cannot import name 'force_text' from 'django.utils.encoding'",
        ),
        ED(
            "core/forms.py",
            "from django.utils.encoding import force_text",
            "from django.utils.encoding import force_str",
        ),
        SH(
            "python manage.py check && pytest -q -x 2>&1 | tail -5",
            "System check identified no issues (0 silenced).\nFAILED billing/tests/test_admin.py::test_changelist - TypeError: ModelAdmin.lookup_allowed() missing 1 required positional argument: 'request'\n1 failed, 402 passed in 61.2s",
        ),
        ED(
            "billing/admin.py",
            "    def lookup_allowed(self, lookup, value):\n        return True",
            "    def lookup_allowed(self, lookup, value, request):\n        return True",
        ),
        SH("pytest -q 2>&1 | tail -1", "419 passed, 3 skipped in 64.8s"),
        U("any third party packages not compatible?"),
        SH(
            "pip check; pip list --outdated --format=columns | grep -i django",
            "No broken requirements found.\ndjango-filter         23.5    24.3\ndjango-debug-toolbar  4.2.0   4.4.6",
        ),
        A(
            "No declared conflicts. django-filter 23.5 works but 24.x officially supports 5.1; debug-toolbar 4.4 likewise. Bumping both."
        ),
        SH(
            "pip install 'django-filter==24.3' 'django-debug-toolbar==4.4.6' && pip freeze | grep -iE '^(django|django-filter|django-debug-toolbar)==' > /tmp/pins && cat /tmp/pins",
            "Django==5.1.2\ndjango-debug-toolbar==4.4.6\ndjango-filter==24.3",
        ),
        A(
            "Django 5.1.2 with two code fixes (force_text → force_str, lookup_allowed signature), django-filter and debug-toolbar bumped; 419 tests pass. Pins updated in requirements/base.txt."
        ),
    ],
)

S(
    "h5-project-dependency-2",
    "cursor",
    "project/dependency",
    "Resolve npm peer dependency conflict",
    [
        U(
            'npm install fails after I added react-query v5:\n\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! peer react@"^18.0.0" from @tanstack/react-query@5.40.0\nnpm ERR! Found: react@17.0.2\n\nwe\'re on react 17, upgrade react is not an option this quarter'
        ),
        SH(
            "npm view @tanstack/react-query@4 peerDependencies",
            "{ react: '^16.8.0 || ^17.0.0 || ^18.0.0', 'react-dom': '^16.8.0 || ^17.0.0 || ^18.0.0', 'react-native': '*' }",
        ),
        A(
            "v5 requires React 18 (it uses useSyncExternalStore natively). v4 supports 17. Don't use --legacy-peer-deps — v5 would break at runtime. Install v4 instead."
        ),
        SH(
            "npm uninstall @tanstack/react-query && npm install @tanstack/react-query@^4.36.1",
            "added 2 packages, removed 2 packages, and audited 1432 packages in 6s\nfound 0 vulnerabilities",
        ),
        U("do I lose something important with v4"),
        A(
            "Mainly API shape: v5 renamed `cacheTime` → `gcTime`, `isLoading` → `isPending`, and takes a single object argument. If you write v4 code with the object syntax (`useQuery({ queryKey, queryFn })`), the later migration to v5 is small. Devtools: use `@tanstack/react-query-devtools@4`."
        ),
        SH(
            "npm install -D @tanstack/react-query-devtools@^4.36.1 && npm ls @tanstack/react-query",
            "app@1.0.0 /home/dev/app\n├─┬ @tanstack/react-query-devtools@4.36.1\n│ └── @tanstack/react-query@4.36.1 deduped\n└── @tanstack/react-query@4.36.1",
        ),
        U("pin exact versions pls, we had surprises before"),
        SH(
            "npm pkg set dependencies.@tanstack/react-query=4.36.1 devDependencies.@tanstack/react-query-devtools=4.36.1 && npm install",
            "up to date, audited 1432 packages in 2s",
        ),
    ],
)

S(
    "h5-project-dependency-3",
    "codex",
    "project/dependency",
    "Patch vulnerable transitive dependency in Go",
    [
        U("govulncheck reports GO-2024-2687 in golang.org/x/net via grpc. fix it, smallest change"),
        SH(
            "govulncheck ./... | head -12",
            "Vulnerability #1: GO-2024-2687\n    HTTP/2 CONTINUATION flood in net/http\n  Module: golang.org/x/net\n    Found in: golang.org/x/net@v0.21.0\n    Fixed in: golang.org/x/net@v0.23.0\n    Example traces found:\n      #1: cmd/api/main.go:44:23: api.main calls grpc.Server.Serve, which eventually calls http2.Framer.ReadFrame",
        ),
        SH(
            "go mod why -m golang.org/x/net | head -4",
            "# golang.org/x/net\ngithub.com/acme/api/cmd/api\ngoogle.golang.org/grpc\ngolang.org/x/net/http2",
        ),
        SH(
            "go get golang.org/x/net@v0.23.0 && go mod tidy && git diff --stat",
            " go.mod | 2 +-\n go.sum | 4 ++--\n 2 files changed, 3 insertions(+), 3 deletions(-)",
        ),
        SH(
            "go build ./... && go test ./... 2>&1 | tail -3 && govulncheck ./...",
            "ok  \tgithub.com/acme/api/internal/server\t1.102s\nok  \tgithub.com/acme/api/internal/store\t0.871s\nok  \tgithub.com/acme/api/pkg/auth\t0.214s\nNo vulnerabilities found.",
        ),
        A(
            "Bumped only golang.org/x/net v0.21.0 → v0.23.0 (indirect, via grpc); grpc itself unchanged. Tests pass, govulncheck clean."
        ),
        U("should we also bump grpc while here"),
        A(
            "Not needed for this CVE; grpc 1.62 → 1.64 is a minor bump with a changed default for `grpc.WithBlock` deprecation warnings. I'd do it in a separate PR so this security fix stays minimal and easy to backport."
        ),
        U("ok agree"),
    ],
)

S(
    "h5-project-dependency-4",
    "aider",
    "project/dependency",
    "Pin and lock Python dependencies with uv",
    [
        U(
            "our requirements.txt has unpinned stuff (`requests`, `pydantic>=1`) and prod broke last week when pydantic 2 came in. set up proper locking, we want uv"
        ),
        SH("cat requirements.txt", "fastapi\npydantic>=1\nrequests\nsqlalchemy<2\nuvicorn[standard]\nboto3"),
        A(
            "Plan: move these into `pyproject.toml` `[project.dependencies]` with sensible lower/upper bounds, generate `uv.lock`, and install from the lock in Docker and CI (`uv sync --frozen`). Pydantic: are you on v1 APIs? Then pin `pydantic>=1.10,<2`."
        ),
        U("yes v1 still. fastapi too old for v2 anyway"),
        SH(
            "uv init --no-readme --no-workspace . && uv add 'fastapi>=0.100,<0.100.1' 'pydantic>=1.10,<2' 'requests>=2.31' 'sqlalchemy>=1.4,<2' 'uvicorn[standard]>=0.23' 'boto3>=1.28'",
            "Resolved 34 packages in 1.21s\nInstalled 34 packages in 88ms\n + fastapi==0.100.0\n + pydantic==1.10.17\n + sqlalchemy==1.4.52\n ...",
        ),
        SH("uv run pytest -q 2>&1 | tail -1", "57 passed in 4.40s"),
        U("docker?"),
        ED(
            "Dockerfile",
            "COPY requirements.txt .\nRUN pip install -r requirements.txt",
            "COPY --from=ghcr.io/astral-sh/uv:0.4 /uv /bin/uv\nCOPY pyproject.toml uv.lock ./\nRUN uv sync --frozen --no-dev --no-install-project",
        ),
        A(
            "Locked with uv.lock, Docker installs exactly the lock (`--frozen` fails if pyproject and lock disagree). requirements.txt removed; Renovate can update uv.lock weekly if you want."
        ),
    ],
)

S(
    "h5-project-dependency-5",
    "gemini-cli",
    "project/dependency",
    "Add and vendor a Rust crate with feature flags",
    [
        U(
            "need to add reqwest to our rust service but without openssl (we build static musl). which features? and we want cargo vendor for offline builds in the airgapped CI"
        ),
        SH(
            "cargo add reqwest@0.12 --no-default-features --features rustls-tls,json,gzip",
            "    Updating crates.io index\n      Adding reqwest v0.12.5 to dependencies\n             Features:\n             + __rustls\n             + gzip\n             + json\n             + rustls-tls\n             - default-tls\n             - native-tls",
        ),
        SH(
            "cargo tree -i openssl-sys 2>&1 | head -2",
            "error: package ID specification `openssl-sys` did not match any packages",
        ),
        A("No openssl-sys in the graph: reqwest uses rustls. Now vendoring."),
        SH(
            "cargo vendor vendor/ > .cargo/config.toml && du -sh vendor && tail -5 .cargo/config.toml",
            '92M\tvendor\n[source.crates-io]\nreplace-with = "vendored-sources"\n\n[source.vendored-sources]\ndirectory = "vendor"',
        ),
        SH(
            "cargo build --release --target x86_64-unknown-linux-musl --offline 2>&1 | tail -1",
            "    Finished `release` profile [optimized] target(s) in 1m 48s",
        ),
        U("92M in git is a lot. alternatives?"),
        A(
            "Options: keep vendor/ in a separate artifact (tarball in your internal object store, unpacked in CI before build), or run a local registry mirror (e.g. a `panamax` mirror) in the airgapped network. Committing vendor/ is simplest and common; the mirror is better if several repos need crates."
        ),
        U("tarball approach, ill do the CI part"),
    ],
)


# ---------------------------------------------------------------- decision/technical
S(
    "h5-decision-technical-1",
    "claude-code",
    "decision/technical",
    "Choose a date library for the frontend",
    [
        U(
            "moment is deprecated and 70kb in our bundle. pick replacement: date-fns, dayjs, luxon? we need timezones (user's tz from profile) and formatting in 6 locales. decide, then we migrate later"
        ),
        GR(
            "moment\\(",
            "src/utils/dates.ts:4 matches\nsrc/components/Calendar.tsx:12 matches\nsrc/pages/Reports.tsx:9 matches\n(31 files, 142 matches)",
        ),
        SH(
            "grep -rhoE \"moment(\\.tz)?\\([^)]*\\)\\.(tz|format|add|diff|startOf|locale)\" src | sed -E 's/.*\\.//' | sort | uniq -c | sort -rn",
            "     58 format\n     31 tz\n     22 add\n     17 diff\n     14 startOf\n      0 locale",
        ),
        A(
            "Usage is mostly format + tz. Candidates:\n- **date-fns + date-fns-tz**: tree-shakable (~8–15kb for your usage), functional API — every call site changes shape.\n- **dayjs + utc/timezone plugins**: moment-like chainable API (easy migration), ~7kb + plugins; timezone plugin relies on Intl and had DST edge-case bugs historically.\n- **luxon**: first-class timezones and Intl formatting, immutable, ~23kb, not tree-shakable.\n\nGiven 31 tz calls and 6 locales, I'd choose **luxon**: the tz handling is the riskiest part and it's luxon's strength; bundle is still 3× smaller than moment+moment-timezone."
        ),
        U("dayjs migration would be faster though"),
        A(
            "Faster yes (mostly import changes). The risk is correctness around DST with the tz plugin, which is exactly your main use. If the team values migration speed over that risk, dayjs is defensible. Do you want me to test both on our DST fixtures before we pick?"
        ),
        U("yes quick test"),
        SH(
            "node scripts/dst_check.mjs",
            "case                                 luxon   dayjs\nEurope/Berlin 2024-03-31 02:30 +1h   ok      ok\nAmerica/Sao_Paulo 2018-11-04 00:00   ok      FAIL (23:00 previous day)\nAustralia/Lord_Howe +30min DST       ok      FAIL\nformat 'LLLL' de/fr/ja/pt/es/en     ok      ok (needs 6 locale imports)",
        ),
        U("ok luxon. write it down in decisions.md"),
        ED(
            "docs/decisions.md",
            "## Log",
            "## Log\n\n- 2024-07-08 — Date library: **luxon** replaces moment. Reason: timezone correctness (dayjs tz failed 2 of 4 DST fixtures), Intl-based locales. Cost: ~23kb, non-chainable migration of 142 call sites.",
        ),
    ],
)

S(
    "h5-decision-technical-2",
    "cursor",
    "decision/technical",
    "Pick a background job library for Node",
    [
        U(
            "we need background jobs in our node api (emails, pdfs, imports). bullmq vs pg-boss vs graphile-worker? we have postgres, no redis yet. small team. choose one"
        ),
        A(
            "Key question is whether to add Redis. Quick comparison:\n\n| | BullMQ | pg-boss | graphile-worker |\n|---|---|---|---|\n| backend | Redis | Postgres | Postgres |\n| throughput | very high | ~1k jobs/s fine | high (LISTEN/NOTIFY) |\n| cron/repeat | yes | yes | yes (crontab) |\n| UI | Bull Board | none official | none official |\n| transactional enqueue with your data | no | yes | yes |\n\nFor emails/pdfs/imports at your scale, a Postgres-based queue avoids new infra and lets you enqueue in the same transaction as the business write (no 'order saved but email job lost')."
        ),
        U("between pg-boss and graphile?"),
        A(
            "graphile-worker: lower latency via LISTEN/NOTIFY, tasks as files, very simple; jobs are deleted on completion (no history). pg-boss: keeps completed jobs for a retention period (useful for debugging 'did the email go out?'), has singleton/throttle options. Given you debug email issues often (per earlier tickets), I'd pick **pg-boss**."
        ),
        SH(
            "npm view pg-boss version time.modified && npm view graphile-worker version time.modified",
            "10.0.2\n2024-07-25T14:02:11.402Z\n0.16.6\n2024-05-02T09:31:40.118Z",
        ),
        U("ok pg-boss. any gotcha with our pgbouncer?"),
        A(
            "pg-boss uses advisory locks and `SKIP LOCKED`; SKIP LOCKED works in transaction pooling, but its maintenance uses session-level advisory locks — connect pg-boss directly to Postgres (bypass PgBouncer) or use a session-mode pool for it."
        ),
        U("fine, decided. note in ADR-lite"),
        WR(
            "docs/decisions/0007-job-queue.md",
            "# Job queue: pg-boss\n\nChosen over BullMQ (needs Redis) and graphile-worker (no job history).\nReasons: no new infra, transactional enqueue, retained job history for debugging.\nGotcha: connect directly to Postgres, not via PgBouncer transaction pool.\n",
        ),
    ],
)

S(
    "h5-decision-technical-3",
    "codex",
    "decision/technical",
    "Choose ORM approach for new Go service",
    [
        U(
            "new go service, team split: gorm vs sqlc vs plain pgx. i'm tech lead and need to decide today. our queries are moderately complex (reporting joins, CTEs). give me a recommendation"
        ),
        SH(
            "grep -rl 'gorm.io' ~/src/acme --include=go.mod | wc -l; grep -rl 'sqlc' ~/src/acme --include=sqlc.yaml | wc -l",
            "3\n1",
        ),
        A(
            "Recommendation: **sqlc on pgx**.\n- You write SQL (CTEs, window functions stay readable), sqlc generates typed Go — compile-time check of queries against the schema.\n- No reflection/runtime magic like gorm; performance = pgx.\n- Dynamic filters are the weak spot: handle with `sqlc.narg` + `COALESCE` patterns or a small hand-written pgx query for the 1–2 truly dynamic search endpoints.\n\ngorm: fast CRUD, but complex reporting queries end up as raw SQL strings anyway, and its implicit behaviours (zero values not updated, soft-delete scopes) cause bugs. Plain pgx: most control, most boilerplate scanning rows.\n\nYou have 3 gorm services and 1 sqlc service — sqlc isn't new to the org."
        ),
        U("team knows gorm better though"),
        A(
            "True; the sqlc learning curve is mostly 'write SQL in .sql files, run generate'. The team that built the sqlc service can pair for the first week. Since this service is reporting-heavy, I'd still choose sqlc."
        ),
        U("ok decided sqlc. setup the sqlc.yaml so people start"),
        WR(
            "sqlc.yaml",
            'version: "2"\nsql:\n  - engine: postgresql\n    queries: db/queries\n    schema: db/migrations\n    gen:\n      go:\n        package: store\n        out: internal/store\n        sql_package: pgx/v5\n        emit_json_tags: true\n        emit_interface: true\n',
        ),
        SH("sqlc generate && ls internal/store", "db.go\nmodels.go\nquerier.go\nreports.sql.go"),
    ],
)

S(
    "h5-decision-technical-4",
    "copilot",
    "decision/technical",
    "Decide on state management for React Native app",
    [
        U(
            "RN app growing, context + useReducer is getting messy. redux toolkit, zustand, or jotai? most state is server data. help me choose, short please"
        ),
        A(
            "If most state is server data, the bigger win is **TanStack Query** for server state (cache, refetch, offline persistence) — then the remaining client state is small, and **zustand** is enough for it (tiny, no providers, works outside components e.g. in push handlers). RTK makes sense if you want Redux devtools/time travel and strict patterns for a large team; jotai shines for many fine-grained independent atoms (forms, editors)."
        ),
        U("how much client state do we have, check"),
        GR(
            "createContext\\(",
            "src/state/AuthContext.tsx\nsrc/state/CartContext.tsx\nsrc/state/ProductsContext.tsx\nsrc/state/OrdersContext.tsx\nsrc/state/ThemeContext.tsx\nsrc/state/FiltersContext.tsx",
        ),
        A(
            "6 contexts: Products and Orders are server data (→ TanStack Query); Auth, Cart, Theme, Filters are client state (→ one or two zustand stores). Cart needs persistence — zustand's `persist` middleware with AsyncStorage handles it."
        ),
        U("team has redux experience from the web app tho"),
        A(
            "Then RTK + RTK Query is a reasonable single-toolkit choice and reuses knowledge. Trade-off: more boilerplate than query+zustand, but one mental model across web and mobile. Both are fine; if sharing knowledge with web matters most, pick RTK."
        ),
        U("we go with tanstack query + zustand, mobile team is separate anyway"),
        A(
            "Decision noted: TanStack Query for Products/Orders, zustand stores for auth/cart(persisted)/theme/filters. I'll write it into docs/mobile/decisions.md."
        ),
        WR(
            "docs/mobile/decisions.md",
            "## State management (2024-08)\nServer state: TanStack Query. Client state: zustand (cart persisted via AsyncStorage).\nConsidered: Redux Toolkit (web team knowledge; more boilerplate), jotai.\n",
        ),
    ],
)

S(
    "h5-decision-technical-5",
    "gemini-cli",
    "decision/technical",
    "Choose PDF generation approach",
    [
        U(
            "invoices as PDF: headless chrome (puppeteer) vs a pdf library (pdfkit / react-pdf) vs external api (docraptor)? ~20k invoices/month, must look like our html email design. which approach"
        ),
        A(
            "- **Headless Chrome**: reuses the HTML/CSS design directly, pixel-close; heavy (300MB image, ~1s and ~200MB RAM per render), needs a pool.\n- **react-pdf / pdfkit**: lightweight and fast, but the layout must be rebuilt in their primitives (flexbox subset), no real CSS — design drift from the email.\n- **DocRaptor/API**: PrinceXML quality, paged media CSS; ~$0.01–0.02/doc → 20k = ~$300/month; invoices (PII) leave your infra.\n\nGiven 'must look like our HTML' and 20k/month (~1 per 2 minutes on average), headless Chrome is the pragmatic choice."
        ),
        U("whats the peak? month end we send all at once"),
        SH(
            "psql $RO_DB -c \"SELECT date_trunc('hour', created_at) h, count(*) FROM invoices WHERE created_at > now() - interval '90 days' GROUP BY 1 ORDER BY 2 DESC LIMIT 3;\"",
            "          h          | count \n---------------------+-------\n 2024-06-30 23:00:00 | 14212\n 2024-05-31 23:00:00 | 13880\n 2024-04-30 23:00:00 | 13502",
        ),
        A(
            "~14k in one hour at month end ≈ 4/s. With ~1s per render, a pool of 6–8 Chrome pages on 2–3 workers keeps up; or spread over a few hours since emails aren't instant-critical. Still fine for headless Chrome."
        ),
        U("ok puppeteer it is. or playwright?"),
        A(
            "For PDF only, either; Playwright's `page.pdf()` is the same Chromium feature. Your e2e tests already use Playwright, so one dependency instead of two — choose Playwright."
        ),
        U("ok"),
    ],
)

# ---------------------------------------------------------------- decision/process
S(
    "h5-decision-process-1",
    "claude-code",
    "decision/process",
    "Define code review policy for the team",
    [
        U(
            "team grew from 4 to 11, PRs wait 2-3 days for review. help me write a review policy we agree on. proposals: 1 approval needed, 24h SLA, small PRs. anything else?"
        ),
        SH(
            "gh pr list --state merged --limit 200 --json additions,deletions,createdAt,mergedAt | jq '[.[] | {size: (.additions+.deletions), hours: (((.mergedAt|fromdate)-(.createdAt|fromdate))/3600|floor)}] | group_by(.size > 400) | map({big: .[0].size > 400, n: length, median_h: (sort_by(.hours) | .[length/2|floor].hours)})'",
            '[\n  {"big": false, "n": 141, "median_h": 19},\n  {"big": true, "n": 59, "median_h": 71}\n]',
        ),
        A(
            "Data from the last 200 PRs: PRs over 400 changed lines take a median 71h to merge vs 19h for smaller ones — 30% of PRs are big. Draft policy:\n\n1. **1 approval** from anyone on the team; 2 for migrations, auth and billing code (CODEOWNERS).\n2. **First response within 1 working day** (a comment counts, not necessarily approval).\n3. **Aim for < 400 changed lines**; bigger PRs need a description of how to review them, or split.\n4. **Author merges** after approval and green CI.\n5. **Review rotation**: a daily 'reviewer of the day' gets auto-assigned via GitHub's round-robin team assignment.\n6. Nits are prefixed `nit:` and never block."
        ),
        U("5 — people will ignore it. others do review slots in the calendar?"),
        A(
            "Option: two fixed 30-min review slots per day (after standup, after lunch) instead of a reviewer of the day. Lower context switching, and the 1-day SLA follows automatically. Combine with auto-assignment so every PR has a name on it."
        ),
        U("slots + auto-assign. write it to CONTRIBUTING, we'll try for a month and measure again"),
        ED(
            "CONTRIBUTING.md",
            "## Pull requests",
            "## Pull requests\n\n### Review policy (trial until 2024-10-31)\n- 1 approval; 2 for CODEOWNERS areas (migrations, auth, billing)\n- First response within 1 working day; review slots after standup and after lunch\n- PRs auto-assigned round-robin to one reviewer\n- Aim for < 400 changed lines; otherwise explain how to review or split\n- Author merges when approved and green\n- `nit:` comments never block\n\nWe re-measure merge times at the end of the trial (baseline: median 19h small / 71h big PRs).",
        ),
    ],
)

S(
    "h5-decision-process-2",
    "aider",
    "decision/process",
    "Agree on git branching and release process",
    [
        U(
            "we argue about gitflow vs trunk based. 6 devs, web app, deploy to prod ~weekly now, want daily. write up what we'll do, I'm deciding trunk-based with feature flags, just need the process doc"
        ),
        A("Before writing: do releases need a manual QA step today, and who approves prod deploys?"),
        U("QA checks staging before prod, tech lead presses the button"),
        ED(
            "docs/process/branching.md",
            "",
            "# Branching and releases\n\n## Rules\n- `main` is always releasable. Short-lived branches (≤ 2 days) merged via PR; no `develop`, no release branches.\n- Unfinished work ships dark behind a feature flag (Unleash); flags are removed within 2 weeks of full rollout.\n- Every merge to `main` deploys to staging automatically.\n\n## Releasing\n- Daily at 14:00: QA smoke-tests staging (30 min checklist).\n- Tech lead promotes the staging build to prod (same artifact, no rebuild).\n- Hotfix: PR to main, fast-track review, promote immediately.\n\n## Why not gitflow\nLong-lived develop/release branches delay integration and made our weekly merges painful (3 merge-conflict incidents last quarter). With flags, incomplete features don't block releases.\n",
        ),
        U("add what to do if QA finds bug in staging"),
        ED(
            "docs/process/branching.md",
            "- Hotfix: PR to main",
            "- QA finds a bug on staging: if behind a flag, release anyway with the flag off; otherwise revert the offending PR on main (don't fix forward under time pressure) and release the day's build without it.\n- Hotfix: PR to main",
        ),
        U("good. announce text for slack, 3 lines"),
        A(
            '"From Monday we move to trunk-based development: short branches into main, unfinished work behind flags, daily release at 14:00 after QA on staging. Details: docs/process/branching.md. Questions in #eng-process — we\'ll review how it goes in 4 weeks."'
        ),
    ],
)

S(
    "h5-decision-process-3",
    "cline",
    "decision/process",
    "On-call rotation and incident process",
    [
        U(
            "we're 5 backend engineers and just had our 3rd outage nobody noticed for hours. need to decide on-call: rotation, what pages, escalation, comp. help me draft for the team vote"
        ),
        RD(
            "docs/incidents/2024-09-14.md",
            "Summary: payments webhook consumer stopped at 01:10, noticed 08:45 by support.\nAlerts: Grafana alert fired to #alerts Slack channel (muted by most).\nImpact: 412 orders stuck 'pending payment'.",
        ),
        A(
            "Draft:\n\n**Rotation**: weekly, Monday 10:00 handover, 5 people → each on call 1 week in 5. Secondary = previous week's primary.\n**What pages (phone)**: only customer-impacting symptoms — checkout error rate > 2% for 5 min, payment webhooks not processed for 15 min, API availability < 99% over 10 min. Everything else goes to Slack, reviewed next working day.\n**Escalation**: ack within 15 min, else secondary paged; after 30 min the eng manager.\n**Incidents**: primary is incident lead; a status update in #incidents every 30 min; blameless postmortem within 5 working days for any paged incident.\n**Compensation**: (needs management) e.g. fixed weekly stipend + time off after night pages.\n\nThe 14 Sept outage would have paged at 01:25 under this."
        ),
        U("we dont have pagerduty. budget issue"),
        A(
            "Options: Grafana OnCall OSS (free, self-hosted, you already run Grafana) or Opsgenie free tier (up to 5 users — exactly your team). Either handles phone/SMS escalation."
        ),
        U("grafana oncall. put that in and make it a doc for the vote"),
        WR(
            "docs/process/on-call.md",
            "# On-call (proposal for team vote)\n\n- Weekly rotation, 5 engineers, secondary = previous primary\n- Paging via Grafana OnCall (OSS) — phone + SMS\n- Pages only for customer-impacting alerts (list below)\n- Ack 15 min → secondary; 30 min → EM\n- Blameless postmortem within 5 working days\n- Compensation: to be agreed with management\n",
        ),
        U("thanks!"),
    ],
)

S(
    "h5-decision-process-4",
    "copilot",
    "decision/process",
    "Definition of done for the team",
    [
        U(
            "we keep shipping features without docs or metrics. PM-ish me wants a definition of done the team agrees with. give draft, realistic not bureaucratic"
        ),
        A(
            "Definition of Done (a story is done when):\n1. Acceptance criteria met and demoed to the PM (or recorded 2-min video).\n2. Code reviewed and merged; CI green.\n3. Tests for new behaviour (unit or integration — author's choice).\n4. Behind a flag or released; flag cleanup ticket exists.\n5. User-facing change → help-center article or changelog entry drafted.\n6. Key event tracked (at least one analytics event that shows usage).\n7. No new errors in Sentry 24h after release.\n\nNot in DoD (on purpose): 100% coverage, architecture docs for every story."
        ),
        U("point 7 means story stays open 24h after release? people will hate it"),
        A(
            "Alternative: the story is done at release, and the release checklist (owned by whoever deploys) includes a 24h Sentry check that reopens or creates a bug if needed. Keeps the board moving."
        ),
        U("better. also add 'QA tested on staging' for web stories only"),
        SH(
            "ls .github/ && cat .github/pull_request_template.md",
            "ISSUE_TEMPLATE\npull_request_template.md\n## What\n\n## Why\n\n## How to test",
        ),
        ED(
            ".github/pull_request_template.md",
            "## How to test",
            "## Definition of done\n- [ ] Acceptance criteria demoed to PM\n- [ ] Tests for new behaviour\n- [ ] Behind a flag or released (flag cleanup ticket: #)\n- [ ] Changelog / help article drafted (user-facing changes)\n- [ ] Analytics event added\n- [ ] Web only: QA tested on staging\n\n## How to test",
        ),
        A("DoD added as a checklist to the PR template; the 24h Sentry check goes into the release checklist instead."),
    ],
)

S(
    "h5-decision-process-5",
    "codex",
    "decision/process",
    "Decide how we handle tech debt in sprints",
    [
        U(
            "every sprint product fills 100% with features and debt grows. options discussed: 20% capacity rule, debt sprint every 6 weeks, or boy scout rule only. help me make the case and write the agreement, EM asked me"
        ),
        SH(
            "jira issue list -q 'labels = tech-debt AND status != Done' --plain --columns key,created | wc -l; jira issue list -q 'labels = incident AND created >= -90d' --plain | wc -l",
            "87\n9",
        ),
        A(
            "Data: 87 open tech-debt tickets, 9 incidents in 90 days (several linked to debt tickets?). The case:\n\n- **Boy scout only**: free but never touches larger items (migrations, upgrades).\n- **Debt sprint every 6 weeks**: visible, but debt waits up to 6 weeks, and these sprints get cancelled first when a deadline hits.\n- **20% capacity**: steady, predictable for product planning, engineers pick from a ranked debt backlog.\n\nRecommend 20% with a ranked backlog, reviewed monthly with product."
        ),
        U("how many of the incidents link to debt tickets?"),
        SH(
            "jira issue list -q 'labels = incident AND created >= -90d AND issueLinkType = \"is caused by\"' --plain --columns key,links | grep -c 'DEBT-'",
            "5",
        ),
        A(
            "5 of 9 incidents in the last 90 days are linked to an open debt ticket. That's the strongest argument for steady capacity."
        ),
        U("write the agreement"),
        WR(
            "docs/process/tech-debt.md",
            "# Tech debt agreement\n\n- 20% of each sprint's capacity goes to items from the ranked tech-debt backlog.\n- Ranking: engineering proposes, reviewed monthly with product; incident-linked items go first.\n- Boy-scout fixes in feature work remain encouraged but don't count toward the 20%.\n- Review after 2 quarters: open debt count (today 87) and incidents linked to debt (today 5/9 in 90 days).\n",
        ),
    ],
)

# ---------------------------------------------------------------- decision/tooling
S(
    "h5-decision-tooling-1",
    "claude-code",
    "decision/tooling",
    "Choose between GitHub Actions and GitLab CI",
    [
        U(
            "we're moving code from bitbucket. team wants to choose: GitHub + Actions or GitLab (self-managed) + GitLab CI. 20 devs, need self-hosted runners for GPU tests. help decide"
        ),
        A(
            "Factors for you:\n\n- **Self-hosted GPU runners**: both support them. GitLab runners are simpler to autoscale on your own k8s; GitHub has Actions Runner Controller (ARC) for k8s — works well, slightly more setup.\n- **Ops burden**: GitLab self-managed means you run upgrades, backups, and Postgres/Gitaly for 20 devs. GitHub (cloud) = none.\n- **Cost (20 users)**: GitHub Team ~$4/user/month; GitLab Premium ~$29/user/month (free tier lacks some approval rules).\n- **Ecosystem**: Actions marketplace is larger; your OSS dependencies are on GitHub.\n- **Compliance**: if code must stay on-prem, GitLab self-managed wins by default."
        ),
        U("no on prem requirement. but security team worries about runners with gpu connected to github"),
        A(
            "With ARC, runners make outbound connections only (no inbound ports), ephemeral pods per job, and you restrict GPU runner groups to specific private repos. Never attach self-hosted runners to public repos (fork PRs could run code on them)."
        ),
        U("ok github it is. write the decision + the runner constraint"),
        WR(
            "docs/decisions/2024-10-vcs-ci.md",
            "# VCS and CI: GitHub + GitHub Actions\n\nDecided 2024-10-09.\n\n- GitHub Team (cloud), Actions for CI.\n- GPU tests on self-hosted runners via Actions Runner Controller on our k8s cluster; ephemeral runners, outbound-only.\n- GPU runner group restricted to private repos `ml-*`; never available to public repos.\n\nRejected: GitLab self-managed — ops burden and ~7× license cost with no on-prem requirement.\n",
        ),
        U("👍"),
    ],
)

S(
    "h5-decision-tooling-2",
    "cursor",
    "decision/tooling",
    "Pick a monorepo build tool",
    [
        U(
            "our TS monorepo (14 packages, pnpm workspaces) CI takes 25 min because everything rebuilds. turborepo vs nx? choose one for us"
        ),
        SH(
            "cat pnpm-workspace.yaml && ls packages apps | wc -l && cat package.json | jq .scripts",
            'packages:\n  - \'apps/*\'\n  - \'packages/*\'\n16\n{\n  "build": "pnpm -r build",\n  "test": "pnpm -r test",\n  "lint": "pnpm -r lint"\n}',
        ),
        A(
            "Your setup is plain pnpm scripts per package. **Turborepo** drops in on top of that: a `turbo.json` describing task dependencies, local + remote caching, `--filter=...[origin/main]` for affected packages. **Nx** does the same plus generators, project graph plugins and stricter boundaries, but adopting it fully is a bigger change.\n\nFor the goal 'stop rebuilding everything' with minimal change: Turborepo."
        ),
        WR(
            "turbo.json",
            '{\n  "$schema": "https://turbo.build/schema.json",\n  "tasks": {\n    "build": { "dependsOn": ["^build"], "outputs": ["dist/**"] },\n    "test": { "dependsOn": ["build"] },\n    "lint": {}\n  }\n}\n',
        ),
        SH(
            "pnpm add -Dw turbo && pnpm turbo build && pnpm turbo build | tail -2",
            "...\n Tasks:    14 successful, 14 total\nCached:    14 cached, 14 total\n  Time:    412ms >>> FULL TURBO",
        ),
        U("remote cache without vercel?"),
        A(
            "Yes: self-host a compatible cache server (e.g. `ducktors/turborepo-remote-cache` backed by S3) and set TURBO_API/TURBO_TOKEN in CI. Or use GitHub Actions cache for `.turbo` as a simpler first step."
        ),
        U("start with gh actions cache, decided on turbo"),
    ],
)

S(
    "h5-decision-tooling-3",
    "gemini-cli",
    "decision/tooling",
    "Select an observability stack",
    [
        U(
            "startup, 8 services on k8s, no monitoring except cloudwatch logs. we need metrics, logs, traces. datadog vs grafana cloud vs self-host prometheus/loki/tempo. budget small. what do we pick"
        ),
        A(
            "Rough monthly for your size (8 services, ~20 nodes):\n- **Datadog**: infra ~$15/host×20 + APM ~$31/host + logs ingest/retention → easily $1.5–3k. Best UX, least work.\n- **Grafana Cloud**: free tier (10k metric series, 50GB logs, 50GB traces) then usage-based; likely $0–300 at your scale. Same OSS tools, managed.\n- **Self-host Prometheus/Loki/Tempo**: $ for storage/compute only (~$100–200), but someone maintains it — realistically 2–4 days/month for a small team.\n\nWith a small budget and no SRE: **Grafana Cloud**, instrument with OpenTelemetry so you can move later."
        ),
        U("how many metric series would we have?"),
        SH(
            "kubectl get --raw /metrics 2>/dev/null | grep -vc '^#'; kubectl get pods -A --no-headers | wc -l",
            "4812\n143",
        ),
        A(
            "API server alone exposes ~4.8k series; with kube-state-metrics, node exporter on ~20 nodes and app metrics for 143 pods, expect 30–60k active series unless you drop unused ones. That exceeds the 10k free tier — plan ~$8 per 1k series above it, or filter aggressively with relabeling."
        ),
        U("ok still grafana cloud, with otel. note it"),
        WR(
            "docs/decisions/observability.md",
            "# Observability: Grafana Cloud + OpenTelemetry\n\n- Apps instrumented with OTel SDKs; Grafana Alloy collector in cluster.\n- Expect 30–60k series; drop unused kube metrics via relabel rules.\n- Rejected: Datadog (cost), self-hosting (no SRE capacity).\n",
        ),
    ],
)

S(
    "h5-decision-tooling-4",
    "copilot",
    "decision/tooling",
    "Choose a Python type checker for the team",
    [
        U("mypy is slow on our codebase (4 min in CI). people suggest pyright. should we switch? 300k lines, django"),
        SH(
            "time mypy app/ 2>&1 | tail -1; time npx pyright app/ 2>&1 | tail -1",
            "Found 112 errors in 41 files (checked 1890 source files)\nreal\t3m58s\n2031 errors, 14 warnings, 0 informations\nreal\t0m41s",
        ),
        A(
            "Pyright: 41s vs mypy 3m58s, but 2,031 errors vs 112 — pyright is stricter by default and, importantly, doesn't understand Django model fields/managers without a plugin (django-stubs is a mypy plugin). Most of the 2k are `objects` not found and field types."
        ),
        U("so pyright not viable?"),
        A(
            "With django-types (stubs usable by pyright) the count drops a lot, but querysets and related managers stay less precise than with the mypy plugin. Middle option: keep mypy, fix speed — mypy daemon (`dmypy`) locally and a cached `.mypy_cache` in CI typically brings incremental runs under 30s."
        ),
        SH(
            "dmypy run -- app/ >/dev/null; touch app/billing/models.py; time dmypy run -- app/ 2>&1 | tail -1",
            "Found 112 errors in 41 files (checked 1890 source files)\nreal\t0m6.2s",
        ),
        U("6 seconds, ok staying on mypy + dmypy and cache in CI. decision made"),
        ED(
            ".github/workflows/ci.yml",
            "      - run: mypy app/",
            "      - uses: actions/cache@v4\n        with:\n          path: .mypy_cache\n          key: mypy-${{ hashFiles('requirements/*.txt') }}-${{ github.sha }}\n          restore-keys: mypy-${{ hashFiles('requirements/*.txt') }}-\n      - run: mypy app/",
        ),
    ],
)

S(
    "h5-decision-tooling-5",
    "cline",
    "decision/tooling",
    "Choose an issue tracker for the team",
    [
        U(
            "we use trello + github issues + a google sheet for bugs. chaos. 9 people (devs + designer + PM). linear vs jira vs github projects. pick one and tell me why in few lines, I present it tomorrow"
        ),
        A(
            "Pick **Linear**:\n- Fast, keyboard-first, devs actually keep it updated (the main failure of your current setup).\n- Cycles + triage inbox fit a 9-person team; GitHub integration closes issues from PRs and branch names.\n- ~$8/user → ~$72/month.\n\nWhy not Jira: powerful but configuration overhead and slowness are overkill for 9 people. Why not GitHub Projects: free and close to code, but weak for designer/PM workflows (no triage, limited roadmap views)."
        ),
        U("designer uses figma a lot, integration?"),
        A(
            "Linear has a Figma integration (embed frames in issues, link back from Figma). Jira has one too; GitHub Projects only via links."
        ),
        U("migration of 300 trello cards?"),
        A(
            "Linear has an importer for Trello (and GitHub Issues, and CSV for the sheet). Plan an afternoon: import, then archive what's older than 6 months."
        ),
        SH("ls ~/Downloads | grep -i trello", "trello-board-export-2024-11-02.json"),
        U("ok linear. write 5 bullet slide"),
        A(
            "- Decision: move to Linear (replaces Trello, GitHub Issues, bug sheet)\n- One place for bugs, features, design tasks\n- GitHub + Figma integrations; issues close from PRs\n- Cost ~$72/month for 9 people\n- Migration: import Trello/GitHub/CSV next week, archive >6-month items"
        ),
    ],
)


# ---------------------------------------------------------------- topic/learning
S(
    "h5-topic-learning-1",
    "claude-code",
    "topic/learning",
    "Teach me git rebase step by step",
    [
        U(
            "i'm junior, i always use merge and people say rebase. can you teach me rebase step by step on my branch? i'm scared to break things"
        ),
        SH(
            "git log --oneline --graph -8",
            "* 9a1c2e4 (HEAD -> feat/profile) fix typo\n* 51bd7a0 add avatar upload\n* 0e33f19 wip\n| * c7f2a10 (origin/main) bump deps\n| * 3d9e881 fix login redirect\n|/\n* 8b0f4d2 release 2.3",
        ),
        A(
            "Step 1 — what you have: your 3 commits start from 8b0f4d2; main moved on with 2 commits. Rebase will *replay* your 3 commits on top of c7f2a10, as if you started today.\n\nStep 2 — safety net: create a backup branch pointer, costs nothing:\n`git branch backup/profile`"
        ),
        SH(
            "git branch backup/profile && git fetch && git rebase origin/main",
            "Successfully rebased and updated refs/heads/feat/profile.",
        ),
        SH(
            "git log --oneline --graph -6",
            "* e01d3b2 (HEAD -> feat/profile) fix typo\n* 7c4a9f1 add avatar upload\n* 2b8e6d0 wip\n* c7f2a10 (origin/main) bump deps\n* 3d9e881 fix login redirect\n* 8b0f4d2 release 2.3",
        ),
        A(
            "Step 3 — look: a straight line now. Your commits got new ids (e01d3b2…) because their parent changed — that's why rebase 'rewrites history'."
        ),
        U("what if there was conflict?"),
        A(
            "Git stops at the commit that conflicts. You fix the files, then `git add <file>` and `git rebase --continue`. If you panic: `git rebase --abort` returns to exactly before. And your backup branch is still there."
        ),
        U("ok next: how to squash wip and typo into avatar"),
        A(
            "Step 4 — interactive rebase: `git rebase -i origin/main`. An editor opens with 3 lines; keep `pick` on 'wip', change 'add avatar upload' and 'fix typo' to `fixup` (or `squash` to edit the message). Save, close."
        ),
        SH(
            "GIT_SEQUENCE_EDITOR=\"sed -i -e '2,3s/^pick/fixup/'\" git rebase -i origin/main && git log --oneline -2",
            "Successfully rebased and updated refs/heads/feat/profile.\n4f1e0aa wip\nc7f2a10 bump deps",
        ),
        A(
            "One commit now, but its message is 'wip' — reword it with `git commit --amend -m 'Add avatar upload to profile'`. Step 5: since the branch was already pushed, you must push with `git push --force-with-lease` (refuses if someone else pushed meanwhile)."
        ),
        U("thanks this was super clear"),
    ],
)

S(
    "h5-topic-learning-2",
    "cursor",
    "topic/learning",
    "Learn SQL window functions with our data",
    [
        U(
            "can you teach me window functions using our orders table? i know group by but not OVER. go slowly with examples i can run"
        ),
        SH(
            "psql $RO_DB -c '\\d orders'",
            '        Table "public.orders"\n   Column    |     Type      \n-------------+---------------\n id          | bigint        \n customer_id | bigint        \n total       | numeric(10,2) \n created_at  | timestamptz   ',
        ),
        A(
            "Lesson 1: GROUP BY collapses rows; a window function keeps every row and adds a computed column. Example — each order with the customer's total spending next to it:"
        ),
        SH(
            'psql $RO_DB -c "SELECT id, customer_id, total, sum(total) OVER (PARTITION BY customer_id) AS customer_total FROM orders ORDER BY customer_id LIMIT 5;"',
            " id  | customer_id | total  | customer_total \n-----+-------------+--------+----------------\n 101 |           1 |  20.00 |          95.50\n 188 |           1 |  75.50 |          95.50\n 102 |           2 |  12.00 |          12.00\n 140 |           3 |  40.00 |         110.00\n 203 |           3 |  70.00 |         110.00",
        ),
        U("ok got it. and running total?"),
        A("Lesson 2: add ORDER BY inside OVER — the window becomes 'all rows up to this one':"),
        SH(
            'psql $RO_DB -c "SELECT id, customer_id, created_at::date, total, sum(total) OVER (PARTITION BY customer_id ORDER BY created_at) AS running FROM orders WHERE customer_id = 3;"',
            " id  | customer_id | created_at | total | running \n-----+-------------+------------+-------+---------\n 140 |           3 | 2024-01-04 | 40.00 |   40.00\n 203 |           3 | 2024-02-11 | 70.00 |  110.00",
        ),
        U("and 'first order of each customer'?"),
        A(
            "Lesson 3: `row_number()` numbers rows within each partition; filter on 1 in an outer query (you can't use window results in WHERE directly):\n\n```sql\nSELECT * FROM (\n  SELECT o.*, row_number() OVER (PARTITION BY customer_id ORDER BY created_at) AS n\n  FROM orders o) x\nWHERE n = 1;\n```\nExercise for you: use `lag(total)` to show each order's previous order total for the same customer."
        ),
        U("lag(total) over (partition by customer_id order by created_at) ?"),
        A("Exactly right. The first order of each customer gets NULL because there's no previous row."),
    ],
)

S(
    "h5-topic-learning-3",
    "gemini-cli",
    "topic/learning",
    "Walk me through Kubernetes basics on a local cluster",
    [
        U(
            "I'm backend dev, never used kubernetes. teach me basics hands-on with kind: pod, deployment, service. in small steps please, explain each command"
        ),
        SH(
            "kind create cluster --name learn",
            'Creating cluster "learn" ...\n ✓ Ensuring node image (kindest/node:v1.30.0) 🖼\n ✓ Preparing nodes 📦\n ✓ Starting control-plane 🕹️\nSet kubectl context to "kind-learn"',
        ),
        A(
            "Step 1: a cluster is a set of machines (here one Docker container) running the Kubernetes control plane. `kubectl` talks to it.\n\nStep 2: a **Pod** is the smallest unit — one or more containers sharing network. Let's run one:"
        ),
        SH(
            "kubectl run hello --image=nginx:1.27 && kubectl get pods -o wide",
            "pod/hello created\nNAME    READY   STATUS    RESTARTS   AGE   IP           NODE\nhello   1/1     Running   0          8s    10.244.0.5   learn-control-plane",
        ),
        U("if I delete it does it come back?"),
        SH(
            "kubectl delete pod hello && kubectl get pods",
            'pod "hello" deleted\nNo resources found in default namespace.',
        ),
        A("No — a bare pod is not managed. Step 3: a **Deployment** keeps N copies running and replaces dead ones:"),
        SH(
            "kubectl create deployment web --image=nginx:1.27 --replicas=3 && kubectl delete pod -l app=web --wait=false | head -1 && sleep 3 && kubectl get pods",
            'deployment.apps/web created\npod "web-7d9c8b5f6-4kqzt" deleted\nNAME                  READY   STATUS    RESTARTS   AGE\nweb-7d9c8b5f6-8vwrn   1/1     Running   0          2s\nweb-7d9c8b5f6-bx2lm   1/1     Running   0          14s\nweb-7d9c8b5f6-q9d4c   1/1     Running   0          14s',
        ),
        A(
            "A new pod appeared within seconds. Step 4: pods get new IPs each time, so a **Service** gives one stable name and load-balances:"
        ),
        SH(
            "kubectl expose deployment web --port=80 && kubectl run tmp --rm -it --image=busybox --restart=Never -- wget -qO- web | head -4",
            "service/web exposed\n<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>",
        ),
        U("nice! next lesson configmaps tomorrow"),
    ],
)

S(
    "h5-topic-learning-4",
    "aider",
    "topic/learning",
    "Learning Rust ownership with exercises",
    [
        U(
            "I come from python. rust borrow checker keeps yelling at me. teach me ownership with tiny exercises, one at a time, and let me try"
        ),
        A(
            'Exercise 1. Predict whether this compiles:\n\n```rust\nfn main() {\n    let s = String::from("hi");\n    let t = s;\n    println!("{}", s);\n}\n```'
        ),
        U("no? because s moved to t"),
        A(
            "Correct. `String` owns heap memory; `let t = s` moves ownership, `s` is no longer usable. Python would share the reference; Rust gives each value one owner so it knows exactly when to free it.\n\nExercise 2: make it compile without cloning."
        ),
        U("let t = &s; ?"),
        A(
            'Yes — `t` borrows. Both usable as long as the borrow lives. Exercise 3:\n\n```rust\nlet mut v = vec![1, 2, 3];\nlet first = &v[0];\nv.push(4);\nprintln!("{}", first);\n```'
        ),
        U("this fails? but why, push doesnt touch v[0]"),
        SH(
            "cargo run --example ex3 2>&1 | head -9",
            'error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable\n --> examples/ex3.rs:4:5\n  |\n3 |     let first = &v[0];\n  |                  - immutable borrow occurs here\n4 |     v.push(4);\n  |     ^^^^^^^^^ mutable borrow occurs here\n5 |     println!("{}", first);\n  |                    ----- immutable borrow later used here',
        ),
        A(
            "`push` may reallocate the vector's buffer to a bigger place in memory; then `first` would point to freed memory. The rule 'many readers OR one writer' prevents that whole class of bugs. Fix: use `first` before pushing, or copy the value: `let first = v[0];` (i32 is Copy)."
        ),
        U("ahh makes sense now. more tomorrow"),
    ],
)

S(
    "h5-topic-learning-5",
    "copilot",
    "topic/learning",
    "Tutorial: write my first unit tests in Jest",
    [
        U(
            "never wrote tests 😅 our node project has jest installed. teach me from zero using my function in src/price.js"
        ),
        RD(
            "src/price.js",
            "function applyDiscount(price, code) {\n  if (code === 'SAVE10') return price * 0.9;\n  if (code === 'HALF') return price / 2;\n  return price;\n}\n\nmodule.exports = { applyDiscount };",
        ),
        A(
            "Step 1: a test file next to it, named `price.test.js`. Jest finds `*.test.js` automatically. Step 2: each `test()` has a name and an expectation:"
        ),
        WR(
            "src/price.test.js",
            "const { applyDiscount } = require('./price');\n\ntest('SAVE10 takes 10% off', () => {\n  expect(applyDiscount(100, 'SAVE10')).toBe(90);\n});\n\ntest('unknown code keeps the price', () => {\n  expect(applyDiscount(100, 'NOPE')).toBe(100);\n});\n",
        ),
        SH(
            "npx jest src/price.test.js",
            "PASS  src/price.test.js\n  ✓ SAVE10 takes 10% off (2 ms)\n  ✓ unknown code keeps the price\n\nTests:       2 passed, 2 total",
        ),
        U("now you let me write one for HALF"),
        A("Go ahead — add a third `test(...)` for HALF with price 50."),
        U("test('half', () => { expect(applyDiscount(50,'HALF')).toBe(25) })"),
        SH("npx jest src/price.test.js 2>&1 | tail -2", "Tests:       3 passed, 3 total\nTime:        0.41 s"),
        A(
            "Passes. Step 3 — edge cases are where tests pay off. Try: what should `applyDiscount(19.99, 'SAVE10')` return? Write `toBe(17.991)` and see what happens — floats will teach you about `toBeCloseTo`."
        ),
        U("it failed with 17.991000000000003 lol. ok toBeCloseTo"),
    ],
)

# ---------------------------------------------------------------- topic/explanation
S(
    "h5-topic-explanation-1",
    "claude-code",
    "topic/explanation",
    "Why does Postgres VACUUM matter",
    [
        U(
            "dba left. autovacuum warnings in logs. what does vacuum actually do and why does postgres need it when mysql doesn't (?)"
        ),
        SH(
            'psql $RO_DB -c "SELECT relname, n_dead_tup, n_live_tup, last_autovacuum FROM pg_stat_user_tables ORDER BY n_dead_tup DESC LIMIT 3;"',
            "   relname    | n_dead_tup | n_live_tup |        last_autovacuum        \n--------------+------------+------------+-------------------------------\n sessions     |   48211093 |    1203344 | 2024-08-02 03:11:40\n events       |    2210033 |   99812011 | 2024-09-18 22:01:09\n users        |      12003 |     840221 | 2024-09-19 10:20:51",
        ),
        A(
            "Postgres uses MVCC by keeping old row versions *in the table*: an UPDATE writes a new version and marks the old one dead; DELETE only marks. Readers with older snapshots can still see old versions. VACUUM later reclaims dead versions once no transaction can see them, and updates the visibility map (enables index-only scans).\n\nMySQL/InnoDB also has MVCC, but keeps old versions in a separate undo log that its purge thread cleans — the same job, done elsewhere, so you don't see it as 'vacuum'.\n\nYour `sessions` table has 48M dead rows vs 1.2M live, and autovacuum last finished in August — it's probably never completing on that table (high churn, default thresholds)."
        ),
        U("why would it never complete"),
        A(
            "Common causes: a long-running transaction or an idle-in-transaction connection holds back the oldest snapshot, so dead rows can't be removed; or the default cost limit throttles it so much that it can't keep up with churn. Let me check for old transactions."
        ),
        SH(
            'psql $RO_DB -c "SELECT pid, state, now()-xact_start AS age, left(query,40) FROM pg_stat_activity WHERE xact_start IS NOT NULL ORDER BY xact_start LIMIT 2;"',
            "  pid  |        state        |       age        |                   left                   \n-------+---------------------+------------------+------------------------------------------\n 18812 | idle in transaction | 41 days 02:11:09 | SELECT * FROM sessions WHERE user_id = $\n 20133 | active              | 00:00:00.00412   | SELECT pid, state, now()-xact_start AS a",
        ),
        A(
            "There it is: a connection idle in transaction for 41 days. As long as it's open, no row deleted after it started can be vacuumed. That's the explanation; terminating pid 18812 (and setting `idle_in_transaction_session_timeout`) would let autovacuum catch up."
        ),
        U("makes sense. and bloat doesn't shrink after vacuum right?"),
        A(
            "Right: plain VACUUM makes space reusable inside the table but rarely returns it to the OS. VACUUM FULL or pg_repack rewrites the table to shrink the file."
        ),
    ],
)

S(
    "h5-topic-explanation-2",
    "cursor",
    "topic/explanation",
    "How React useEffect cleanup and strict mode work",
    [
        U("why does my useEffect run twice in dev?? the api gets called 2 times. is react broken"),
        RD(
            "src/pages/Dashboard.tsx",
            "useEffect(() => {\n  fetch('/api/stats').then(r => r.json()).then(setStats);\n}, []);",
        ),
        SH("grep -n StrictMode src/main.tsx", "8:  <React.StrictMode>"),
        A(
            "Not broken: in React 18 StrictMode (dev only), React mounts the component, unmounts it, and mounts it again, running your effect → cleanup → effect. It simulates what happens with fast refresh, offscreen rendering, or navigation back — cases where effects rerun. It's a test that your effect is safe to run twice. In production builds it runs once."
        ),
        U("so how should I write it"),
        A(
            "Give the effect a cleanup that cancels work:\n\n```tsx\nuseEffect(() => {\n  const ctrl = new AbortController();\n  fetch('/api/stats', { signal: ctrl.signal })\n    .then(r => r.json()).then(setStats)\n    .catch(e => { if (e.name !== 'AbortError') throw e; });\n  return () => ctrl.abort();\n}, []);\n```\nThe first request is aborted; you'll still see 2 requests in the network tab in dev, one cancelled. The bug StrictMode is hinting at: without cleanup, a slow first response could overwrite a newer one."
        ),
        U("why not just remove strictmode"),
        A(
            "You can, but you'd lose the warning for real bugs like subscriptions that never unsubscribe, or state updates after unmount. Libraries like TanStack Query dedupe requests, which is why data fetching in effects is often replaced by them."
        ),
        U("got it thanks"),
        A(
            "One more detail: the double-invoke also applies to component bodies and reducers in dev — so side effects directly in render (not in effects) show up twice too."
        ),
    ],
)

S(
    "h5-topic-explanation-3",
    "codex",
    "topic/explanation",
    "Explain how our auth middleware works",
    [
        U(
            "new to the codebase. explain how a request gets authenticated in this app, from the http request to the handler. don't change anything"
        ),
        SH(
            "sed -n 1,60p internal/http/middleware/auth.go",
            'package middleware\n\nimport (\n\t"context"\n\t"net/http"\n\t"strings"\n\n\t"github.com/acme/app/internal/auth"\n)\n\ntype ctxKey struct{}\n\n// Authenticate accepts a session cookie (browser) or a bearer token (API).\nfunc Authenticate(sessions auth.SessionStore, tokens auth.TokenVerifier) func(http.Handler) http.Handler {\n\treturn func(next http.Handler) http.Handler {\n\t\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {\n\t\t\tvar p *auth.Principal\n\t\t\tif h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {\n\t\t\t\tp, _ = tokens.Verify(r.Context(), strings.TrimPrefix(h, "Bearer "))\n\t\t\t} else if c, err := r.Cookie("sid"); err == nil {\n\t\t\t\tp, _ = sessions.Lookup(r.Context(), c.Value)\n\t\t\t}\n\t\t\tif p != nil {\n\t\t\t\tr = r.WithContext(context.WithValue(r.Context(), ctxKey{}, p))\n\t\t\t}\n\t\t\tnext.ServeHTTP(w, r)\n\t\t})\n\t}\n}\n\n// Require rejects requests without a principal.\nfunc Require(next http.Handler) http.Handler {\n\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {\n\t\tif From(r.Context()) == nil {\n\t\t\thttp.Error(w, "unauthorized", http.StatusUnauthorized)\n\t\t\treturn\n\t\t}\n\t\tnext.ServeHTTP(w, r)\n\t})\n}\n\nfunc From(ctx context.Context) *auth.Principal {\n\tp, _ := ctx.Value(ctxKey{}).(*auth.Principal)\n\treturn p\n}',
        ),
        SH(
            "grep -n 'Authenticate\\|Require' internal/http/router.go",
            "22:\tr.Use(middleware.Authenticate(sessions, tokens))\n31:\tr.Group(func(r chi.Router) {\n32:\t\tr.Use(middleware.Require)",
        ),
        A(
            "Flow:\n1. Every request passes `Authenticate` (router.go:22). It never rejects — it only *identifies*: Bearer token → `tokens.Verify` (API clients); otherwise the `sid` cookie → `sessions.Lookup` (browsers). Errors are ignored on purpose: an invalid credential is treated like no credential.\n2. If identified, the `Principal` is stored in the request context under a private key type (`ctxKey{}`), so no other package can overwrite it.\n3. Routes inside the group at router.go:31 add `Require`, which returns 401 if there's no principal. Public routes (login, health) are outside that group.\n4. Handlers call `middleware.From(ctx)` to get the user.\n\nSo authentication (who) and the 'must be logged in' rule are split into two middlewares."
        ),
        U("where are permissions checked then? like admin"),
        GR(
            "Principal\\).*Role|HasRole",
            "internal/http/handlers/admin.go:19:\tif !middleware.From(r.Context()).HasRole(auth.RoleAdmin) {",
        ),
        A(
            "Authorization is per handler: admin handlers check `HasRole(auth.RoleAdmin)` themselves (admin.go:19). There's no central role middleware."
        ),
    ],
)

S(
    "h5-topic-explanation-4",
    "aider",
    "topic/explanation",
    "What happens when Kafka consumer group rebalances",
    [
        U(
            "can someone explain what actually happens in a kafka consumer group rebalance? we see 'Attempt to heartbeat failed since group is rebalancing' in logs a lot and processing pauses"
        ),
        A(
            "A consumer group splits a topic's partitions among members. When membership changes — a consumer joins, leaves, crashes, or *misses its deadline* — the group coordinator (a broker) triggers a rebalance:\n\n1. Every member is told to rejoin (that's your heartbeat log line).\n2. With the classic eager protocol, all members **revoke all partitions** and stop processing.\n3. A leader member computes a new assignment; the coordinator distributes it.\n4. Members resume from the last committed offsets.\n\nSo every rebalance pauses the whole group, and uncommitted work is redone."
        ),
        U("but our consumers don't crash. why rebalances?"),
        A(
            "Most common cause with healthy pods: `max.poll.interval.ms` (default 5 min). If processing one batch from `poll()` takes longer, the consumer is considered dead and kicked out, then rejoins → two rebalances. Second cause: rolling deploys (each pod restart = leave + join). What's your batch processing time?"
        ),
        U("batches of 500, each msg calls an api ~1s. so 500s i guess"),
        A(
            "That's 8+ minutes per poll — over the 5-minute limit, so each consumer gets evicted mid-batch, repeatedly. That explains it. Knobs: `max.poll.records` lower (e.g. 50), or raise `max.poll.interval.ms`. And the cooperative-sticky assignor makes rebalances incremental (only moved partitions pause) instead of stop-the-world."
        ),
        U("ok now I understand, thanks. will talk with team what to change"),
    ],
)

S(
    "h5-topic-explanation-5",
    "gemini-cli",
    "topic/explanation",
    "Why is my Docker image so big",
    [
        U(
            "why our python docker image is 2.1GB? the app is like 5MB of code. i want to understand layers before I try to fix"
        ),
        SH(
            "docker history --no-trunc --format '{{.Size}}\\t{{.CreatedBy}}' acme/api:latest | head -8",
            "412MB\tRUN /bin/sh -c pip install -r requirements.txt\n0B\tCOPY requirements.txt .\n688MB\tRUN /bin/sh -c apt-get update && apt-get install -y build-essential libpq-dev git\n5.1MB\tCOPY . /app\n1.02GB\t/bin/sh -c #(nop) ADD file:... in / (python:3.11 base)\n",
        ),
        A(
            "Each Dockerfile instruction adds a layer; the image size is the sum of layers. Yours:\n- **1.02 GB base**: `python:3.11` is the full Debian image with compilers and docs. `python:3.11-slim` is ~130 MB.\n- **688 MB apt**: build-essential and git are needed only to *compile* wheels, but stay in the final image. apt lists also remain.\n- **412 MB pip**: includes pip cache and build artefacts.\n- Code is the 5.1 MB you expected.\n\nImportant detail: deleting files in a later RUN doesn't shrink the image — the earlier layer still contains them. That's why multi-stage builds exist: compile in one stage, copy only the installed packages into a slim final stage."
        ),
        U("what's using 412 in pip layer?"),
        SH(
            "docker run --rm acme/api:latest sh -c 'du -sh /root/.cache/pip /usr/local/lib/python3.11/site-packages 2>/dev/null; du -sh /usr/local/lib/python3.11/site-packages/* | sort -h | tail -3'",
            "188M\t/root/.cache/pip\n224M\t/usr/local/lib/python3.11/site-packages\n31M\t/usr/local/lib/python3.11/site-packages/botocore\n38M\t/usr/local/lib/python3.11/site-packages/pandas\n61M\t/usr/local/lib/python3.11/site-packages/numpy.libs",
        ),
        A(
            "188 MB is pip's download cache (use `--no-cache-dir`); 224 MB real packages, mostly numpy/pandas/botocore. So a realistic target is ~130 (slim) + ~230 (packages) + code ≈ 370 MB."
        ),
        U("clear, thanks. will try multi-stage next"),
    ],
)

# ---------------------------------------------------------------- topic/comparison
S(
    "h5-topic-comparison-1",
    "claude-code",
    "topic/comparison",
    "Difference between Redis and Memcached for our sessions",
    [
        U(
            "whats the actual difference redis vs memcached? we store sessions in memcached and someone says switch. not deciding yet, just want to understand"
        ),
        A(
            "- **Data model**: memcached = key → blob. Redis = key → strings, hashes, lists, sets, sorted sets, streams; operations on them server-side (e.g. update one field of a session hash).\n- **Persistence**: memcached is memory-only; restart = all sessions gone (users logged out). Redis can persist (RDB snapshots/AOF) and replicate.\n- **Eviction**: both LRU-ish; memcached evicts per slab class, which can evict sessions while memory is free in other slabs.\n- **Threads**: memcached is multi-threaded; Redis executes commands on one main thread (I/O threads since 6) — per-instance throughput is usually still plenty.\n- **Expiry**: both TTL per key.\n- **HA**: memcached has no replication; clients shard. Redis has replicas + Sentinel/Cluster."
        ),
        U("do we actually lose sessions on restart today?"),
        SH(
            "grep -n 'memcached\\|SESSION_ENGINE' config/settings/prod.py",
            "44:SESSION_ENGINE = 'django.contrib.sessions.backends.cache'\n45:CACHES = {'default': {'BACKEND': 'django.core.cache.backends.memcached.PyMemcacheCache', 'LOCATION': ['mc-1:11211', 'mc-2:11211']}}",
        ),
        A(
            "Yes: `backends.cache` (not `cached_db`) keeps sessions only in memcached. Restarting mc-1 logs out roughly half the users (keys are sharded across the two nodes). Django's `cached_db` backend would keep memcached but add DB durability — a third option to compare."
        ),
        U("interesting, ok that's enough for the meeting"),
    ],
)

S(
    "h5-topic-comparison-2",
    "cursor",
    "topic/comparison",
    "Compare Server Components vs client components",
    [
        U(
            "next.js app router: whats the difference between server and client components really? when I put 'use client' what changes? we ended up choosing to keep most pages server, but I want to understand"
        ),
        A(
            "- **Where code runs**: Server Components render only on the server (at request or build). Their code never ships to the browser. Client Components render on the server for the initial HTML *and* hydrate in the browser; their JS is in the bundle.\n- **What they can do**: Server: `async` components, direct DB/filesystem access, secrets. Client: state, effects, event handlers, browser APIs.\n- **`'use client'`** marks a boundary: that file and everything it imports become client code. Server Components can render Client Components and pass serializable props; a Client Component can't import a Server Component, but can receive one as `children`."
        ),
        SH(
            "npx next build 2>&1 | grep -A6 'Route (app)'",
            "Route (app)                Size     First Load JS\n┌ ○ /                      1.2 kB         88.1 kB\n├ ƒ /dashboard             42.8 kB        129.7 kB\n├ ƒ /products/[id]         890 B          87.8 kB\n└ ○ /settings              38.1 kB        125 kB",
        ),
        U("why dashboard 42kb?"),
        GR("use client", "app/dashboard/page.tsx:1:'use client';\napp/settings/SettingsForm.tsx:1:'use client';"),
        A(
            "`app/dashboard/page.tsx` is itself a client component, so the whole page and its imports (chart lib) are in the bundle. /products/[id] is a server page: 890 B. That's the difference in practice — pushing `'use client'` down to the leaf (only the interactive chart) would let the rest stay server-rendered."
        ),
        U("good explanation thx"),
    ],
)

S(
    "h5-topic-comparison-3",
    "gemini-cli",
    "topic/comparison",
    "Compare Terraform and Pulumi",
    [
        U(
            "compare terraform vs pulumi for me, practical differences. our infra is in terraform, new team lead likes pulumi. I just want facts"
        ),
        A(
            "- **Language**: Terraform uses HCL (declarative, limited loops/conditionals via `for_each`, `count`, dynamic blocks). Pulumi uses general-purpose languages (TS, Python, Go, C#) — real functions, classes, tests with normal frameworks.\n- **Engine/state**: both compute a diff between desired state and a state file; Terraform state in S3/TF Cloud etc., Pulumi state in Pulumi Cloud or self-managed backend (S3).\n- **Providers**: Pulumi can use Terraform providers via bridging, so coverage is similar.\n- **Licensing**: Terraform moved to BSL in 2023 (OpenTofu is the MPL fork); Pulumi engine is Apache 2.0.\n- **Ecosystem/hiring**: Terraform far more common; modules registry, more people know HCL.\n- **Migration**: `pulumi convert --from terraform` converts HCL; state import via `pulumi import`. Not free for a big codebase."
        ),
        SH("find infra -name '*.tf' | wc -l && find infra -name '*.tf' | xargs cat | wc -l", "214\n18322"),
        U("so for us how big the migration would be"),
        A(
            "214 .tf files, ~18k lines. Converter output typically needs manual cleanup for modules and dynamic blocks; and every resource's state must be imported without recreating. That's weeks of work plus risk — a fact to weigh against language benefits. Many teams run both: new stacks in Pulumi, existing ones stay."
        ),
        U("ok clear"),
        A(
            "One more fact often missed: Pulumi programs can read Terraform state outputs (`terraform.state.RemoteStateReference`), so mixing is practical."
        ),
    ],
)

S(
    "h5-topic-comparison-4",
    "copilot",
    "topic/comparison",
    "Difference between threads and asyncio in Python",
    [
        U(
            "i dont get when to use threading vs asyncio vs multiprocessing in python. our scraper is slow. explain the difference, with our case"
        ),
        RD(
            "scraper/run.py",
            "import requests\nfrom bs4 import BeautifulSoup\n\nfor url in URLS:  # ~5000 urls\n    html = requests.get(url, timeout=20).text\n    parse_and_save(BeautifulSoup(html, 'lxml'))",
        ),
        A(
            "- **Threads**: OS threads, but the GIL lets only one run Python bytecode at a time. While one waits on network, others run → good for I/O-bound work with blocking libraries (requests).\n- **asyncio**: one thread, cooperative tasks; `await` yields during I/O. Scales to thousands of concurrent connections cheaply, but needs async libraries (httpx/aiohttp), and any blocking call freezes everything.\n- **multiprocessing**: separate processes, no shared GIL → real CPU parallelism, at the cost of memory and pickling data between processes.\n\nYour scraper: 5000 sequential HTTP requests → I/O bound. Threads (ThreadPoolExecutor with requests) or asyncio (httpx) both help; parsing with lxml is CPU but releases the GIL partly."
        ),
        U("how much time is network vs parse?"),
        SH(
            "python -m cProfile -s cumtime scraper/run.py --limit 50 2>&1 | grep -E 'requests/api.py.*get|parse_and_save' | head -2",
            "       50    0.002    0.000   41.220    0.824 api.py:62(get)\n       50    0.011    0.000    2.904    0.058 run.py:14(parse_and_save)",
        ),
        A(
            "93% of time in network (0.82s/request) vs 6% parsing (58ms). So it's I/O-bound; multiprocessing wouldn't help much. With 20 threads the run would drop roughly from ~70 min to ~4 min, bounded by the sites' rate limits."
        ),
        U("ok understood the difference now"),
    ],
)

S(
    "h5-topic-comparison-5",
    "codex",
    "topic/comparison",
    "Compare UUIDv4, UUIDv7 and bigint ids",
    [
        U(
            "uuid v4 vs v7 vs bigserial for primary keys in postgres, what are the real differences? performance and otherwise. curious, we're fine today"
        ),
        A(
            "- **bigserial**: 8 bytes, sequential → index inserts always at the right edge (compact B-tree, good cache locality). Reveals counts/growth; needs coordination across shards; ids guessable.\n- **UUIDv4**: 16 bytes, random → inserts hit random index pages: more page splits, bigger indexes, more WAL and cache misses at scale. Globally unique without coordination, not guessable.\n- **UUIDv7**: 16 bytes, time-ordered prefix (ms timestamp) + random → insert pattern close to bigserial, still globally unique. Leaks creation time.\n\nSize: each FK column and index entry doubles with UUID vs bigint."
        ),
        U("can you show the insert difference quickly"),
        SH(
            "psql $SCRATCH_DB -f /tmp/idbench.sql",
            " id_type   | rows     | insert_s | index_mb\n-----------+----------+----------+----------\n bigserial | 5000000  |     11.2 |      107\n uuid_v7   | 5000000  |     13.9 |      150\n uuid_v4   | 5000000  |     24.6 |      211",
        ),
        A(
            "On a scratch DB, 5M rows: v4 inserts ~2.2× slower than bigserial and its index is ~2× larger (fragmented); v7 stays close to bigserial (+24% time, +40% index, the size difference from 16 vs 8 bytes). Postgres 17 doesn't have a built-in `uuidv7()` yet (18 adds it), so v7 usually comes from the app or an extension."
        ),
        U("interesting, thanks"),
    ],
)


# ---------------------------------------------------------------- uncategorized (separate file)
UNCAT: list[dict[str, Any]] = []


def X(sid: str, agent: str, title: str, turns: list[tuple[str, ...]]) -> None:
    UNCAT.append({"id": sid, "agent": agent, "expect": "uncategorized", "title": title, "turns": turns})


X(
    "h5-uncat-1",
    "claude-code",
    "continue",
    [
        U("continue"),
    ],
)

X(
    "h5-uncat-2",
    "cursor",
    "hello",
    [
        U("hi"),
        A("Hi! What would you like to work on?"),
        U("nothing yet, just checking this works"),
        A("It works. Ask whenever you're ready."),
    ],
)

X(
    "h5-uncat-3",
    "codex",
    "Aborted session",
    [
        U("<system-reminder>The user interrupted the previous request.</system-reminder>"),
        A("Request interrupted by user."),
    ],
)

X(
    "h5-uncat-4",
    "gemini-cli",
    "Redacted transcript",
    [
        U("[REDACTED] [REDACTED] [REDACTED]\n[REDACTED]"),
        A("[REDACTED]"),
        U("[REDACTED] [REDACTED]"),
        A("[REDACTED] [REDACTED] [REDACTED]"),
    ],
)

X(
    "h5-uncat-5",
    "copilot",
    "Birthday message for colleague",
    [
        U("write a short funny birthday message for my colleague Jana, she loves cats and coffee"),
        A("Happy birthday, Jana! May your coffee be strong, your cats be cuddly, and your day be purr-fect. ☕🐱"),
        U("less cheesy"),
        A("Happy birthday, Jana — hope today brings good coffee and a cat that actually lets you sleep in."),
    ],
)

X(
    "h5-uncat-6",
    "aider",
    "thanks",
    [
        U("thanks, that's all for today"),
        A("You're welcome — have a good evening!"),
    ],
)

X(
    "h5-uncat-7",
    "cline",
    "Weekend trip recommendations",
    [
        U("not code related sorry — any ideas for a weekend trip from Munich in november? no car, 2 people"),
        A(
            "By train: Salzburg (1.5h) for the old town and early Christmas markets; Lake Tegernsee (1h) for walks and a sauna; Nuremberg (1h) for museums. Bring rain gear."
        ),
        U("salzburg sounds nice ty"),
    ],
)

X(
    "h5-uncat-8",
    "claude-code",
    "Session ended by error",
    [
        U("ok"),
        A('API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'),
    ],
)

X(
    "h5-uncat-9",
    "gemini-cli",
    "Testing the hook",
    [
        U("test"),
        A("Received. Anything I can help with?"),
        U("no, I'm testing the hook config, ignore"),
    ],
)

X(
    "h5-uncat-10",
    "cursor",
    "Recipe question",
    [
        U("how long to boil eggs for soft yolk"),
        A("About 6–6.5 minutes from boiling water for a jammy soft yolk, then into cold water."),
    ],
)

X(
    "h5-uncat-11",
    "codex",
    "Chit-chat about weather",
    [
        U("its snowing here first time this year!!"),
        A("Nice — enjoy it! Anything you'd like to work on today?"),
        U("no just wanted to tell someone haha"),
        A("Happy to hear it. ❄️"),
    ],
)

X(
    "h5-uncat-12",
    "copilot",
    "Empty session with only context",
    [
        U("<system-reminder>\nWorkspace: /home/ana/projects/shop\nOpen files: none\n</system-reminder>"),
        A("How can I help?"),
    ],
)


def main() -> None:
    out = HERE / "eval_holdout5.jsonl"
    out_uncat = HERE / "eval_holdout5_uncat.jsonl"
    rows = [build(s) for s in SESSIONS]
    rows_uncat = [build(s) for s in UNCAT]
    ids = [r["id"] for r in rows + rows_uncat]
    assert len(ids) == len(set(ids)), "duplicate ids"
    keys = [m["key"] for r in rows + rows_uncat for m in r["messages"]]
    assert len(keys) == len(set(keys)), "duplicate message keys"
    counts = Counter(r["expect"] for r in rows)
    assert len(counts) == 22 and set(counts.values()) == {5}, counts
    with out.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with out_uncat.open("w", encoding="utf-8") as f:
        for r in rows_uncat:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} sessions to {out.name}, {len(rows_uncat)} to {out_uncat.name}")


if __name__ == "__main__":
    main()
