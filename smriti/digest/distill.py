"""Distill a session without an LLM: a title, an extractive summary, and the entities it touched.

Pure, deterministic and fast: every function reads only the messages it is given, scans capped text,
and returns the same output for the same input.

- `title(messages, agent_title=None) -> str`: the first real user request, cleaned of injected
  context, slash-command tags, code blocks, pasted logs and stack traces; the request sentence of it
  ("Can you find out why the pool is exhausted?" → "Find out why the pool is exhausted"), shortened
  to at most `TITLE_MAX` characters at a clause or word boundary. The agent's own title is the fallback
  when no message holds a request.
- `summary(messages) -> list[str]`: at most `SUMMARY_LINES` lines of at most `LINE_MAX` characters,
  "Goal: …", "Found: …", "Decided: …", "Outcome: …", each an actual sentence of the session picked
  by cue phrases ("the problem was", "root cause", "because", "decided", "let's go with", "fixed",
  "passes", …). Lines without a good sentence are left out.
- `entities(messages) -> Entities`: files touched (tool inputs and `Message.files`), commands run
  (Bash-like tool calls), error signatures (`psycopg_pool.PoolTimeout: couldn't get a connection`,
  `TypeError: x is not a function`, `error[E0382]: …`), libraries with versions
  (`psycopg[pool]==3.1.18`, `react@18.2.0`, "upgrade numpy to 2.1"), commit hashes (7–40 hex digits
  near "commit" or in git's output) and URLs; each in order of first appearance, deduplicated.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from smriti.models import Message, Session

TITLE_MAX = 80
LINE_MAX = 200
SUMMARY_LINES = 6
SECOND_LINE_SCORE = 2.0  # a second "Found:"/"Decided:" line needs a strong cue
UNTITLED = "Untitled session"
REQUEST_CAP = 8000  # characters of a prompt considered for its request
SENTENCE_SCAN = 3000  # characters of each assistant response considered for the summary
MAX_RESPONSES = 60  # the first and last half of these, for the summary
RESULT_HEAD, RESULT_TAIL = 3000, 1000
TEXT_CAP = 20000
MAX_ENTITIES = 50

# --- text cleaning ---------------------------------------------------------------------------------------

_SEPARATORS = '!"#$%&()*+,./:;<=>?@[\\]^`{|}~-\u2014\u2013\u2026\u00a0'
_TRANSLATE = {ord(c): " " for c in _SEPARATORS} | {ord("\u2019"): "'", ord("\u2018"): "'"}


# `_TRANSLATE` for ASCII text as a byte table: `str.translate` looks every character up in the dict,
# `bytes.translate` in 256 bytes, a third of the time for a sentence (digests split ~30 a session).
_ASCII_TRANSLATE = bytes(ord(_TRANSLATE.get(i, chr(i))) for i in range(128)) + bytes(range(128, 256))


def words(text: str) -> list[str]:
    """Lowercased words: punctuation and `-` separate words, `'` and `_` don't."""
    if text.isascii():  # lowering ASCII bytes lowers ASCII text; the split is str's, as below
        return text.encode().lower().translate(_ASCII_TRANSLATE).decode().split()
    return text.lower().translate(_TRANSLATE).split()


# Text an agent (or smriti) put into the conversation, which may sit inside a prompt.
_INJECTED = re.compile(
    r"<(smriti-context|system-reminder|command-name|command-message|local-command-[\w-]+|bash-[\w-]+|"
    r"task-notification|ide_[\w-]+|user-memory-input|environment_context|user_instructions)\b[^>]*>.*?(?:</\1\s*>|\Z)",
    re.S,
)
_ARGS_TAGS = re.compile(r"</?command-args>")


def strip_injected(text: str) -> str:
    """Text without injected blocks (`<system-reminder>…`, `<smriti-context>…`, slash-command tags)."""
    if "<" not in text:
        return text
    return _ARGS_TAGS.sub(" ", _INJECTED.sub(" ", text))


_FENCE = re.compile(r"(`{3,}|~{3,})[^\n]*\n.*?(?:\n\1[^\n]*|\Z)", re.S)
_LOGLINE = re.compile(
    r"""^\s*(?:
        Traceback\ \(most | File\ "| at\ \S | \^+\s*$ | [A-Za-z_][\w.]*(?:Error|Exception|Timeout|Warning)\b |
        npm\ (?:ERR!|WARN) | E\s{2,} | \$\ | >>>\ | \[\d | \d{4}-\d\d-\d\d[T\ ]\d | \d\d:\d\d:\d\d |
        (?:DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\b | error(?:\[\w+\])?: | panic: | -->\ | \|\ | \d+\s*\| |
        [-=*#_~+]{4,} | [{}\[\]<>] | //
    )""",
    re.X,
)
_LETTERS_AND_SPACE = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ "
# the end of a sentence: punctuation (and closing quotes), space, then something that starts one
_SENTENCE_END = re.compile(r"([.!?][\"')\]]*)\s+(?=[\"'(*`\[]?[A-Za-z0-9])")
_MD = re.compile(r"\*\*|__|^\s*(?:[-*+>]|\d+[.)])\s+|^#+\s+", re.M)
_WS = re.compile(r"\s+")
_URL = re.compile(r"https?://[^\s<>\"'`)\]}]+")


def _prose_lines(text: str, cap: int = REQUEST_CAP) -> list[str]:
    """The lines of a prompt that a person wrote: no code blocks, logs, traces or tables."""
    text = strip_injected(text[:cap])
    if "```" in text or "~~~" in text:
        text = _FENCE.sub("\n", text)
    out = []
    for line in text.splitlines():
        if not line.strip():
            out.append("")
            continue
        if line[:1] in " \t" and not line.lstrip()[:1].isalpha():
            continue  # indented code or log continuation
        if line.startswith(("    ", "\t")):
            continue
        if _LOGLINE.match(line):
            continue
        if line.isascii():
            others = len(line.encode().translate(None, _LETTERS_AND_SPACE))  # bytes: a table, not a dict
        else:
            others = sum(not (ch.isalpha() or ch == " ") for ch in line)
        if others > 0.4 * len(line):
            continue
        out.append(line.strip())
    return out


_LONG_CODE_SPAN = re.compile(r"`[^`\n]{30,}`")


def prose_only(text: str) -> str:
    """Text without fenced code, long inline code, indented blocks and log or trace lines."""
    if "`" in text:
        text = _LONG_CODE_SPAN.sub(" ", text)
    return "\n".join(_prose_lines(text, cap=len(text)))


def _sentences(lines: list[str]) -> list[str]:
    paragraphs: list[str] = []
    current: list[str] = []
    for line in lines:
        if line:
            current.append(line)
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    out = []
    for para in paragraphs:
        start = 0
        for m in _SENTENCE_END.finditer(para):
            s = " ".join(para[start : m.end(1)].split())
            if s:
                out.append(s)
            start = m.end()
        s = " ".join(para[start:].split())
        if s:
            out.append(s)
    return out


# --- title ----------------------------------------------------------------------------------------------

_POLITE = re.compile(
    r"""^(?:(?:hey|hi|hello|ok|okay|so|now|also|and|but|alright|right|yes|yeah|well|hmm|pls|please
         |quick\ question)\b[,:!.]?\s+)*
    (?:(?:can|could|would|will)\ (?:you|u|we)\ (?:please\ )?(?:help\ (?:me|us)\ (?:to\ )?)?
      |(?:please|pls|kindly)\ (?:help\ (?:me|us)\ (?:to\ )?)?
      |i\ (?:want|need|would\ like|'d\ like)\ (?:you\ )?to\ (?:help\ (?:me|us)\ )?
      |(?:i\ (?:want|need|would\ like|'d\ like)|give\ me|show\ me|get\ me)\ (?:a|an|some)[ ]
      |help\ (?:me|us)\ (?:to\ )?
      |i'?m\ trying\ to\ |we\ need\ to\ |let'?s\ (?=\w+\ )
    )?""",
    re.X | re.I,
)
_TRAILING = re.compile(r"(?:[\s,;:.!?]+|\s+(?:please|pls|for me|thanks|thank you|thx)[.!]?)+$", re.I)
_REQUEST_START = re.compile(
    r"""^(?:can|could|would|will)\ (?:you|u)\b|^(?:please|pls|help\ me|i\ (?:want|need|'d\ like|would\ like)|
    let'?s|we\ need\ to|i'?m\ trying\ to)\b""",
    re.X | re.I,
)
_QUESTION_START = re.compile(
    r"^(?:how|what|what's|whats|why|which|when|where|who|should|is|are|does|do|did|can|could|would|is there)\b", re.I
)
_IMPERATIVE = frozenset(
    """add adapt adjust allow analyse analyze apply audit automate benchmark break bump build bundle change check
    clean clarify compare compute configure convert create debug decide define delete deploy describe design
    detect diagnose dig disable document draft drop enable estimate evaluate explain export extract figure find
    fix format generate get give go handle help identify implement import improve install integrate
    investigate keep list load look make merge migrate mock move normalize optimize optimise organize outline parse
    patch pick pin plan port prepare profile propose prototype provide publish pull push put read rebase record
    reduce refactor release remove rename reorganize replace reproduce research resolve restructure review
    rewrite run scaffold set setup show simplify sketch sort speed split start stop summarize support switch sync
    teach test tidy track translate trace try tune turn type undo update upgrade use validate verify walk wire
    write""".split()
)
_CLAUSE_CUT = re.compile(
    r"(?:,|;|:| -| —| \(|\s(?=(?:that|which|so|because|since|when|where|while|without|but|and then|and|as|if|"
    r"after|before|to make|so that|in order|instead|except|unless|until|whenever|though|although|"
    r"like|then|or)\s))",
    re.I,
)
_END_STOP = frozenset(
    "a an the and or but to of in on at for with by from as so that which is are be my our your its".split()
)


def _first_word(s: str) -> str:
    m = re.match(r"[A-Za-z']+", s)
    return m.group(0).lower() if m else ""


_SLASH_COMMAND = re.compile(r"/[A-Za-z][\w:.-]*\s+\S")
_ANAPHORA = frozenset({"it", "this", "that", "them", "these", "those", "one"})
_TITLE_STOP = frozenset(
    "a an the and or but to of in on at for with by from as is are was be it its this that these those them "
    "i we you me my our your us do does did can could would should will what how why which who when where "
    "there here so up out down about into some any all just also very now then one make get go let's lets "
    "please pls ok okay".split()
)


def _content_words(sentence: str) -> list[str]:
    return [w for w in words(sentence) if w not in _TITLE_STOP and not w.isdigit()]


def _request_sentence(text: str) -> str | None:
    """The sentence of a prompt that asks for something; None if the prompt has no prose.

    A vague request ("dig into what happened", "review PR #412") is followed by the sentence that
    says what it is about, when the prompt has one: "Review PR #412: it adds retries to our client".
    """
    sentences = [s for s in _sentences(_prose_lines(text)) if any(ch.isalpha() for ch in s)]
    if not sentences:
        return None
    # A slash command with its arguments ("/review the auth module") is the request as typed.
    chosen = sentences[0] if _SLASH_COMMAND.match(sentences[0]) else None
    for s in sentences if chosen is None else ():
        if _REQUEST_START.match(s) or _first_word(s) in _IMPERATIVE:
            chosen = s
            break
    if chosen is None:
        chosen = next((s for s in sentences if s.endswith("?") or _QUESTION_START.match(s)), sentences[0])
    content = set(_content_words(chosen))
    vague = len(content) < 3 or (len(content) < 5 and not _ANAPHORA.isdisjoint(words(chosen)))
    if vague:
        context = [s for s in sentences if s is not chosen and len(set(_content_words(s))) > len(content)]
        if context:
            head = chosen.rstrip("?.!: ")
            return f"{head}: {context[0]}" if content else context[0]
    return chosen


def _clean_title(sentence: str) -> str:
    s = _MD.sub("", sentence)
    s = _URL.sub(lambda m: m.group(0) if len(m.group(0)) <= 40 else "", s)
    s = _WS.sub(" ", s).strip().strip("\"'")
    s = _POLITE.sub("", s, count=1).strip()
    s = _TRAILING.sub("", s).strip()
    s = _shorten(s, TITLE_MAX, min_clause=40)
    if s and s[0].islower() and not _COMMAND_LINE.match(s):
        s = s[0].upper() + s[1:]
    return s


# A prompt that is a command line ("chmod +x run.sh", "for f in *.md; do …", "git push origin main"):
# its first word is a program's name, and "Chmod" is no title a person wrote.
_COMMAND_LINE = re.compile(r"[a-z][\w.-]*\s+(?:[-+][\w-]|[~/.$][\w/~.-]|\S*[|;$]|\S+\s+in\s+\S*[~/*$])")


def _shorten(s: str, limit: int, *, min_clause: int) -> str:
    """At most `limit` characters, cut at the last clause boundary, else at a word boundary."""
    if len(s) <= limit:
        return s
    cut = None
    for m in _CLAUSE_CUT.finditer(s, 0, limit + 1):
        if min_clause <= m.start() <= limit:
            cut = m.start()
    if cut is None:
        space = s.rfind(" ", 0, limit + 1)
        cut = space if space > 0 else limit
    out = s[:cut].rstrip(" ,;:-—(")
    toks = out.split(" ")
    while len(toks) > 1 and toks[-1].lower() in _END_STOP:
        toks.pop()
    return " ".join(toks)[:limit]


def _is_prompt(msg: Message) -> bool:
    return msg.role == "user" and msg.kind == "prompt" and isinstance(msg.text, str)


def _first_request(messages: Iterable[Message]) -> str | None:
    """The request sentence of the first prompt that has one of at least two words (not "hi")."""
    for msg in messages:
        if _is_prompt(msg):
            # `_request_sentence` reads no further than REQUEST_CAP (`_prose_lines`): the cache is
            # keyed by that much, so it never holds on to a pasted log of megabytes.
            sentence = _prompt_request(msg.text[:REQUEST_CAP])
            if sentence is not None:
                return sentence
    return None


# A session's title and its summary's goal both start from its first request, over the same prompt
# texts one after the other (`title`, `summary`): the second asks the cache.
@lru_cache(maxsize=8)
def _prompt_request(text: str) -> str | None:
    """A prompt's request sentence (`_request_sentence`) when its cleaned title has two words or more."""
    sentence = _request_sentence(text)
    if sentence is not None and len(_clean_title(sentence).split()) >= 2:
        return sentence
    return None


def title(messages: Iterable[Message] | Session, agent_title: str | None = None) -> str:
    """A short, imperative-ish title: the first real request, else the agent's title (see module doc)."""
    if isinstance(messages, Session):
        agent_title = agent_title if agent_title is not None else messages.title
        messages = messages.messages
    messages = list(messages)
    request = _first_request(messages)
    if request is not None:
        return _clean_title(request)
    fallback = next(
        (_clean_title(s) for m in messages if _is_prompt(m) for s in [_request_sentence(m.text)] if s), None
    )
    if agent_title and agent_title.strip():
        return _shorten(_WS.sub(" ", agent_title).strip(), TITLE_MAX, min_clause=40)
    return fallback or UNTITLED


# --- summary --------------------------------------------------------------------------------------------

# Cue phrases per summary line, with weights, matched on words like the categorizer's vocabulary:
# data (data/distill.toml), read once on first use.
CUES_FILE = Path(__file__).with_name("data") / "distill.toml"
_WHY = frozenset({"because", "since", "so", "as", "reason", "why"})
_LABEL_RANK = {"decided": 2, "found": 1, "outcome": 0}


@cache
def _cue_index() -> tuple[dict[str, tuple[tuple[str, str, float], ...]], frozenset[str]]:
    """Cue phrases by anchor word (the most telling one), and the set of anchors."""
    with CUES_FILE.open("rb") as fh:
        cues: dict[str, dict[str, float]] = tomllib.load(fh)["cues"]
    index: dict[str, list[tuple[str, str, float]]] = {}
    for label, phrases in cues.items():
        if label not in _LABEL_RANK:
            raise ValueError(f"{CUES_FILE}: unknown summary line [cues.{label}]; known: {', '.join(_LABEL_RANK)}")
        for phrase, weight in phrases.items():
            toks = words(phrase)
            anchor = max(toks, key=lambda t: (t not in ("the", "is", "it", "was", "go", "we'll", "i'd"), len(t), t))
            index.setdefault(anchor, []).append((f" {' '.join(toks)} ", label, float(weight)))
    return {k: tuple(v) for k, v in index.items()}, frozenset(index)


def _cue_scores(sentence: str) -> dict[str, float]:
    toks = words(sentence)
    cue_index, cue_anchors = _cue_index()
    if cue_anchors.isdisjoint(toks):  # most sentences: no set of their words built
        return {}
    present = set(toks)
    hits = present & cue_anchors
    norm = f" {' '.join(toks)} "
    scores: dict[str, float] = {}
    for anchor in hits:
        for padded, label, weight in cue_index[anchor]:
            if padded in norm:
                scores[label] = scores.get(label, 0.0) + weight
    if "decided" in scores and not present.isdisjoint(_WHY):
        scores["decided"] += 0.75  # the decision and its reason in one sentence
    return scores


@dataclass(frozen=True, slots=True)
class _Candidate:
    label: str
    score: float
    order: int
    text: str


def _line(prefix: str, sentence: str) -> str:
    """A summary line of at most LINE_MAX characters: markdown dropped, cut at a word with "…"."""
    s = _WS.sub(" ", _MD.sub("", sentence).replace("`", "")).strip()
    room = LINE_MAX - len(prefix)
    if len(s) > room:
        cut = s.rfind(" ", 0, room - 1)
        s = s[: cut if cut > 0 else room - 1].rstrip(" ,;:-") + "…"
    return prefix + s


def _summary_texts(messages: list[Message]) -> Iterator[tuple[int, str, str]]:
    """(order, role, text) of the messages a summary may quote: responses, summaries, later prompts."""
    responses = [i for i, m in enumerate(messages) if m.kind in ("response", "summary") and isinstance(m.text, str)]
    if len(responses) > MAX_RESPONSES:
        half = MAX_RESPONSES // 2
        responses = responses[:half] + responses[-half:]
    keep = set(responses)
    first_prompt_seen = False
    for i, m in enumerate(messages):
        if m.role == "user" and m.kind == "prompt" and isinstance(m.text, str):
            if first_prompt_seen:
                yield i, "user", m.text[:SENTENCE_SCAN]
            first_prompt_seen = True
        elif i in keep:
            yield i, m.role, m.text[:SENTENCE_SCAN]


def summary(messages: Iterable[Message] | Session) -> list[str]:
    """The goal, what was found, what was decided and why, and the outcome (see module doc)."""
    if isinstance(messages, Session):
        messages = messages.messages
    msgs = [m for m in messages if m.kind != "injected_context"]
    lines: list[str] = []
    goal = _first_request(msgs)
    if goal:
        g = _TRAILING.sub("", _POLITE.sub("", goal, count=1)).strip() or goal
        lines.append(_line("Goal: ", g if _COMMAND_LINE.match(g) else g[:1].upper() + g[1:]))

    candidates: list[_Candidate] = []
    anchors = _cue_index()[1]
    for order, role, text in _summary_texts(msgs):
        body = strip_injected(_FENCE.sub("\n", text) if ("```" in text or "~~~" in text) else text)
        # Sentences are cut from a body at spaces and separators, so each one's ASCII words (every
        # anchor is one) are some of the body's: a body without any cue's anchor word holds no
        # candidate, and is not cut into sentences (three in four bodies on the benchmark corpus;
        # the cut was most of the summary's time).
        if anchors.isdisjoint(words(body)):
            continue
        for sentence in _sentences(_prose_lines(body) if role == "user" else body.splitlines()):
            if sentence.count(" ") < 3 or sentence.endswith("?") or sentence.endswith(":"):
                continue
            scores = _cue_scores(sentence)
            if role == "user":  # a later prompt only ever states a decision ("ok, let's go with X")
                scores = {"decided": 0.7 * scores["decided"]} if "decided" in scores else {}
            if not scores:
                continue
            label, score = max(scores.items(), key=lambda kv: (kv[1], _LABEL_RANK[kv[0]]))
            if score < 1.0:
                continue
            candidates.append(_Candidate(label, score, order, sentence))

    used: set[str] = set()

    def pick(label: str, n: int, *, latest: bool = False) -> list[_Candidate]:
        pool = [c for c in candidates if c.label == label and c.text not in used]
        pool.sort(key=lambda c: (-c.score, -c.order if latest else c.order))
        chosen: list[_Candidate] = []
        for c in pool:
            if len(chosen) == n or (chosen and c.score < SECOND_LINE_SCORE):
                break
            chosen.append(c)
            used.add(c.text)
        return sorted(chosen, key=lambda c: c.order)

    for label, n, latest, prefix in (
        ("found", 2, False, "Found: "),
        ("decided", 2, False, "Decided: "),
        ("outcome", 1, True, "Outcome: "),
    ):
        for c in pick(label, n, latest=latest):
            lines.append(_line(prefix, c.text))
    return lines[:SUMMARY_LINES]


# --- entities -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Library:
    name: str  # as written, without extras: "psycopg", "@tanstack/react-query", "numpy"
    version: str  # "3.1.18", "^18.2.0", "2.1"
    text: str  # the mention, normalized: "psycopg[pool]==3.1.18", "react@18.2.0", "numpy 2.1"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Entities:
    files: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    libraries: tuple[Library, ...] = ()
    commits: tuple[str, ...] = ()
    urls: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, list[Any]]:
        return {
            "files": list(self.files),
            "commands": list(self.commands),
            "errors": list(self.errors),
            "libraries": [{"name": x.name, "version": x.version, "text": x.text} for x in self.libraries],
            "commits": list(self.commits),
            "urls": list(self.urls),
        }


PATH_KEYS = ("file_path", "path", "notebook_path", "filename", "file", "target_file", "absolute_path")
# Tool actions (smriti.models.ACTIONS) whose results are file contents, search hits or web pages:
# what the code or the web says, not what happened (shared with smriti.digest.categorize).
READING_ACTIONS = frozenset({"read", "search", "fetch"})
_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+)$", re.M)

# Error signatures are found from their anchor ("…Error", "…Exception", …), then widened to the
# qualified class name before it and the message after it: much cheaper than a regex that has to
# try every position of a long tool output.
_ERR_SUFFIXES = ("Error", "Exception", "Timeout", "Fault", "Failure", "Interrupt")
_ERR_CLASS = re.compile(r"(?:[a-z_][\w]*\.)*[A-Z]\w*")
_BARE_ERROR = re.compile(r"^[ \t]*(?:Uncaught )?(Error): ([^\n]{3,300})", re.M)  # JS/Node, at a line start
_ERR_BEFORE = frozenset(" \t\n(\"'`:=[")
_ERR_OTHER = (
    ("error[E", re.compile(r"\b(error\[E\d{4}\]): ([^\n]{1,300})")),  # rust
    ("error TS", re.compile(r"\berror (TS\d{3,5}): ([^\n]{1,300})")),  # typescript
    ("panic: ", re.compile(r"^[ \t]*(panic): ([^\n]{1,300})", re.M)),  # go
    ("npm ERR! code", re.compile(r"(npm ERR! code) ([A-Z][A-Z_0-9]+)")),
    ("Segmentation fault", re.compile(r"(Segmentation fault)()")),
    ("OOMKilled", re.compile(r"(OOMKilled)()")),
)

# Libraries are found from their anchor too: a version operator, an "@" before a digit, a version.
_PIP_OP = re.compile(r"[=<>~]=(?=\d)")
_PIP_NAME = re.compile(r"([A-Za-z][\w.-]*[A-Za-z0-9])(\[[\w,.-]+\])?$")
_PIP_VERSION = re.compile(r"=*(\d+(?:\.[\w+-]+)+)")
_NPM_AT = re.compile(r"@(?=[\^~]?\d)")
_NPM_NAME = re.compile(r"(?:^|(?<=[\s\"'`(=:,]))(@[a-z0-9][\w.-]*/[a-z0-9][\w.-]*|[a-z0-9][\w.-]*)$")
_NPM_VERSION = re.compile(r"@([\^~]?\d+(?:\.\d+){1,2}(?:-[\w.]+)?)\b")
_MANIFEST = re.compile(
    r"(?:^|/)(?:requirements[\w.-]*\.(?:txt|in)|constraints[\w.-]*\.txt|pyproject\.toml|setup\.(?:cfg|py)|Pipfile|"
    r"environment\.ya?ml|package\.json|Cargo\.toml|go\.mod|Gemfile|build\.gradle(?:\.kts)?|pom\.xml|composer\.json|"
    r"[\w.-]*\.lock|deno\.json|pubspec\.yaml|mix\.exs|Package\.swift|[\w.-]+\.csproj)$"
)
_JSON_DEP = re.compile(r'"(@?[a-z0-9][\w.-]*(?:/[\w.-]+)?)":\s*"([\^~]?\d+\.\d+[\w.+-]*)"')
_NOT_JSON_DEPS = frozenset({"version", "node", "npm", "yarn", "pnpm", "bun"})  # package.json fields, engines
_TOML_DEP = re.compile(r'(?m)^([A-Za-z][\w-]*)\s*=\s*(?:\{[^}\n]*?version\s*=\s*)?"[\^~=]?(\d+\.\d+[\w.+-]*)"')
_ARROW = re.compile(r"\b([A-Za-z][\w.-]*) \(v?(\d[\w.+-]*) -> v?(\d[\w.+-]*)\)")
_INSTALLED = re.compile(r"Successfully installed ([^\n]+)")
_GO_MOD = re.compile(
    r"\b((?:github\.com|golang\.org|gopkg\.in|go\.uber\.org|google\.golang\.org)/[\w./-]+) (v\d[\w.+-]*)"
)
_VERSION_DOT = re.compile(r"\.(?=\d)")  # a literal first, so the scan is fast; widened below
_VERSION = re.compile(r"\d+(?:\.\d+)+\b")
_PROSE_LIB = re.compile(
    r"\b(?:upgrad(?:e|ed|ing)|bump(?:ed|ing|s)?|pin(?:s|ned|ning)?|downgrad(?:e|ed|ing)|install(?:ed|ing|s)?|"
    r"updat(?:e|ed|ing)|mov(?:e|ed|ing)|migrat(?:e|ed|ing)|requires?)\s+(?:to\s+)?"
    r"(?!to\b|from\b|it\b|the\b|them\b|this\b|that\b|version\b|v?\d)([A-Za-z][\w.\[\]/-]*?)[,:]?\s+"
    r"(?:from\s+v?\d[\w.]*\s+)?(?:to\s+|version\s+)?v?(\d+(?:\.\d+)+)$",
    re.I,
)
_PACKAGE_COMMAND = re.compile(
    r"\b(?:pip3?|uv|poetry|pipenv|conda|mamba|npm|npx|pnpm|yarn|bun|cargo|go|gem|bundle|composer|mvn|gradle|dotnet|"
    r"brew|apt|apt-get|pdm|hatch|rye|deno)\b"
)
_PROSE_LIB_STEMS = ("upgrad", "bump", "pin", "downgrad", "install", "updat", "move", "moving", "migrat", "requir")


def _has_any(text: str, needles: tuple[str, ...]) -> bool:
    return any(n in text for n in needles)


_NOT_LIBS = frozenset(
    "version python node it them this that to from the and a an all everything deps dependencies packages "
    "requirements lockfile lock past beyond above below at least latest v".split()
)

_HEX = r"[0-9a-f]{7,40}"
_COMMIT_NEAR = (
    re.compile(rf"(?i)\bcommit(?:s|ted)?\b[^\n]{{0,40}}?(?<![\w/.-])({_HEX})\b"),
    re.compile(rf"(?<![\w/.-])({_HEX})\b[^\n]{{0,25}}?\bcommit\b", re.I),
    re.compile(rf"^\[[\w./-]+(?: \(root-commit\))? ({_HEX})\]", re.M),  # git commit's own output
)
_COMMIT_WORD = re.compile("commit", re.I)  # the word both _COMMIT_NEAR[:2] need, with their case rules
_GIT_LOG_LINE = re.compile(rf"^(?:commit )?({_HEX})\b", re.M)
# Every `_HEX` match, either case, is seven hex digits in a row: as bytes mapped to 1 (a hex digit)
# or 0 (any other byte, every byte of a non-ASCII character too), `_HEX_RUN` is in them. A line
# without it is not worth the two patterns' position-by-position tries (~5 µs a line).
_HEX_BYTES = bytes(int(chr(b) in "0123456789abcdefABCDEF") for b in range(256))
_HEX_RUN = b"\x01" * 7


class _Ordered:
    """An insertion-ordered set with a size cap."""

    def __init__(self) -> None:
        self.items: dict[Any, Any] = {}

    def add(self, key: Any, value: Any = None) -> None:
        if key not in self.items and len(self.items) < MAX_ENTITIES:
            self.items[key] = key if value is None else value

    def values(self) -> tuple[Any, ...]:
        return tuple(self.items.values())


def _capped(msg: Message) -> str:
    text = msg.text if isinstance(msg.text, str) else ""
    if msg.kind == "tool_result" and len(text) > RESULT_HEAD + RESULT_TAIL:
        return text[:RESULT_HEAD] + "\n" + text[-RESULT_TAIL:]
    return text[:TEXT_CAP]


def _command(tool_input: Any) -> str | None:
    if not isinstance(tool_input, dict):
        return tool_input if isinstance(tool_input, str) else None
    raw = tool_input.get("command", tool_input.get("cmd"))
    if isinstance(raw, list) and all(isinstance(x, str) for x in raw):
        if len(raw) >= 3 and raw[0] in ("bash", "sh", "zsh", "/bin/bash", "/bin/sh") and raw[1] in ("-c", "-lc"):
            raw = raw[2]
        else:
            raw = shlex.join(raw)
    if not isinstance(raw, str):
        return None
    first = raw.strip().split("\n", 1)[0].strip()
    return first[:300] or None


# where an error message's head ends: a location ("at x.js:3"), a wide gap, the next sentence
_ERR_HEAD_END = re.compile(r"\s+(?:at|in) [\w./\\]+:\d|\s{2,}|(?<=[.!?])\s+(?=[A-Z])")


def _error_signature(cls: str, message: str | None) -> str:
    if not message:
        return cls
    head = _ERR_HEAD_END.split(message.strip(), maxsplit=1)[0]
    if len(head) > 80:
        cut = head.rfind(" ", 0, 80)
        head = head[: cut if cut > 20 else 80]
    head = head.rstrip(" .,;:")
    if head.count("`") % 2:
        head = head.rstrip("`")
    return f"{cls}: {head}" if head else cls


def _has_hex_mix(h: str) -> bool:
    return any(c.isdigit() for c in h) and any(c.isalpha() for c in h)


def entities(messages: Iterable[Message] | Session) -> Entities:
    """Files, commands, error signatures, libraries, commits and URLs of a session (see module doc)."""
    if isinstance(messages, Session):
        messages = messages.messages
    files, commands, errors, libraries, commits, urls = (_Ordered() for _ in range(6))
    last_command = ""
    for msg in messages:
        if msg.kind == "injected_context":
            continue
        if msg.kind == "tool_call":
            inp = msg.tool_input
            action = msg.action
            if isinstance(inp, dict) and not _INPUT_KEYS.isdisjoint(inp):
                _input_files(inp, action, files)
            for f in msg.files:
                if isinstance(f, str) and f and action != "search":
                    files.add(f)
            if action == "shell":
                cmd = _command(inp)
                if cmd:
                    commands.add(cmd)
                    last_command = cmd
                    _scan_libraries(cmd, libraries, prose=False)
            else:
                last_command = ""
            text = msg.text[:2000] if isinstance(msg.text, str) else ""
            if (
                isinstance(inp, dict) and not _EDIT_KEYS.isdisjoint(inp) and _edits_manifest(inp)
            ):  # a pin in requirements.txt…
                for k in ("new_string", "content", "input", "patch"):
                    v = inp.get(k)
                    if isinstance(v, str):
                        _scan_libraries(v[:TEXT_CAP], libraries, prose=False, manifest=True)
            _scan_urls(text, urls)
            continue

        for f in msg.files:
            if isinstance(f, str) and f:
                files.add(f)
        if msg.kind == "tool_result" and msg.action in READING_ACTIONS:
            continue  # file contents and search hits: what the code says, not what happened
        text = _capped(msg)
        if not text:
            continue
        if msg.kind == "tool_result" or msg.role == "user":
            _scan_errors(text, errors)
        elif msg.kind in ("response", "summary"):
            _scan_errors(text, errors, prose=True)
        if msg.kind != "tool_result" or _PACKAGE_COMMAND.search(last_command):
            # versions in a tool's output matter after a package manager ran, not in test logs
            _scan_libraries(text, libraries, prose=msg.kind in ("prompt", "response", "summary"))
        _scan_urls(text, urls)
        _scan_commits(text, commits, git_output=msg.kind == "tool_result" and last_command.startswith("git "))
    return Entities(
        files=files.values(),
        commands=commands.values(),
        errors=errors.values(),
        libraries=libraries.values(),
        commits=commits.values(),
        urls=urls.values(),
    )


def _error_anchors(text: str) -> list[tuple[int, int]]:
    """(start, end) of every "…Error"/"…Exception"/… word ending, in text order."""
    found = []
    for suffix in _ERR_SUFFIXES:
        i = text.find(suffix)
        while i >= 0:
            end = i + len(suffix)
            if end == len(text) or not (text[end].isalnum() or text[end] == "_"):
                found.append((i, end))
            i = text.find(suffix, end)
    found.sort()
    return found


def _scan_errors(text: str, out: _Ordered, *, prose: bool = False) -> None:
    for start, end in _error_anchors(text):
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "._"):
            start -= 1
        if start > 0 and text[start - 1] not in _ERR_BEFORE:
            continue
        cls = text[start:end].lstrip(".")
        if text.startswith(": ", end) or text.startswith(":\t", end):
            nl = text.find("\n", end)
            message = text[end + 2 : (nl if nl >= 0 else len(text))][:300].strip()
        elif prose:
            continue  # a bare class name in prose ("raises ValueError") is a mention, not an error seen
        elif "." in cls or not text[text.rfind("\n", 0, start) + 1 : start].strip():
            # a qualified name (psycopg_pool.PoolTimeout) or a class alone at the start of a line
            after = text[end : end + 2]
            if after[:1] in ("(", "[") or (after[:1] == "." and after[1:].isidentifier()):
                continue  # a call or attribute in code: raise ValueError(...), KeyError.args
            message = ""
        else:
            continue
        if cls in ("Error", "Exception") or not _ERR_CLASS.fullmatch(cls):
            continue
        out.add(_error_signature(cls, message))
    if "Error: " in text and ("\nError: " in text or "Uncaught Error: " in text or text.startswith("Error: ")):
        for m in _BARE_ERROR.finditer(text):
            out.add(_error_signature(m.group(1), m.group(2)))
    for needle, rx in _ERR_OTHER:
        if needle in text:
            for m in rx.finditer(text):
                if m.group(1) == "npm ERR! code":
                    out.add(f"npm ERR! code {m.group(2)}")
                else:
                    out.add(_error_signature(m.group(1), m.group(2)))


_LIST_PATH_KEYS = ("paths", "files", "file_paths")
_INPUT_KEYS = frozenset(PATH_KEYS) | frozenset(_LIST_PATH_KEYS) | {"input", "patch"}
_EDIT_KEYS = frozenset({"new_string", "content", "input", "patch", "edits"})


def _input_files(inp: dict, action: str | None, files: _Ordered) -> None:
    for key in PATH_KEYS:
        value = inp.get(key)
        if isinstance(value, str) and value.strip() and "\n" not in value and len(value) < 1024:
            if key == "path" and action == "search":
                continue  # a search root, not a file touched
            files.add(value.strip())
    for key in _LIST_PATH_KEYS:
        value = inp.get(key)
        if isinstance(value, list):
            for v in value:
                if isinstance(v, str) and v.strip() and "\n" not in v and len(v) < 1024:
                    files.add(v.strip())
    for key in ("input", "patch"):
        value = inp.get(key)
        if isinstance(value, str) and "*** " in value:
            for m in _PATCH_FILE.finditer(value[:TEXT_CAP]):
                files.add(m.group(1).strip())


def _edits_manifest(inp: dict) -> bool:
    paths = [inp.get(k) for k in PATH_KEYS]
    patch = inp.get("input") or inp.get("patch")
    if isinstance(patch, str) and "*** " in patch:
        paths.extend(m.group(1) for m in _PATCH_FILE.finditer(patch[:TEXT_CAP]))
    return any(isinstance(p, str) and _MANIFEST.search(p) for p in paths)


def _scan_libraries(text: str, out: _Ordered, *, prose: bool, manifest: bool = False) -> None:
    if manifest:
        if '": "' in text or '":"' in text:  # package.json
            for m in _JSON_DEP.finditer(text):
                if m.group(1) in _NOT_JSON_DEPS:
                    continue
                out.add(
                    (m.group(1).lower(), m.group(2).lstrip("^~")),
                    Library(m.group(1), m.group(2), f"{m.group(1)}@{m.group(2)}"),
                )
        if " = " in text:  # Cargo.toml and friends
            for m in _TOML_DEP.finditer(text):
                out.add((m.group(1).lower(), m.group(2)), Library(m.group(1), m.group(2), f"{m.group(1)} {m.group(2)}"))
    if "==" in text or ">=" in text or "~=" in text or "<=" in text:
        for m in _PIP_OP.finditer(text):
            name = _PIP_NAME.search(text, max(0, m.start() - 80), m.start())
            ver = _PIP_VERSION.match(text, m.end() - 1 if text[m.end() - 1] == "=" else m.end())
            if name is None or ver is None or name.end() != m.start():
                continue
            before = text[name.start() - 1] if name.start() > 0 else " "
            if before.isalnum() or before in "@/.=<>~!-_":
                continue
            n, extras, v = name.group(1), name.group(2) or "", ver.group(1)
            out.add((n.lower(), v), Library(n, v, f"{n}{extras}{m.group(0)}{v}"))
    if "@" in text:
        for m in _NPM_AT.finditer(text):
            name = _NPM_NAME.search(text, max(0, m.start() - 80), m.start())
            ver = _NPM_VERSION.match(text, m.start())
            if name is None or ver is None or name.end() != m.start():
                continue
            n, v = name.group(1), ver.group(1)
            out.add((n.lower(), v.lstrip("^~")), Library(n, v, f"{n}@{v}"))
    if " -> " in text:
        for m in _ARROW.finditer(text):
            out.add((m.group(1).lower(), m.group(3)), Library(m.group(1), m.group(3), f"{m.group(1)}=={m.group(3)}"))
    if "Successfully installed" in text:
        for m in _INSTALLED.finditer(text):
            for item in m.group(1).split():
                package, _, version = item.rpartition("-")
                if package and version[:1].isdigit():
                    out.add((package.lower(), version), Library(package, version, f"{package}=={version}"))
    if " v" in text and ("github.com/" in text or "golang.org/" in text or "gopkg.in/" in text):
        for m in _GO_MOD.finditer(text):
            out.add((m.group(1).lower(), m.group(2)), Library(m.group(1), m.group(2), f"{m.group(1)} {m.group(2)}"))
    if prose and _has_any(text.lower(), _PROSE_LIB_STEMS):
        seen_end = -1
        for dot in _VERSION_DOT.finditer(text):
            start = dot.start()
            if start <= seen_end or start == 0 or not text[start - 1].isdigit():
                continue
            while start > 0 and text[start - 1].isdigit():
                start -= 1
            v = _VERSION.match(text, start)
            if v is None:
                continue
            seen_end = v.end()
            mention = _PROSE_LIB.search(text, max(0, v.start() - 90), v.end())
            if mention is None:
                continue
            written, version = mention.group(1).rstrip(".,:"), mention.group(2)
            base = written.split("[", 1)[0]
            if base.lower() in _NOT_LIBS or len(base) < 2:
                continue
            key = (base.lower(), version)
            if any(
                k[0] == key[0] and (k[1] == version or k[1].startswith(version + "."))
                for k in out.items
                if isinstance(k, tuple)
            ):
                continue
            out.add(key, Library(base, version, f"{written} {version}"))


def _scan_urls(text: str, out: _Ordered) -> None:
    if "://" not in text:
        return
    for m in _URL.finditer(text):
        url = m.group(0).rstrip(".,;:!?*_")
        if len(url) > 12:
            out.add(url)


def _commit_words(text: str) -> Iterator[tuple[int, int]]:
    """Where `_COMMIT_WORD` matches: in an ASCII text (most), found by `str.find` in its lowered copy
    (same places, same length), several times faster than the case-insensitive regex."""
    if not text.isascii():  # lowering may change other letters' lengths: the regex
        for m in _COMMIT_WORD.finditer(text):
            yield m.span()
        return
    lowered = text.lower()
    at = lowered.find("commit")
    while at >= 0:
        yield at, at + 6
        at = lowered.find("commit", at + 6)


def _scan_commits(text: str, out: _Ordered, *, git_output: bool) -> None:
    if git_output:  # `git log --oneline` lines and `git commit`'s "[branch abc1234] message"
        for rx in (_GIT_LOG_LINE, _COMMIT_NEAR[2]):
            for m in rx.finditer(text):
                if _has_hex_mix(m.group(1)):
                    out.add(m.group(1))
    if "ommit" in text or "OMMIT" in text:
        # Both patterns match within one line that holds the word: run them over those lines
        # only (a long tool output mentions "commit" once; trying a hash at each of its
        # positions was most of entities()' time). Same matches, in the same order.
        lines = []
        line_end = -1
        for start, end in _commit_words(text):
            if start < line_end:
                continue  # this line is taken already
            line_end = text.find("\n", end)
            line_end = len(text) if line_end < 0 else line_end
            line = text[text.rfind("\n", 0, start) + 1 : line_end]
            if _HEX_RUN in line.encode("utf-8", "surrogatepass").translate(_HEX_BYTES):
                lines.append(line)  # else no hash for either pattern (a prose "let me commit this")
        for rx in _COMMIT_NEAR[:2]:
            for line in lines:
                for m in rx.finditer(line):
                    if _has_hex_mix(m.group(1)):
                        out.add(m.group(1))
