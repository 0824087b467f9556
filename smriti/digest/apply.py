"""Categorize and distill stored sessions: the glue between the pure engine and the store.

Runs at ingest for every session that changed (incrementally: appended messages are scored
alone and folded into the saved per-category totals) and on demand (`smriti categorize`). It
writes the digest (title, summary, entities), the rule tags (a user's tag always wins), the
files a session touched, and its relations to older sessions of the same project and category.

Corrections are labels (smriti.store.labels): `tag_session` (what `smriti tag` does) and
`learn_from_move` (a synced knowledge file found in another category's folder) store the corrected
session's document with its category; `Enricher` loads a project's newest `LABELS_IN_USE` labels once
and every categorize of that project's sessions consults them (`learned.TeamMemory`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rapidfuzz import fuzz, process

from smriti import project as projects
from smriti.digest import distill, learned
from smriti.digest.categorize import CategoryResult, add_scores, pattern_warnings, score_messages
from smriti.digest.combined import classify
from smriti.digest.taxonomy import Settings, default_settings, load_team_categories
from smriti.errors import ConfigError
from smriti.models import ACTIONS, Message, Session
from smriti.store import MessageRow, SessionRow, Store, jsoncols
from smriti.store.relations import touched_files
from smriti.store.rows import WrittenRows
from smriti.team.knowledge import KnowledgeError, clean_title, validate_category

# A newer session "supersedes" an older one of the same project and category when their titles
# and touched files say they cover the same ground; "related" when they overlap less.
SUPERSEDE_AT = 0.75
RELATED_AT = 0.5
TITLE_WEIGHT, FILES_WEIGHT = 0.6, 0.4
MAX_RELATIONS = 5
# The newest labels of a team that categorize consults: enough for a team's conventions, few enough
# that comparing a session with each stays well under a millisecond.
LABELS_IN_USE = 300


def repo_settings(root: str | None, cache: dict[str, Settings], warnings: list[str]) -> Settings:
    """The team's categories for a repo (`<root>/.smriti/config.toml`), else the seeds; loaded (and
    its patterns vetted) once per config file in `cache`. Touches no store: ingest's worker process
    calls it too."""
    config = Path(root) / ".smriti" / "config.toml" if root else None
    key = str(config) if config and config.is_file() else ""
    if key not in cache:
        try:
            cache[key] = load_team_categories(config) if key else default_settings()
        except ConfigError as exc:
            # A teammate's broken config must not stop anyone's ingest: seeds, and say so.
            warnings.append(f"{exc} (using the built-in categories)")
            cache[key] = default_settings()
    return cache[key]


@dataclass(frozen=True, slots=True)
class Precomputed:
    """A new session's digest, computed from its parsed messages before it is stored (by ingest's
    worker process, on the other core): what `Enricher.enrich` would compute from the rows of the
    session written whole, as long as its project has no team labels (they live in the store).
    `settings` is the fingerprint it was computed with; `messages` how many messages it saw."""

    settings: str
    messages: int
    scores: dict[str, float]
    result: CategoryResult
    entities: distill.Entities
    title: str
    summary: list[str]
    warnings: list[str]


# The values a JSON round trip gives back unchanged (floats not: NaN and infinities are not JSON).
_FLAT = frozenset({str, int, bool, type(None)})


def as_stored(m: Message) -> Message:
    """A parsed message as `Store.messages(...)[i].to_message()` gives it back once stored: the tool
    input through its JSON column (tuples become lists, keys strings), the action re-derived when it
    is not one of today's. Only `key` differs (the row id there), and no digest reads it."""
    value = m.tool_input
    if value is None or (
        type(value) is dict and all(type(k) is str for k in value) and all(type(v) in _FLAT for v in value.values())
    ):
        # Most tool inputs ({"command": …}, {"file_path": …, "old_string": …}) come back from JSON as
        # they went in. A message whose other columns do too is its own stored form: no digest
        # changes a message, so it is not copied (3 µs a message, ~5 % of a session's digest).
        if type(m.files) is tuple and type(m.sidechain) is bool and (m.action is None or m.action in ACTIONS):
            return m
        tool_input = None if value is None else dict(value)
    else:  # through the store's own encoder and decoder, as the column is written and read
        tool_input = jsoncols.loads(jsoncols.dumps_lenient(value))
    return Message(
        role=m.role,
        text=m.text,
        kind=m.kind,
        key=m.key,
        timestamp=m.timestamp,
        tool_name=m.tool_name,
        tool_input=tool_input,
        files=tuple(m.files),
        sidechain=bool(int(m.sidechain)),
        action=m.action if m.action in ACTIONS else None,
    )


def precompute(session: Session, settings: Settings) -> Precomputed:
    """`Enricher.enrich`'s pure part for a session about to be written whole (no digest yet, no team
    labels): the same calls on the same messages, so the same digest."""
    messages = [as_stored(m) for m in session.messages]
    model = learned.load_model()
    scores = _fresh_scores(messages, settings, model)
    result, entities, summary = _digest(messages, settings, scores, model, team=None, session=None)
    return Precomputed(
        settings.fingerprint,
        len(messages),
        scores,
        result,
        entities,
        distill.title(messages),
        summary,
        pattern_warnings(settings),
    )


def _fresh_scores(messages: list[Message], settings: Settings, model: learned.Model | None) -> dict[str, float]:
    """The rules' scores of every message; none when the model alone decides (with the team's
    rules and labels): no seeded evidence to keep."""
    return {} if model is not None and model.rules_weight == 0 else score_messages(messages, settings)


def _digest(
    messages: list[Message],
    settings: Settings,
    scores: dict[str, float],
    model: learned.Model | None,
    *,
    team: learned.TeamMemory | None,
    session: int | None,
) -> tuple[CategoryResult, distill.Entities, list[str]]:
    """A session's category, entities and summary from its messages (the title is the caller's:
    the agent's own one wins when there is one)."""
    result = classify(messages, settings, scores=scores or None, team=team, model=model, session=session)
    return result, distill.entities(messages), distill.summary(messages)


def title_similarities(title: str, others: Sequence[str]) -> list[float]:
    """`fuzz.token_set_ratio(title, other)` for each of `others`, in one call: the title is split
    and sorted once, not once per other (half the time of a loop over ~30 candidates)."""
    ratios = [0.0] * len(others)
    for _, ratio, i in process.extract(title, others, scorer=fuzz.token_set_ratio, limit=None):
        ratios[i] = ratio
    return ratios


@dataclass
class Enricher:
    store: Store
    warnings: list[str] = field(default_factory=list)
    _settings: dict[str, Settings] = field(default_factory=dict)
    _synced: set[str] = field(default_factory=set)
    _memories: dict[str, learned.TeamMemory | None] = field(default_factory=dict)
    # Title and files of the sessions `_relate` compares with, by rowid: those whose digest this
    # enricher saved (kept as saved), and others read once. Reading them with every candidate list
    # was two thirds of relating a session (2.2 of 3.3 s over 10,000 sessions). One enricher lives
    # for one run: a digest another process saves meanwhile is seen by the next run.
    _relation_details: dict[int, tuple[str, frozenset[str]]] = field(default_factory=dict)

    def memory_for(self, project: str | None) -> learned.TeamMemory | None:
        """The project's labels, ready to vote; None when it has none (or no model is installed)."""
        key = project or ""
        if key not in self._memories:
            # The labels first: a project without any (the usual case) needs no model loaded here.
            labels = self.store.category_labels(key, LABELS_IN_USE)
            model = learned.load_model() if labels else None
            self._memories[key] = learned.TeamMemory(model, labels) if model and labels else None
        return self._memories[key]

    def settings_for(self, session: SessionRow | Session) -> Settings:
        """The team's categories for the session's repo (`<root>/.smriti/config.toml`), else the seeds:
        of a stored session, or of a parsed one (ingest asks before writing it)."""
        proj = projects.resolve(session.cwd) if session.cwd else None
        return self.settings_for_repo(proj.root if proj else None)

    def settings_for_repo(self, root: str | None) -> Settings:
        settings = repo_settings(root, self._settings, self.warnings)
        if settings.fingerprint not in self._synced:
            self.store.sync_categories((c.id, c.parent, c.description, c.source) for c in settings.categories)
            self._synced.add(settings.fingerprint)
        return settings

    def enrich(
        self,
        session: SessionRow,
        *,
        full: bool = False,
        rows: Sequence[MessageRow] | WrittenRows | None = None,
        pre: Precomputed | None = None,
        new_session: bool = False,
    ) -> CategoryResult:
        """`rows`: the session's stored messages when the caller holds them already (ingest, for a
        session it just wrote whole: `WriteResult.stored`); otherwise they are read back. `pre`:
        the digest computed from those messages before they were stored (`precompute`), used when
        it still applies (same settings, no saved digest, no team labels); else computed here.
        `new_session`: the session's row was made by the write just before (`WriteResult.created`), so
        nothing of its own is stored yet (no digest, tags, files or relations: the earlier holder of
        a reused id took its rows along, on delete cascade) and nothing is looked up or deleted
        first: six statements fewer a session of a first ingest (of ~28)."""
        settings = self.settings_for(session)
        if rows is None:
            rows = self.store.messages(session.rowid)
        digest = None if new_session else self.store.get_digest(session.rowid)
        if (
            pre is not None
            and digest is None
            and pre.settings == settings.fingerprint
            and pre.messages == len(rows)
            and self.memory_for(session.project) is None
        ):
            self.warnings.extend(pre.warnings)
            title = clean_title(session.agent_title or "", limit=distill.TITLE_MAX) or pre.title
            last = rows.last_rowid if isinstance(rows, WrittenRows) else max((r.rowid for r in rows), default=0)
            return self._save(
                session, last, pre.scores, settings, pre.result, pre.entities, title, pre.summary, new_session
            )
        messages = [r.to_message() for r in rows]
        model = learned.load_model()
        incremental = not (model is not None and model.rules_weight == 0) and not full
        if incremental and digest and digest["scores"] and digest["settings"] == settings.fingerprint:
            new = [r.to_message() for r in rows if r.rowid > digest["scored_messages"]]
            scores = add_scores(digest["scores"], score_messages(new, settings, prior=digest["scores"]))
        else:
            scores = _fresh_scores(messages, settings, model)
        self.warnings.extend(pattern_warnings(settings))
        team = self.memory_for(session.project)
        result, entities, summary = _digest(messages, settings, scores, model, team=team, session=session.rowid)
        # The agent's own title (one the user set, or the agent's summary of the session) reads
        # better than any extract; the first real request is the fallback.
        title = clean_title(session.agent_title or "", limit=distill.TITLE_MAX) or distill.title(messages)
        last = max((r.rowid for r in rows), default=0)
        return self._save(session, last, scores, settings, result, entities, title, summary, new_session)

    def _save(
        self,
        session: SessionRow,
        scored_messages: int,
        scores: dict[str, float],
        settings: Settings,
        result: CategoryResult,
        entities: distill.Entities,
        title: str,
        summary: list[str],
        new_session: bool = False,
    ) -> CategoryResult:
        self.store.save_digest(
            session.rowid,
            title=title,
            summary=summary,
            entities=entities.to_dict(),
            confidence=result.confidence,
            scores=scores,
            settings=settings.fingerprint,
            scored_messages=scored_messages,  # the highest message id folded into the scores
            files=entities.files,
            new_session=new_session,
        )
        self._relation_details[session.rowid] = (title, touched_files("\0".join(entities.files)))
        tags = [(result.category, result.confidence)]
        if result.parent != result.category:
            tags.append((result.parent, result.confidence))
        tags.extend((t.id, t.confidence) for t in result.tags if t.id not in {c for c, _ in tags})
        category = self.store.set_rule_tags(session.rowid, tags, result.category, new_session=new_session)
        # The session as stored now: only its category may have changed since `session` was read.
        self._relate(session._replace(category=category), title, entities.files, new_session)
        return result

    def _relate(self, current: SessionRow, title: str, files: tuple[str, ...], new_session: bool = False) -> None:
        when = current.ended_at or current.started_at or ""
        mine = set(files)
        relations = []
        candidates = self.store.relation_candidates(current.rowid, current.project, current.category or "")
        details = self._relation_details
        unknown = [other for other, _ in candidates if other not in details]
        if unknown:
            details.update(self.store.relation_details(unknown))
        # its digest went between the two reads (another process's forget): not compared
        present = [(other, time, detail) for other, time in candidates if (detail := details.get(other)) is not None]
        title_scores = title_similarities(title, [d[0] for _, _, d in present])
        for (other, time, (_, theirs)), ratio in zip(present, title_scores, strict=True):
            title_sim = ratio / 100
            if mine and theirs:
                score = TITLE_WEIGHT * title_sim + FILES_WEIGHT * (len(mine & theirs) / len(mine | theirs))
            else:
                score = title_sim * 0.9
            if score < RELATED_AT:
                continue
            relation = "supersedes" if score >= SUPERSEDE_AT else "related"
            if (time or "") > when:
                # Sessions can arrive out of order: the newer one records the relation.
                self.store.add_relation(other, current.rowid, relation, score)
            else:
                relations.append((other, relation, score))
        relations.sort(key=lambda r: -r[2])
        self.store.save_relations(current.rowid, relations[:MAX_RELATIONS], new_session=new_session)


@dataclass(frozen=True)
class CategorizeResult:
    sessions: int
    changed: int
    categories: dict[str, int]
    warnings: list[str]

    def to_json(self) -> dict:
        return {
            "sessions": self.sessions,
            "changed": self.changed,
            "categories": self.categories,
            "warnings": self.warnings,
        }


def categorize(store: Store, session_rowids: list[int] | None = None, *, all_: bool = False) -> CategorizeResult:
    """Re-run categorization and distillation: for the given sessions, or for every session whose
    digest is missing or was made with other settings (`all_`: every session, from scratch)."""
    enricher = Enricher(store)
    if session_rowids is None:
        fingerprint = default_settings().fingerprint
        session_rowids = store.sessions_needing_categories(fingerprint, all_)
    rows = store.sessions_by_rowid(session_rowids)
    before = {r.rowid: r.category for r in rows.values()}
    for cwd in {r.cwd for r in rows.values()}:  # every repo's team config vetted before the write lock
        proj = projects.resolve(cwd) if cwd else None
        enricher.settings_for_repo(proj.root if proj else None)
    counts: dict[str, int] = {}
    changed = 0
    for start in range(0, len(session_rowids), 200):
        with store.batch():
            for rowid in session_rowids[start : start + 200]:
                enricher.enrich(store.session_row(rowid), full=True)
                after = store.session_row(rowid).category or "uncategorized"
                counts[after] = counts.get(after, 0) + 1
                changed += after != (before.get(rowid) or "uncategorized")
    return CategorizeResult(
        len(session_rowids), changed, dict(sorted(counts.items())), list(dict.fromkeys(enricher.warnings))
    )


def tag_session(store: Store, session: SessionRow, category: str) -> None:
    """A person's tag: the session's primary category from now on, and a label categorize learns from."""
    store.tag(session.rowid, category)
    document = learned.document([r.to_message() for r in store.messages(session.rowid)])
    store.save_tag_label(session.rowid, session.project, category, document)


def untag_session(store: Store, session: SessionRow, category: str | None = None) -> list[str]:
    """Remove a person's tag (all of them without `category`) and the label it made."""
    removed = store.untag(session.rowid, category)
    for cid in removed:
        store.remove_tag_label(session.rowid, cid)
    return removed


def category_of_path(path: str) -> str | None:
    """`bug/fix` for `.smriti/knowledge/bug/fix/<file>.md`; None for a path outside the knowledge folder."""
    from smriti.team.git import KNOWLEDGE_DIR  # noqa: PLC0415  (git helpers are only needed here)

    prefix = KNOWLEDGE_DIR.rstrip("/") + "/"
    if not path.startswith(prefix):
        return None
    parts = path[len(prefix) :].split("/")[:-1]
    if not parts:
        return None
    try:
        return validate_category("/".join(parts))
    except KnowledgeError:
        return None


def learn_from_move(store: Store, repo: str, item_id: str, old_path: str, new_path: str) -> str | None:
    """A knowledge file a reviewer moved to another category's folder is a correction: store it as a
    label of that repo (its team). The document is the item's session when this machine has it, else
    the item's own title and body. Returns the new category, or None when the category did not change."""
    before, after = category_of_path(old_path), category_of_path(new_path)
    if after is None or after == before:
        return None
    item = store.knowledge_in_repo(repo, item_id)
    if item is None:
        return None
    rowid = store.session_for_native(item.agent, item.session) if item.agent and item.session else None
    if rowid is not None:
        document = learned.document([r.to_message() for r in store.messages(rowid)])
    else:
        document = learned.PART_SEP.join((item.title, item.body[: learned.PROSE_CAP], ""))
    store.save_knowledge_label(repo, item_id, after, document, rowid)
    return after


def unknown_category(store: Store, category: str, repo: str | None = None) -> list[str] | None:
    """None when `category` is one a filter can match: the taxonomy (the team's own categories of
    `repo` included) or a category of knowledge items synced from a team; else the valid ones, sorted."""
    if store.category_known(category):
        return None
    value = category.strip("/")
    synced = {r["category"] for r in store.knowledge_counts()}
    # The taxonomy (the team's too) is written to the store when an ingest first uses it; one that
    # has not happened yet must not make a built-in category unknown.
    Enricher(store).settings_for_repo(repo)
    if store.has_category(value):
        return None
    return sorted({r["id"] for r in store.category_rows()} | synced)
