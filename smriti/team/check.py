"""`smriti check`: guard a repo's `.smriti/` folder in CI and pre-commit.

Schema and types (the strict reader), safe paths (no symlinks, only `.md` files with safe names
under `knowledge/`), unique ids, size limits, a valid team config, and the same secret scanner
that share runs. A person's edit of an item is not a problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smriti.errors import ConfigError, InvalidInput
from smriti.team import knowledge
from smriti.team.git import repo_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from smriti.team import redact

# The redaction and gate modules (and the team config, which imports them) are imported by `check`
# itself: `sync` imports this module for `name_problem` only, and they cost it ~50-100 ms.

SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\.md")
SAFE_FOLDER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_ID_LINE = re.compile(rb"^id:", re.MULTILINE)


def name_problem(name: str, folders: list[str]) -> str | None:
    """Why a knowledge file's name, or a folder between `.smriti/knowledge/` and it, breaks the rules
    (`check` reports it, `sync` rejects the file), or None."""
    if not SAFE_NAME.fullmatch(name):
        return "file names use letters, digits, '.', '_' and '-' only"
    bad = next((f for f in folders if not SAFE_FOLDER.fullmatch(f)), None)
    if bad is not None:
        return f"folder {bad!r}: folder names use letters, digits, '_' and '-' only"
    return None


def _folders_under_knowledge(path: Path) -> list[str]:
    """The folder names between `.smriti/knowledge/` and the file (none for a file given alone elsewhere)."""
    parts = path.parts
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == "knowledge" and i > 0 and parts[i - 1] == ".smriti":
            return list(parts[i + 1 : -1])
    return []


@dataclass
class CheckResult:
    files: int = 0
    problems: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)

    def add(self, path: str, line: int | None, rule: str, message: str) -> None:
        self.problems.append({"path": path, "line": line, "rule": rule, "message": message})

    def to_json(self) -> dict[str, Any]:
        return {"files": self.files, "problems": self.problems, "warnings": self.warnings}


def _smriti_dir(target: Path) -> tuple[Path, Path]:
    """(repo root, the .smriti folder) for a repo, its .smriti folder, or anything inside it."""
    target = target.resolve()
    for cand in (target, *target.parents):
        if cand.name == ".smriti":
            return cand.parent, cand
        if (cand / ".smriti").is_dir():
            return cand, cand / ".smriti"
    root = repo_root(target)
    return root, root / ".smriti"


def check(targets: list[Path]) -> CheckResult:
    from smriti.team import redact
    from smriti.team.config import load_team_config

    result = CheckResult()
    targets = targets or [Path.cwd()]
    for target in targets:
        if not target.exists() and not target.is_symlink():
            raise InvalidInput(f"{target} does not exist")
        root, smriti_dir = _smriti_dir(target if target.is_dir() else target.parent)
        try:
            team = load_team_config(root)
            settings = team.redact_settings
            if team.raw and "categorize" in team.raw:
                from smriti.digest.taxonomy import load_team_categories

                load_team_categories(team.path)
        except ConfigError as exc:
            result.add(str(smriti_dir / "config.toml"), None, "config", str(exc))
            settings = redact.default_settings()
        files = (
            [target]
            if target.is_file() or target.is_symlink() and not target.is_dir()
            else _knowledge_files(smriti_dir)
        )
        seen: dict[str, str] = {}
        for path in files:
            _check_file(path, root, settings, seen, result)
    return result


def _knowledge_files(smriti_dir: Path) -> list[Path]:
    base = smriti_dir / "knowledge"
    if not base.is_dir():
        return []
    return sorted(p for p in base.rglob("*") if (p.is_file() or p.is_symlink()) and p.name != ".gitkeep")


def _check_file(path: Path, root: Path, settings: redact.Settings, seen: dict[str, str], result: CheckResult) -> None:
    from smriti.team import gate, redact

    try:
        shown = str(path.relative_to(root))
    except ValueError:
        shown = str(path)
    result.files += 1
    if path.is_symlink():
        result.add(shown, None, "symlink", "knowledge files must be regular files, not symlinks")
        return
    if path.suffix != ".md":
        if path.name.startswith(".smriti-") and path.suffix == ".tmp":
            result.add(
                shown,
                None,
                "not-markdown",
                "a temporary file of an interrupted `smriti share`: delete it "
                "(the next `smriti share` also removes it)",
            )
        else:
            result.add(shown, None, "not-markdown", "only .md knowledge files belong in .smriti/knowledge/")
        return
    unsafe = name_problem(path.name, _folders_under_knowledge(path))
    if unsafe is not None:
        result.add(shown, None, "unsafe-name", unsafe)
    if path.stat().st_size > knowledge.MAX_FILE_BYTES:
        result.add(shown, None, "too-large", f"over the {knowledge.MAX_FILE_BYTES // 1024} KB limit")
        return
    data = path.read_bytes()
    try:
        parsed = knowledge.parse_report(data, path=shown)
    except knowledge.KnowledgeError as exc:
        result.add(shown, exc.line, exc.rule, exc.message)
        return
    for w in parsed.warnings:
        result.warnings.append({"path": shown, "line": w.line, "rule": w.rule, "message": w.message})
    item = parsed.item
    if item.id in seen:
        m = _ID_LINE.search(data)
        line = data[: m.start()].count(b"\n") + 1 if m else None
        result.add(shown, line, "duplicate-id", f"id {item.id} is also used by {seen[item.id]}")
    else:
        seen[item.id] = shown
    text = data.decode("utf-8", "replace")
    # One problem per leaked thing: what the redactor reports (or a person allowed) the gate does not repeat.
    first = redact.redact(text, settings)
    covered = [text[f.start : f.end] for f in (*first.findings, *first.allowed)]
    for refusal in gate.inspect(text, settings.allow, exempt=covered):
        result.add(
            shown,
            refusal.line,
            f"secret:gate-{refusal.reason}",
            f"the secret gate refuses a {refusal.reason}"
            + (f" (in its {refusal.view} form)" if refusal.view else "")
            + f"; remove it, or if it is not a secret add its fingerprint {refusal.fingerprint} to [redact] allow "
            "in .smriti/config.toml",
        )
    for finding in redact.scan(text, settings):
        if finding.is_error:
            result.add(shown, finding.line, "scan-error", finding.describe())
        else:
            result.add(
                shown,
                finding.line,
                f"secret:{finding.kind}",
                f"looks like {_with_article(finding.kind)} ({finding.rule}); remove it, or if it is not a secret "
                f"add its fingerprint {finding.fingerprint} to [redact] allow in .smriti/config.toml",
            )


def _with_article(kind: str) -> str:
    """`an aws-key`, `a github-token`: by the sound (`u` as in url, `npm` spelled out as en-pee-em)."""
    return f"{'an' if kind[:1] in ('a', 'e', 'i', 'o') or kind.startswith(('npm', 'xai')) else 'a'} {kind}"
