"""Long sessions for the hard recall benchmark: routine work around one story, and the stories.

A session is a list of events, rendered to a Claude Code transcript by generate.py:
("user", text) a prompt, ("say", text) assistant prose, ("tool", text | None, (tool, input), output)
an assistant tool call with its result. Every session — needle or distractor — is a long stretch of
routine work (test runs, reads, greps, edits, small talk about the project, in the project's own
vocabulary, the needles' included) with its story in the middle, so nothing but the story's passage
tells sessions apart.

Stories:
- a needle: a fact of benchmarks/recall/facts.py, as written;
- a near-duplicate: the same fact with other key facts (KEY_FACTS → ALTERNATES, or other digits)
  and a few nouns swapped; or the same question left unresolved, or answered with another cause;
- a template distractor of benchmarks/recall/distractors.py (same stacks, same vocabulary);
- a generic bug hunt: several small bug/fix episodes naming many of the project's words.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

from distractors import BANKS, COMMON, FOLLOWUPS, OPENERS, _fill, distractor
from facts import FACTS, Fact
from keyfacts import ALTERNATES, KEY_FACTS, holds, key_pattern

Event = tuple[Any, ...]
MIN_LINES, MAX_LINES = 50, 400  # transcript lines per session (log-uniform between them)

_STOP = frozenset(
    "about above after again against because before being below between could doesn't during every having "
    "itself later might never other should since their there these those through under until where which "
    "while would added using instead first found still changed until every which there what when with".split()
)


def _vocabulary() -> dict[str, list[str]]:
    """Per project, the words of its needle facts (minus anything that is or holds a key fact), so
    routine work and distractors talk about the same things as the needles."""
    out: dict[str, list[str]] = {}
    for project in BANKS:
        facts = [f for f in FACTS if f.project == project]
        keys = [k.lower() for f in facts for k in KEY_FACTS[f.fid]]
        words: dict[str, None] = {}
        for f in facts:
            text = " ".join([f.ask, f.finding, f.done, *(s[2] for s in f.steps)])
            for w in re.findall(r"[A-Za-z][A-Za-z_\-]{4,}", text):
                lw = w.lower().strip("-_")
                if len(lw) < 5 or lw in _STOP or any(lw in k or k in lw for k in keys):
                    continue
                words[lw] = None
        out[project] = list(words)
    return out


VOCAB = _vocabulary()

# ---- routine work -------------------------------------------------------------------------------

SESSION_OPENERS = [
    "Let's pick up the {mod} work from yesterday. Start by running the tests.",
    "Morning! Can you check where we are on the {mod} branch?",
    "I want to clean up {file} today, it grew a lot. Have a look first.",
    "Continue with the {mod} ticket, {who} left some review comments.",
    "Can you get the {mod} tests green again? Something broke after the merge.",
    "Let's work through the small {mod} issues on the board this afternoon.",
    "Quick session: tidy up the {thing} code and the {v1} bits around it.",
    "Help me prepare the {mod} changes for review.",
]
USER_SMALL = [
    "run the tests again please",
    "can you show me {file}?",
    "what does the {v1} part of {file} do?",
    "rename {name} to something clearer in {file}",
    "check if anything else uses the {v1} code",
    "is the {mod} change covered by a test?",
    "add a docstring to the {thing} function",
    "can you look at the lint warnings in {file}?",
    "what's left on the {mod} list?",
    "ok, next thing: the {v1} {v2} handling in {file}",
    "did the last commit touch {file}?",
    "let's also check the {v1} config while we're here",
    "hmm, why is the {thing} test so slow?",
    "make the error message for {v1} a bit clearer",
]
SMALL_TALK = [
    (
        "btw did {who} say anything about the {mod} release?",
        "Not in the PR comments I can see. The last note from {who} was about the {v1} follow-up.",
    ),
    (
        "I'm back, had a meeting. Where were we?",
        "We were in {file}: the {v1} part is done, the {thing} tests are next.",
    ),
    (
        "this codebase is a maze sometimes",
        "The {mod} part is the densest; {file} mixes the {v1} and {v2} concerns, which doesn't help.",
    ),
    ("nice, thanks", "You're welcome. Want me to continue with the {thing} tests?"),
    (
        "remind me what we changed this morning?",
        "We touched {file} ({v1} handling) and updated a {thing} test. Nothing is committed yet.",
    ),
    ("coffee break, keep going with the next item", "Sure. I'll continue with the {v1} cleanup in {file}."),
    (
        "do you think we should split {file}?",
        "Probably: the {v1} code and the {v2} code change for different reasons. Not today though.",
    ),
    (
        "{who} asked if we can ship the {mod} part this week",
        "The {mod} part is close; the open item is the {v1} edge case, maybe half a day.",
    ),
]
SAY = [
    "Let me look at {file} first.",
    "The tests pass. Next I'll look at the {v1} handling.",
    "That's the {thing} helper; it only wraps the {v1} call and logs the {v2}.",
    "Nothing else uses it outside {mod}.",
    "I'll keep the change small and leave the {v1} refactor for later.",
    "This part reads the {v1} setting and passes it to {service}.",
    "Done. The {thing} tests still pass.",
    "There's an old TODO about {v1} here; unrelated, so I'm leaving it.",
    "The {mod} module has {n} call sites for this; I updated all of them.",
    "I checked the {v1} and {v2} paths; both are covered by existing tests.",
]
CODE_LINES = [
    "def {name}_{v1}(self, {thing}):",
    "    return self._{v1}({thing}, retries={n})",
    "# {v1}: keep in sync with {mod}",
    "    log.info('{v1} done', {thing}_id={thing}.id)",
    "    if not {thing}.{v2}:",
    "        raise ValueError('missing {v2}')",
    "{v1}_{v2} = settings.get('{v1}', {n})",
    "    for item in {table}:",
    "class {Name}{Thing}:",
    "    timeout = {n}",
]
TOOL_STEPS = [
    ("Bash", "{testcmd}", "{n}{n} passed, {n} skipped in {n}.{n}s"),
    ("Bash", "{testcmd}", "{n}{n} passed in {n}.{n}s"),
    ("Bash", "git status --short", " M {file}\n?? notes/{v1}.md"),
    ("Bash", "git diff --stat", " {file} | {n}{n} +++--\n 1 file changed"),
    ("Bash", "git log --oneline -3", "9f1e2d3 {mod}: tidy {v1}\n4c5b6a7 bump {dep}\n1a2b3c4 fix {thing} edge case"),
    ("Grep", "{v1}", "{file}:{n}{n}: {v1} = ...\n{file}:{n}{n}{n}: # {v1} and {v2}"),
    ("Edit", "{file}", "The file {file} has been updated."),
    ("Edit", "{file}", "The file {file} has been updated."),
]


class Filler:
    """Fills templates from the project's bank, COMMON and the project's needle vocabulary."""

    def __init__(self, project: str, rng: random.Random):
        self.project, self.rng = project, rng

    def __call__(self, template: str) -> str:
        return self.many(template)[0]

    def many(self, *templates: str) -> list[str]:
        """The templates filled with the same slot values (a tool's input and its output agree)."""
        rng, vocab = self.rng, VOCAB[self.project]
        slots = {"v1": rng.choice(vocab), "v2": rng.choice(vocab)}
        slots["Name"] = rng.choice(COMMON["name"]).title()
        slots["Thing"] = rng.choice(BANKS[self.project]["thing"]).title()
        shared: dict[str, str] = {}
        out = []
        for text in templates:
            for k, v in slots.items():
                text = text.replace("{" + k + "}", v)
            out.append(_fill(text, self.project, shared, rng))
        return out

    def code(self) -> str:
        return "\n".join(self(line) for line in self.rng.sample(CODE_LINES, self.rng.randint(3, 6)))


def routine_turn(fill: Filler) -> list[Event]:
    """One stretch of routine work: a tool call, a small request, or small talk."""
    rng = fill.rng
    r = rng.random()
    if r < 0.45:
        tool, arg, out = rng.choice(TOOL_STEPS)
        if tool == "Read" or rng.random() < 0.25:
            return [
                ("tool", fill(rng.choice(SAY)) if rng.random() < 0.4 else None, ("Read", fill("{file}")), fill.code())
            ]
        arg, out = fill.many(arg, out)
        return [("tool", fill(rng.choice(SAY)) if rng.random() < 0.4 else None, (tool, arg), out)]
    if r < 0.8:
        events: list[Event] = [("user", fill(rng.choice(USER_SMALL)))]
        for _ in range(rng.randint(1, 3)):
            tool, arg, out = rng.choice(TOOL_STEPS)
            if rng.random() < 0.3:
                events.append(("tool", None, ("Read", fill("{file}")), fill.code()))
            else:
                arg, out = fill.many(arg, out)
                events.append(("tool", None, (tool, arg), out))
        events.append(("say", fill(rng.choice(SAY))))
        return events
    q, a = rng.choice(SMALL_TALK)
    return [("user", fill(q)), ("say", fill(a))]


def lines_of(events: list[Event]) -> int:
    return sum(2 if e[0] == "tool" else 1 for e in events)


def session_length(rng: random.Random) -> int:
    return round(math.exp(rng.uniform(math.log(MIN_LINES), math.log(MAX_LINES))))


def story_events(story: dict, rng: random.Random) -> list[Event]:
    """A story (ask, steps, finding, done, followups) as events."""
    events: list[Event] = [("user", story["ask"])]
    for i, (tool, arg, out) in enumerate(story["steps"]):
        events.append(("tool", story.get("opener", rng.choice(OPENERS)) if i == 0 else None, (tool, arg), out))
    events.append(("say", story["finding"]))
    follow = story.get("followups") or [rng.choice(FOLLOWUPS)]
    events.append(("user", follow[0][0]))
    events.append(("say", story["done"]))
    for q, a in follow[1:]:
        events += [("user", q), ("say", a)]
    return events


def long_session(project: str, rng: random.Random, stories: list[dict], total: int | None = None) -> list[Event]:
    """Routine work of about `total` lines with the stories placed in its middle half (spread out)."""
    total = total or session_length(rng)
    fill = Filler(project, rng)
    events: list[Event] = [("user", fill(rng.choice(SESSION_OPENERS)))]
    story_ev = [story_events(s, rng) for s in stories]
    budget = max(0, total - 1 - sum(lines_of(e) for e in story_ev))
    # where each story starts, as a share of the routine lines: within the middle half
    marks = sorted(rng.uniform(0.25, 0.75) for _ in stories)
    done = 0
    for mark, ev in zip(marks, story_ev, strict=True):
        while done < mark * budget:
            turn = routine_turn(fill)
            events += turn
            done += lines_of(turn)
        events += ev
    while done < budget:
        turn = routine_turn(fill)
        events += turn
        done += lines_of(turn)
    return events


# ---- stories ----------------------------------------------------------------------------------------


def needle_story(f: Fact, rng: random.Random) -> dict:
    return {
        "ask": f.ask,
        "steps": list(f.steps),
        "finding": f.finding,
        "done": f.done,
        "followups": rng.sample(FOLLOWUPS, k=rng.choice([0, 1, 1, 2])),
        "opener": rng.choice(OPENERS),
    }


def _other_digits(key: str, rng: random.Random) -> str:
    def one(m: re.Match[str]) -> str:
        s = m.group(0)
        while True:
            lo = 0 if len(s) == 1 else 10 ** (len(s) - 1)
            new = str(rng.randint(lo, 10 ** len(s) - 1))
            if new != s:
                return new

    return re.sub(r"\d+", one, key)


UNRESOLVED = [
    (
        "I couldn't reproduce it today: the {thing} path behaves, the logs from that window are gone, and the "
        "config looks the same as last week. I'd park this and add more logging around the {v1} step so we "
        "catch it next time.",
        "Added debug logging around the {v1} step; leaving the ticket open.",
    ),
    (
        "This looks related to the {v1} change {who} is making, so I'd rather not touch it in parallel. I wrote "
        "down what I saw in the ticket and linked the {mod} PR.",
        "Ticket updated, nothing changed in the code.",
    ),
    (
        "The root cause here is different from what it looks like: a stale {v1} value in the {mod} cache. "
        "Clearing it fixed the symptom; the {v2} setting was fine.",
        "Cleared the cache and added a test for the stale {v1} value.",
    ),
]


def near_duplicate(f: Fact, rng: random.Random) -> tuple[dict, str]:
    """The needle's story with other key facts and a few other nouns; a third of them left
    unresolved or answered with another cause. Never holds one of the needle's key facts."""
    keys = sorted(KEY_FACTS[f.fid], key=len, reverse=True)
    swaps = {k: rng.choice(ALTERNATES[k]) if k in ALTERNATES else _other_digits(k, rng) for k in keys}
    bank = BANKS[f.project]
    nouns: dict[str, str] = {}
    for pool in ("mod", "table", "thing", "service"):
        present = [w for w in bank[pool] if len(w) > 3 and re.search(rf"\b{re.escape(w)}\b", f.ask + f.finding)]
        if present and rng.random() < 0.6:
            w = rng.choice(present)
            others = [x for x in bank[pool] if x != w and not any(holds(x, k) for k in keys)]
            if others:
                nouns[w] = rng.choice(others)

    def mutate(text: str) -> str:
        for k in keys:
            new_key = swaps[k]
            text = key_pattern(k).sub(lambda _m: new_key, text)  # noqa: B023 - used at once
        for w, new in nouns.items():
            text = re.sub(rf"\b{re.escape(w)}\b", new, text)
        return text

    story = needle_story(f, rng)
    story["ask"] = mutate(f.ask)
    story["steps"] = [(t, mutate(i), mutate(o)) for t, i, o in f.steps]
    kind = "other facts"
    if rng.random() < 0.33:
        fill = Filler(f.project, rng)
        finding, done = rng.choice(UNRESOLVED)
        story["finding"], story["done"] = fill.many(finding, done)
        kind = "unresolved"
    else:
        story["finding"], story["done"] = mutate(f.finding), mutate(f.done)
    text = " ".join([story["ask"], story["finding"], story["done"], *(s[1] + " " + s[2] for s in story["steps"])])
    leaked = [k for k in keys if holds(text, k)]
    assert not leaked, f"near-duplicate of {f.fid} still holds {leaked}"
    return story, kind


BUG_ASKS = [
    "The {v1} {thing} flow fails again with {err}. Can you dig in?",
    "{who} says the {v1} job is flaky since the {dep} bump, around the {v2} step.",
    "Something is off with {v1} in {mod}: {err} in the logs, only sometimes.",
    "Can you look at the {v1}/{v2} issue from the standup? It's in {file} I think.",
]
BUG_FINDINGS = [
    "The {v1} value was read before the {v2} config loaded, so the first {thing} after a restart used the "
    "default. I moved the read into the handler in {file}.",
    "It was a missing await around the {v1} call; the {v2} step sometimes ran first. Fixed in {file} with a "
    "test that orders them explicitly.",
    "The {dep} upgrade changed how {v1} is parsed; our {v2} strings now need quoting. I updated {file} and "
    "the fixtures.",
    "A retry loop around {service} swallowed the {v1} error and retried forever. It now gives up after {n} "
    "attempts and logs the {v2}.",
    "The {thing} cache key did not include the {v1}, so two {mod} requests shared an entry. Added {v1} to the key.",
]


def bug_hunt(project: str, rng: random.Random) -> list[dict]:
    """Several small bug/fix episodes, full of the project's vocabulary."""
    fill = Filler(project, rng)
    out = []
    for _ in range(rng.randint(2, 4)):
        steps = []
        for _ in range(rng.randint(1, 3)):
            tool, arg, res = rng.choice(TOOL_STEPS)
            steps.append((tool, *fill.many(arg, res)))
        ask, cmd, failure, finding, done = fill.many(
            rng.choice(BUG_ASKS),
            "{testcmd}",
            "FAILED tests/test_{v1}.py::test_{v2} - {err}",
            rng.choice(BUG_FINDINGS),
            rng.choice(SAY),
        )
        steps.append(("Bash", cmd, failure))
        out.append(
            {
                "ask": ask,
                "steps": steps,
                "finding": finding,
                "done": done,
                "followups": rng.sample(FOLLOWUPS, k=rng.choice([0, 1])),
                "opener": rng.choice(OPENERS),
            }
        )
    return out


def template_stories(project: str, rng: random.Random) -> list[dict]:
    return [distractor(project, rng) for _ in range(rng.choice([1, 1, 2, 3]))]
