# ruff: noqa: E501  (request templates are prose: one request, one line, as a person would type it)
"""Style B — HELD OUT, never trained or tuned on: another "author" with other habits and other nouns.

Written separately from corpus_a.py, without reusing its templates or vocabulary: half of the
requests are terse, commit-message or ticket-title style ("fix: ...", "perf(api): ..."), half are long,
rambling prose with context, hedging and asides. The domain nouns come from other products
(logistics, clinics, games, a newsroom), so a classifier can't lean on style A's nouns.
"""

from __future__ import annotations

import random

from corpus_common import AGENTS, TOOL_PROFILES, Builder, do, fill

VOCAB: dict[str, tuple[str, ...]] = {
    "svc": (
        "dispatch planner",
        "route optimizer",
        "patient intake form",
        "appointment scheduler",
        "leaderboard",
        "matchmaking queue",
        "article editor",
        "paywall",
        "warehouse scanner app",
        "parcel tracker",
        "lab results viewer",
        "prescription service",
        "inventory sync",
        "replay recorder",
        "newsletter builder",
        "driver app",
        "shift roster",
        "comment moderation",
        "asset pipeline",
        "payout batcher",
    ),
    "obj": (
        "parcels",
        "shifts",
        "appointments",
        "players",
        "articles",
        "drivers",
        "pallets",
        "lab orders",
        "subscriptions",
        "matches",
    ),
    "stack": ("Kotlin", "Swift", "PHP", "Scala", "C++", "Dart", "Clojure", "Haskell", "Lua", "Zig"),
    "pkg": (
        "Ktor",
        "Alamofire",
        "Symfony",
        "Akka",
        "Boost",
        "Flutter",
        "Riverpod",
        "Quarkus",
        "Micronaut",
        "htmx",
        "Remix",
        "Astro",
        "Drizzle",
        "tRPC",
        "Hono",
    ),
    "store": ("CockroachDB", "ClickHouse", "Firestore", "Neo4j", "ScyllaDB", "TimescaleDB", "Couchbase", "Supabase"),
    "dev": (
        "Biome",
        "Buildkite",
        "Jenkins",
        "Earthly",
        "Pants",
        "Turborepo",
        "Lefthook",
        "Vale",
        "Honeycomb",
        "Rollbar",
        "Bugsnag",
        "Argo CD",
        "Pulumi",
        "Nix",
        "devbox",
    ),
    "symptom": (
        "OOM kills",
        "a ConcurrentModificationException",
        "segmentation fault in the worker",
        "HTTP 502s",
        "garbled unicode",
        "negative stock counts",
        "double charges",
        "a blank screen",
        "corrupted exports",
        "timezones off by one hour",
        "EXC_BAD_ACCESS",
        "zombie processes",
        "lost writes",
        "a spike in p99 latency",
    ),
    "trigger": (
        "during the Monday rush",
        "on Android 14",
        "when two dispatchers edit the same route",
        "after DST",
        "with more than 500 obj",
        "on the staging cluster",
        "for clinics in Brazil",
        "right after login",
    ),
    "cfgfile": (
        "appsettings.json",
        "values.yaml",
        "config/prod.exs",
        "local.properties",
        ".npmrc",
        "nginx.conf",
        "flake.nix",
        "turbo.json",
        "biome.json",
    ),
    "idea": (
        "backpressure",
        "copy-on-write",
        "tail calls",
        "the actor model",
        "sagas",
        "write-ahead logging",
        "idempotency keys",
        "optimistic locking",
        "SIMD",
        "lazy evaluation",
        "structural sharing",
        "gossip protocols",
        "bloom filters",
        "two-phase commit",
        "reactive streams",
        "type classes",
    ),
    "idiom": (
        "sealed classes",
        "result types",
        "the visitor pattern",
        "a pipeline of small functions",
        "the null object pattern",
        "mixins",
        "the specification pattern",
        "an event aggregator",
    ),
    "shape": (
        "cells-based architecture",
        "an event-driven core",
        "a shared-nothing cluster",
        "a data mesh",
        "a single Postgres with schemas per tenant",
        "edge workers",
        "a batch + stream lambda architecture",
        "a service per bounded context",
    ),
    "capability": (
        "route sharing with customers",
        "waitlists for appointments",
        "seasonal leaderboards",
        "paywall trials",
        "proof-of-delivery photos",
        "clinic-level permissions",
        "friend invites",
        "article scheduling",
        "driver tipping",
        "SMS reminders",
        "a content calendar",
        "spectator mode",
    ),
    "ritual": (
        "standups",
        "design reviews",
        "release trains",
        "incident reviews",
        "ownership of alerts",
        "merge requests",
        "tech-debt Fridays",
        "RFCs",
    ),
    "n": ("2", "4", "7", "30", "300", "50k"),
}

# Terse, commit-message or ticket-title style.
TERSE: dict[str, tuple[str, ...]] = {
    "bug/fix": (
        "fix: {symptom} in {svc} {trigger}",
        "hotfix {svc} - {symptom}",
        "fix({svc}): {symptom}, add regression test",
    ),
    "bug/investigation": (
        "rca: {symptom} in {svc} {trigger} (no code changes yet)",
        "triage {symptom} {trigger}, find root cause",
        "spike: where do the {symptom} in {svc} come from?",
    ),
    "bug/report": (
        "bug ticket: {svc} {symptom} {trigger} - repro steps + expected/actual",
        "file issue for {symptom} in {svc}",
        "repro case for {symptom} to attach to the ticket",
    ),
    "code/implementation": (
        "refactor({svc}): break up god class, no behaviour change",
        "chore: simplify {svc}, remove dead branches",
        "perf({svc}): stop recomputing {obj} per request",
        "rewrite {svc} in {stack}",
    ),
    "code/pattern": (
        "{stack}: idiomatic {idiom} for {svc}?",
        "pattern for {svc}: {idiom} or plain functions?",
        "best practice for {idiom} in {stack}",
    ),
    "code/review": (
        "review MR !{n} ({svc})",
        "PR feedback wanted: {svc} changes",
        "pls review the diff before merge, {svc}",
    ),
    "code/snippet": (
        "one-liner: dedupe {obj} by id in {stack}",
        "regex for tracking numbers like 1Z999AA10123456784",
        "query: {obj} with no owner in {store}",
        "awk to sum column 3",
    ),
    "feature/implementation": (
        "feat: {capability}",
        "feat({svc}): add {capability} end to end",
        "implement {capability} (api + ui + tests)",
    ),
    "feature/design": (
        "api design: {capability}",
        "data model for {capability}",
        "ux flow + endpoints for {capability}",
    ),
    "feature/requirement": (
        "spec: {capability} - stories + acceptance criteria",
        "scope MVP of {capability}",
        "requirements doc for {capability}",
    ),
    "project/setup": (
        "ci: add {dev} pipeline",
        "chore: bootstrap repo with {dev} + tests",
        "dev env: one-command setup via {dev}",
    ),
    "project/config": (
        "config: split {cfgfile} per environment",
        "env vars for {svc} instead of hardcoded values",
        "tweak {cfgfile} for prod",
    ),
    "project/dependency": (
        "deps: bump {pkg} to next major",
        "build: resolve version conflict between {pkg} and {pkg}",
        "chore(deps): pin {pkg}, drop unused packages",
    ),
    "architecture/design": (
        "arch: component diagram for {svc} on {shape}",
        "system design: {svc} at {n}k req/s",
        "boundaries + data flow for {shape}",
    ),
    "architecture/decision": (
        "ADR: adopt {shape}",
        "adr-0{n}: {svc} moves to {store}",
        "record decision: {shape} for {svc}",
    ),
    "architecture/tradeoff": (
        "tradeoffs: {shape} vs {shape}",
        "{store} vs {store} for {obj}: costs/benefits",
        "pros/cons splitting out {svc}",
    ),
    "decision/technical": (
        "pick: {pkg} or {pkg} for {svc}",
        "choose {store} or {store} for {obj}",
        "build vs buy: {svc}",
    ),
    "decision/process": ("team policy for {ritual}", "proposal: how we run {ritual}", "working agreement: {ritual}"),
    "decision/tooling": (
        "tooling: {dev} or {dev}?",
        "switch CI from {dev} to {dev}?",
        "standardize on {dev} for all repos?",
    ),
    "topic/learning": (
        "learn {idea} - guided lessons pls",
        "study plan: {idea} for a beginner",
        "tutorial on {pkg} from zero",
    ),
    "topic/explanation": ("how does {idea} actually work", "explain {svc} internals", "why {idea}?"),
    "topic/comparison": ("{idea} vs {idea}?", "{pkg} vs {pkg} - differences", "{stack} vs {stack} for {idea}"),
    "uncategorized": (
        "lol",
        "gm",
        "recipe for pho",
        "best hiking trails near Denver",
        "/compact",
        "ty",
        "poem about rain",
        "what time is it in Tokyo",
    ),
}

# Long, rambling prose: context first, the ask buried in the middle, hedges and asides.
RAMBLING: dict[str, tuple[str, ...]] = {
    "bug/fix": (
        "So this is a weird one and I've been staring at it all morning. The {svc} started producing {symptom} {trigger}, "
        "and honestly I thought it was a fluke at first but it keeps happening. Could you go in there, figure out what broke, "
        "and actually patch it so it stops? A test that proves it would make me sleep better.",
        "Okay, context: we shipped a release on Tuesday and since then the {svc} gives us {symptom}, mostly {trigger}. "
        "Ops is annoyed. I don't need a long essay, I just need it working again, ideally with the change small enough to hotfix.",
    ),
    "bug/investigation": (
        "I'm honestly not sure what's going on here. Every so often the {svc} shows {symptom} {trigger} and nobody on the team can "
        "explain it. Before we touch any code I'd like to understand the mechanism: what sequence of events leads to it? Dig through "
        "whatever logs and metrics you can find and tell me what you think the root cause is.",
        "Long story short, {symptom} keep appearing in the {svc} and the theories are piling up (network? the cache? cosmic rays?). "
        "Could you dig in and diagnose it properly, with evidence, and hold off on any fix until we agree on the cause?",
    ),
    "bug/report": (
        "Our support folks keep forwarding me screenshots of {symptom} in the {svc} {trigger}, and I need to turn that into something "
        "the other team can act on. Can you help me write it up as a proper ticket, with the exact steps to reproduce it, what we "
        "expected and what actually happens, and the versions involved?",
    ),
    "code/implementation": (
        "The {svc} code has grown organically for three years and it shows: huge functions, copy-pasted branches, names that lie. "
        "I'd like to restructure it into something a new hire could read, but it must behave exactly the same afterwards, "
        "so keep the existing tests passing and don't sneak in behaviour changes.",
        "I keep thinking the {svc} could be a lot faster and leaner if we stopped doing the same work over and over for every one of the "
        "{obj}. Would you rework its internals for performance, same outputs, and show me the before/after?",
    ),
    "code/pattern": (
        "There's a debate on the team about how to model the {svc} in {stack}. Some want {idiom}, others think that's over-engineering. "
        "What would idiomatic code look like here, and which pattern would you reach for?",
    ),
    "code/review": (
        "My colleague opened a merge request touching the {svc}, about {n}00 lines, and I'm the reviewer, but I'm short on time. "
        "Could you read through the changes with me and point out anything risky, unclear or untested before I approve it?",
    ),
    "code/snippet": (
        "This is probably trivial but my brain is fried: I just need a little snippet in {stack} that takes the list of {obj} and "
        "groups them by day. Nothing fancy, no framework, just something I can paste in.",
    ),
    "feature/implementation": (
        "Product finally signed off on {capability}, and the design is done, so it's time to actually build it. Could you wire it up "
        "through the {svc}: backend, the screens, storage changes, and tests, in small commits if you can?",
        "Customers have been asking for {capability} for ages and we're finally doing it this sprint. Please write the code for it "
        "in the {svc}; the spec is settled, I mostly need hands on keyboard.",
    ),
    "feature/design": (
        "Before anyone writes code for {capability}, I'd like us to think about its shape: what the endpoints would be, what the "
        "payloads carry, how errors come back, and what we need to store. Can you sketch a design we can review together?",
    ),
    "feature/requirement": (
        "Sales promised a client {capability} (of course) and now I have to figure out what that even means. Help me pin down "
        "the user stories, what counts as done, the edge cases and what we explicitly won't do in the first version.",
    ),
    "project/setup": (
        "We're starting a fresh repository for the {svc} and I'd rather not copy the mess from the old one. Could you get the skeleton "
        "in place: build tooling with {dev}, a place for tests, a pipeline that runs on every push, and a README that gets people going?",
    ),
    "project/config": (
        "Right now all the settings for the {svc} live in {cfgfile} with production values sprinkled in comments, which terrifies me. "
        "Could you reorganize the configuration so each environment gets its own values and secrets come from the environment?",
    ),
    "project/dependency": (
        "We're three major versions behind on {pkg} and the build spits out deprecation warnings everywhere. I'd like to get current: "
        "upgrade it, sort out whatever breaks, and make sure the lockfile doesn't end up with duplicate copies of anything.",
    ),
    "architecture/design": (
        "As we grow, the {svc} is becoming the bottleneck for everything, and I want to rethink how the pieces fit together. "
        "What would the overall structure look like with {shape}: which components, who owns which data, and how does it all flow?",
    ),
    "architecture/decision": (
        "After a month of back and forth we settled it: we're going with {shape} for the {svc}. Someone has to write this down for "
        "posterity, so please draft the decision record: the context we were in, what we chose, what we rejected and the consequences.",
    ),
    "architecture/tradeoff": (
        "I keep going back and forth between {shape} and {shape} for the {svc}. Each has real upsides and I can't tell which costs "
        "will bite us later. Could you lay out what we'd gain and what we'd give up with each, for a team our size?",
    ),
    "decision/technical": (
        "We have to commit to something for the {svc} by Friday: {pkg} or {pkg}. I've read the docs of both and I'm no wiser. "
        "Given our constraints, which one would you pick, and why?",
    ),
    "decision/process": (
        "Our {ritual} have turned into a mess: some people skip them, others drag them out for an hour. I'd like to propose "
        "a clearer way of working to the team. What rules would you suggest we agree on?",
    ),
    "decision/tooling": (
        "Half the team uses {dev} and the other half swears by {dev}, and it's causing friction in every repo. We should pick one "
        "and standardize. Which would you choose for us, and how would we migrate?",
    ),
    "topic/learning": (
        "I've been a backend person forever but I now need to actually understand {idea}, and the docs assume I already know it. "
        "Could you teach it to me gradually, with small exercises, and check that I got each part before moving on?",
    ),
    "topic/explanation": (
        "Something I've never really understood and am slightly embarrassed to ask: how does {idea} actually work under the hood? "
        "I don't need to change anything, I'd just like to get the mechanism.",
    ),
    "topic/comparison": (
        "People keep using {idea} and {idea} almost interchangeably in meetings and I suspect they're not the same. "
        "In what ways do they actually differ, and when does the difference matter?",
    ),
    "uncategorized": (
        "Totally unrelated to work, but my partner's birthday is next week and I'm out of ideas. Any suggestions for a gift that isn't socks?",
        "Can you help me plan a three-day trip to Kyoto? We like food and temples, not so much shopping.",
    ),
}

REPLIES: dict[str, tuple[str, ...]] = {
    "bug/fix": ("Patched: the guard was on the wrong side of the await. Regression test added, suite green.",),
    "bug/investigation": (
        "Evidence points at {idea} misbehaving {trigger}: the timeline from the logs is below. No changes made.",
    ),
    "bug/report": ("Ticket draft:\nRepro: ...\nExpected: ...\nActual: {symptom}\nEnvironment: ...",),
    "code/implementation": ("Restructured into smaller units; outputs identical, tests untouched and passing.",),
    "code/pattern": ("I'd model it with {idiom}; here's how that reads in {stack}.",),
    "code/review": ("Left comments: two risky spots, one missing test, a few naming nits.",),
    "code/snippet": ("```\n{obj}.groupBy(it.day)\n```",),
    "feature/implementation": ("{capability} is wired end to end with tests, behind a flag.",),
    "feature/design": ("Draft: three endpoints, one new entity, errors as typed codes.",),
    "feature/requirement": ("Stories, acceptance criteria, and the out-of-scope list are below.",),
    "project/setup": ("Skeleton in place: {dev}, tests, pipeline, README.",),
    "project/config": ("Per-environment values now; secrets come from the environment.",),
    "project/dependency": ("{pkg} upgraded; fixed the breaking changes, lockfile deduped.",),
    "architecture/design": ("Components, ownership of data and the flow between them are sketched below.",),
    "architecture/decision": ("Decision record drafted: context, decision, rejected options, consequences.",),
    "architecture/tradeoff": ("Gains and costs of each option, side by side.",),
    "decision/technical": ("I'd go with {pkg}; reasons below.",),
    "decision/process": ("Proposed agreement for {ritual} below.",),
    "decision/tooling": ("Pick {dev}; migration steps below.",),
    "topic/learning": ("Part 1 of {idea}, with a short exercise.",),
    "topic/explanation": ("Here's the mechanism of {idea}, step by step.",),
    "topic/comparison": ("They differ in three ways; a table follows.",),
    "uncategorized": ("Sure, a few ideas.",),
}

LABELS = tuple(TERSE)


def session(rng: random.Random, label: str, sid: str, *, terse: bool | None = None) -> dict:
    agent = rng.choice(AGENTS)
    b = Builder(rng, agent, sid)
    terse = rng.random() < 0.5 if terse is None else terse
    vocab = {**VOCAB, "obj": VOCAB["obj"]}
    text = fill(rng.choice((TERSE if terse else RAMBLING)[label]), vocab, rng)
    b.user(text)
    if label == "uncategorized":
        b.say(fill(rng.choice(REPLIES[label]), vocab, rng))
        return {
            "id": sid,
            "agent": agent,
            "expect": label,
            "style": "b-terse" if terse else "b-prose",
            "messages": b.messages,
        }
    for step in TOOL_PROFILES[label]:
        if rng.random() < 0.6:
            do(b, step)
    if rng.random() < 0.5:
        b.noise()
    b.say(fill(rng.choice(REPLIES[label]), vocab, rng))
    return {
        "id": sid,
        "agent": agent,
        "expect": label,
        "style": "b-terse" if terse else "b-prose",
        "messages": b.messages,
    }
