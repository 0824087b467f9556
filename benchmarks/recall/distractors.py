"""Distractor sessions: many similar coding-agent sessions from the same six projects and topics.

Generated from templates with variation (seeded): per project, tasks in the same stack and with
the same vocabulary as the labeled facts (dependency bumps, webhooks, retries, pools, probes,
tokens, flaky tests, slow builds, ...), plus generic tasks every project has (tests, renames,
reviews, explanations, config options). A distractor never states one of the labeled facts.
"""

from __future__ import annotations

import random
import re

BANKS: dict[str, dict[str, list[str]]] = {
    "payments-api": {
        "mod": [
            "charges",
            "refunds",
            "payouts",
            "invoices",
            "disputes",
            "customers",
            "webhooks",
            "ledger",
            "settlements",
            "fx",
            "subscriptions",
            "receipts",
        ],
        "dep": [
            "fastapi",
            "pydantic",
            "sqlalchemy",
            "psycopg",
            "stripe",
            "celery",
            "redis",
            "httpx",
            "structlog",
            "alembic",
            "uvicorn",
            "gunicorn",
            "pytest",
            "slowapi",
            "sentry-sdk",
        ],
        "table": [
            "payments",
            "refunds",
            "payouts",
            "ledger_entries",
            "invoices",
            "disputes",
            "customers",
            "subscriptions",
        ],
        "col": [
            "merchant_id",
            "created_at",
            "status",
            "currency",
            "amount",
            "customer_id",
            "external_id",
            "settled_at",
        ],
        "event": [
            "charge.succeeded",
            "charge.failed",
            "payout.paid",
            "invoice.finalized",
            "customer.updated",
            "charge.dispute.created",
            "payment_intent.canceled",
            "invoice.payment_failed",
        ],
        "task": [
            "send_receipt",
            "sync_payouts",
            "reconcile_ledger",
            "expire_holds",
            "retry_failed_invoices",
            "export_settlements",
            "notify_merchant",
        ],
        "err": [
            "IntegrityError: duplicate key value violates unique constraint",
            "KeyError: 'currency'",
            "pydantic.ValidationError: 1 validation error for ChargeIn",
            "psycopg.errors.DeadlockDetected: deadlock detected",
            "httpx.ReadTimeout",
            "stripe.error.CardError: Your card was declined",
            "sqlalchemy.exc.PendingRollbackError",
        ],
        "service": [
            "order-service",
            "the bank API",
            "the ledger service",
            "the notification service",
            "the tax service",
            "the currency rates API",
        ],
        "env": [
            "PAYMENTS_PAYOUT_DELAY_DAYS",
            "STRIPE_API_VERSION",
            "LEDGER_BATCH_SIZE",
            "RECEIPT_FROM_ADDRESS",
            "FX_RATES_TTL",
            "DB_STATEMENT_TIMEOUT",
        ],
        "file": [
            "src/payments/api/charges.py",
            "src/payments/refunds.py",
            "src/payments/ledger.py",
            "src/payments/tasks.py",
            "src/payments/webhooks.py",
            "src/payments/db.py",
            "src/payments/fx.py",
            "tests/test_charges.py",
            "tests/test_refunds.py",
        ],
        "thing": ["charge", "refund", "payout", "invoice", "merchant", "dispute", "receipt"],
    },
    "web-frontend": {
        "mod": [
            "checkout",
            "cart",
            "product page",
            "orders page",
            "account settings",
            "search bar",
            "header",
            "login form",
            "dashboard",
            "wishlist",
        ],
        "dep": [
            "react",
            "vite",
            "typescript",
            "@tanstack/react-query",
            "zod",
            "react-hook-form",
            "playwright",
            "vitest",
            "storybook",
            "eslint",
            "@mui/material",
            "emotion",
            "date-fns",
            "react-router",
            "workbox",
        ],
        "table": [
            "ProductCard",
            "CartDrawer",
            "OrderTable",
            "AddressForm",
            "PriceTag",
            "SearchInput",
            "UserMenu",
            "Pagination",
        ],
        "col": ["onChange", "isLoading", "variant", "className", "aria-label", "data-test", "disabled", "size"],
        "event": [
            "add_to_cart",
            "checkout_started",
            "search_submitted",
            "filter_changed",
            "login_succeeded",
            "coupon_applied",
        ],
        "task": [
            "useCart",
            "useOrders",
            "useDebounce",
            "useMediaQuery",
            "useFeatureFlag",
            "useAuth",
            "useInfiniteProducts",
        ],
        "err": [
            "TypeError: Cannot read properties of undefined (reading 'map')",
            'Warning: Each child in a list should have a unique "key" prop',
            "Error: Hydration failed",
            "TS2322: Type 'string | undefined' is not assignable to type 'string'",
            "TimeoutError: locator.click: Timeout 30000ms exceeded",
            "Maximum update depth exceeded",
        ],
        "service": ["the products API", "the search API", "the payments API", "the CMS", "the recommendations service"],
        "env": ["VITE_SEARCH_URL", "VITE_FEATURE_NEW_CHECKOUT", "VITE_SENTRY_DSN", "VITE_CDN_URL", "VITE_MAPS_KEY"],
        "file": [
            "src/components/ProductCard.tsx",
            "src/pages/Checkout.tsx",
            "src/hooks/useCart.ts",
            "src/api/client.ts",
            "src/components/Header.tsx",
            "vite.config.ts",
            "tests/e2e/checkout.spec.ts",
            "src/store/cart.ts",
        ],
        "thing": ["button", "form", "page", "modal", "dropdown", "table", "toast"],
    },
    "data-pipeline": {
        "mod": [
            "orders_daily",
            "customer_ltv",
            "sales_enriched",
            "clickstream_hourly",
            "inventory_snapshot",
            "partner_feed",
            "marketing_attribution",
            "finance_export",
        ],
        "dep": [
            "apache-airflow",
            "pyspark",
            "dbt-core",
            "dbt-snowflake",
            "great-expectations",
            "boto3",
            "confluent-kafka",
            "pandas",
            "pyarrow",
            "delta-spark",
            "sqlfluff",
        ],
        "table": [
            "fct_orders",
            "dim_customers",
            "stg_events",
            "agg_revenue_daily",
            "dim_products",
            "fct_sessions",
            "stg_partner_products",
        ],
        "col": ["order_id", "customer_id", "event_ts", "updated_at", "revenue", "country", "session_id", "sku"],
        "event": ["page_view", "order_placed", "cart_updated", "refund_issued", "signup"],
        "task": [
            "extract_orders",
            "load_to_snowflake",
            "run_dbt",
            "compact_partitions",
            "publish_metrics",
            "validate_schema",
            "export_to_s3",
        ],
        "err": [
            "AnalysisException: cannot resolve 'revenue' given input columns",
            "Database Error in model fct_orders: SQL compilation error",
            "airflow.exceptions.AirflowTaskTimeout",
            "KafkaException: Local: Broker transport failure",
            "py4j.protocol.Py4JJavaError: An error occurred while calling o123.save",
            "botocore.exceptions.ClientError: AccessDenied",
        ],
        "service": [
            "the Snowflake warehouse",
            "the Kafka cluster",
            "the partner SFTP",
            "the S3 lake",
            "the metrics API",
        ],
        "env": ["AIRFLOW__CORE__PARALLELISM", "DBT_TARGET", "SPARK_EXECUTOR_MEMORY", "LAKE_BUCKET", "SNOWFLAKE_ROLE"],
        "file": [
            "dags/orders_daily.py",
            "jobs/customer_ltv.py",
            "models/marts/fct_orders.sql",
            "models/staging/stg_events.sql",
            "streams/orders_stream.py",
            "dags/partner_feed.py",
            "jobs/compaction.py",
        ],
        "thing": ["DAG", "model", "job", "stream", "partition", "table", "sensor"],
    },
    "mobile-app": {
        "mod": [
            "onboarding",
            "feed",
            "profile screen",
            "settings",
            "transactions list",
            "camera upload",
            "chat",
            "notifications",
            "run tracker",
        ],
        "dep": [
            "expo",
            "react-native",
            "expo-router",
            "react-native-reanimated",
            "expo-notifications",
            "react-native-mmkv",
            "expo-image",
            "@sentry/react-native",
            "detox",
            "i18next",
            "expo-updates",
            "react-native-maps",
        ],
        "table": ["FeedItem", "Avatar", "TxRow", "SettingsScreen", "CameraButton", "ChatBubble", "TabBar"],
        "col": ["onPress", "style", "testID", "accessibilityLabel", "keyExtractor", "contentContainerStyle"],
        "event": ["app_open", "push_opened", "photo_uploaded", "run_started", "purchase_completed"],
        "task": ["useNotifications", "useLocation", "useOfflineQueue", "useTheme", "useDeepLink", "useUpload"],
        "err": [
            'Invariant Violation: requireNativeComponent: "RNSScreen" was not found',
            "Execution failed for task ':app:compileReleaseKotlin'",
            "error: No profiles for 'com.example.app' were found",
            "Unable to resolve module ./assets/icon.png",
            "java.lang.NullPointerException at com.facebook.react.bridge",
            'CocoaPods could not find compatible versions for pod "hermes-engine"',
        ],
        "service": ["the API gateway", "APNs", "FCM", "the upload service", "EAS Build"],
        "env": ["EXPO_PUBLIC_API_URL", "EXPO_PUBLIC_SENTRY_DSN", "EAS_BUILD_PROFILE", "EXPO_PUBLIC_MAPS_KEY"],
        "file": [
            "app.json",
            "eas.json",
            "src/screens/Feed.tsx",
            "src/screens/Settings.tsx",
            "android/app/build.gradle",
            "ios/Podfile",
            "src/components/Avatar.tsx",
            "src/navigation/Tabs.tsx",
        ],
        "thing": ["screen", "tab", "button", "list", "sheet", "toast", "splash screen"],
    },
    "infra": {
        "mod": [
            "checkout",
            "catalog-service",
            "search-api",
            "payments-api",
            "auth-service",
            "exporter",
            "web-frontend",
            "worker",
        ],
        "dep": [
            "terraform",
            "hashicorp/aws",
            "helm",
            "cert-manager",
            "ingress-nginx",
            "argo-cd",
            "external-secrets",
            "karpenter",
            "prometheus",
            "grafana",
            "kube-prometheus-stack",
            "aws-load-balancer-controller",
        ],
        "table": ["deployment", "statefulset", "cronjob", "ingress", "service", "configmap", "hpa", "node group"],
        "col": ["replicas", "resources.requests.cpu", "imagePullPolicy", "nodeSelector", "tolerations", "annotations"],
        "event": ["CrashLoopBackOff", "ImagePullBackOff", "FailedScheduling", "Evicted", "BackOff"],
        "task": ["plan-prod", "apply-staging", "build-image", "deploy", "drift-check", "rotate-keys"],
        "err": [
            "Error: creating EKS Node Group: InvalidParameterException",
            "0/12 nodes are available: 12 Insufficient cpu",
            "Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress",
            "Back-off pulling image",
            "Error: Invalid for_each argument",
            "AccessDenied: User is not authorized to perform: sts:AssumeRole",
        ],
        "service": ["the EKS cluster", "the RDS instance", "the ALB", "Route53", "ECR", "the VPC"],
        "env": ["TF_VAR_environment", "AWS_REGION", "KUBECONFIG", "HELM_EXPERIMENTAL_OCI", "TF_LOG"],
        "file": [
            "modules/service/main.tf",
            "envs/prod/main.tf",
            "charts/api/values.yaml",
            "charts/api/templates/deployment.yaml",
            ".github/workflows/deploy.yml",
            "k8s/ingress.yaml",
            "versions.tf",
        ],
        "thing": ["cluster", "node", "pod", "bucket", "certificate", "load balancer", "namespace"],
    },
    "auth-service": {
        "mod": [
            "login",
            "token endpoint",
            "refresh flow",
            "password reset",
            "MFA enrollment",
            "session middleware",
            "admin API",
            "OIDC callback",
            "user directory sync",
        ],
        "dep": [
            "golang-jwt/jwt",
            "golang.org/x/crypto",
            "go-redis",
            "pgx",
            "grpc-go",
            "coreos/go-oidc",
            "chi",
            "zerolog",
            "testify",
            "pquerna/otp",
        ],
        "table": [
            "users",
            "sessions",
            "refresh_tokens",
            "mfa_devices",
            "audit_events",
            "oauth_clients",
            "password_resets",
        ],
        "col": ["user_id", "expires_at", "revoked_at", "client_id", "created_at", "last_login_at"],
        "event": ["login_succeeded", "login_failed", "token_refreshed", "mfa_enrolled", "password_changed"],
        "task": ["cleanupExpiredSessions", "syncDirectory", "rotateSigningKeys", "sendResetEmail", "purgeAuditLog"],
        "err": [
            "panic: runtime error: invalid memory address or nil pointer dereference",
            'ERROR: duplicate key value violates unique constraint "users_email_key"',
            "rpc error: code = Unavailable desc = connection error",
            "token is expired",
            "x509: certificate signed by unknown authority",
            "redis: connection pool timeout",
        ],
        "service": ["Okta", "Google", "the user directory", "the mail service", "the admin console", "the gateway"],
        "env": ["AUTH_SESSION_TTL", "AUTH_SIGNING_KEY_ID", "ALLOWED_ORIGINS", "OIDC_ISSUER_URL", "MFA_REQUIRED_ROLES"],
        "file": [
            "internal/token/issuer.go",
            "internal/session/store.go",
            "internal/oidc/callback.go",
            "internal/password/hash.go",
            "cmd/auth/main.go",
            "internal/mfa/totp.go",
            "internal/httpapi/login.go",
        ],
        "thing": ["token", "session", "user", "client", "key", "cookie", "role"],
    },
}

COMMON = {
    "n": [str(i) for i in (2, 3, 4, 5, 6, 8, 12, 15, 20, 25, 40)],
    "ms": [str(i) for i in (45, 80, 120, 250, 400, 900, 1500, 2300)],
    "v1": ["1.4.2", "2.0.1", "3.1.0", "0.9.7", "5.2.3", "4.11.0", "1.26.5", "2.7.0"],
    "v2": ["1.5.0", "2.1.0", "3.2.4", "1.0.0", "5.3.0", "4.12.1", "1.27.0", "2.8.1"],
    "who": ["Alice", "Bob", "Priya", "Chen", "Marta", "Tom"],
    "name": ["helper", "util", "manager", "service", "client", "handler", "adapter", "builder"],
}

# Templates every project has. {x} draws from the project's bank (or COMMON).
GENERIC = [
    dict(
        ask="Write unit tests for {file}, coverage there is low.",
        steps=[
            ("Read", "{file}", "... {n} functions, no tests for the error branches ..."),
            ("Bash", "{testcmd}", "{n} passed in 1.{n}s"),
        ],
        finding="I added {n} tests for {file}, including the error paths around the {thing} handling, and a fixture for the {table} data.",
        done="Coverage of {file} went from 41% to 88%.",
    ),
    dict(
        ask="Rename the {mod} {name} to something clearer, it's confusing next to the {thing} code.",
        steps=[("Grep", "{name}", "{file}:12: ...\n{file}:48: ...")],
        finding="Renamed it across {n} files and updated the imports; behaviour is unchanged and the tests pass.",
        done="Done, the rename is one commit so it's easy to review.",
    ),
    dict(
        ask="Bump {dep} from {v1} to {v2}.",
        steps=[("Bash", "{upgradecmd}", "updated {dep} {v1} -> {v2}"), ("Bash", "{testcmd}", "{n} passed")],
        finding="The changelog of {dep} {v2} lists only bug fixes and one deprecation that we don't use. Tests pass after the upgrade.",
        done="Upgraded; the lock file changed only for {dep}.",
    ),
    dict(
        ask="Bump {dep} to {v2}, the upgrade breaks the build.",
        steps=[("Bash", "{testcmd}", "FAILED ... {err}")],
        finding="{dep} {v2} changed a default that the {mod} code relied on, which causes {err}. I adapted the call site in {file} instead of pinning the old version.",
        done="Build is green on {v2}.",
    ),
    dict(
        ask="Explain what {file} does, I'm new to this part of the code.",
        steps=[("Read", "{file}", "...")],
        finding="{file} handles the {mod} flow: it validates the incoming {thing}, loads the {table} rows, applies the business rules and hands off to {service}. The tricky part is the retry around {service}, which is why the {thing} status is updated last.",
        done="Happy to walk through the tests next.",
    ),
    dict(
        ask="Review my changes to the {mod} code before I open the PR.",
        steps=[("Bash", "git diff main --stat", " {file} | {n}{n} ++++--\n 1 file changed")],
        finding="Looks good overall. Two comments: the {thing} lookup in {file} is done inside the loop, so it runs {n} queries; and the new error branch swallows {err} without logging it.",
        done="With those two fixed it's ready.",
    ),
    dict(
        ask="Add a config option {env} so we can change this per environment.",
        steps=[("Grep", "settings", "{file}:5: from .settings import settings")],
        finding="Added {env} to the settings with the current value as default, documented it in the README and used it in {file}.",
        done="Defaults keep today's behaviour.",
    ),
    dict(
        ask="The {mod} is slow, it takes about {ms} ms. Can you profile it?",
        steps=[("Bash", "{profilecmd}", "{ms} ms total, {n} calls to {service}")],
        finding="Most of the time is spent calling {service} once per {thing}. I batched the calls and cached the result for the request, so it takes about a fifth of the time now.",
        done="Added a benchmark test so it doesn't regress.",
    ),
    dict(
        ask="CI fails on main with {err}. Can you take a look?",
        steps=[("Bash", "{testcmd}", "FAILED ... {err}")],
        finding="The failure comes from a change merged this morning in {file}: the {thing} fixture no longer sets a default, so the {mod} code hits {err}. I restored the default in the fixture.",
        done="Pushed the fix; CI is green.",
    ),
    dict(
        ask="Add structured logging to the {mod} code, we can't tell what happened during yesterday's incident.",
        steps=[("Read", "{file}", "...")],
        finding="Added log lines with the {thing} id, {col} and the outcome at each step of the {mod} flow, at info level for transitions and warning for retries against {service}.",
        done="Log volume increases by a few lines per {thing}.",
    ),
    dict(
        ask="Is there dead code in {file}? It feels bloated.",
        steps=[("Grep", "def |func |function ", "{file}: {n}{n} definitions")],
        finding="{n} functions in {file} have no callers anymore since the {mod} rewrite; I removed them and one unused import of {dep}.",
        done="Removed about {n}0 lines.",
    ),
    dict(
        ask="{who} asked why the {mod} {thing} handling is written the way it is. Can you summarize?",
        steps=[("Bash", "git log --oneline -5 -- {file}", "a1b2c3d {mod}: handle {thing} edge case\n...")],
        finding="The history shows three steps: first a plain implementation, then a fix for {err}, then the retry around {service}. The current shape is the result of that fix, not a design choice.",
        done="Wrote it up for {who}.",
    ),
    dict(
        ask="Add a {col} field to the {table} and expose it in the API.",
        steps=[("Bash", "{migratecmd}", "created migration add_{col}")],
        finding="Added {col} to {table} with a migration, the model, the serializer and two tests. Existing rows get NULL; the API returns it as optional.",
        done="Migration is backwards compatible.",
    ),
]

SPECIFIC: dict[str, list[dict]] = {
    "payments-api": [
        dict(
            ask="The {event} webhook isn't handled, we get 200 but nothing happens.",
            steps=[("Grep", "{event}", "(no matches)")],
            finding="There is no handler registered for {event} in webhooks.py, so the dispatcher acknowledges it and drops it. I added a handler that updates the {table} row and enqueues {task}.",
            done="Tested with stripe trigger {event}.",
        ),
        dict(
            ask="Stripe webhook for {event} is processed twice sometimes.",
            steps=[("Bash", "grep {event} logs/webhooks.log | sort | uniq -d | head", "evt_1Q... {event}")],
            finding="Stripe retries when we answer slowly, and the handler is not idempotent. I store processed event ids in a processed_events table with a unique constraint and skip duplicates.",
            done="Duplicates are ignored now.",
        ),
        dict(
            ask="The {task} celery task runs twice for the same {thing}.",
            steps=[("Read", "src/payments/tasks.py", "@celery_app.task(acks_late=True)\ndef {task}(...)")],
            finding="With acks_late and a visibility timeout shorter than the task runtime, redis redelivers the task while it is still running. I raised visibility_timeout and made {task} check the {table} status before doing work.",
            done="No more double runs in the logs.",
        ),
        dict(
            ask="Calls to {service} time out under load, requests pile up.",
            steps=[("Read", "src/payments/clients.py", "httpx.AsyncClient()")],
            finding="The client has no timeout and no connection limit. I set a {n} second timeout, limits of {n}0 connections and a circuit breaker so {service} being slow doesn't exhaust our workers.",
            done="Load test holds at p99 {ms} ms.",
        ),
        dict(
            ask="Add an index for the {table} query by {col}, the {mod} listing is slow.",
            steps=[
                (
                    "Bash",
                    "psql -c 'explain analyze select * from {table} where {col} = 42'",
                    "Seq Scan on {table} (cost=0.00..48211.00) (actual time={ms}.1 ms)",
                )
            ],
            finding="The query does a sequential scan. I added an alembic migration creating an index on {table}({col}, created_at) CONCURRENTLY, outside a transaction. The query now takes 3 ms.",
            done="Migration runs concurrently so it doesn't lock the table.",
        ),
        dict(
            ask="Postgres deadlocks between the {mod} worker and the API on {table}.",
            steps=[
                (
                    "Bash",
                    "grep -A3 'deadlock detected' logs/postgres.log | head",
                    "ERROR: deadlock detected\nDETAIL: Process 911 waits for ShareLock on transaction 4417",
                )
            ],
            finding="Both paths update the same two rows in different orders. I made both lock the rows in id order with SELECT ... FOR UPDATE ORDER BY id.",
            done="Deadlocks gone in the soak test.",
        ),
        dict(
            ask="Upgrade psycopg pool settings? We see PoolTimeout in {mod} sometimes.",
            steps=[("Grep", "ConnectionPool", "src/payments/db.py: ConnectionPool(..., timeout=30)")],
            finding="PoolTimeout here comes from a long transaction in {task} that holds a connection while calling {service}. I moved the external call out of the transaction; the pool size is fine.",
            done="No PoolTimeout in a week of staging traffic.",
        ),
        dict(
            ask="Refunds for {thing}s in {col} currencies fail validation.",
            steps=[("Bash", "{testcmd}", "FAILED ... pydantic.ValidationError: amount must be positive")],
            finding="The validator rejects zero-decimal currencies like JPY because it converts amounts to minor units twice. I fixed the conversion in fx.py and added JPY and KRW test cases.",
            done="Refund validation passes for all supported currencies.",
        ),
        dict(
            ask="Set up the pytest fixtures for the {mod} integration tests with a real Postgres.",
            steps=[("Bash", "docker compose up -d postgres", "Container payments-postgres Started")],
            finding="I added a docker compose service for Postgres 16 and a session-scoped fixture that runs alembic upgrade head once, with the DATABASE_URL taken from the environment in CI.",
            done="Integration tests run locally and in CI.",
        ),
        dict(
            ask="Why does the ledger reconciliation report a difference of a few cents for {thing}s?",
            steps=[("Bash", "python -m payments.reconcile --day yesterday", "diff: 0.03 EUR on 2 entries")],
            finding="Two {table} entries were written from a retry after a partial failure; the second wrote the fee again. I made the ledger insert idempotent with a unique key on (external_id, kind).",
            done="Reconciliation is clean for the last 30 days.",
        ),
        dict(
            ask="Make the JWT verification for internal calls use the new signing key too.",
            steps=[("Read", "src/payments/auth.py", "jwt.decode(token, KEY, algorithms=['RS256'])")],
            finding="We verify against a single key. I switched to a JWKS client that loads the keys of the auth service and picks one by kid, so both keys are valid during the rotation.",
            done="Both old and new tokens verify.",
        ),
        dict(
            ask="Our redis usage keeps growing, what's in there?",
            steps=[
                (
                    "Bash",
                    "redis-cli --bigkeys",
                    "Biggest string found 'cache:fx:rates' has 2 MB\n{n}0312 keys with prefix 'session:'",
                )
            ],
            finding="Most keys are cached FX rate snapshots written without an expiry. I added a TTL of one hour to the fx cache writes and a one-off cleanup of keys without TTL.",
            done="Memory dropped by 70%.",
        ),
    ],
    "web-frontend": [
        dict(
            ask="The {table} component re-renders on every keystroke in the {mod}.",
            steps=[("Bash", "npx react-scan", "{table} rendered {n}0 times")],
            finding="The parent passes a new object literal as a prop on each render. I memoized it with useMemo and wrapped {table} in React.memo.",
            done="Typing is smooth now.",
        ),
        dict(
            ask="Playwright test {task}.spec fails in CI but passes locally: {err}.",
            steps=[("Bash", "npx playwright test --repeat-each 10", "3 failed")],
            finding="The test clicks before the data has loaded. I replaced the fixed waitForTimeout with an expect(locator).toBeVisible() on the loaded state, which retries.",
            done="Passed 50 repeats in CI.",
        ),
        dict(
            ask="Vite dev server is slow to start after adding {dep}.",
            steps=[("Bash", "npx vite --debug", "pre-bundling dependencies: {dep} ... {ms}ms")],
            finding="{dep} ships many small ESM files, so Vite's dependency pre-bundling takes long. I added it to optimizeDeps.include so it's bundled once and cached.",
            done="Cold start from 9s to 2s.",
        ),
        dict(
            ask="Add a loading skeleton to the {mod} instead of the spinner.",
            steps=[("Read", "src/pages/Checkout.tsx", "{isLoading && <Spinner />}")],
            finding="Added a {table}Skeleton with the same layout as the loaded content, shown while the query is pending.",
            done="Looks much calmer.",
        ),
        dict(
            ask="The {mod} shows {err} in the console.",
            steps=[("Read", "{file}", "...")],
            finding="The list is rendered with the array index as key and the items get reordered; I used the item id as key and fixed the undefined access with optional chaining where the API may omit the field.",
            done="Console is clean.",
        ),
        dict(
            ask="Migrate the {mod} form to react-hook-form with zod validation.",
            steps=[("Bash", "npm i react-hook-form zod @hookform/resolvers", "added 3 packages")],
            finding="The form now uses useForm with zodResolver; the schema lives next to the component and error messages come from it. Submit is disabled while submitting.",
            done="Removed the old hand-written validation.",
        ),
        dict(
            ask="Our Vite build output has a huge vendor chunk.",
            steps=[("Bash", "npx vite build", "dist/assets/vendor-3f2a.js  1,204.31 kB")],
            finding="manualChunks puts all of node_modules into one vendor chunk. I split react and the router into one chunk and lazy-loaded the admin pages with React.lazy.",
            done="Initial JS dropped by a third.",
        ),
        dict(
            ask="The {mod} page is missing translations in German.",
            steps=[("Grep", "t('", "{file}: {n} keys")],
            finding="{n} keys were added to en.json but not de.json. I added them and a CI check that all locale files have the same keys.",
            done="Translators got the list.",
        ),
        dict(
            ask="Dark mode colors are wrong in the {table}.",
            steps=[("Read", "{file}", "color: #222;")],
            finding="The component hard-codes colors instead of using theme tokens. I replaced them with theme.palette values so both modes work.",
            done="Checked in Storybook for both themes.",
        ),
        dict(
            ask="Add Sentry performance tracing to the {mod}.",
            steps=[("Read", "src/main.tsx", "Sentry.init({ dsn })")],
            finding="Enabled browserTracingIntegration with tracesSampleRate 0.1 and tracePropagationTargets for our API, so frontend spans connect to backend traces.",
            done="Traces appear in Sentry.",
        ),
        dict(
            ask="The {mod} breaks on Safari: {err}.",
            steps=[("Bash", "npx playwright test --project=webkit", "1 failed")],
            finding="Safari doesn't support the regex lookbehind used in the formatter, which throws at parse time. I rewrote it without lookbehind.",
            done="Webkit project passes.",
        ),
    ],
    "data-pipeline": [
        dict(
            ask="The {mod} DAG failed last night with {err}.",
            steps=[("Bash", "airflow tasks logs {mod} {task} 2026-10-12", "... {err}")],
            finding="Upstream renamed a column, so {task} fails. I updated the staging model and added a schema test on the source so we notice before the marts run.",
            done="Re-ran the DAG for the missed day.",
        ),
        dict(
            ask="Speed up the {mod} Spark job, it takes {n}0 minutes.",
            steps=[
                (
                    "Bash",
                    "spark-submit --conf spark.eventLog.enabled=true jobs/{task}.py",
                    "Stage 3 took {n}0 min, input 120 GB",
                )
            ],
            finding="The job reads all partitions and filters afterwards. I pushed the date filter into the read so partition pruning kicks in, and cached the intermediate dataframe used twice.",
            done="Down to a few minutes.",
        ),
        dict(
            ask="Add a dbt model for {table} with tests.",
            steps=[("Bash", "dbt build --select {table}", "PASS={n} WARN=0 ERROR=0")],
            finding="Created {table} as a view on top of the staging models, with not_null and unique tests on the key and a relationships test to dim_customers.",
            done="Documented the columns in schema.yml.",
        ),
        dict(
            ask="Kafka consumer for {event} events is lagging.",
            steps=[("Bash", "kafka-consumer-groups --describe --group {task}", "LAG {n}00000")],
            finding="The topic has 12 partitions but the consumer group runs 2 instances. I scaled it to 6 replicas and enabled batch commits.",
            done="Lag back to zero.",
        ),
        dict(
            ask="Airflow task {task} retries forever when the warehouse is down.",
            steps=[("Read", "dags/{mod}.py", "default_args = {{'retries': 50, 'retry_delay': timedelta(minutes=1)}}")],
            finding="retries is 50 with a one minute delay. I set retries to 3 with retry_exponential_backoff and an on_failure_callback that posts to Slack.",
            done="Failures now alert instead of looping.",
        ),
        dict(
            ask="The {table} table in Snowflake has wrong revenue for {col}.",
            steps=[("Bash", "dbt test --select {table}", "FAIL 1 assert_revenue_positive")],
            finding="Refunds are stored as positive amounts in the source and the model adds them instead of subtracting. I negated refunds in the staging model.",
            done="Numbers match finance's report.",
        ),
        dict(
            ask="Partition the {table} output in S3 by date.",
            steps=[("Read", "jobs/{task}.py", "df.write.mode('overwrite').parquet(path)")],
            finding="The job overwrote the whole table every day. It now writes with partitionBy('dt') and spark.sql.sources.partitionOverwriteMode=dynamic, so only the day's partition is replaced.",
            done="Downstream readers filter on dt.",
        ),
        dict(
            ask="Great Expectations check on {table}.{col} fails after the partner change.",
            steps=[("Bash", "great_expectations checkpoint run daily", "1 of {n} expectations failed")],
            finding="The partner now sends {col} in a different format; the expectation on the regex pattern fails. I adapted the parsing and the expectation after checking with the partner.",
            done="Checkpoint passes.",
        ),
        dict(
            ask="Set up sqlfluff for the dbt project.",
            steps=[("Bash", "sqlfluff lint models", "L010 ... {n}00 violations")],
            finding="Added .sqlfluff with the dbt templater and Snowflake dialect, fixed the violations automatically and added it to pre-commit.",
            done="CI runs sqlfluff lint.",
        ),
        dict(
            ask="The partner_feed SFTP download fails intermittently.",
            steps=[
                ("Bash", "airflow tasks logs partner_feed download", "SSHException: Error reading SSH protocol banner")
            ],
            finding="The partner's SFTP server limits concurrent connections, and our retries open new ones. I reuse one connection for all files and added a backoff.",
            done="Stable for a week.",
        ),
    ],
    "mobile-app": [
        dict(
            ask="The iOS build fails on EAS with {err}.",
            steps=[("Bash", "eas build -p ios --profile preview", "... {err}")],
            finding="The Podfile.lock was out of date after upgrading {dep}. I ran npx pod-install, committed the lock file and cleared the EAS cache for the profile.",
            done="Build passes.",
        ),
        dict(
            ask="Push notifications on Android don't show when the app is in the foreground.",
            steps=[("Read", "src/notifications.ts", "Notifications.setNotificationHandler(null)")],
            finding="expo-notifications needs a notification handler that returns shouldShowAlert true for foreground notifications. I added one, and a notification channel for Android 8+.",
            done="Foreground pushes show a banner.",
        ),
        dict(
            ask="The {mod} {thing} is slow to open.",
            steps=[("Bash", "npx react-native-performance", "{table} mount {ms} ms")],
            finding="The screen loads all data before rendering. I render the header immediately and load the list lazily with a skeleton, and moved a heavy date library import out of the startup path.",
            done="Opens in a fraction of the time.",
        ),
        dict(
            ask="Upgrade to Expo SDK {n}.",
            steps=[("Bash", "npx expo install --fix", "updated {n} packages")],
            finding="Ran expo install --fix, updated react-native and {dep}, fixed a breaking change in the camera API and regenerated the native projects with prebuild.",
            done="Both platforms build and Detox passes.",
        ),
        dict(
            ask="Deep link to the {mod} doesn't work on Android.",
            steps=[
                (
                    "Bash",
                    "adb shell am start -W -a android.intent.action.VIEW -d 'myapp://{mod}'",
                    "Error: Activity not started, unable to resolve Intent",
                )
            ],
            finding="The intent filter for the custom scheme was missing from the prebuild output because of an old config plugin. I removed the plugin; expo-router's scheme handles it.",
            done="Link opens the screen.",
        ),
        dict(
            ask="The app crashes on launch on some Android devices: {err}.",
            steps=[("Bash", "adb logcat | grep -A5 FATAL", "FATAL EXCEPTION: main ... {err}")],
            finding="A native module is not linked in release because of ProGuard. I added a keep rule for the module's package in proguard-rules.pro.",
            done="Release build launches.",
        ),
        dict(
            ask="Add analytics event {event} to the {mod}.",
            steps=[("Grep", "track(", "src/analytics.ts: export function track(...)")],
            finding="Added track('{event}') with the screen name and item count, following the naming in the tracking plan.",
            done="Visible in the debug view.",
        ),
        dict(
            ask="Photos uploaded from the {mod} are rotated.",
            steps=[
                ("Read", "src/upload.ts", "ImageManipulator.manipulateAsync(uri, [{{ resize: {{ width: 1600 }} }}])")
            ],
            finding="The EXIF orientation is dropped when resizing. I apply the rotation before resizing so the pixels are upright.",
            done="Tested with photos from iPhone and Pixel.",
        ),
        dict(
            ask="Reanimated animation in the {table} is choppy.",
            steps=[("Read", "{file}", "useAnimatedStyle(() => ({{ width: withTiming(w) }}))")],
            finding="Animating width triggers layout on every frame. I switched to transform scaleX, which runs on the UI thread without layout.",
            done="Smooth at 60 fps.",
        ),
        dict(
            ask="Offline queue loses requests when the app is killed.",
            steps=[("Read", "src/offline.ts", "const queue = []")],
            finding="The queue lives only in memory. I persist it to storage after every change and replay it on startup when the network is back.",
            done="Queued actions survive a restart.",
        ),
    ],
    "infra": [
        dict(
            ask="Pods of {mod} are stuck in {event}.",
            steps=[("Bash", "kubectl describe pod -l app={mod}", "Warning  {event} ... {err}")],
            finding="The nodes of the new node group can't pull from ECR because the node role lacks the ECR read policy. I attached AmazonEC2ContainerRegistryReadOnly in terraform.",
            done="Pods are running.",
        ),
        dict(
            ask="terraform plan for prod wants to recreate the {table}.",
            steps=[("Bash", "terraform plan -target=module.{mod}", "-/+ resource must be replaced")],
            finding="A changed attribute forces replacement. I added a moved block and ignore_changes for the attribute that the console changed, so the plan is a no-op.",
            done="Plan is clean.",
        ),
        dict(
            ask="Set up a new helm release for {mod} in staging.",
            steps=[
                (
                    "Bash",
                    "helm upgrade --install {mod} charts/api -n staging -f values-staging.yaml",
                    'Release "{mod}" has been upgraded.',
                )
            ],
            finding="Created values-staging.yaml with the image tag, resources and ingress host, and an ArgoCD Application pointing at it.",
            done="Synced by ArgoCD.",
        ),
        dict(
            ask="The {mod} deployment has no resource requests.",
            steps=[("Bash", "kubectl top pods -l app={mod}", "cpu 120m memory 310Mi")],
            finding="Without requests the scheduler overpacks nodes. I set requests from the observed usage (cpu 150m, memory 384Mi) and a memory limit with headroom.",
            done="Applied in all environments.",
        ),
        dict(
            ask="Add an alert when {mod} returns many 5xx.",
            steps=[("Read", "monitoring/rules.yaml", "groups: ...")],
            finding="Added a PrometheusRule on the ingress metrics: 5xx ratio above 2% for 5 minutes pages on-call, above 0.5% warns in Slack.",
            done="Tested with a synthetic error burst.",
        ),
        dict(
            ask="Upgrade the EKS cluster to the next Kubernetes version.",
            steps=[("Bash", "kubent", "{n} deprecated APIs found")],
            finding="kubent found deprecated APIs in the ingress and cronjob manifests. I updated them, upgraded the control plane with terraform, then the node groups one at a time.",
            done="Cluster is on the new version.",
        ),
        dict(
            ask="The GitHub Actions deploy job fails with {err}.",
            steps=[("Bash", "gh run view --log-failed", "... {err}")],
            finding="The OIDC role's trust policy only allows the main branch, and this ran from a release tag. I added the tag pattern to the trust policy condition.",
            done="Deploy from tags works.",
        ),
        dict(
            ask="Move the {mod} secrets from the helm values to the secret manager.",
            steps=[("Grep", "password", "charts/{mod}/values.yaml: password: ...")],
            finding="Created the secrets in AWS Secrets Manager with terraform and an ExternalSecret that maps them into the namespace; the chart reads them with envFrom.",
            done="Removed the plaintext values.",
        ),
        dict(
            ask="Karpenter doesn't scale down the spot nodes at night.",
            steps=[("Bash", "kubectl get nodeclaims", "{n} nodes, all Ready")],
            finding="A daemonset without a PDB-friendly setting and pods with do-not-disrupt annotations block consolidation. I removed the annotation from the batch jobs.",
            done="Nodes consolidate at night.",
        ),
        dict(
            ask="Ingress for {mod} returns 502 after the deploy.",
            steps=[
                (
                    "Bash",
                    "kubectl logs -n ingress-nginx deploy/ingress-nginx-controller | tail",
                    "upstream prematurely closed connection",
                )
            ],
            finding="The new image listens on port 8081 but the service targets 8080. I fixed the containerPort and service targetPort in the chart.",
            done="502s stopped.",
        ),
    ],
    "auth-service": [
        dict(
            ask="The {mod} returns 500 with {err}.",
            steps=[("Bash", "go test ./internal/... -run Test", "--- FAIL ... {err}")],
            finding="A nil user is dereferenced when the directory lookup returns no rows. I return a proper 401 for unknown users and added a test.",
            done="Fixed and deployed.",
        ),
        dict(
            ask="Add a {col} column to {table} and backfill it.",
            steps=[("Bash", "migrate create -ext sql add_{col}", "created migrations/00{n}_add_{col}.up.sql")],
            finding="Added the column as nullable, backfilled in batches of 10k rows in a background job, then set NOT NULL in a second migration.",
            done="Both migrations applied in staging.",
        ),
        dict(
            ask="Access tokens should expire after 15 minutes instead of an hour.",
            steps=[("Grep", "AccessTokenTTL", "internal/token/issuer.go: AccessTokenTTL = time.Hour")],
            finding="Changed AccessTokenTTL to 15 minutes. Clients already refresh on 401, and the refresh token lifetime is unchanged.",
            done="Rolled out with a feature flag first.",
        ),
        dict(
            ask="Integrate {service} as another identity provider.",
            steps=[("Read", "internal/oidc/providers.go", 'providers := map[string]Provider{{"google": ...}}')],
            finding="Added {service} as an OIDC provider with discovery from its issuer URL, mapping its claims to our user fields and linking accounts by verified email.",
            done="Login with {service} works in staging.",
        ),
        dict(
            ask="The sessions table grows without bound.",
            steps=[("Bash", "psql -c 'select count(*) from sessions where expires_at < now()'", " {n}4123987")],
            finding="Expired sessions are never deleted. I added the {task} job that deletes expired rows in batches every hour.",
            done="Table size is stable.",
        ),
        dict(
            ask="Add MFA enforcement for admin roles.",
            steps=[("Read", "internal/httpapi/middleware.go", "func RequireRole(role string) ...")],
            finding="Added a RequireMFA middleware on admin routes: a session without a completed MFA step gets 403 with a step-up hint.",
            done="Admins must enroll a device at next login.",
        ),
        dict(
            ask="gRPC calls from the gateway fail with {err}.",
            steps=[("Bash", "grpcurl -plaintext auth:9090 list", "Failed to dial target host: {err}")],
            finding="The gateway connects without TLS, but the server now requires it after the mesh change. I configured the gateway's client with the mesh CA.",
            done="Calls succeed.",
        ),
        dict(
            ask="Speed up the password hashing tests, they take minutes.",
            steps=[("Bash", "go test ./internal/password/ -v", "ok  ... {n}1.2s")],
            finding="Tests use production hashing parameters. I added a test-only parameter set with minimal cost so the tests run in a second, and kept one test with real parameters.",
            done="Test run under 5 seconds.",
        ),
        dict(
            ask="The {task} job logs too much.",
            steps=[("Read", "internal/jobs/{task}.go", "log.Info().Msg(...) // per row")],
            finding="It logs once per row. I log a summary per batch at info and per row only at debug.",
            done="Log volume down 95%.",
        ),
        dict(
            ask="Rotate the token signing key.",
            steps=[("Bash", "go run ./cmd/keys generate", "kid=2026-11 written to secrets")],
            finding="Generated a new key, published it in the JWKS alongside the old one, switched signing after the caches refreshed, and will remove the old key when its tokens have expired.",
            done="Rotation runbook updated.",
        ),
    ],
}

CMDS = {
    "payments-api": {
        "testcmd": "pytest -q",
        "upgradecmd": "poetry update {dep}",
        "profilecmd": "py-spy record -o profile.svg -- python -m payments",
        "migratecmd": "alembic revision --autogenerate -m 'add {col}'",
    },
    "web-frontend": {
        "testcmd": "npx vitest run",
        "upgradecmd": "npm install {dep}@{v2}",
        "profilecmd": "npx lighthouse http://localhost:5173",
        "migratecmd": "npm run codegen",
    },
    "data-pipeline": {
        "testcmd": "pytest tests -q",
        "upgradecmd": "pip install -U {dep}=={v2}",
        "profilecmd": "spark-submit --conf spark.eventLog.enabled=true jobs/{task}.py",
        "migratecmd": "dbt run-operation add_column",
    },
    "mobile-app": {
        "testcmd": "npx jest",
        "upgradecmd": "npx expo install {dep}",
        "profilecmd": "npx react-native-performance",
        "migratecmd": "npx expo prebuild",
    },
    "infra": {
        "testcmd": "terraform validate && tflint",
        "upgradecmd": "terraform init -upgrade",
        "profilecmd": "kubectl top pods",
        "migratecmd": "terraform plan",
    },
    "auth-service": {
        "testcmd": "go test ./...",
        "upgradecmd": "go get {dep}@v{v2}",
        "profilecmd": "go test -bench . -cpuprofile cpu.out",
        "migratecmd": "migrate create -ext sql add_{col}",
    },
}

FOLLOWUPS = [
    ("ok, go ahead", "Done."),
    ("thanks, can you also run the linter?", "Lint is clean."),
    ("looks good, commit it", "Committed on the current branch."),
    ("does this need a changelog entry?", "Yes, I added one under Unreleased."),
    ("great, open a PR", "PR opened with a short description of the change."),
    ("can you double check the tests?", "All tests pass locally."),
]
OPENERS = [
    "Let me look at the code first.",
    "I'll check how this is wired up.",
    "Let me reproduce it.",
    "Looking at the relevant files.",
    "I'll start with the logs.",
    "Checking the current configuration.",
]


# Routine tool traffic that any session may carry (both labeled and distractor sessions get it).
ROUTINE = [
    ("Bash", "git status --short", " M {file}\n?? {file}.orig"),
    ("Bash", "{testcmd}", "{n}{n} passed, 1 skipped in {n}.{n}s"),
    ("Read", "{file}", "# {mod}\n... {n}{n} lines ..."),
    ("Grep", "TODO", "{file}: TODO({who}): clean up the {thing} handling"),
    ("Bash", "git log --oneline -3", "9f1e2d3 {mod}: tidy up\n4c5b6a7 bump {dep}\n1a2b3c4 fix {thing} edge case"),
]


def routine(project: str, rng: random.Random, k: int) -> list[tuple[str, str, str]]:
    slots: dict[str, str] = {}
    return [(t, _fill(i, project, slots, rng), _fill(o, project, slots, rng)) for t, i, o in rng.sample(ROUTINE, k)]


def _fill(text: str, project: str, slots: dict[str, str], rng: random.Random) -> str:
    bank = BANKS[project]

    def one(m: re.Match[str]) -> str:
        key = m.group(1)
        if key not in slots:
            if key in CMDS[project]:
                slots[key] = _fill(CMDS[project][key], project, slots, rng)
            else:
                pool = bank.get(key) or COMMON.get(key)
                if pool is None:
                    return m.group(0)
                slots[key] = rng.choice(pool)
        return slots[key]

    # {{ and }} are literal braces (templates hold code)
    out = re.sub(r"(?<!\{)\{([a-z0-9]+)\}(?!\})", one, text)
    return out.replace("{{", "{").replace("}}", "}")


def distractor(project: str, rng: random.Random) -> dict:
    """One generated session: {ask, steps, finding, done, followups} with slots filled."""
    pool = SPECIFIC[project] + GENERIC
    t = rng.choice(pool)
    slots: dict[str, str] = {}
    f = lambda s: _fill(s, project, slots, rng)  # noqa: E731
    steps = [(tool, f(inp), f(out)) for tool, inp, out in t["steps"]]
    followups = rng.sample(FOLLOWUPS, k=rng.choice([0, 1, 1, 2]))
    return {
        "ask": f(t["ask"]),
        "steps": steps,
        "finding": f(t["finding"]),
        "done": f(t["done"]),
        "followups": followups,
        "opener": rng.choice(OPENERS),
    }
