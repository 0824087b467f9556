"""A fourth question per needle fact of the hard recall benchmark, by other hands.

Written on 2026-11-27 by a helper session (branch rh-para3) that had read only
benchmarks/recall/facts.py and benchmarks/recall_hard/keyfacts.py -- not smriti/ (no synonym,
stop-word or general-word tables), not the benchmark READMEs, not any result, and ran no benchmark.
Rules: one question per id of KEY_FACTS, as a different teammate would ask their coding agent
months later in their own words; no key fact string (the answer) inside; for about a third,
the distinctive words of `close`/`para`/PARA2 are replaced by a description ("the card
processor's callbacks"), the rest keep product names as people do; mixed shapes (questions,
imperatives, with context, 4-6 words, 25+ words); each answerable by its fact's session only.
"""

from __future__ import annotations

PARA3: dict[str, str] = {
    "pay-psycopg-pin": "Remind me why the Postgres client library is stuck on an old patch release",
    "pay-stripe-sig": (
        "the card processor's callbacks failed verification even with the right signing secret, what was "
        "wrong in the handler"
    ),
    "pay-idempotency": "How long is a stored idempotent response kept before a replay can charge again?",
    "pay-celery-refund": "I'm touching the refund worker again, what retry limits and backoff cap did we settle on?",
    "pay-rounding": "currency conversion rounding mode?",
    "pay-lock-timeout": (
        "Last time an ALTER TABLE on payments queued every query behind a report, what guard do our "
        "migrations set now and how long does it wait?"
    ),
    "pay-ratelimit": "what throttle did we put on charge creation per merchant key",
    "pay-settlement-tz": (
        "The end-of-day payout cutoff was computed in UTC for merchants in Germany, which timezone handling did we add?"
    ),
    "pay-jwt-aud": "order service tokens missing the aud claim",
    "pay-pool-workers": (
        "We're scaling the payments pods again and I don't want to blow past postgres max_connections, what's"
        " the per-process connection cap and which env var sets it?"
    ),
    "pay-mask-pan": "remind me how card numbers get scrubbed from our log lines",
    "pay-test-rollback": "How did we speed up the payments test suite's database setup?",
    "pay-event-order": (
        "A refund flipped from succeeded back to pending because the processor's notifications arrived in the"
        " wrong order, what column do we compare now?"
    ),
    "pay-proxy-headers": "real client address behind the ALB",
    "pay-3ds-flag": "Where do I switch on 3-D Secure just for the staging deployment?",
    "pay-fraud-timeout": "When the fraud scoring call hangs, what's our cutoff and which charges still get approved?",
    "web-process-env": "After moving off CRA the frontend blows up on process, how should config be read now?",
    "web-strictmode": "why did page_view fire twice locally",
    "web-lodash": "Which utility library import bloated the JS bundle, and how many KB did swapping it save?",
    "web-playwright-auth": (
        "Tell me how the browser test suite reuses a logged-in session instead of signing in each time"
    ),
    "web-modal-zindex": (
        "the confirm popup keeps rendering behind the sticky top bar no matter what z-index I give it, where "
        "did we mount it instead?"
    ),
    "web-intl-date": "How does formatDate pick the locale now, and what's the fallback?",
    "web-sentry-maps": (
        "Our prod JS errors show minified frames in the error tracker; remind me how maps are generated "
        "without being public and which plugin uploads them"
    ),
    "web-react-query-stale": "product list refetching on window focus",
    "web-zod-postcode": (
        "UK shoppers couldn't get past the address form, how does the schema validate postcodes per country now?"
    ),
    "web-storybook8": "What did the Storybook 8 upgrade need in the framework field?",
    "web-focus-trap": "How did we keep keyboard focus inside dialogs after the a11y audit?",
    "web-csp-nonce": "How does the CSS-in-JS library get past our strict style-src policy without unsafe-inline?",
    "web-cls-images": "layout shift from product photos fix",
    "web-eslint-flat": (
        "Moving the linter to the new single-file config format, what file and helper did we use for TypeScript?"
    ),
    "web-sw-stale": (
        "After a release people kept getting the old shell HTML from the offline cache, what caching strategy"
        " for navigations fixed it?"
    ),
    "web-samesite": (
        "The embedded support chat on partner sites drops its session, what attributes must the cookie have?"
    ),
    "dp-catchup": "Why did unpausing orders_daily spawn a pile of backfill runs?",
    "dp-spark-skew": (
        "one task reading tens of GB on the customer join, guest checkouts all share a single id -- how did "
        "we spread them out?"
    ),
    "dp-dbt-incremental": "duplicate orders in fct_orders after each nightly run",
    "dp-kafka-poll": (
        "The geo enrichment consumer exceeds its poll interval and gets evicted, which two consumer settings "
        "did we change and to what?"
    ),
    "dp-parquet-schema": "user_id INT32 vs INT64 parquet mismatch",
    "dp-s3-slowdown": (
        "Our compaction job hit the per-prefix request limits of the object store, how did we lay out keys "
        "and what retry mode did we enable?"
    ),
    "dp-snowflake-suspend": (
        "The transform warehouse kept billing for an idle hour after each dbt run, what idle shutdown did we set?"
    ),
    "dp-ge-nulls": "which expectation guards customers.email",
    "dp-sensor-reschedule": (
        "Twenty partner-file waits were hogging every executor slot in the scheduler, what mode and check "
        "interval did we put them on?"
    ),
    "dp-interval-end": "Explain again which interval boundary the daily export should use for its partition date",
    "dp-hash-emails": "Where does the salt for pseudonymizing addresses live and what's the function called?",
    "dp-dropduplicates": "live dashboard counting duplicate producer retries",
    "dp-slim-ci": "How do we make the transformation project's PR job build only changed models against prod?",
    "dp-latin1": (
        "The vendor's CSV had 0xe9 bytes that crashed decoding, how do we detect the file encoding now and "
        "what's the default?"
    ),
    "dp-broadcast": "What join threshold did we raise for sales_enriched so the stores dimension stops shuffling?",
    "dp-airflow-pool": "how do we limit concurrent warehouse queries from the DAGs",
    "mob-kotlin-dup": "Release build died on duplicate stdlib jdk8 classes, which Kotlin version did we force and how?",
    "mob-apns-env": (
        "Production iPhone builds get no push notifications but TestFlight does, which entitlement was wrong "
        "and what error did Apple's gateway return?"
    ),
    "mob-universal-links": "What's needed on both the app and the domain so password reset links open the app on iOS?",
    "mob-flatlist": "transaction list scrolling jank fix",
    "mob-hermes-intl": (
        "On Android the JS engine lacks plural rules and i18n crashes on counts, which polyfill package did we add?"
    ),
    "mob-match": (
        "The new CI runner can't fetch our iOS signing certificates, remind me which repo holds them and what"
        " credential the job needs"
    ),
    "mob-mmkv": (
        "Offline drafts with photos were getting lost on Android because the key-value store filled up, what "
        "did we move them to and what was the cap?"
    ),
    "mob-runtime-version": "how do we stop over-the-air bundles landing on incompatible app binaries",
    "mob-keyboard": "iOS keyboard covers the comment input",
    "mob-account-deletion": (
        "Which App Store guideline got us rejected, and what endpoint does in-app account removal call?"
    ),
    "mob-biometric": "When the face scan fails users have no fallback to their phone PIN, what option did we flip?",
    "mob-fgs-location": "What does the tracking service need in the manifest for the newest Android?",
    "mob-expo-image": "which image component and cache policy for avatars",
    "mob-sentry-hermes": (
        "Phone crash reports only show bytecode offsets, what was missing from the EAS build for the maps to upload?"
    ),
    "mob-detox": (
        "Our UI test emulator on CI without KVM took minutes to boot, which system image and launch flag did "
        "we switch to?"
    ),
    "mob-dark-statusbar": (
        "Night theme makes the clock and battery icons vanish at the top, how is that bar's style chosen now?"
    ),
    "inf-tf-lock": "How did we clear the stale state lock Bob's sleeping laptop left behind?",
    "inf-oomkilled": "catalog-service JVM killed for memory, heap flag?",
    "inf-startup-probe": (
        "The search API gets killed by its health checks while loading its index at boot, what probe did we "
        "add and how many failures does it tolerate?"
    ),
    "inf-hpa-metrics": "Why does the checkout autoscaler show <unknown> targets in the new cluster?",
    "inf-gha-cache": "remind me how the Python workflow caches poetry deps and what the key hashes",
    "inf-argocd-replicas": (
        "The deploy tool shows checkout drifted because the autoscaler changes the replica count, what did we"
        " tell it to skip?"
    ),
    "inf-cert-dns01": (
        "Let's Encrypt renewals for the API host 404 since it moved to the ALB, what challenge type and "
        "provider do we use now?"
    ),
    "inf-irsa": "How does the exporter job get S3 access without a static key now, which annotation and role?",
    "inf-helm-values": "staging values overriding prod in helm",
    "inf-pdb": "Node drain can't evict payments-api pods, what disruption budget fixed it?",
    "inf-aws-provider-pin": (
        "Before I bump the cloud provider plugin in our terraform, why was it held back and what constraint "
        "did we end up with?"
    ),
    "inf-vpc-endpoints": "how did we cut NAT data charges for image pulls",
    "inf-external-secrets": (
        "Rotated database credentials took an hour to reach the pods, what sync interval did we set and what "
        "restarts them?"
    ),
    "inf-buildx-cache": "docker layer caching in github actions",
    "inf-ndots": (
        "Calls from pods to external hosts went through four failed lookups against search domains first, "
        "what resolver option did we lower?"
    ),
    "inf-log-retention": "How many days do we keep service logs versus audit logs in CloudWatch?",
    "auth-refresh-reuse": "What happens if someone presents a renewal token that was already rotated once?",
    "auth-nbf-skew": (
        "Some nodes' clocks ran 40 seconds behind and rejected fresh tokens, how much tolerance does the "
        "validator give and what did we fix on the hosts?"
    ),
    "auth-argon2": "password hash parameters for new users",
    "auth-google-hd": (
        "How do we make sure Google sign-in only admits accounts from our company domain, and which token "
        "fields do we check?"
    ),
    "auth-redis-evict": (
        "Sessions kept vanishing when the shared cache hit its memory ceiling; what eviction policy did we "
        "switch it to?"
    ),
    "auth-cors-creds": "cross-origin login with cookies blocked by browser",
    "auth-login-ratelimit": (
        "Remind me what the lockout thresholds are on the sign-in endpoint against credential stuffing"
    ),
    "auth-jwks-kid": (
        "After Okta rotates signing keys, how long do we cache the key set and what happens with a new key id?"
    ),
    "auth-pkce": "Which code challenge method must the phone app use?",
    "auth-userinfo-timeout": (
        "Sign-in stalls for half a minute when the identity provider's profile endpoint is slow, what client "
        "timeout and retry policy did we add?"
    ),
    "auth-reset-token": "forgot-password link expiry and reuse rules",
    "auth-totp-window": "How much clock drift do we tolerate on one-time codes?",
    "auth-audit-log": (
        "I need to answer an auditor: which table holds sign-in events and how many months do we retain them?"
    ),
    "auth-grpc-interceptor": "Where's the bearer check for internal RPC calls implemented?",
    "auth-xcrypto-cve": (
        "the vulnerability scanner flagged the Go crypto module, what was pinning it and which version did we go to?"
    ),
    "auth-cookie-domain": "How do we share the session between the app and docs subdomains?",
}
