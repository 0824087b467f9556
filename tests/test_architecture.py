"""The import rules of the layout, read from the source with `ast` (nothing is imported or run).

- SQL lives in smriti/store/ only: no other module of the package imports apsw or sqlite3, or
  holds a string that reads as SQL.
- click is the CLI's: only smriti/cli.py imports it.
- Adapters are pure (file in, models out): they import the standard library, third-party
  packages, smriti.models and each other, never the store, the index or the CLI.
- The prompt hook's lean modules import, at module top, only what they import today (the
  hook's start-up time is the sum of them), and never json, re, click, frontmatter, dataclasses
  or pathlib.
- Every `smriti.…` import names a module that exists, and a name that module defines (stale
  names after a move fail here, not in the one command that imports them lazily).

Each rule is a function of (module name, source) so that the tests at the bottom can show it
failing on a small made-up source.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# ---------------------------------------------------------------------------------------------
# The modules: smriti/ as `smriti.*` and adapters/ as `smriti.adapters.*` (its name when installed)


def _module_files() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for folder, package in ((ROOT / "smriti", "smriti"), (ROOT / "adapters", "smriti.adapters")):
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([package, *parts])] = path
    return out


MODULES = _module_files()


def _is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def _source(module: str) -> str:
    return MODULES[module].read_text(encoding="utf-8")


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


# ---------------------------------------------------------------------------------------------
# Reading imports and strings


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ImportFrom names (relative imports resolved against `module`)."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run when the module is imported: the body, and the bodies of its
    top-level if/try/with blocks (not functions or classes, not `if TYPE_CHECKING:`)."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            if not _is_type_checking(node):
                yield from _top_level(node.body)
            yield from _top_level(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from _top_level(block)
        elif isinstance(node, ast.With):
            yield from _top_level(node.body)


def _imports(module: str, tree: ast.Module, *, top_only: bool = False) -> Iterator[tuple[str, str | None, int]]:
    """(module, name or None, line) of every import: `import a.b` gives ("a.b", None);
    `from a import b` gives ("a", "b")."""
    is_package = module in MODULES and _is_package(module)
    nodes = _top_level(tree.body) if top_only else ast.walk(tree)
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(module, is_package, node)
            for alias in node.names:
                yield target, alias.name, node.lineno


def _roots(imports: Iterator[tuple[str, str | None, int]]) -> Iterator[tuple[str, int]]:
    for target, _, line in imports:
        yield target.split(".")[0], line


_SQL = re.compile(
    r"\bselect\b[\s\S]+?\bfrom\s+[\w{]|\binsert\s+(?:or\s+\w+\s+)?into\s+[\w{]|\bupdate\s+[\w{}]+\s+set\b"
    r"|\bdelete\s+from\s+[\w{]|\bcreate\s+(?:temp\s+|unique\s+|virtual\s+)?(?:table|index|trigger|view)\b",
    re.IGNORECASE,
)


def _strings(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """Every string literal but docstrings (prose about what a query does is no query); an
    f-string is read with `{}` where its values go."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    in_fstring = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                in_fstring.add(id(value))
                parts.append(value.value if isinstance(value, ast.Constant) else "{}")
            yield "".join(str(p) for p in parts), node.lineno
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and id(node) not in in_fstring
        ):
            yield node.value, node.lineno


# ---------------------------------------------------------------------------------------------
# The rules: each returns the violations it finds in one module's source


def sql_outside_store(module: str, source: str) -> list[str]:
    """apsw, sqlite3 or a SQL string in a smriti module outside smriti.store. The adapters are
    exempt from sqlite3 and SQL (they read other agents' databases, read-only), never from apsw."""
    if _in(module, "smriti.store"):
        return []
    tree = ast.parse(source)
    adapter = _in(module, "smriti.adapters")
    drivers = {"apsw"} if adapter else {"apsw", "sqlite3"}
    out = [f"{module}:{line} imports {root}" for root, line in _roots(_imports(module, tree)) if root in drivers]
    if not adapter:
        out += [f"{module}:{line} holds SQL {text[:60]!r}" for text, line in _strings(tree) if _SQL.search(text)]
    return out


def click_outside_cli(module: str, source: str) -> list[str]:
    if module == "smriti.cli":
        return []
    tree = ast.parse(source)
    return [f"{module}:{line} imports click" for root, line in _roots(_imports(module, tree)) if root == "click"]


ADAPTER_MAY_IMPORT = ("smriti.models", "smriti.adapters", "smriti.adapternames")


def adapter_imports(module: str, source: str) -> list[str]:
    """What an adapter may import of smriti: the models and the other adapters; and never apsw."""
    if not _in(module, "smriti.adapters"):
        return []
    out = []
    for target, name, line in _imports(module, ast.parse(source)):
        full = f"{target}.{name}" if target == "smriti" and name else target
        if full.split(".")[0] in ("apsw", "adapters") or (
            _in(full, "smriti") and not any(_in(full, allowed) for allowed in ADAPTER_MAY_IMPORT)
        ):
            out.append(f"{module}:{line} imports {full}")
    return out


# The prompt hook's path: smriti.console dispatches `smriti hook …` to smriti.hooks.run before
# click or anything heavy loads; these modules (and the packages around them) are all it imports
# at module top. What each imports there is frozen here: adding an import to the hook's start-up
# is a decision to make on purpose (measure it with benchmarks/bench_hooks.py), not by accident.
LEAN_MODULES = (
    "smriti",
    "smriti.console",
    "smriti.hooks",
    "smriti.hooks.run",
    "smriti.hooks.protocol",
    "smriti.paths",  # where the data lives: os only at module top (the hooks use its string functions)
    "smriti.hooks.leanjson",
    "smriti.hooks.log",
    "smriti.hooks.server",
    "smriti.hooks.detach",
)
# (_json: leanjson's C scanner and encoder, the `json` package's own accelerator without its imports.)
LEAN_MAY_IMPORT = frozenset({"__future__", "os", "sys", "time", "_json", "_socket", *LEAN_MODULES})
NEVER_ON_THE_HOOK_PATH = frozenset({"json", "re", "click", "frontmatter", "dataclasses", "pathlib", "typing"})


def lean_imports(module: str, source: str) -> list[str]:
    if module not in LEAN_MODULES:
        return []
    out = []
    for target, name, line in _imports(module, ast.parse(source), top_only=True):
        # `from smriti.hooks import leanjson` imports the module smriti.hooks.leanjson
        full = f"{target}.{name}" if name and f"{target}.{name}" in MODULES else target
        if full.split(".")[0] in NEVER_ON_THE_HOOK_PATH:
            out.append(f"{module}:{line} imports {full} at module top, which the hook path never loads")
        elif full not in LEAN_MAY_IMPORT:
            out.append(f"{module}:{line} imports {full} at module top (the hook path allows {sorted(LEAN_MAY_IMPORT)})")
    return out


# `smriti search`'s lean path: smriti.console sends the usual search command lines to
# smriti.searchcmd, which answers them without click. What it loads (the smriti modules it imports,
# anywhere in it, and everything those import at module top) never imports click or frontmatter.
SEARCH_PATH_ROOT = "smriti.searchcmd"
NEVER_ON_THE_SEARCH_PATH = frozenset({"click", "frontmatter", "smriti.cli"})


def _module_of(target: str, name: str | None) -> str | None:
    """The smriti module an import loads: `from smriti.store import rows` loads smriti.store.rows."""
    if name and f"{target}.{name}" in MODULES:
        return f"{target}.{name}"
    return target if target in MODULES else None


def search_path(root: str = SEARCH_PATH_ROOT, sources: dict[str, str] | None = None) -> set[str]:
    """The modules of the lean search path: `root`, what it imports anywhere, and the closure of
    their module-top imports (with every package above each module)."""
    sources = sources or {}

    def source(module: str) -> str:
        return sources[module] if module in sources else _source(module)

    todo = [m for t, n, _ in _imports(root, ast.parse(source(root))) if (m := _module_of(t, n))]
    seen = {root}
    while todo:
        module = todo.pop()
        parts = module.split(".")
        for i in range(1, len(parts) + 1):
            name = ".".join(parts[:i])
            if name in seen or name not in MODULES:
                continue
            seen.add(name)
            tree = ast.parse(source(name))
            todo += [m for t, n, _ in _imports(name, tree, top_only=True) if (m := _module_of(t, n))]
    return seen


def search_path_imports(modules: set[str], sources: dict[str, str] | None = None) -> list[str]:
    sources = sources or {}
    out = [f"{m} is on the search path" for m in sorted(modules) if m in NEVER_ON_THE_SEARCH_PATH]
    for module in sorted(modules):
        tree = ast.parse(sources[module] if module in sources else _source(module))
        top = module == SEARCH_PATH_ROOT
        for target, _, line in _imports(module, tree, top_only=not top):
            if target.split(".")[0] in NEVER_ON_THE_SEARCH_PATH:
                out.append(f"{module}:{line} imports {target}, which the search path never loads")
    return out


def _defined_names(module: str) -> set[str] | None:
    """The names a module defines at top level (None: it has a module `__getattr__`, anything goes)."""
    tree = ast.parse(_source(module))
    names: set[str] = set()
    for node in _top_level(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == "__getattr__":
                return None
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    # `if TYPE_CHECKING:` names exist for the type checker only, but importing them under
    # TYPE_CHECKING elsewhere is fine: count them too.
    for guard in ast.walk(tree):
        if isinstance(guard, ast.If) and _is_type_checking(guard):
            for sub in guard.body:
                if isinstance(sub, (ast.Import, ast.ImportFrom)):
                    names.update((a.asname or a.name).split(".")[0] for a in sub.names)
    return names


def missing_smriti_imports(module: str, source: str) -> list[str]:
    """`import smriti.x` / `from smriti.x import y` where smriti.x is no module, or y is neither
    a submodule of it nor a name it defines."""
    out = []
    for target, name, line in _imports(module, ast.parse(source)):
        if not _in(target, "smriti"):
            continue
        if target not in MODULES:
            out.append(f"{module}:{line} imports {target}, which does not exist")
            continue
        if name is None or name == "*" or f"{target}.{name}" in MODULES:
            continue
        defined = _defined_names(target)
        if defined is not None and name not in defined:
            out.append(f"{module}:{line} imports {name} from {target}, which does not define it")
    return out


# ---------------------------------------------------------------------------------------------
# The rules over the tree


def _violations(rule: Callable[[str, str], list[str]], modules: Iterable[str]) -> list[str]:
    out: list[str] = []
    for module in modules:
        out += rule(module, _source(module))
    return out


def _scripts(folder: str) -> dict[str, str]:
    """Test and benchmark files as pseudo-modules (for the stale-import check only)."""
    return {
        f"_{folder}.{p.relative_to(ROOT / folder).with_suffix('').as_posix().replace('/', '.')}": p.read_text("utf-8")
        for p in sorted((ROOT / folder).rglob("*.py"))
    }


def test_the_tree_is_what_the_rules_read() -> None:
    assert "smriti.store" in MODULES and "smriti.adapters.claude_code" in MODULES
    assert all(m in MODULES for m in LEAN_MODULES)


def test_sql_lives_in_the_store_only() -> None:
    assert _violations(sql_outside_store, MODULES) == []
    # and the rule sees the store's own queries for what they are
    store_sql = [
        s for m in MODULES if _in(m, "smriti.store") for s, _ in _strings(ast.parse(_source(m))) if _SQL.search(s)
    ]
    assert len(store_sql) > 50


def test_click_is_the_clis_only() -> None:
    assert _violations(click_outside_cli, MODULES) == []


def test_the_cli_prints_text_through_say_only() -> None:
    """Text for a person goes through `cli.say`, which drops control characters from what came
    from outside (issue 15); `click.echo` is called by `say` and by `emit_json` (data) only."""
    tree = ast.parse((ROOT / "smriti" / "cli.py").read_text())
    callers = [
        fn.name
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef)
        for node in ast.walk(fn)
        if isinstance(node, ast.Call) and ast.unparse(node.func) in ("click.echo", "click.secho", "print")
    ]
    assert sorted(callers) == ["emit_json", "say"], callers


def test_adapters_import_models_and_each_other_only() -> None:
    assert _violations(adapter_imports, MODULES) == []


def test_the_hook_path_imports_only_its_lean_modules() -> None:
    assert _violations(lean_imports, MODULES) == []


def test_the_search_path_loads_neither_click_nor_frontmatter() -> None:
    modules = search_path()
    assert {"smriti.app", "smriti.search", "smriti.store", "smriti.index", "smriti.untrusted"} <= modules
    assert search_path_imports(modules) == []


def test_search_path_rule_catches() -> None:
    made_up = {SEARCH_PATH_ROOT: "def run():\n    from smriti.cli import cli\n"}
    assert search_path_imports(search_path(sources=made_up), made_up)
    made_up = {SEARCH_PATH_ROOT: "def run():\n    import smriti.untrusted\n", "smriti.untrusted": "import click\n"}
    assert search_path_imports(search_path(sources=made_up), made_up)
    made_up = {SEARCH_PATH_ROOT: "def run():\n    import click\n"}
    assert search_path_imports(search_path(sources=made_up), made_up)


def test_every_smriti_import_names_something_that_exists() -> None:
    assert _violations(missing_smriti_imports, MODULES) == []
    stale = []
    for folder in ("tests", "benchmarks"):
        for name, source in _scripts(folder).items():
            stale += missing_smriti_imports(name, source)
    assert stale == []


def test_entry_points_name_modules_and_objects_that_exist() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    targets = [*project.get("scripts", {}).values()]
    for group in project.get("entry-points", {}).values():
        targets += group.values()
    assert targets
    for target in targets:
        module, _, attr = target.partition(":")
        assert module in MODULES, target
        defined = _defined_names(module)
        assert defined is None or attr.split(".")[0] in defined, target


# ---------------------------------------------------------------------------------------------
# Each rule fails when it should (on made-up sources)


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("smriti.recall", "import apsw\n"),
        ("smriti.team.sync", "def f():\n    import sqlite3\n"),
        ("smriti.status", "Q = 'select count(*) from sessions'\n"),
        ("smriti.status", "def f(t):\n    return f'SELECT id FROM {t} where x = 1'\n"),
        ("smriti.index", "Q = ('insert or replace into outbox (op, ref) '\n     'values (?, ?)')\n"),
        ("smriti.search", "Q = 'update sessions set category = ?'\n"),
        ("smriti.maintenance", "Q = 'delete from blobs'\n"),
        ("smriti.ingest", "Q = '''\n  create table t (id integer)\n'''\n"),
        ("smriti.adapters.cursor", "import apsw\n"),
    ],
)
def test_sql_rule_catches(module: str, source: str) -> None:
    assert sql_outside_store(module, source)


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("smriti.store.sessions", "import apsw\nQ = 'select id from sessions'\n"),
        ("smriti.recall", '"""Select the sessions from the store that match."""\n'),
        ("smriti.recall", "def f():\n    '''delete from the list the ones we saw'''\n"),
        ("smriti.recall", "HELP = 'select one of: a, b'\n"),
        ("smriti.adapters.opencode", "import sqlite3\nQ = 'select * from session'\n"),
    ],
)
def test_sql_rule_allows(module: str, source: str) -> None:
    assert sql_outside_store(module, source) == []


def test_click_rule() -> None:
    assert click_outside_cli("smriti.status", "def render():\n    import click\n")
    assert click_outside_cli("smriti.hooks.run", "from click import echo\n")
    assert click_outside_cli("smriti.cli", "import click\n") == []


@pytest.mark.parametrize(
    "source",
    [
        "from smriti.store import Store\n",
        "import smriti.index\n",
        "from smriti import cli\n",
        "from smriti.errors import SmritiError\n",
        "from ..store import Store\n",
        "import apsw\n",
        "from adapters import _common\n",
    ],
)
def test_adapter_rule_catches(source: str) -> None:
    assert adapter_imports("smriti.adapters.codex", source)


def test_adapter_rule_allows() -> None:
    source = (
        "import json\nimport sqlite3\nimport zstandard\nfrom smriti.models import Message, Session\n"
        "from smriti.adapters._common import connect_read_only\nfrom . import _jsonl\n"
        "from ._common import table_names\nfrom smriti import models\n"
    )
    assert adapter_imports("smriti.adapters.codex", source) == []
    assert adapter_imports("smriti.index", "from smriti.store import Store\n") == []


@pytest.mark.parametrize(
    "source",
    [
        "import json\n",
        "import re\n",
        "from pathlib import Path\n",
        "from dataclasses import dataclass\n",
        "import frontmatter\n",
        "from smriti.hooks import recall\n",
        "from smriti.store import Store\n",
        "import zlib\n",
        "try:\n    import json\nexcept ImportError:\n    pass\n",
        "if sys.version_info >= (3, 12):\n    import re\n",
    ],
)
def test_lean_rule_catches(source: str) -> None:
    assert lean_imports("smriti.hooks.run", source)


def test_lean_rule_allows() -> None:
    source = (
        "from __future__ import annotations\nimport os\nimport sys\nfrom smriti.hooks import leanjson, protocol\n"
        "from smriti.hooks.protocol import PROMPT\nTYPE_CHECKING = False\nif TYPE_CHECKING:\n"
        "    from pathlib import Path\n"
        "def main():\n    import json\n    from smriti.hooks.recall import answer_once\n"
    )
    assert lean_imports("smriti.hooks.run", source) == []
    assert lean_imports("smriti.recall", "import json\nimport re\n") == []


@pytest.mark.parametrize(
    "source",
    [
        "import smriti.teamconfig\n",
        "from smriti.gitrepo import GitRepo\n",
        "from smriti.store import NoSuchRow\n",
        "from smriti.hooks import hookio\n",
        "def f():\n    from smriti.enrich import apply\n",
        "from .nope import x\n",
    ],
)
def test_stale_import_rule_catches(source: str) -> None:
    assert missing_smriti_imports("smriti.team.sync", source)


def test_stale_import_rule_allows() -> None:
    source = (
        "import smriti.store\nfrom smriti.store import Store, SessionRow\nfrom smriti.hooks import leanjson\n"
        "from smriti.team.config import load_team_config\nfrom . import share\nfrom ..store import Store\n"
        "import json\nfrom typing import Any\n"
    )
    assert missing_smriti_imports("smriti.team.sync", source) == []
