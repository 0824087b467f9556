"""A fifth question per needle fact of the hard recall benchmark, by other hands.

Written on 2026-11-27 by a helper session (branch rh-para4) that had read only
benchmarks/recall/facts.py, benchmarks/recall_hard/keyfacts.py and benchmarks/recall_hard/para3.py --
not smriti/ (no synonym, stop-word or general-word tables), not the benchmark READMEs, not any result,
and ran no benchmark. Rules: one question per id of KEY_FACTS, as a different teammate would ask their
coding agent months later in their own words, unlike `close`, `para`, PARA2 and PARA3; no key fact
string (the answer) inside; the distinctive words of those four wordings avoided where a natural
synonym or description exists (about half describe the thing -- "the reimbursement job", "the
translation gateway" -- the rest keep product or library names, as people do); mixed shapes (direct
questions, "remind me", with situational context, terse 3-6 words typed in a hurry with the odd typo,
25+ words); each answerable by its fact's session only.
"""

from __future__ import annotations

PARA4: dict[str, str] = {
    "pay-psycopg-pin": (
        "Before I let the bot bump our pg adapter to 3.2, what pool setting were we waiting on because of "
        "pgbouncer's transaction mode?"
    ),
    "pay-stripe-sig": (
        "stripe says no signatures found matching the expected signature, what do we hand to construct_event now"
    ),
    "pay-idempotency": (
        "The phone app's offline queue re-sends purchases hours later and a few cards got hit twice; how many"
        " seconds do we keep the dedup entry now, and is it forwarded to the processor too?"
    ),
    "pay-celery-refund": (
        "bank api flaked for a few mins and the reimbursement job gave up, how many attempts and what max "
        "wait does it get now"
    ),
    "pay-rounding": (
        "The euro to sterling payout maths was chopping off fractions of a minor unit; which tie-breaking "
        "rule do we use now?"
    ),
    "pay-lock-timeout": (
        "Adding a nullable column with alembic next sprint. Last time the release hung four minutes and the "
        "whole API stacked up behind it, so what does env.py set before each upgrade, and with what limit?"
    ),
    "pay-ratelimit": "one shop sent us 4k calls a minute, what ceiling did we put on them and is it keyed by ip",
    "pay-settlement-tz": (
        "What made the merchant day boundary tz-aware? It's the change with tests around the March and "
        "October clock shifts."
    ),
    "pay-jwt-aud": (
        "Which caller's tokens started bouncing off /internal/charges after they upgraded their auth client, "
        "and what exception does PyJWT raise?"
    ),
    "pay-pool-workers": (
        "8 procs x 3 pods blew through the db server's 200 slots, what did we cap each process's pool at"
    ),
    "pay-mask-pan": (
        "Security flagged full PANs in an error handler's output again, this time in another service. How "
        "does our log pipeline redact them, which digits survive, and is there a Luhn check involved?"
    ),
    "pay-test-rollback": (
        "remind me how conftest isolates each test without dropping the schema, and what the suite time went down to"
    ),
    "pay-event-order": "refund.created arriving after refund.updated fix",
    "pay-proxy-headers": "every request shows up as 10.0.x.x in the access logs, which uvicorn flags fix that?",
    "pay-3ds-flag": (
        "I want test cards to come back with requires_action in the pre-prod environment only; which setting "
        "is it and which helm file holds it?"
    ),
    "pay-fraud-timeout": (
        "Remind me of the fail-open rule when the charge screening service is degraded: which amounts get "
        "waved through and how long do we wait for it?"
    ),
    "web-process-env": "REACT_APP_API_URL renamed to what?",
    "web-strictmode": (
        "The tracking team tests against the dev build and complained that every route change is logged "
        "double. What React 18 behaviour causes that and what guard did we put in the hook?"
    ),
    "web-lodash": "what did we swap moment for, and where did the gzipped main chunk end up",
    "web-playwright-auth": "what does auth.setup.ts write and where",
    "web-modal-zindex": (
        "Another overlay is stuck under the header because its container has a transform for the slide-in. "
        "How did we get ConfirmDialog out of that stacking context?"
    ),
    "web-intl-date": "11/03 ambiguous date fromat fix",
    "web-sentry-maps": (
        "a.b is not a function at index-4f2a.js:1:20833 -- what vite.config.ts setting and upload step did we"
        " add so those frames become readable?"
    ),
    "web-react-query-stale": "how long is useProducts data considered fresh",
    "web-zod-postcode": (
        "someone typed SW1A 1AA and the payment form said invalid. the five-digit pattern is gone, what replaced it?"
    ),
    "web-storybook8": "'Could not find a framework' after bumping the component explorer, what command sorted it out?",
    "web-focus-trap": "what did we add to Modal.tsx to get axe-core clean",
    "web-csp-nonce": (
        "Site renders unstyled in prod with 'Refused to apply inline style'. What does the nginx njs script "
        "inject, and how is it handed to our runtime styles?"
    ),
    "web-cls-images": (
        "Lighthouse flagged content jumping on the product detail page again, 0.31 like before. Remind me "
        "which attributes we put on ProductImage and what we did differently for the hero picture versus the "
        "ones below the fold."
    ),
    "web-eslint-flat": "eslintrc no longer read, what now",
    "web-sw-stale": (
        "Reloading doesn't help, some users keep an outdated build for days. Remind me what the background "
        "worker does now when someone opens a page, and when a new one activates."
    ),
    "web-samesite": "which flags does widget_sid carry for chrome's third-party cookie phase-out",
    "dp-catchup": (
        "turned a pipeline back on after two weeks off and it queued ~300 runs, one per missed hour; which "
        "two args did we set on it?"
    ),
    "dp-spark-skew": (
        "YARN kept killing containers on the lifetime value job, remind me how many buckets we spread the hot"
        " key across"
    ),
    "dp-dbt-incremental": (
        "the orders fact kept appending changed rows instead of upserting them; which settings did we add to it"
    ),
    "dp-kafka-poll": "kafka enricher batch size and poll gap",
    "dp-parquet-schema": (
        "How many pre-March partitions of the events data did we rewrite when the id column widened, and what"
        " does the writer do now?"
    ),
    "dp-s3-slowdown": (
        "1.8 million files in one flat folder and the bucket kept telling the merge job to back off, how is "
        "the writer splitting paths now"
    ),
    "dp-snowflake-suspend": "TRANSFORM_WH sleeps after how long",
    "dp-ge-nulls": "What tolerance did we give the GX check on blank customer emails before the marts run?",
    "dp-sensor-reschedule": (
        "Partner files are late again and I can see S3KeySensors sitting in the task list. Remind me what we "
        "changed so they stop tying up capacity while they wait, including how often they check and the "
        "overall timeout."
    ),
    "dp-interval-end": (
        "the nightly dump to the exports bucket put tuesday rows under dt=monday, what template vars does the"
        " query use now"
    ),
    "dp-hash-emails": "legal asked us to get addresses out of the lake, what's the shared UDF and where's its secret",
    "dp-dropduplicates": "realtime order tiles higher than the batch numbers, how long does spark remember event ids",
    "dp-slim-ci": "what flags does the dbt build on PRs use to skip untouched parents",
    "dp-latin1": (
        "The supplier's nightly spreadsheet dump has é in names and used to crash the import, how do we guess"
        " its codec now?"
    ),
    "dp-broadcast": "200 GB shuffle, 60 MB lookup",
    "dp-airflow-pool": "how many SnowflakeOperator tasks may run at the same time now",
    "mob-kotlin-dup": "assembleRelease fails on CollectionsJDK8Kt, what did we bump",
    "mob-apns-env": (
        "Notifications arrive on builds we install straight from Xcode but never on the one customers "
        "download. Remind me which EAS profile setting was off and how the push gateway rejected the device "
        "tokens."
    ),
    "mob-universal-links": "what has to be under /.well-known for iOS deep links",
    "mob-flatlist": "galaxy a10 tx list 20fps",
    "mob-hermes-intl": "'3 items' screen crashing on android: undefined is not a function",
    "mob-match": (
        "where do CI's apple certs and provisioning profiles come from, and what was the replacement mac missing"
    ),
    "mob-mmkv": "sentry shows 'database or disk is full' for android drafts, what did we migrate to",
    "mob-runtime-version": (
        "A JS bundle we shipped crashed 2.3 users because it called a native module that only exists in 2.4. "
        "How do we decide which installs may receive a bundle now?"
    ),
    "mob-keyboard": (
        "on iphone se the reply box at the bottom vanishes under the keys while typing, what props fixed it"
    ),
    "mob-account-deletion": "3.1.0 bounced by apple review, what did we add to settings",
    "mob-biometric": (
        "masked users can't unlock with face recognition and get no PIN option, which "
        "expo-local-authentication option was it"
    ),
    "mob-fgs-location": "TrackingService FGS permision crash",
    "mob-expo-image": "feed photos eating people's mobile data, downloaded again on each open",
    "mob-sentry-hermes": "crash stacks like index.android.bundle:1:284113, which EAS secret was missing",
    "mob-detox": "which Android API level do the Detox tests run on in CI now, and with which launch switches?",
    "mob-dark-statusbar": (
        "time and signal icons disappear against our dark header when the phone is in dark appearance, how is"
        " their colour decided"
    ),
    "inf-tf-lock": (
        "An interrupted apply left terraform blocked for everyone and the owner is on leave. Which command "
        "and which dynamo table did we use to clear it?"
    ),
    "inf-oomkilled": (
        "the JVM service behind product listings kept restarting every few hours; which percentage flag ties "
        "its heap to the container and what ceiling did we give it"
    ),
    "inf-startup-probe": (
        "the search backend needs a minute and a half to warm up and the kubelet kills it, what's the probe setup"
    ),
    "inf-hpa-metrics": (
        "During the load test checkout stayed at the same pod count and the scaling target showed no number "
        "at all. What add-on was absent from the new cluster's bootstrap?"
    ),
    "inf-gha-cache": (
        "CI dependency install dropped to 15s on warm runs, what does the actions/cache key for the "
        "virtualenv depend on?"
    ),
    "inf-argocd-replicas": "selfHeal fighting the HPA on checkout",
    "inf-cert-dns01": "how do we prove domain ownership for the api certificate now that it sits behind the ALB",
    "inf-irsa": (
        "Security wanted the long-lived AWS key gone from the pods that dump data into the bucket; what "
        "replaced it on the kubernetes side and which terraform module creates the IAM part?"
    ),
    "inf-helm-values": "which values file wins in helm",
    "inf-pdb": "eviction blocked during the eks node upgrade, what did we loosen on payments-api",
    "inf-aws-provider-pin": (
        "What made plan want to recreate the lifecycle rules on 40 buckets, which ticket tracked it, and what"
        " version constraint are we on now?"
    ),
    "inf-vpc-endpoints": (
        "what private endpoints did we add so container pulls and bucket reads stop paying for the translation gateway"
    ),
    "inf-external-secrets": (
        "If I change the db credentials in Secrets Manager today, how quickly do running deployments pick "
        "them up and what bounces them?"
    ),
    "inf-buildx-cache": (
        "image builds on fresh GitHub runners reused none of the layers; which action and cache backend did "
        "we adopt, and what moved in the Dockerfile?"
    ),
    "inf-ndots": (
        "pods took ~40ms just to resolve api.stripe.com before every request; what did we put in the pod template"
    ),
    "inf-log-retention": "log group expiry, default vs audit",
    "auth-refresh-reuse": (
        "If an attacker reuses a session-extension token the real app already traded in, what gets killed and"
        " which audit event do we emit?"
    ),
    "auth-nbf-skew": "drifting node clocks reject new jwts",
    "auth-argon2": (
        "How do we tell old and new password hashes apart at login, and what memory, iteration and "
        "parallelism cost do the new ones use?"
    ),
    "auth-google-hd": (
        "I thought passing hd= in the Google auth request limited logins to our workspace. Why isn't that enough?"
    ),
    "auth-redis-evict": (
        "the kv store threw away people's logins once it filled up; what did we change about which keys it "
        "may drop, and did we split anything out?"
    ),
    "auth-cors-creds": "Access-Control-Allow-Origin * plus credentials broke login, what does the server send back now",
    "auth-login-ratelimit": (
        "Bots from 185.220.x are hammering the password form again; remind me of the per ip+username "
        "thresholds and how long someone gets locked out."
    ),
    "auth-jwks-kid": "when Okta publishes a new signing key how quickly does our verifier pick it up",
    "auth-pkce": "expo-auth-session oauth, is plain challenge allowed",
    "auth-userinfo-timeout": "http.DefaultClient on the profile call had no timeout, what did we replace it with",
    "auth-reset-token": (
        "Security review follow-up on account recovery emails: how long does the emailed token live, can it "
        "be used twice, and do we keep the raw value anywhere in the database?"
    ),
    "auth-totp-window": (
        "6 digit codes from google authenticator failing near the 30s boundary, how many steps either side do we accept"
    ),
    "auth-audit-log": "where do failed logins get written",
    "auth-grpc-interceptor": "How do internal callers' JWTs get verified on unary RPCs, and are health checks exempt?",
    "auth-xcrypto-cve": "how did we fix GO-2024-3321",
    "auth-cookie-domain": "signed in on app. but docs. asks again, what is COOKIE_DOMAIN set to in prod",
}
