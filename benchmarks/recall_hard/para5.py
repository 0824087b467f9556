"""A sixth question per needle fact of the hard recall benchmark, by other hands.

Written on 2026-11-27 by a helper session (branch rh-para5) that had read only
benchmarks/recall/facts.py, benchmarks/recall_hard/keyfacts.py, para3.py and para4.py -- not smriti/
(no synonym, stop-word or general-word tables), not the benchmark READMEs, not any result, and ran no
benchmark. Rules: one question per id of KEY_FACTS, as a different teammate would ask their coding
agent months later in their own words, unlike `close`, `para`, PARA2, PARA3 and PARA4; no key fact
string (the answer) inside; the distinctive words of those five wordings avoided where a natural
synonym or description exists (most describe the thing -- "the money-back worker", "the utility-belt
package" -- about a third name the library or tool at the fact's heart, as people do); mixed shapes
(direct questions, "remind me", with situational context, terse 3-6 words typed in a hurry with the
odd typo, 25+ words); each answerable by its fact's session only.
"""

from __future__ import annotations

PARA5: dict[str, str] = {
    "pay-psycopg-pin": (
        "What has to change in our connection pool config before we can stop holding back the Python Postgres library? "
        "The last attempt died on prepared-statement errors in the integration tests."
    ),
    "pay-stripe-sig": (
        "Remind me why verifying the card processor's incoming events kept failing when FastAPI parsed the payload "
        "into a dict first"
    ),
    "pay-idempotency": (
        "A shopper on a flaky train connection got two identical charges. How long does our replay-protection entry "
        "stay in redis for that endpoint now?"
    ),
    "pay-celery-refund": (
        "If the banking partner is offline for half an hour, how long does the money-back worker keep trying before "
        "the job ends up in the dead-letter queue, and how far apart do its attempts get?"
    ),
    "pay-rounding": "do we use banker's rounding when turning euros into pounds",
    "pay-lock-timeout": (
        "The release where adding settled_at left every request queued for minutes: what do we now tell Postgres "
        "before each DDL statement runs, and how long may it wait?"
    ),
    "pay-ratelimit": "how many POSTs a minute can one merchant make before getting a 429",
    "pay-settlement-tz": (
        "A shop in Munich sees purchases made between midnight and 1am counted in the previous day's payout statement. "
        "How did we make that day boundary local?"
    ),
    "pay-jwt-aud": (
        "Since the other team upgraded their token client, their service-to-service calls to our internal charge "
        "endpoint get rejected. Which claim was missing, and did we loosen our check?"
    ),
    "pay-pool-workers": "how many db connections can each web worker open",
    "pay-mask-pan": "Which structlog step hides card numbers, and how much of the number is still visible afterwards?",
    "pay-test-rollback": (
        "Each payments test gets wrapped in something that's undone at the end; how does that fixture still let the "
        "code under test commit, and what did it do to the total run time?"
    ),
    "pay-event-order": "how do we drop older processor notifications that show up late",
    "pay-proxy-headers": (
        "What did we add to the uvicorn command in the Dockerfile so the app trusts X-Forwarded-For from the AWS "
        "balancer?"
    ),
    "pay-3ds-flag": (
        "Is there already a switch for the SCA challenge flow that I can flip in the test cluster only? Which deploy "
        "file does it go in?"
    ),
    "pay-fraud-timeout": (
        "The anti-fraud service went down for twenty minutes at lunch. Were purchases blocked or waved through, and "
        "what was the amount threshold?"
    ),
    "web-process-env": "what's the backend base url variable called in the new bundler setup",
    "web-strictmode": "React 18 dev mode fires the route-tracking effect twice, what ref guard did we add?",
    "web-lodash": (
        "What did we do about the entire utility-belt package being pulled in by one import, and what's the compressed "
        "size of the app's entry file now?"
    ),
    "web-playwright-auth": (
        "I'm adding a second role to the browser tests and want it to skip the login screen the way the current user "
        "does. Where does the one-time sign-in step save the session, and how do the other projects pick it up?"
    ),
    "web-modal-zindex": "orders confirm box drawn beneath the nav bar even with huge z values, wher does it render now",
    "web-intl-date": "what locale do we fall back to for formatting dates when the browser language is unknown",
    "web-sentry-maps": (
        "How does Sentry get our build's debug maps for each release without them being served publicly from the "
        "bucket?"
    ),
    "web-react-query-stale": (
        "Switching back to the tab made the product grid flash a loader; what freshness window did we give that data?"
    ),
    "web-zod-postcode": (
        "How does the address form pick a validation pattern depending on the shopper's country now that it's no "
        "longer US-only?"
    ),
    "web-storybook8": "storybook wont build since v8",
    "web-focus-trap": (
        "A screen reader user reported they could Tab past the popup into the page underneath and Escape did nothing. "
        "Which library and attributes did we add to the shared dialog component, and where does focus go when it "
        "closes?"
    ),
    "web-csp-nonce": (
        "Emotion's runtime <style> tags were refused by the CSP in prod. What value do we generate per request, and "
        "how does it get into both the header and Emotion?"
    ),
    "web-cls-images": "lighthouse 0.31 on product detail, which attrs on the photos fixed it",
    "web-eslint-flat": "where did the .eslintignore patterns go after the linter migration",
    "web-sw-stale": (
        "Which workbox strategy do page navigations use since the old-build-for-days bug, and is there a new version "
        "toast?"
    ),
    "web-samesite": "iframe chat cookie attrs for chrome",
    "dp-catchup": (
        "Planning to pause the hourly orders workflow over the holidays. Last time we turned it back on it kicked off "
        "a few hundred runs for the missed hours; what did we change in the DAG definition, and how are we supposed to "
        "load history now?"
    ),
    "dp-spark-skew": (
        "What did we do about the one straggler task in the LTV Spark job where anonymous buyers all land on the same "
        "key, and did we also enable the adaptive setting for uneven joins?"
    ),
    "dp-dbt-incremental": "orders mart upsert config",
    "dp-kafka-poll": (
        "The lag page fired for the location-enrichment consumer again and its partitions keep getting reassigned. "
        "What batch size and processing window did we set last time?"
    ),
    "dp-parquet-schema": (
        "old event files store the user id as 32-bit ints, what did we do about them and about the writer"
    ),
    "dp-s3-slowdown": "boto3 retry mode and key layout for the clicks compaction after the throttling errors",
    "dp-snowflake-suspend": (
        "Finance is asking about Snowflake credits again. What idle timeout did we put on the warehouse dbt uses, and "
        "did we also shrink it?"
    ),
    "dp-ge-nulls": "what share of customer rows can be missing an e-mail before the validation checkpoint fails",
    "dp-sensor-reschedule": "partner_feed waits eating all the airflow workers",
    "dp-interval-end": (
        "I'm writing a new daily DAG that exports to S3 by date and I remember we got bitten by run date versus "
        "logical date in the exports job. Which Airflow macros should the SQL filter on?"
    ),
    "dp-hash-emails": (
        "How do we turn customer addresses into a joinable token before they reach the lake, and where is the secret "
        "ingredient kept?"
    ),
    "dp-dropduplicates": (
        "the producer resends the same order event sometimes, how does the streaming job throw the repeats away and "
        "how much state does it keep"
    ),
    "dp-slim-ci": "dbt ci prod manifest trick",
    "dp-latin1": (
        "Another vendor is sending a product file that fails UTF-8 decoding. What library did we use to sniff the "
        "partner's file encoding, and what do we assume when it can't tell?"
    ),
    "dp-broadcast": (
        "The stores lookup now gets shipped to every executor instead of shuffled; what size limit did we raise for "
        "that, and was it cluster-wide?"
    ),
    "dp-airflow-pool": (
        "Adding a new Snowflake task to the nightly DAG: is there a throttle it should join so it doesn't pile onto "
        "the warehouse at 2am?"
    ),
    "mob-kotlin-dup": "jdk8 stdlib clash on android release build",
    "mob-apns-env": (
        "Why were sandbox device tokens from the store build going to Apple's live push service, and what did we "
        "change in app.json?"
    ),
    "mob-universal-links": (
        "expo-router reset-password route won't open from mail on iPhone, what file did the web deploy need"
    ),
    "mob-flatlist": (
        "The activity feed on cheap Android phones drops frames when scrolling, and I recall we fixed the same thing "
        "on the transactions screen. What list props and memoization did we use there, and what frame rate did we "
        "reach?"
    ),
    "mob-hermes-intl": "i18next plurals crash on hermes, what do we import at the top of index.js",
    "mob-match": (
        "We're moving iOS builds to a new hosted runner next week. Which private repo stores the encrypted "
        "provisioning stuff, and which secret did the last runner swap forget?"
    ),
    "mob-mmkv": "android drafts hitting storage cap",
    "mob-runtime-version": (
        "How do we make sure a JS-only update only goes to installs built from the same release number?"
    ),
    "mob-keyboard": "ios bottom text box obscured when composing, fix?",
    "mob-account-deletion": (
        "Google Play now asks for what Apple did: letting people erase their profile from inside the app. What did we "
        "build for the iOS review, and which endpoint does it hit?"
    ),
    "mob-biometric": (
        "Someone wearing sunglasses couldn't get past the biometric prompt, and the phone never offered to type the "
        "device code instead. Which flag on the authenticate call did we flip, and what does the fallback button say?"
    ),
    "mob-fgs-location": "workout gps service crash on api 34, manifest fix?",
    "mob-expo-image": "What did we replace the stock React Native Image with so profile pictures stay cached on disk?",
    "mob-sentry-hermes": "why were our app crash reports unsymbolicated on expo's cloud builds",
    "mob-detox": (
        "The e2e android job keeps timing out waiting for the virtual device to boot on the new runners. What Android "
        "version image and boot flags did we use, and did it need hardware acceleration?"
    ),
    "mob-dark-statusbar": "StatusBar colour follows the theme how?",
    "inf-tf-lock": (
        "CI's terraform job fails because a colleague's apply got interrupted and the state is still marked as held. "
        "What did we run when this happened with Bob, and where is that marker stored?"
    ),
    "inf-oomkilled": "catalog jvm heap vs container limit",
    "inf-startup-probe": (
        "The full-text search backend takes a minute and a half to come up and kubernetes kept restarting it mid-load. "
        "What did we add so it gets time, and how many failed checks are allowed?"
    ),
    "inf-hpa-metrics": (
        "Checkout's horizontal scaler never grew during the load test in the fresh cluster. What component that "
        "reports pod CPU was missing?"
    ),
    "inf-gha-cache": "gha poetry venv cache key",
    "inf-argocd-replicas": "Argo app for checkout flips OutOfSync on the pod count, what's in the Application spec now",
    "inf-cert-dns01": (
        "Setting up TLS for the new admin host on the ALB ingress: how does cert-manager's issuer pass the ACME check "
        "for the api host now that the http path returns 404, and which provider does it talk to?"
    ),
    "inf-irsa": "exporter service account aws role",
    "inf-helm-values": (
        "Prod just came up with debug logging and two replicas after a chart upgrade. I think we hit the ordering "
        "problem with multiple values files before; what was the rule, and how should the deploy script pass them?"
    ),
    "inf-pdb": "drain stuck on the payments pods",
    "inf-aws-provider-pin": (
        "can I use the latest EKS terraform resources, or is the hashicorp plugin still held back because of the "
        "bucket rule replacement thing"
    ),
    "inf-vpc-endpoints": (
        "Cost review for the new account: what did we do in the old network so image pulls and bucket traffic stopped "
        "going out through the NAT?"
    ),
    "inf-external-secrets": "ExternalSecret sync interval and restart on change",
    "inf-buildx-cache": (
        "our container builds in CI redo the dependency install every time, how did we keep the cache across jobs"
    ),
    "inf-ndots": "pod dns search domain extra lookups fix",
    "inf-log-retention": (
        "If I need app logs from six weeks ago, are they still around in AWS? And the compliance log groups?"
    ),
    "auth-refresh-reuse": (
        "What's our response when a long-lived login token that was already exchanged gets presented again?"
    ),
    "auth-nbf-skew": "tokens from the future on a few nodes fix",
    "auth-argon2": (
        "Security wants to know whether users who haven't logged in since the password hashing change are still on the "
        "old algorithm, and what the new cost parameters are. Can you pull that up?"
    ),
    "auth-google-hd": (
        "Our SSO must only admit company staff. Besides the domain hint we send to Google, what does the callback "
        "verify on the returned identity token?"
    ),
    "auth-redis-evict": "session store memory full policy",
    "auth-cors-creds": (
        "The web app's sign-in broke once we started sending cookies cross-origin; what does the auth server put in "
        "the allow-origin header now?"
    ),
    "auth-login-ratelimit": (
        "Bots are trying leaked username and password lists against the sign-in page again. What are the limits per "
        "address and per account, and does the error message reveal anything?"
    ),
    "auth-jwks-kid": (
        "Tokens signed with a brand new key id fail for a while after the IdP rotates. How long do we hold the public "
        "keys, and do we go get them again on a miss?"
    ),
    "auth-pkce": "proof key rules for the phone app login",
    "auth-userinfo-timeout": (
        "The identity provider was sluggish today and sign-ins dragged. Remind me what limit we put on the profile "
        "fetch after the thirty-second hangs"
    ),
    "auth-reset-token": "password recovery token: hashed? expiry?",
    "auth-totp-window": (
        "Do we accept the previous and next six-digit code from the second-factor app, and can one be used twice?"
    ),
    "auth-audit-log": (
        "Compliance wants a year of login history, failed attempts and MFA changes included. Where is that recorded, "
        "how is it split up, and will a full year actually still be there?"
    ),
    "auth-grpc-interceptor": "where rpc service tokens get checked",
    "auth-xcrypto-cve": (
        "The security scanner is flagging the Go SSH/crypto package again in another repo; what was holding ours back "
        "last time and how did we bump it?"
    ),
    "auth-cookie-domain": (
        "why do people have to sign in twice when they hop from the main app to the documentation site"
    ),
}
