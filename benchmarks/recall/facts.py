"""The labeled part of the recall benchmark: 96 sessions that each hold one distinctive fact.

Written by hand, all queries included, before any ranking was tuned. Each fact is one coding-agent
session in a project: the developer's request, the agent's tool calls with their output, what the
agent found or decided, a follow-up. Each has two queries a developer might type weeks later:

- `close`: close to the session's own wording (the words they remember);
- `para`: the same need in other words (what they remember of the problem, not its vocabulary).

The split (tune / held-out) is by fact, fixed by `split()` before tuning started.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Fact:
    fid: str
    project: str
    ask: str
    steps: tuple[tuple[str, str, str], ...]  # (tool, input, output)
    finding: str
    done: str
    close: str
    para: str


def split(fid: str) -> str:
    """Facts held out from tuning, chosen by a hash of the id (fixed before tuning; aimed at 40%,
    the hash gives 30 of the 96)."""
    return "holdout" if int(hashlib.sha256(fid.encode()).hexdigest(), 16) % 5 < 2 else "tune"


def F(fid, project, ask, steps, finding, done, close, para) -> Fact:  # noqa: N802
    return Fact(fid, project, ask, tuple(steps), finding, done, close, para)


FACTS: list[Fact] = [
    # ---------------------------------------------------------------- payments-api (FastAPI, Postgres)
    F(
        "pay-psycopg-pin",
        "payments-api",
        "Why is psycopg pinned to 3.1.18 in pyproject.toml? Dependabot keeps opening PRs to bump it to 3.2 and CI goes red every time.",
        [
            ("Grep", "psycopg", 'pyproject.toml:14:    "psycopg[binary,pool]==3.1.18",  # see ADR-007'),
            (
                "Bash",
                "pytest tests/integration -x -q",
                'FAILED tests/integration/test_charges.py::test_capture - psycopg.errors.DuplicatePreparedStatement: prepared statement "_pg3_0" already exists',
            ),
        ],
        "Found it. psycopg 3.2 turns on server-side prepared statements after 5 executions by default, and we connect through pgbouncer in transaction pooling mode, where a prepared statement created on one backend is not there on the next transaction. That is the DuplicatePreparedStatement failure. The pin is deliberate: keep 3.1.18 until we set prepare_threshold=None on the pool, then we can bump.",
        "I added a comment next to the pin in pyproject.toml explaining the pgbouncer transaction-mode problem and closed the Dependabot PR.",
        "why is psycopg pinned to 3.1.18",
        "reason we can't upgrade the postgres driver",
    ),
    F(
        "pay-stripe-sig",
        "payments-api",
        "Stripe webhooks all fail with 'No signatures found matching the expected signature for payload'. The secret is right, I checked it twice.",
        [
            (
                "Read",
                "src/payments/webhooks.py",
                "async def stripe_webhook(request: Request, event: dict = Body(...)):\n    stripe.Webhook.construct_event(json.dumps(event), request.headers['stripe-signature'], settings.STRIPE_WEBHOOK_SECRET)",
            ),
            (
                "Bash",
                "stripe listen --forward-to localhost:8000/webhooks/stripe",
                "> Ready! Your webhook signing secret is whsec_... \n--> charge.succeeded [evt_1P] <-- [400] POST http://localhost:8000/webhooks/stripe",
            ),
        ],
        "The handler lets FastAPI parse the body into a dict and then re-serializes it with json.dumps. The signature is computed over the exact raw bytes Stripe sent, and re-serializing changes whitespace and key order, so verification can never match. Fix: read `await request.body()` and pass those raw bytes to construct_event, and drop the Body(...) parameter.",
        "Changed the handler to verify the raw request body; stripe listen now shows 200 for charge.succeeded and charge.refunded.",
        "stripe webhook signature verification fails raw body",
        "payment provider callbacks rejected as invalid",
    ),
    F(
        "pay-idempotency",
        "payments-api",
        "We had three customers charged twice yesterday. Looks like the mobile app retried POST /charges after a timeout. Don't we have idempotency?",
        [
            (
                "Grep",
                "Idempotency-Key",
                'src/payments/api/charges.py:41:    key = request.headers.get("Idempotency-Key")\nsrc/payments/idempotency.py:12:    await redis.set(f"idem:{key}", response_json, ex=300)',
            )
        ],
        "We do, but the stored response for an Idempotency-Key expires after 300 seconds (ex=300). The app's retry queue replays failed requests for up to several hours, so later retries find no key and charge again. I'm raising the TTL to 24 hours (86400 s), which matches Stripe's own idempotency window, and passing our key through to Stripe as idempotency_key too so Stripe also dedupes.",
        "TTL is now 86400 seconds and the key is forwarded to Stripe; added a test that replays the same request after 10 minutes.",
        "idempotency key redis ttl double charge retry",
        "customers billed twice when the client repeats a request",
    ),
    F(
        "pay-celery-refund",
        "payments-api",
        "The refund_payment celery task gives up too early when the bank API is down for a minute. What retry settings does it use?",
        [
            (
                "Read",
                "src/payments/tasks.py",
                "@celery_app.task(bind=True, max_retries=3, default_retry_delay=5)\ndef refund_payment(self, refund_id): ...",
            ),
            ("Bash", "grep -c 'Retry in 5s' logs/worker.log", "4211"),
        ],
        "refund_payment retries only 3 times, 5 seconds apart, so a bank outage longer than 15 seconds exhausts it. I switched it to autoretry_for=(BankUnavailable,), retry_backoff=True, retry_backoff_max=600, retry_jitter=True and max_retries=8: exponential backoff up to 10 minutes, about 40 minutes in total before it lands in the dead-letter queue.",
        "Updated the task decorator and added a unit test with a fake bank that is down for 5 minutes.",
        "celery refund task retry backoff max_retries",
        "how many times do we re-attempt a failed money return",
    ),
    F(
        "pay-rounding",
        "payments-api",
        "A merchant reports payouts in GBP that are 1p lower than their own spreadsheet. Conversion from EUR happens in convert_amount.",
        [
            (
                "Read",
                "src/payments/fx.py",
                "def convert_amount(amount: float, rate: float) -> int:\n    return int(amount * rate * 100)",
            )
        ],
        "convert_amount works in floats and truncates with int(), so 12.345 becomes 1234 pence instead of 1235. Amounts must stay integer minor units (cents/pence) end to end: I changed it to Decimal arithmetic with quantize(Decimal('1'), rounding=ROUND_HALF_EVEN) on the minor units, which is also what the card networks use for settlement.",
        "Rewrote convert_amount with Decimal and ROUND_HALF_EVEN, and added property tests against a reference implementation.",
        "convert amount rounding ROUND_HALF_EVEN decimal pence",
        "money is off by one cent after the exchange rate is applied",
    ),
    F(
        "pay-lock-timeout",
        "payments-api",
        "Last deploy the alembic migration adding a column to payments hung for 4 minutes and every API request queued behind it. How do we stop that?",
        [
            (
                "Bash",
                "psql -c \"select pid, wait_event_type, query from pg_stat_activity where wait_event_type = 'Lock'\"",
                " 8812 | Lock | ALTER TABLE payments ADD COLUMN settled_at timestamptz\n 8820 | Lock | SELECT * FROM payments WHERE id = $1 ...",
            )
        ],
        "The ALTER TABLE waits for an ACCESS EXCLUSIVE lock behind a long-running report query, and while it waits every new query on payments queues behind it. Set a lock_timeout in migrations: in env.py run `SET lock_timeout = '5s'` before each migration, so the ALTER gives up quickly and the deploy retries instead of blocking the table.",
        "env.py now sets lock_timeout to 5s and statement_timeout to 60s for migrations; the deploy script retries a migration 3 times.",
        "alembic migration lock_timeout 5s",
        "schema change froze the production tables during a release",
    ),
    F(
        "pay-ratelimit",
        "payments-api",
        "Add rate limiting to POST /charges, a single merchant hammered us with 4k requests a minute last night.",
        [("Bash", "pip install slowapi", "Successfully installed slowapi-0.1.9 limits-3.13.0")],
        "I added slowapi with a key function that uses the API key from the Authorization header (not the client IP, since merchants call us from many IPs): 100 requests per minute per API key on POST /charges, returning 429 with a Retry-After header. Limits are stored in the existing redis so all replicas share them.",
        "Rate limiter is in place with a test that the 101st request within a minute gets 429.",
        "rate limit charges endpoint slowapi per api key",
        "throttle how many payment requests one merchant can send",
    ),
    F(
        "pay-settlement-tz",
        "payments-api",
        "The daily settlement report for Berlin merchants includes transactions from just after midnight of the next day. Can you check the cutoff logic?",
        [
            (
                "Read",
                "src/payments/reports/settlement.py",
                "cutoff = datetime.combine(day, time.max)\nrows = q.filter(Transaction.created_at <= cutoff)",
            )
        ],
        "The cutoff is a naive datetime, so Postgres compares it as UTC, but merchants' settlement day is in Europe/Berlin. Midnight Berlin is 23:00 UTC in winter, so transactions between 23:00 and 00:00 UTC land in the wrong day. I made the cutoff timezone-aware with ZoneInfo(merchant.timezone) and compare in UTC.",
        "Settlement cutoff now uses the merchant's timezone; added tests around the DST change in March and October.",
        "settlement report naive datetime timezone cutoff",
        "daily payout totals contain the wrong day's transactions",
    ),
    F(
        "pay-jwt-aud",
        "payments-api",
        "Calls from order-service to /internal/charges started failing with 401 since this morning. Nothing changed on our side?",
        [
            (
                "Bash",
                "kubectl logs deploy/payments-api | grep 401 | tail -2",
                "WARN auth: token rejected: InvalidAudienceError('Audience doesn't match')",
            ),
            ("Read", "src/payments/auth.py", "jwt.decode(token, key, algorithms=['RS256'], audience='payments')"),
        ],
        "order-service was upgraded and its new token client no longer sets the `aud` claim, and we require audience='payments' in jwt.decode, so PyJWT raises InvalidAudienceError and we answer 401. The fix belongs in order-service: request tokens with audience payments. We should not relax the audience check.",
        "Opened a PR on order-service to request the payments audience; left our check as is.",
        "401 InvalidAudienceError jwt audience payments order-service",
        "calls from the order system get unauthorized errors",
    ),
    F(
        "pay-pool-workers",
        "payments-api",
        "After we scaled payments-api to 8 gunicorn workers per pod we get 'FATAL: sorry, too many clients already' from Postgres.",
        [
            (
                "Grep",
                "max_size",
                "src/payments/db.py:9: pool = ConnectionPool(settings.DATABASE_URL, min_size=5, max_size=20)",
            ),
            ("Bash", "psql -c 'show max_connections'", " max_connections\n-----------------\n 200"),
        ],
        "Each gunicorn worker creates its own pool of up to 20 connections: 8 workers x 20 x 3 pods = 480 possible connections against max_connections = 200. Set max_size=6 per worker (8 x 6 x 3 = 144, leaving room for migrations and admin), and longer term put pgbouncer in front.",
        "Pool max_size is now configurable through DB_POOL_MAX with a default of 6.",
        "too many clients already gunicorn workers pool max_size",
        "database refuses new connections after we added more processes",
    ),
    F(
        "pay-mask-pan",
        "payments-api",
        "Security found full card numbers in our Loki logs from the payment error handler. Can you make sure that never happens again?",
        [("Grep", "log.*card", 'src/payments/errors.py:22:    log.error("charge failed", payload=request_payload)')],
        "The error handler logs the whole request payload, card number included. Besides not logging the payload, I added a structlog processor mask_pan that runs before the renderer and replaces anything that looks like a PAN (13-19 digits passing the Luhn check) with the first 6 and last 4 digits, so a stray log call elsewhere cannot leak one either.",
        "mask_pan is the first processor in structlog.configure; tests cover numbers with spaces and dashes.",
        "structlog processor mask_pan card numbers",
        "keep credit card digits out of our logging",
    ),
    F(
        "pay-test-rollback",
        "payments-api",
        "The test suite takes 11 minutes, mostly recreating the database between tests. Speed it up?",
        [
            (
                "Bash",
                "pytest --durations=5 -q",
                "3.12s setup tests/test_refunds.py::test_partial_refund\n3.08s setup tests/test_charges.py::test_capture ...",
            )
        ],
        "Each test drops and recreates the schema in setup. I changed the db fixture to create the schema once per session and wrap every test in a transaction that is rolled back at the end, using nested SAVEPOINTs so code under test can still commit. The suite went from 11 minutes to 1m40s.",
        "Fixture rewritten in conftest.py; three tests that relied on a fresh sequence now set their ids explicitly.",
        "pytest fixture transaction rollback savepoint",
        "make the tests quicker, they reset the db between each case",
    ),
    F(
        "pay-event-order",
        "payments-api",
        "Some refunds show status 'pending' in our dashboard even though Stripe says they succeeded.",
        [
            (
                "Bash",
                "grep re_3Pq logs/webhooks.log",
                "12:00:01 refund.updated status=succeeded\n12:00:01 refund.created status=pending",
            )
        ],
        "Stripe does not guarantee event order: refund.created arrived after refund.updated and overwrote succeeded with pending. I now store the Stripe event's `created` timestamp on the refund row and ignore any webhook event older than the last one applied.",
        "Added last_event_at to refunds with a migration, and the webhook handler skips stale events.",
        "stripe webhook events out of order refund created timestamp",
        "refund status goes back to pending after it completed",
    ),
    F(
        "pay-proxy-headers",
        "payments-api",
        "Our access logs and the fraud checks see 10.0.x.x for every request instead of the customer's IP.",
        [("Read", "Dockerfile", 'CMD ["uvicorn", "payments.main:app", "--host", "0.0.0.0", "--port", "8000"]')],
        "We run behind the AWS ALB, so the peer address is the load balancer. uvicorn only honours X-Forwarded-For with --proxy-headers and a matching --forwarded-allow-ips. I added both (allowing the VPC range 10.0.0.0/16) so request.client.host is the real client.",
        "Dockerfile updated; fraud service now receives client IPs again.",
        "uvicorn proxy-headers forwarded-allow-ips client ip",
        "request logs show the balancer address instead of the real caller",
    ),
    F(
        "pay-3ds-flag",
        "payments-api",
        "How do we turn 3-D Secure on in staging only? I want to test SCA before enabling it for everyone.",
        [("Grep", "3DS", "src/payments/settings.py:31:    PAYMENTS_3DS_ENFORCED: bool = False")],
        "There is already a setting PAYMENTS_3DS_ENFORCED (default False) read from the environment by pydantic settings. Set PAYMENTS_3DS_ENFORCED=true in the staging values file of the helm chart; production keeps the default until the rollout.",
        "Set it in deploy/values-staging.yaml; staging charges now return requires_action for test cards that need authentication.",
        "PAYMENTS_3DS_ENFORCED env var staging",
        "enable strong customer authentication in only one environment",
    ),
    F(
        "pay-fraud-timeout",
        "payments-api",
        "What happens to a charge if the fraud scoring service doesn't answer?",
        [
            (
                "Read",
                "src/payments/fraud.py",
                "async with httpx.AsyncClient(timeout=2.0) as client:\n    ...\nexcept httpx.TimeoutException:\n    return Decision.APPROVE if amount < 5000 else Decision.REVIEW",
            )
        ],
        "The call to the fraud scorer has a 2 second httpx timeout. On timeout we fail open for small amounts: charges under 50 EUR (5000 cents) are approved, larger ones go to manual review. That was a product decision to keep checkout working when the scorer is degraded.",
        "No change needed; documented the fallback in docs/fraud.md.",
        "fraud score httpx timeout fallback approve under 50",
        "what if the risk check service is too slow to respond",
    ),
    # ---------------------------------------------------------------- web-frontend (React, Vite)
    F(
        "web-process-env",
        "web-frontend",
        "After moving from CRA to Vite the app crashes on load with 'Uncaught ReferenceError: process is not defined'.",
        [
            (
                "Grep",
                "process.env",
                "src/api/client.ts:3: const BASE_URL = process.env.REACT_APP_API_URL\nsrc/analytics.ts:7: if (process.env.NODE_ENV === 'production')",
            )
        ],
        "Vite does not polyfill Node's process object in the browser. Variables must be read through import.meta.env and exposed with the VITE_ prefix. I renamed REACT_APP_API_URL to VITE_API_URL, replaced process.env.NODE_ENV with import.meta.env.PROD, and added the types in src/vite-env.d.ts.",
        "Renamed the variables in .env files and the CI secrets as well.",
        "vite process is not defined import.meta.env",
        "config values undefined in the browser bundle after switching build tool",
    ),
    F(
        "web-strictmode",
        "web-frontend",
        "In dev every page view shows up twice in our analytics debug panel.",
        [("Read", "src/hooks/usePageView.ts", "useEffect(() => { analytics.track('page_view', { path }) }, [path])")],
        "React 18 StrictMode mounts, unmounts and remounts every component in development, so the useEffect runs twice. It only happens in dev, but the analytics team tests with the dev build. I added a ref guard (lastTracked.current === path) so the same path is only tracked once.",
        "usePageView now dedupes by path; production behaviour unchanged.",
        "useEffect runs twice StrictMode analytics page_view",
        "page visits recorded two times while developing",
    ),
    F(
        "web-lodash",
        "web-frontend",
        "Lighthouse says our main bundle is 410 KB gzipped. What's making it so big?",
        [("Bash", "npx vite-bundle-visualizer", "lodash 71.2 KB | moment 67.9 KB | @mui/icons-material 48.1 KB ...")],
        "The biggest single offender is `import _ from 'lodash'`, which pulls in all of lodash. I switched to lodash-es with per-method imports (import debounce from 'lodash-es/debounce'), replaced moment with date-fns, and imported MUI icons by path. Main bundle is now 260 KB gzipped.",
        "Added an eslint no-restricted-imports rule for 'lodash' and 'moment'.",
        "bundle size lodash-es per-method imports",
        "javascript download is too large, shrink the first load",
    ),
    F(
        "web-playwright-auth",
        "web-frontend",
        "Our Playwright suite logs in through the UI in every spec and it's the slowest part of CI.",
        [("Read", "playwright.config.ts", "projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }]")],
        "Use a setup project: auth.setup.ts logs in once and saves the browser state with page.context().storageState({ path: 'playwright/.auth/user.json' }). The chromium project depends on setup and uses storageState from that file, so each spec starts already authenticated.",
        "CI time for e2e went from 14 to 6 minutes.",
        "playwright storageState auth setup project",
        "end to end tests sign in again in every spec",
    ),
    F(
        "web-modal-zindex",
        "web-frontend",
        "The ConfirmDialog opens behind the sticky header on the orders page.",
        [("Read", "src/components/Header.module.css", ".header { position: sticky; top: 0; z-index: 1000; }")],
        "The dialog is rendered inside the page container, which creates its own stacking context (it has transform for the slide animation), so no z-index on the dialog can get above the header. I render the dialog through a portal into document.body with createPortal.",
        "ConfirmDialog uses a portal now; checked the other modals too.",
        "modal z-index below sticky header createPortal",
        "popup hidden behind the top navigation bar",
    ),
    F(
        "web-intl-date",
        "web-frontend",
        "German users see dates like 11/03/2026 and read them as 11 March when we mean November 3rd.",
        [("Grep", "toLocaleDateString", "src/utils/format.ts:4: return d.toLocaleDateString('en-US')")],
        "formatDate hard-codes en-US. I changed it to Intl.DateTimeFormat with the user's locale (navigator.languages[0], overridable in settings) and a fallback to en-GB, with dateStyle 'medium' so months are written out and the order is never ambiguous.",
        "All date output goes through formatDate; snapshot tests updated.",
        "Intl.DateTimeFormat locale fallback en-GB",
        "dates shown in american format for european customers",
    ),
    F(
        "web-sentry-maps",
        "web-frontend",
        "Sentry errors from production only show minified stack traces like a.b is not a function at index-4f2a.js:1:20833.",
        [
            (
                "Read",
                ".github/workflows/deploy.yml",
                "- run: npm run build\n- run: aws s3 sync dist s3://web-frontend-prod",
            )
        ],
        "We never upload source maps. I enabled build.sourcemap: 'hidden' in vite.config.ts (maps are generated but not referenced from the bundle, so they aren't public), and added @sentry/vite-plugin to upload them for the release and delete them from dist before the s3 sync.",
        "Next deploy showed readable stack traces in Sentry.",
        "sentry source maps upload hidden sourcemap vite plugin",
        "error reports only contain minified stack traces",
    ),
    F(
        "web-react-query-stale",
        "web-frontend",
        "The product list refetches and flashes a spinner every time I come back to the tab.",
        [
            (
                "Read",
                "src/queries/products.ts",
                "export const useProducts = () => useQuery({ queryKey: ['products'], queryFn: fetchProducts })",
            )
        ],
        "React Query's default staleTime is 0 and refetchOnWindowFocus is true, so every focus triggers a refetch. The catalog changes rarely, so I set staleTime to 30 seconds for products and keep placeholderData so the list never flashes empty.",
        "Set staleTime: 30_000 on the products queries.",
        "react query staleTime refetchOnWindowFocus products",
        "catalog reloads every time I switch browser tabs",
    ),
    F(
        "web-zod-postcode",
        "web-frontend",
        "Checkout rejects valid UK postcodes like 'SW1A 1AA' as invalid.",
        [("Read", "src/checkout/schema.ts", "postalCode: z.string().regex(/^\\d{5}$/, 'Invalid postal code')")],
        "The zod schema only accepts five digits, i.e. US ZIP codes. I replaced it with a superRefine that picks the regex per country from a table (US, GB, DE, FR, NL, CA), with the GB pattern allowing the space, and a loose fallback for other countries.",
        "Added test cases for each country in the table.",
        "zod schema postal code regex per country checkout",
        "zip field refuses correct british addresses",
    ),
    F(
        "web-storybook8",
        "web-frontend",
        "Storybook won't build since the upgrade to 8.0: 'Could not find a framework'.",
        [
            (
                "Read",
                ".storybook/main.ts",
                "framework: '@storybook/react',\ncore: { builder: '@storybook/builder-vite' }",
            )
        ],
        "Storybook 8 removed the separate builder option for React; the framework field must name the framework package that includes the builder: '@storybook/react-vite'. I ran npx storybook automigrate, which also removed the old addon-essentials peer pins.",
        "Storybook builds again and the chromatic job is green.",
        "storybook 8 framework @storybook/react-vite",
        "component gallery stopped building after the upgrade",
    ),
    F(
        "web-focus-trap",
        "web-frontend",
        "Accessibility audit: keyboard users can tab out of the modal into the page behind it.",
        [
            (
                "Read",
                "src/components/Modal.tsx",
                '<div className={styles.backdrop}><div role="dialog">{children}</div></div>',
            )
        ],
        "The modal has no focus management. I added focus-trap-react around the content, role=dialog with aria-modal=true and aria-labelledby, initial focus on the first field, Escape to close, and focus returns to the element that opened the modal when it closes.",
        "axe-core reports no violations for the modal anymore.",
        "focus trap modal aria-modal return focus",
        "keyboard users get stuck or escape out of the popup",
    ),
    F(
        "web-csp-nonce",
        "web-frontend",
        "In production the site renders without styles and the console says 'Refused to apply inline style because it violates the Content Security Policy directive'.",
        [
            (
                "Bash",
                "curl -sI https://app.example.com | grep -i content-security",
                "content-security-policy: default-src 'self'; style-src 'self'",
            )
        ],
        "Emotion injects <style> tags at runtime, which style-src 'self' blocks. Rather than allowing 'unsafe-inline', the server now generates a nonce per request, puts it in the CSP header (style-src 'self' 'nonce-...'), and we pass it to Emotion's createCache({ key: 'css', nonce }).",
        "Nonce is injected by the nginx njs script into index.html and the header.",
        "content security policy nonce emotion inline styles",
        "browser blocks our styling in production because of security headers",
    ),
    F(
        "web-cls-images",
        "web-frontend",
        "Our CLS score is 0.31 on the product page. Content jumps while scrolling.",
        [
            (
                "Bash",
                "npx lighthouse https://app.example.com/p/123 --only-categories=performance",
                "Cumulative Layout Shift 0.31 - Image elements do not have explicit width and height",
            )
        ],
        "Product images have no width/height attributes, so the browser reserves no space and everything below shifts when they load. I added width and height (the aspect ratio is known from the CDN), loading=lazy for below-the-fold images and fetchpriority=high for the hero image. CLS is 0.02 now.",
        "Updated the ProductImage component.",
        "cumulative layout shift images width height loading lazy",
        "page jumps around while pictures load",
    ),
    F(
        "web-eslint-flat",
        "web-frontend",
        "ESLint 9 ignores our .eslintrc.cjs and lints nothing.",
        [("Bash", "npx eslint src", "ESLint couldn't find an eslint.config.(js|mjs|cjs) file.")],
        "ESLint 9 uses flat config by default. I migrated .eslintrc.cjs to eslint.config.js with typescript-eslint's tseslint.config(), the react and react-hooks plugins, and moved .eslintignore patterns into an ignores entry.",
        "Lint is green; removed .eslintrc.cjs and .eslintignore.",
        "eslint 9 flat config eslint.config.js typescript-eslint",
        "linter setup broke after the new config format",
    ),
    F(
        "web-sw-stale",
        "web-frontend",
        "After every deploy some users still get the old app for days, even after reloading.",
        [("Read", "src/sw.ts", "registerRoute(({request}) => request.mode === 'navigate', new CacheFirst())")],
        "The service worker serves index.html cache-first, so the old HTML (pointing at old hashed bundles) keeps being used until the worker updates. Navigation requests now use workbox NetworkFirst with a 3 second timeout, and the new worker calls skipWaiting and shows a 'new version' toast.",
        "Deployed; the stale-version reports stopped.",
        "service worker stale index.html workbox NetworkFirst",
        "people keep seeing the old version after a release",
    ),
    F(
        "web-samesite",
        "web-frontend",
        "The support widget embedded on partner sites logs the user out on every page load in Chrome.",
        [
            (
                "Bash",
                "curl -sI https://app.example.com/api/session | grep -i set-cookie",
                "set-cookie: sid=abc; Path=/; HttpOnly; SameSite=Lax",
            )
        ],
        "Inside a cross-site iframe the session cookie is a third-party cookie, and SameSite=Lax cookies are not sent there. The widget's cookie needs SameSite=None; Secure (and Partitioned for CHIPS so it keeps working as Chrome phases out third-party cookies).",
        "The widget now uses its own cookie widget_sid with SameSite=None; Secure; Partitioned.",
        "cookie SameSite None Secure iframe widget",
        "session lost inside the embedded widget on another domain",
    ),
    # ---------------------------------------------------------------- data-pipeline (Airflow, Spark, dbt)
    F(
        "dp-catchup",
        "data-pipeline",
        "I unpaused the orders_daily DAG after two weeks and Airflow immediately started 300 runs. What happened?",
        [
            (
                "Read",
                "dags/orders_daily.py",
                "with DAG('orders_daily', start_date=datetime(2025, 1, 1), schedule='@hourly') as dag:",
            )
        ],
        "The DAG has no catchup argument and the default is catchup=True, so the scheduler creates a run for every missed interval since the last one. I set catchup=False and max_active_runs=1; if we need history we backfill explicitly with airflow dags backfill for a chosen range.",
        "Cleared the queued runs and redeployed the DAG.",
        "airflow dag catchup False backfill runs",
        "scheduler launched hundreds of old jobs after the workflow was unpaused",
    ),
    F(
        "dp-spark-skew",
        "data-pipeline",
        "The customer_ltv Spark job fails with executors lost: 'Container killed by YARN for exceeding memory limits'.",
        [
            (
                "Bash",
                "spark-submit --conf spark.sql.adaptive.enabled=true jobs/customer_ltv.py",
                "Stage 14: 1999/2000 tasks done, task 1873 running 41 min, shuffle read 38.2 GB",
            )
        ],
        "One task reads 38 GB while the others read ~20 MB: the join on customer_id is skewed because guest checkouts all have customer_id = 0. I salt the key (customer_id, rand() % 32) on the big side and explode the small side 32 times, and enabled spark.sql.adaptive.skewJoin.enabled. The job now finishes in 12 minutes.",
        "Also filtered out guest rows before the join since LTV ignores them anyway.",
        "spark skewed join salting customer_id",
        "executors run out of memory when merging the big customer table",
    ),
    F(
        "dp-dbt-incremental",
        "data-pipeline",
        "fct_orders has duplicate order rows after each nightly run.",
        [
            (
                "Read",
                "models/marts/fct_orders.sql",
                "{{ config(materialized='incremental') }}\nselect * from {{ ref('stg_orders') }}\n{% if is_incremental() %} where updated_at > (select max(updated_at) from {{ this }}) {% endif %}",
            )
        ],
        "The incremental model has no unique_key, so dbt appends updated orders instead of merging them. I added unique_key='order_id' with incremental_strategy='merge', and a unique test on order_id so this fails loudly next time.",
        "Ran a --full-refresh once to remove the existing duplicates.",
        "dbt incremental model unique_key merge duplicates",
        "warehouse table has repeated rows after every nightly load",
    ),
    F(
        "dp-kafka-poll",
        "data-pipeline",
        "The enrichment consumer keeps rebalancing and lag grows to millions of messages.",
        [
            (
                "Bash",
                "grep -i rebalanc logs/enricher.log | tail -3",
                "WARN consumer poll timeout has expired. This means the time between subsequent calls to poll() was longer than the configured max.poll.interval.ms",
            )
        ],
        "Each poll returns up to 500 records and enriching one record calls the geo API, so a batch can take over 5 minutes, longer than max.poll.interval.ms (300000). The broker considers the consumer dead and rebalances. I lowered max.poll.records to 50 and raised max.poll.interval.ms to 600000.",
        "Lag drained within an hour.",
        "kafka consumer max.poll.interval.ms rebalance max.poll.records",
        "stream readers keep getting kicked out of the group",
    ),
    F(
        "dp-parquet-schema",
        "data-pipeline",
        "Reading s3://lake/events/ fails with 'Parquet column cannot be converted. Column: [user_id], Expected: bigint, Found: INT32'.",
        [("Bash", "parquet-tools schema part-0001.parquet | grep user_id", "optional int32 user_id;")],
        "Files written before March have user_id as INT32; the writer was changed to INT64 later. Spark picks the schema from one file. Reading with mergeSchema doesn't widen types, so I added a one-off rewrite job that casts the old partitions to bigint, and the writer now declares an explicit schema.",
        "Rewrote 142 old partitions; the reader passes on the full history.",
        "parquet column cannot be converted int32 bigint schema",
        "reading older files breaks because a column type changed",
    ),
    F(
        "dp-s3-slowdown",
        "data-pipeline",
        "The compaction job fails intermittently with 'SlowDown: Please reduce your request rate' from S3.",
        [("Bash", "aws s3 ls s3://lake/raw/clicks/ | wc -l", "1841233")],
        "All 1.8 million objects live under one prefix, and S3 limits requests per prefix (about 3,500 PUT and 5,500 GET per second). I changed the writer to partition by dt=YYYY-MM-DD/hour=HH so requests spread over many prefixes, and enabled the adaptive retry mode in the boto3 config.",
        "New data is written partitioned; the old flat prefix is being migrated.",
        "s3 SlowDown reduce request rate prefix partitioning",
        "object storage rejects requests when the job lists too many files",
    ),
    F(
        "dp-snowflake-suspend",
        "data-pipeline",
        "Finance asked why our Snowflake bill doubled in October.",
        [
            (
                "Bash",
                "snowsql -q \"show warehouses like 'TRANSFORM_WH'\"",
                "TRANSFORM_WH | X-LARGE | auto_suspend 3600 | auto_resume true",
            )
        ],
        "TRANSFORM_WH is X-Large with auto_suspend at 3600 seconds, so after each 5-minute dbt run it stays up and bills for another hour. I set AUTO_SUSPEND = 60 and moved the hourly dbt runs to a LARGE warehouse. Expected saving is about 60% of the warehouse credits.",
        "Changed in terraform (snowflake_warehouse.transform).",
        "snowflake warehouse auto_suspend 60 credits",
        "cut the analytics compute bill for idle time",
    ),
    F(
        "dp-ge-nulls",
        "data-pipeline",
        "Add a check that fails the pipeline if too many customers have no email.",
        [("Bash", "great_expectations suite edit customers", "Opened notebook for expectation suite customers")],
        "I added expect_column_values_to_not_be_null on customers.email with mostly=0.99 to the Great Expectations suite, so more than 1% nulls fails the checkpoint that runs before the dbt marts.",
        "The checkpoint runs in the Airflow DAG right after ingestion.",
        "great expectations null email column mostly 0.99",
        "data quality rule on missing contact addresses",
    ),
    F(
        "dp-sensor-reschedule",
        "data-pipeline",
        "Half of our Airflow worker slots are busy but nothing seems to be running.",
        [
            (
                "Bash",
                "airflow tasks states-for-dag-run partner_feed manual__2026-09-01",
                "wait_for_partner_file | running (S3KeySensor)",
            )
        ],
        "Twenty S3KeySensors are waiting for partner files in poke mode, and a poking sensor holds a worker slot for the whole wait. I switched them to mode='reschedule' with poke_interval=300, so a sensor releases its slot between checks.",
        "Also set timeout=6h so a missing file fails instead of waiting forever.",
        "airflow sensor mode reschedule worker slots",
        "waiting tasks block all the workers",
    ),
    F(
        "dp-interval-end",
        "data-pipeline",
        "The daily export writes Tuesday's data into the dt=Monday folder.",
        [("Read", "dags/export.py", 'path = f"s3://exports/dt={{{{ ds }}}}/"')],
        "For a daily DAG, ds is the start of the data interval, i.e. the previous day, while the job runs just after midnight for the day that just ended. That is by design in Airflow; the bug is our query, which selects by the run date. I changed the query to use data_interval_start and data_interval_end, so data and folder both refer to the same interval.",
        "Backfilled the last 30 days into the right folders.",
        "airflow data_interval_end ds daily partition",
        "daily job writes the data into the wrong date folder",
    ),
    F(
        "dp-hash-emails",
        "data-pipeline",
        "Legal wants emails out of the data lake. Can we still join on them?",
        [("Grep", "email", "jobs/ingest_users.py:31: df = df.withColumn('email', F.lower('email'))")],
        "We replace the email with sha256(salt || lower(trim(email))), where the salt is read from AWS Secrets Manager (secret data-pipeline/email-salt) at job start. Joins still work because every job hashes the same way, and the raw address never lands in the lake.",
        "Implemented as a shared UDF hash_email in pipeline/pii.py.",
        "sha256 salt secrets manager hash emails",
        "how we anonymize customer contact info in the lake",
    ),
    F(
        "dp-dropduplicates",
        "data-pipeline",
        "The real-time orders dashboard counts some orders twice.",
        [
            (
                "Read",
                "streams/orders_stream.py",
                "df = spark.readStream.format('kafka')...\nagg = df.groupBy(window('ts', '1 minute')).count()",
            )
        ],
        "The producer retries and sometimes sends the same event twice. The stream now deduplicates with withWatermark('ts', '10 minutes').dropDuplicates(['event_id', 'ts']) before the aggregation; the watermark bounds the state Spark keeps for dedup.",
        "Counts match the batch numbers again.",
        "structured streaming withWatermark dropDuplicates event_id",
        "the same event is counted twice on the live dashboard",
    ),
    F(
        "dp-slim-ci",
        "data-pipeline",
        "dbt CI on pull requests takes 40 minutes because it builds every model.",
        [
            (
                "Bash",
                "dbt ls --select state:modified+ --state prod-manifest/",
                "model.analytics.fct_orders\nmodel.analytics.agg_revenue_daily",
            )
        ],
        "Use slim CI: download the production manifest.json, then run dbt build --select state:modified+ --defer --state prod-manifest/. Only changed models and their children are built; unchanged parents are read from production.",
        "CI now takes 4 minutes for a typical PR.",
        "dbt slim ci state:modified+ defer manifest",
        "only build what changed in the pull request checks for the transformations",
    ),
    F(
        "dp-latin1",
        "data-pipeline",
        "The nightly import of the partner's CSV crashes with UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9.",
        [("Bash", "file -i partner_products.csv", "partner_products.csv: text/plain; charset=iso-8859-1")],
        "The partner exports in Latin-1 (0xe9 is é), not UTF-8. I detect the encoding with charset-normalizer on the first 64 KB and decode accordingly, defaulting to latin-1 when detection is unsure, and we write UTF-8 downstream.",
        "Also asked the partner to switch to UTF-8.",
        "csv UnicodeDecodeError latin-1 partner file",
        "vendor export has garbled accented characters",
    ),
    F(
        "dp-broadcast",
        "data-pipeline",
        "The sales_enriched job shuffles 200 GB just to join a 60 MB stores table.",
        [
            (
                "Bash",
                "spark-sql -e 'set spark.sql.autoBroadcastJoinThreshold'",
                "spark.sql.autoBroadcastJoinThreshold 10485760",
            )
        ],
        "The threshold is 10 MB, so the 60 MB dimension table is not broadcast and both sides get shuffled. I raised spark.sql.autoBroadcastJoinThreshold to 100 MB for this job (and added a broadcast() hint on stores). The job went from 35 to 9 minutes.",
        "Set in the job's spark conf, not cluster-wide.",
        "spark autoBroadcastJoinThreshold 100MB broadcast join",
        "small lookup tables should be sent to every node",
    ),
    F(
        "dp-airflow-pool",
        "data-pipeline",
        "Snowflake started queuing our queries at 2am when 30 Airflow tasks hit it at once.",
        [("Bash", "airflow pools list", "default_pool | 128")],
        "I created an Airflow pool named snowflake with 4 slots and assigned every SnowflakeOperator task to it (pool='snowflake'), so at most 4 queries run concurrently and the rest wait in Airflow instead of the warehouse queue.",
        "Pool is created by the deploy script so it exists in every environment.",
        "airflow pool snowflake 4 slots concurrent queries",
        "cap how many warehouse jobs run at once",
    ),
    # ---------------------------------------------------------------- mobile-app (React Native, Expo)
    F(
        "mob-kotlin-dup",
        "mobile-app",
        "Android release build fails: 'Duplicate class kotlin.collections.jdk8.CollectionsJDK8Kt found in modules kotlin-stdlib-1.8.22 and kotlin-stdlib-jdk8-1.7.20'.",
        [
            (
                "Bash",
                "cd android && ./gradlew app:dependencies | grep kotlin-stdlib",
                "+--- org.jetbrains.kotlin:kotlin-stdlib-jdk8:1.7.20\n+--- org.jetbrains.kotlin:kotlin-stdlib:1.8.22",
            )
        ],
        "Since Kotlin 1.8 the jdk7/jdk8 classes moved into kotlin-stdlib, so an old kotlin-stdlib-jdk8 from one library clashes with the new stdlib. I set kotlinVersion = '1.9.22' in android/build.gradle and added the kotlin-bom platform dependency so all stdlib artifacts align.",
        "assembleRelease passes.",
        "duplicate class kotlin-stdlib-jdk8 kotlin version bom",
        "gradle complains about the same classes twice",
    ),
    F(
        "mob-apns-env",
        "mobile-app",
        "Push notifications work in TestFlight builds from Xcode but not in the App Store build.",
        [
            (
                "Bash",
                "codesign -d --entitlements :- build/MyApp.app | grep -A1 aps",
                "<key>aps-environment</key>\n<string>development</string>",
            )
        ],
        "The release build carries aps-environment = development, so its device tokens are sandbox tokens and our server sends them to the production APNs gateway, which rejects them with BadDeviceToken. In app.json set ios.entitlements['aps-environment'] to 'production' for the production EAS profile.",
        "EAS production profile fixed; new build receives pushes.",
        "aps-environment production entitlement push notifications",
        "iphone users don't get alerts from the app store build",
    ),
    F(
        "mob-universal-links",
        "mobile-app",
        "Links in our password reset email open Safari instead of the app.",
        [("Bash", "curl -s https://app.example.com/.well-known/apple-app-site-association", "404 Not Found")],
        "Universal links need two halves: the app declares associatedDomains ['applinks:app.example.com'] in app.json, and the domain serves /.well-known/apple-app-site-association listing our team id and bundle id with the paths. The file was missing. I added it to the web deploy and the associatedDomains entry; expo-router then handles /reset-password/[token].",
        "Verified with the Apple CDN validator.",
        "universal links associatedDomains apple-app-site-association",
        "tapping links in email opens safari instead of the app",
    ),
    F(
        "mob-flatlist",
        "mobile-app",
        "Scrolling the transactions list is janky on older Android phones, around 20 fps.",
        [
            (
                "Read",
                "src/screens/Transactions.tsx",
                "<FlatList data={txs} renderItem={({item}) => <TxRow tx={item} />} />",
            )
        ],
        "Rows have a fixed height, so I added getItemLayout (skips measuring), wrapped TxRow in React.memo with a stable keyExtractor, set windowSize to 5 and removeClippedSubviews. The list now holds 55-60 fps on a Galaxy A10.",
        "Also moved the date formatting out of render into the selector.",
        "FlatList getItemLayout windowSize React.memo",
        "long scrolling list stutters on older phones",
    ),
    F(
        "mob-hermes-intl",
        "mobile-app",
        "The app crashes on Android when a screen shows '3 items': TypeError: undefined is not a function near Intl.PluralRules.",
        [("Grep", "PluralRules", "node_modules/i18next/dist/cjs/i18next.js: new Intl.PluralRules(...)")],
        "Hermes on Android ships without Intl.PluralRules, and i18next uses it for plural forms. I added @formatjs/intl-pluralrules (polyfill-force plus the locale data for en and de) imported at the top of index.js before i18next initializes.",
        "No crash; plurals render correctly in both languages.",
        "hermes Intl.PluralRules polyfill formatjs i18next",
        "app crashes when showing translated counts",
    ),
    F(
        "mob-match",
        "mobile-app",
        "How does CI get the iOS signing certificates? The build machine was replaced and signing fails.",
        [("Read", "ios/fastlane/Fastfile", "match(type: 'appstore', readonly: is_ci)")],
        "We use fastlane match: certificates and provisioning profiles are encrypted in the private repo mobile-certs, and CI runs match in readonly mode with MATCH_PASSWORD and a deploy key for that repo. The new runner lacked the MATCH_GIT_BASIC_AUTHORIZATION secret.",
        "Added the secret to the new runner group.",
        "fastlane match readonly certificates ci",
        "signing identities for the build server",
    ),
    F(
        "mob-mmkv",
        "mobile-app",
        "Some Android users lose their offline drafts. Sentry shows 'database or disk is full' from AsyncStorage.",
        [("Bash", "grep -r AsyncStorage src | wc -l", "37")],
        "AsyncStorage on Android is backed by SQLite with a default 6 MB size limit, and large drafts with photos hit it. I moved drafts and the cache to react-native-mmkv (no size limit, synchronous and faster) with a one-time migration from AsyncStorage on startup.",
        "Migration runs once and deletes the old keys.",
        "AsyncStorage 6MB limit android MMKV",
        "local storage full on some devices, users lose data",
    ),
    F(
        "mob-runtime-version",
        "mobile-app",
        "An OTA update crashed app version 2.3 because it used a native module only 2.4 has.",
        [("Read", "app.json", '"runtimeVersion": "1.0.0"')],
        "runtimeVersion was a fixed string, so every update was offered to every binary. I set runtimeVersion: { policy: 'appVersion' } so expo-updates only delivers an update to builds with the same app version; native changes require a version bump anyway.",
        "Republished the update for 2.4 only and rolled back 2.3's channel.",
        "expo-updates runtimeVersion policy appVersion",
        "over the air release reached incompatible native builds",
    ),
    F(
        "mob-keyboard",
        "mobile-app",
        "On iOS the keyboard covers the comment input at the bottom of the screen.",
        [("Read", "src/screens/Comments.tsx", '<KeyboardAvoidingView behavior="height">')],
        "behavior='height' does little on iOS for a bottom input. Use behavior='padding' on iOS only (Platform.OS === 'ios' ? 'padding' : undefined; Android resizes the window itself with adjustResize) and a keyboardVerticalOffset equal to the header height.",
        "Input stays above the keyboard on iPhone SE and 15 Pro.",
        "KeyboardAvoidingView behavior padding ios offset",
        "the on-screen keys hide the text box",
    ),
    F(
        "mob-account-deletion",
        "mobile-app",
        "App Store review rejected 3.1.0. Can you read the rejection and tell me what they want?",
        [
            (
                "Read",
                "review-notes.txt",
                "Guideline 5.1.1(v) - Data Collection and Storage: the app supports account creation but does not include an option to initiate account deletion.",
            )
        ],
        "Apple requires apps that let users create an account to also let them delete it from within the app (guideline 5.1.1(v)). I added Settings > Delete account, which calls DELETE /me on the auth service, and explained it in the review notes.",
        "Resubmitted; approved the next day.",
        "app store rejection guideline 5.1.1 account deletion",
        "apple refused the release because users can't remove their profile",
    ),
    F(
        "mob-biometric",
        "mobile-app",
        "Face ID login just fails when the user wears a mask. Shouldn't it fall back to the passcode?",
        [("Read", "src/auth/biometric.ts", "LocalAuthentication.authenticateAsync({ disableDeviceFallback: true })")],
        "We pass disableDeviceFallback: true to expo-local-authentication, which removes the device passcode option after a failed biometric attempt. Set it to false (and fallbackLabel 'Use passcode') so iOS offers the passcode and Android the PIN/pattern.",
        "Tested on an iPhone with Face ID failing.",
        "expo-local-authentication disableDeviceFallback passcode",
        "face id login when the scan doesn't work",
    ),
    F(
        "mob-fgs-location",
        "mobile-app",
        "Since Android 14 the app crashes when starting a run: SecurityException: Starting FGS with type location requires permissions.",
        [("Read", "android/app/src/main/AndroidManifest.xml", '<service android:name=".TrackingService" />')],
        'Android 14 requires every foreground service to declare its type. TrackingService needs android:foregroundServiceType="location" plus the FOREGROUND_SERVICE_LOCATION permission, and the service must be started while the app holds the location permission.',
        "Added the type and permission via a config plugin so prebuild keeps it.",
        "android 14 foregroundServiceType location SecurityException",
        "background gps tracking crashes on the newest android",
    ),
    F(
        "mob-expo-image",
        "mobile-app",
        "Avatars download again every time the feed opens, data usage complaints.",
        [("Grep", "<Image", "src/components/Avatar.tsx: <Image source={{ uri }} />")],
        "React Native's Image has no reliable disk cache on Android. I switched avatars and feed images to expo-image with cachePolicy='memory-disk' and a blurhash placeholder; images now come from the disk cache after the first load.",
        "Network inspector shows no repeat downloads.",
        "expo-image cachePolicy memory-disk",
        "pictures download again every time the screen opens",
    ),
    F(
        "mob-sentry-hermes",
        "mobile-app",
        "Crash reports from the app in Sentry have stack traces like index.android.bundle:1:284113, useless.",
        [("Read", "eas.json", '"production": { "env": { } }')],
        "With Hermes the bundle is compiled to bytecode, and Sentry needs both the packager source map and the Hermes map composed. The @sentry/react-native/expo config plugin does this on EAS builds if SENTRY_AUTH_TOKEN is set; it wasn't. I added the token as an EAS secret and the plugin in app.json with our org and project.",
        "New crashes show file and line numbers.",
        "sentry react native hermes source maps eas",
        "crash reports from phones have unreadable stacks",
    ),
    F(
        "mob-detox",
        "mobile-app",
        "Detox tests on CI time out waiting for the Android emulator to boot.",
        [("Bash", "emulator -avd Pixel_API_34 -no-window", "emulator: WARNING: ... boot completed after 412 s")],
        "The API 34 image with Play services boots in ~7 minutes on the CI runner without KVM. I switched to the API 31 google_apis x86_64 image, start it with -no-snapshot -no-audio -no-boot-anim and enabled KVM on the runner; boot takes 60 seconds.",
        "Detox job is stable over 20 runs.",
        "detox emulator boot timeout no-snapshot api 31",
        "device simulator for UI tests takes forever to start on the build server",
    ),
    F(
        "mob-dark-statusbar",
        "mobile-app",
        "In dark mode the status bar text is black on our black header, you can't see the clock.",
        [("Read", "App.tsx", '<StatusBar style="dark" />')],
        "The StatusBar style is hard-coded to dark. I set it from useColorScheme(): style='light' when the scheme is dark, and 'dark' otherwise, and the header colors come from the same theme so they change together.",
        "Checked both modes on iOS and Android.",
        "StatusBar style useColorScheme dark mode",
        "top bar text invisible with the night theme",
    ),
    # ---------------------------------------------------------------- infra (Terraform, Kubernetes)
    F(
        "inf-tf-lock",
        "infra",
        "terraform plan hangs with 'Error acquiring the state lock' and a lock from someone who's on vacation.",
        [
            (
                "Bash",
                "terraform plan",
                "Error: Error acquiring the state lock\nLock Info:\n  ID: 6f1c2a7e-...\n  Path: infra-state/prod/terraform.tfstate\n  Operation: OperationTypeApply\n  Who: bob@laptop",
            )
        ],
        "The lock in the DynamoDB table terraform-locks is left over from an apply that was interrupted when Bob's laptop went to sleep. After checking no apply is running (CI shows none), release it with terraform force-unlock 6f1c2a7e-... and re-run plan.",
        "Unlocked; plan shows no drift.",
        "terraform force-unlock dynamodb state lock",
        "infrastructure plan waits forever on a held lock",
    ),
    F(
        "inf-oomkilled",
        "infra",
        "The catalog-service pods restart every few hours with reason OOMKilled.",
        [
            (
                "Bash",
                "kubectl describe pod catalog-service-7d9f | grep -A3 'Last State'",
                "Last State: Terminated\n  Reason: OOMKilled\n  Exit Code: 137",
            )
        ],
        "The container limit is 512Mi, but the JVM sizes its heap from the node's memory because the image uses an old JDK flag set. I set -XX:MaxRAMPercentage=75 so the heap follows the container limit, and raised the limit to 1Gi after looking at the real usage.",
        "No restarts in 3 days.",
        "OOMKilled memory limit MaxRAMPercentage jvm",
        "containers keep getting killed for using too much RAM",
    ),
    F(
        "inf-startup-probe",
        "infra",
        "search-api gets killed by Kubernetes during startup, it needs about 90 seconds to load its index.",
        [
            (
                "Read",
                "charts/search-api/templates/deployment.yaml",
                "livenessProbe: { httpGet: { path: /healthz, port: 8080 }, initialDelaySeconds: 30, failureThreshold: 3 }",
            )
        ],
        "The liveness probe starts after 30 s and kills the pod after 3 failures, long before the index is loaded. I added a startupProbe on /healthz with periodSeconds 10 and failureThreshold 30 (up to 5 minutes); liveness and readiness only start once the startup probe succeeds.",
        "Rolled out; pods start cleanly.",
        "startupProbe failureThreshold liveness probe",
        "service gets restarted before it finishes booting",
    ),
    F(
        "inf-hpa-metrics",
        "infra",
        "The HPA on checkout never scales up, it shows <unknown>/70% for CPU.",
        [
            (
                "Bash",
                "kubectl get hpa checkout",
                "NAME       REFERENCE             TARGETS         MINPODS   MAXPODS\ncheckout   Deployment/checkout   <unknown>/70%   3         20",
            )
        ],
        "<unknown> means the HPA gets no metrics: metrics-server is not installed in the new cluster. I added the metrics-server helm release to the cluster bootstrap, and the pods need CPU requests for a percentage target, which checkout has.",
        "HPA shows 34%/70% and scaled to 6 pods during the load test.",
        "hpa unknown targets metrics-server cpu 70",
        "autoscaler never adds replicas under load",
    ),
    F(
        "inf-gha-cache",
        "infra",
        "Our GitHub Actions python jobs spend 4 minutes installing dependencies on every run.",
        [
            (
                "Read",
                ".github/workflows/ci.yml",
                "- uses: actions/setup-python@v5\n  with: { python-version: '3.12' }\n- run: pip install poetry && poetry install",
            )
        ],
        "Nothing is cached. I use setup-python's cache: 'poetry' and an actions/cache step for the virtualenv keyed on ${{ runner.os }}-py312-${{ hashFiles('**/poetry.lock') }}, so the key changes only when the lock file changes.",
        "Warm runs install in 15 seconds.",
        "github actions cache key hashFiles poetry.lock",
        "ci downloads all python packages on every run",
    ),
    F(
        "inf-argocd-replicas",
        "infra",
        "ArgoCD shows checkout as OutOfSync all the time, but the diff is only spec.replicas.",
        [("Bash", "argocd app diff checkout", "- replicas: 3\n+ replicas: 7")],
        "The HPA changes replicas and ArgoCD compares against the 3 in git. Either drop replicas from the manifest or tell ArgoCD to ignore it; I added ignoreDifferences for group apps, kind Deployment, jsonPointers /spec/replicas to the Application, and removed replicas from the chart when autoscaling is enabled.",
        "App is Synced and selfHeal no longer fights the HPA.",
        "argocd ignoreDifferences spec replicas hpa",
        "gitops tool keeps reporting drift for the pod count",
    ),
    F(
        "inf-cert-dns01",
        "infra",
        "The TLS certificate for api.example.com expired, cert-manager didn't renew it.",
        [
            (
                "Bash",
                "kubectl describe challenge -A | grep -i reason",
                "Reason: Waiting for HTTP-01 challenge propagation: wrong status code '404', expected '200'",
            )
        ],
        "The HTTP-01 challenge path is served by the nginx ingress class, but api.example.com moved to the ALB ingress, so Let's Encrypt gets 404. I switched the ClusterIssuer to a dns01 solver with route53 (IRSA role allowed to change records in the example.com zone), which doesn't depend on ingress routing.",
        "Certificate issued; renewals use DNS now.",
        "cert-manager dns01 route53 solver http-01 404",
        "https certificates stopped renewing automatically",
    ),
    F(
        "inf-irsa",
        "infra",
        "The exporter pods use an AWS access key from a secret to write to S3. Security wants that gone.",
        [("Bash", "kubectl get sa exporter -o yaml", "metadata:\n  name: exporter")],
        "Use IRSA: create an IAM role trusting the cluster's OIDC provider for system:serviceaccount:jobs:exporter with a policy for the bucket, and annotate the service account with eks.amazonaws.com/role-arn. The AWS SDK picks up the web identity token automatically; then delete the key.",
        "Role created in terraform (module iam_irsa_exporter); the static key is deactivated.",
        "IRSA service account role-arn annotation s3",
        "give the workers permission to the bucket without static keys",
    ),
    F(
        "inf-helm-values",
        "infra",
        "We deployed to prod with helm and it came up with the staging replica count and log level.",
        [("Bash", "history | grep 'helm upgrade'", "helm upgrade api charts/api -f values-prod.yaml -f values.yaml")],
        "With several -f files, later files win. values.yaml (the defaults, with staging-like settings) was passed after values-prod.yaml and overrode it. The chart's values.yaml is applied automatically anyway, so pass only -f values-prod.yaml; --set flags would override both.",
        "Fixed the deploy script and added a helm template diff check in CI.",
        "helm values-prod.yaml override order -f",
        "production settings not applied when installing the chart",
    ),
    F(
        "inf-pdb",
        "infra",
        "The node group upgrade has been stuck for an hour draining one node.",
        [("Bash", "kubectl get pdb -A", "payments   payments-api   2   N/A   0")],
        "payments-api has a PodDisruptionBudget minAvailable: 2 and runs exactly 2 replicas, so 0 disruptions are allowed and the drain can never evict either pod. I changed the PDB to maxUnavailable: 1 (and we should run 3 replicas).",
        "Drain finished and the upgrade continued.",
        "PodDisruptionBudget minAvailable drain blocked",
        "cluster upgrade stuck evicting pods",
    ),
    F(
        "inf-aws-provider-pin",
        "infra",
        "Why is the AWS terraform provider constrained to ~> 5.31.0? I want the new EKS resources.",
        [("Read", "versions.tf", 'aws = { source = "hashicorp/aws", version = "~> 5.31.0" }  # see #412')],
        "Issue #412: provider 5.32 changed aws_s3_bucket_lifecycle_configuration so that an empty filter block forces replacement, and plan wanted to recreate the lifecycle rules of 40 buckets. We pinned to 5.31.x until the modules set filter {} explicitly. That has since been done, so we can move to ~> 5.40.",
        "Bumped to ~> 5.40 in a separate PR after a clean plan in all workspaces.",
        "terraform aws provider pinned 5.31 lifecycle",
        "why is the cloud plugin version fixed in the infrastructure code",
    ),
    F(
        "inf-vpc-endpoints",
        "infra",
        "The NAT gateway is 30% of our AWS bill. What's going through it?",
        [("Bash", "aws ce get-cost-and-usage ... --group-by USAGE_TYPE", "NatGateway-Bytes  $4,212.40")],
        "Most NAT traffic is pulls from ECR and reads from S3. I added VPC endpoints: a gateway endpoint for S3 (free) and interface endpoints for ecr.api, ecr.dkr and logs, so that traffic stays inside the VPC and skips the NAT processing charge.",
        "NAT bytes dropped 85% the following week.",
        "nat gateway cost vpc endpoint s3 ecr",
        "network egress charges too high for image pulls",
    ),
    F(
        "inf-external-secrets",
        "infra",
        "We rotated the database password in Secrets Manager but the pods used the old one for an hour.",
        [("Read", "k8s/external-secrets/db.yaml", "spec:\n  refreshInterval: 1h\n  secretStoreRef: { name: aws-sm }")],
        "The ExternalSecret syncs from AWS Secrets Manager every refreshInterval, 1h here, and pods read the secret only at startup. I set refreshInterval to 5m and added reloader annotations so the deployment restarts when the synced secret changes.",
        "Next rotation propagated in under 6 minutes.",
        "external-secrets refreshInterval secrets manager rotation",
        "rotated passwords take long to show up in the cluster",
    ),
    F(
        "inf-buildx-cache",
        "infra",
        "Docker image builds in GitHub Actions take 12 minutes even when only code changed.",
        [("Read", ".github/workflows/image.yml", "- run: docker build -t $IMAGE .")],
        "Plain docker build on a fresh runner has no layer cache. I switched to docker/build-push-action with buildx and cache-from/cache-to type=gha,mode=max, and reordered the Dockerfile so the dependency install layer comes before COPY of the source.",
        "Builds with only code changes take 2 minutes.",
        "buildx cache-to type=gha build-push-action",
        "container image builds in the pipeline are slow",
    ),
    F(
        "inf-ndots",
        "infra",
        "Every outbound HTTP call from the pods spends ~40ms in DNS.",
        [
            (
                "Bash",
                "kubectl exec deploy/api -- cat /etc/resolv.conf",
                "search api.svc.cluster.local svc.cluster.local cluster.local eu-west-1.compute.internal\noptions ndots:5",
            )
        ],
        "With ndots:5 a name like api.stripe.com (2 dots) is first tried with every search domain, 4 failed lookups before the real one. I set dnsConfig options ndots: 2 in the pod template (and use trailing dots for hot external hosts).",
        "DNS time per call dropped to ~2ms.",
        "ndots 5 dnsConfig dns lookups",
        "name resolution inside pods adds latency",
    ),
    F(
        "inf-log-retention",
        "infra",
        "How long do we keep application logs in CloudWatch?",
        [("Grep", "retention_in_days", "modules/service/logs.tf: retention_in_days = 30")],
        "Every service's log group is created by the service module with retention_in_days = 30; audit log groups override it with 365. Before the module, log groups were created by the services themselves with never-expire retention; we imported those into terraform last quarter.",
        "No change.",
        "cloudwatch log group retention_in_days 30",
        "how long do we keep application logs",
    ),
    # ---------------------------------------------------------------- auth-service (Go, OIDC)
    F(
        "auth-refresh-reuse",
        "auth-service",
        "What happens when a refresh token is used twice?",
        [
            (
                "Read",
                "internal/token/refresh.go",
                "if rt.UsedAt != nil {\n    s.revokeFamily(ctx, rt.FamilyID)\n    return ErrTokenReuse\n}",
            )
        ],
        "Refresh tokens rotate on every use and belong to a family. If an already-used token shows up again, we assume it was stolen: the whole family is revoked, so both the attacker and the real client must log in again, and we emit a token_reuse_detected audit event.",
        "Documented in docs/tokens.md.",
        "refresh token rotation reuse detection revoke family",
        "what happens when a stolen renewal token is used again",
    ),
    F(
        "auth-nbf-skew",
        "auth-service",
        "Some tokens are rejected with 'token is not valid yet' right after login, only on a few pods.",
        [
            (
                "Bash",
                "kubectl exec auth-7f -- date -u; date -u",
                "Tue Nov  3 10:00:41 UTC 2026\nTue Nov  3 10:00:02 UTC 2026",
            )
        ],
        "Those nodes' clocks are 40 seconds behind, so a fresh token's nbf lies in the future for them. Besides fixing chrony on the nodes, the validator now allows 30 seconds of leeway for nbf/iat/exp (jwt.WithLeeway(30*time.Second)).",
        "Node clocks fixed; leeway added.",
        "jwt nbf clock skew leeway 30s",
        "tokens rejected as not yet valid on some servers",
    ),
    F(
        "auth-argon2",
        "auth-service",
        "We still use bcrypt cost 10 for passwords. Can we move to argon2id without forcing resets?",
        [("Read", "internal/password/hash.go", "bcrypt.GenerateFromPassword([]byte(pw), 10)")],
        "Yes: rehash on login. New passwords are hashed with argon2id (m=64MB, t=3, p=2). On a successful login with a bcrypt hash we verify with bcrypt and immediately store an argon2id hash; the hash prefix ($2a$ vs $argon2id$) tells which algorithm to use. Accounts that never log in keep bcrypt.",
        "Implemented with a metric for the share of migrated hashes.",
        "bcrypt argon2id rehash on login",
        "upgrade how passwords are stored without resetting everyone",
    ),
    F(
        "auth-google-hd",
        "auth-service",
        "Someone signed into the admin console with a personal gmail account through Google login!",
        [("Read", "internal/oidc/google.go", "claims := idToken.Claims(&c)\n// TODO check domain")],
        "The hd parameter in the auth request only pre-selects accounts; it is not enforced. We must check the hd claim in the verified ID token equals example.com (and email_verified is true). I added that check and a test with a gmail.com token.",
        "Revoked the session and audited admin logins.",
        "oidc google hd claim domain check",
        "only allow employees' accounts to sign in with single sign-on",
    ),
    F(
        "auth-redis-evict",
        "auth-service",
        "Users get logged out randomly in the afternoon. The session store is Redis.",
        [
            (
                "Bash",
                "redis-cli info | grep -E 'maxmemory_policy|evicted_keys'",
                "maxmemory_policy:allkeys-lru\nevicted_keys:118233",
            )
        ],
        "Redis is full and allkeys-lru evicts any key, including sessions without a recent touch. Sessions have a TTL; the rate-limit counters and the cache share the instance. I set maxmemory-policy volatile-lru (only keys with a TTL are evicted), moved the cache to its own instance, and raised maxmemory.",
        "No evictions of session keys since.",
        "redis maxmemory-policy allkeys-lru sessions evicted",
        "people logged out randomly when the cache fills up",
    ),
    F(
        "auth-cors-creds",
        "auth-service",
        "The web app's login request fails with a CORS error after we added cookies.",
        [
            (
                "Bash",
                "curl -si -X OPTIONS https://auth.example.com/login -H 'Origin: https://app.example.com'",
                "access-control-allow-origin: *\naccess-control-allow-credentials: true",
            )
        ],
        "Browsers refuse credentialed requests when Access-Control-Allow-Origin is *. The server must echo the specific allowed origin from an allow-list and send Vary: Origin. I replaced the wildcard with a check against ALLOWED_ORIGINS.",
        "Login works from app.example.com and the staging origin.",
        "cors allow-credentials wildcard origin",
        "browser blocks the login request from the web app",
    ),
    F(
        "auth-login-ratelimit",
        "auth-service",
        "We see credential stuffing on /login, thousands of attempts per minute.",
        [
            (
                "Bash",
                "grep 'POST /login' access.log | awk '{print $1}' | sort | uniq -c | sort -rn | head -3",
                "  9120 185.220.101.4\n  8711 185.220.101.9",
            )
        ],
        "I added a limiter: 5 failed attempts per 15 minutes per (IP, username) pair and 100 per IP, with a 15 minute lockout and a generic error message so it doesn't reveal whether the username exists. Counters live in Redis with TTLs.",
        "Attack traffic now gets 429s.",
        "login rate limit 5 attempts 15 minutes lockout",
        "slow down password guessing attacks",
    ),
    F(
        "auth-jwks-kid",
        "auth-service",
        "Every time Okta rotates keys we get a burst of 'key not found' errors for a few minutes.",
        [("Read", "internal/oidc/jwks.go", "keys, _ := cache.GetOrFetch(jwksURL, 24*time.Hour)")],
        "We cache the JWKS for 24 hours and never refetch, so tokens signed with the new kid fail until the cache expires. The cache now lives 10 minutes, and an unknown kid triggers one immediate refetch (rate-limited to once per minute).",
        "Simulated a rotation in the test provider; no errors.",
        "jwks cache unknown kid refetch",
        "signature check fails right after the identity provider rotates keys",
    ),
    F(
        "auth-pkce",
        "auth-service",
        "The mobile team wants to use the authorization code flow from the app. Anything special?",
        [("Read", "internal/oauth/authorize.go", 'if client.Public && req.CodeChallenge == "" { /* allowed */ }')],
        "Public clients like the phone app can't keep a secret, so they must use PKCE. I made code_challenge required for public clients and only accept code_challenge_method S256 (plain is rejected); the token endpoint verifies the code_verifier.",
        "Mobile app uses expo-auth-session which sends S256 already.",
        "pkce code_challenge_method S256 public client",
        "securing the authorization code flow for the phone app",
    ),
    F(
        "auth-userinfo-timeout",
        "auth-service",
        "Login sometimes hangs for 30 seconds and then fails with 'context deadline exceeded'.",
        [("Read", "internal/oidc/userinfo.go", "resp, err := http.DefaultClient.Do(req)")],
        "The userinfo call uses http.DefaultClient, which has no timeout, so it waits until the request context's 30 second deadline. I created a dedicated http.Client with Timeout 5s and one retry, and the login handler returns a clear error if the identity provider is slow.",
        "p99 login latency went from 2.1s to 800ms.",
        "userinfo context deadline exceeded http.Client timeout",
        "profile lookup from the identity provider times out",
    ),
    F(
        "auth-reset-token",
        "auth-service",
        "How do password reset links work? Security review asks about expiry.",
        [
            (
                "Read",
                "internal/reset/reset.go",
                "token := randomToken(32)\nstore.Save(sha256(token), userID, time.Now().Add(30*time.Minute))",
            )
        ],
        "A reset token is 32 random bytes, sent only in the email; we store its sha256, never the token. It expires after 30 minutes and is single-use: it is deleted when used, and all other reset tokens of the user are invalidated when the password changes.",
        "Answered the security review.",
        "password reset token single use 30 minute expiry sha256",
        "how long is the forgot password link valid",
    ),
    F(
        "auth-totp-window",
        "auth-service",
        "Users say their authenticator codes are sometimes rejected even when typed quickly.",
        [("Read", "internal/mfa/totp.go", "totp.Validate(code, secret) // skew 0")],
        "Validation accepts only the current 30-second step, so a code typed at the end of its window or with phone clock drift fails. I allow a skew of one step either way (ValidateCustom with Skew: 1), and remember used codes so one can't be replayed within the window.",
        "Rejections dropped from 3% to 0.2%.",
        "totp validate skew one step",
        "authenticator app codes sometimes rejected",
    ),
    F(
        "auth-audit-log",
        "auth-service",
        "Where do we record logins for the compliance audit?",
        [("Read", "migrations/0042_audit.sql", "create table audit_events (...) partition by range (created_at);")],
        "Every login, logout, failed login and MFA change is written to the audit_events table with user id, ip, user agent and result. The table is partitioned by month and partitions older than 13 months are dropped by the retention job.",
        "Nothing to change.",
        "audit log login ip user agent partitioned monthly",
        "where do we record who signed in and from where",
    ),
    F(
        "auth-grpc-interceptor",
        "auth-service",
        "Internal services call us over gRPC. Where are their tokens checked?",
        [
            (
                "Read",
                "internal/grpcserver/server.go",
                "grpc.NewServer(grpc.ChainUnaryInterceptor(logging.Unary(), authn.Unary(verifier)))",
            )
        ],
        "authn.Unary is a unary interceptor that reads the authorization metadata key, expects 'Bearer <jwt>', verifies it with the service-token verifier and puts the caller identity in the context. Streaming RPCs use authn.Stream the same way; health checks are exempt.",
        "Explained; no change.",
        "grpc interceptor authorization metadata bearer",
        "checking credentials on internal rpc calls",
    ),
    F(
        "auth-xcrypto-cve",
        "auth-service",
        "govulncheck flags GO-2024-3321 in golang.org/x/crypto. Can you fix it?",
        [
            (
                "Bash",
                "govulncheck ./...",
                "Vulnerability #1: GO-2024-3321\n  Misuse of ServerConfig.PublicKeyCallback may cause authorization bypass in golang.org/x/crypto\n  Found in: golang.org/x/crypto@v0.28.0\n  Fixed in: golang.org/x/crypto@v0.31.0",
            )
        ],
        "go.mod had a replace directive pinning golang.org/x/crypto to v0.28.0 from an old workaround. I removed the replace, ran go get golang.org/x/crypto@v0.31.0 and go mod tidy; govulncheck is clean.",
        "Tests pass; merged.",
        "golang.org/x/crypto govulncheck replace directive",
        "patch the vulnerable encryption dependency",
    ),
    F(
        "auth-cookie-domain",
        "auth-service",
        "Users logged into app.example.com have to log in again on docs.example.com.",
        [
            (
                "Bash",
                "curl -si https://auth.example.com/callback ... | grep -i set-cookie",
                "set-cookie: session=...; Domain=auth.example.com; Secure; HttpOnly",
            )
        ],
        "The session cookie is scoped to auth.example.com. Setting Domain=.example.com makes it available to every subdomain, so app and docs share the login. It stays Secure, HttpOnly and SameSite=Lax.",
        "Changed COOKIE_DOMAIN in the config for production.",
        "session cookie domain subdomains",
        "stay signed in across our different sites",
    ),
]

# Prompts that no session is about: recall must return nothing for them.
UNRELATED = [
    "write a haiku about autumn leaves",
    "what is the capital of Mongolia",
    "recommend a good vegetarian lasagna recipe",
    "how many moons does jupiter have",
    "translate 'good morning' into portuguese",
    "who won the 1998 football world cup",
    "explain the plot of hamlet in two sentences",
    "what's a good name for a golden retriever puppy",
    "how do I get red wine out of a carpet",
    "suggest a 3 day itinerary for lisbon",
    "what is the boiling point of water on mount everest",
    "tips for learning to play the violin as an adult",
    "summarize the causes of the french revolution",
    "how long should I steep green tea",
    "what rhymes with orange",
    "best exercises for lower back pain",
    "how does photosynthesis work",
    "plan a birthday party for a seven year old",
    "what's the difference between a crocodile and an alligator",
    "write a limerick about a cat on a train",
]

# Written after the first tuning round (the floor was tuned on UNRELATED) and not tuned on:
# off-topic prompts, and coding prompts about things no session in the corpus covers.
UNRELATED_HOLDOUT = [
    "give me a packing list for a week of camping",
    "what year did the berlin wall fall",
    "convert 350 fahrenheit to celsius",
    "who painted the girl with a pearl earring",
    "ideas for a romantic dinner at home",
    "how do solar panels generate electricity",
    "explain the offside rule in soccer",
    "write a short poem about the ocean at night",
    "how do I reverse a linked list in rust",
    "explain monads in haskell with an example",
    "what is the time complexity of quicksort",
    "how do I center a div with flexbox",
    "write a bash one-liner to count lines in all markdown files",
    "difference between a process and a thread in operating systems",
    "how does garbage collection work in the jvm",
    "implement binary search in c",
    "what is the CAP theorem",
    "regex to match an ipv6 address",
    "how to exit vim",
    "explain big o notation to a beginner",
]

# Written after round 2 began (UNRELATED_HOLDOUT had been run once and then looked at); never
# tuned on. Same mix: off-topic prompts and coding questions no session in the corpus covers.
UNRELATED_HOLDOUT2 = [
    "what is a good stretching routine before running",
    "how many ounces are in a cup",
    "recommend a science fiction novel for a long flight",
    "why is the sky blue",
    "draft a polite email declining a wedding invitation",
    "what are the rules of chess castling",
    "how do I repot a fiddle leaf fig",
    "explain how vaccines train the immune system",
    "how do I write a fibonacci function in python",
    "what does the yield keyword do in python",
    "explain the difference between tcp and udp",
    "how do I undo the last git commit but keep the changes",
    "sort a dictionary by value in python",
    "what is dependency injection in java spring",
    "how does a hash map handle collisions",
    "explain recursion with a simple example",
    "how to read a file line by line in go",
    "what is the difference between let and const in javascript",
    "how do I make a http request in rust with reqwest",
    "explain the observer design pattern",
]
