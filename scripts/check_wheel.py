"""Import every module of the source tree from the installed wheel (run outside the checkout).

setuptools' explicit `packages` list silently drops a new subpackage from the wheel while the
editable install keeps working, so CI imports everything from the wheel to catch it.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
from pathlib import Path


def source_modules(repo: Path) -> list[str]:
    mods = []
    for pkg_dir, pkg_name in ((repo / "smriti", "smriti"), (repo / "adapters", "smriti.adapters")):
        for path in sorted(pkg_dir.rglob("*.py")):
            rel = path.relative_to(pkg_dir).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            if rel.name == "__main__":
                continue
            mods.append(".".join([pkg_name, *parts]))
    return mods


def main() -> int:
    repo = Path(sys.argv[1]).resolve()
    assert not any(Path(p).resolve() == repo for p in sys.path if p), "run this outside the checkout"
    failures = []
    for name in source_modules(repo):
        try:
            mod = importlib.import_module(name)
        except Exception as exc:
            failures.append(f"{name}: {type(exc).__name__}: {exc}")
            continue
        if repo in Path(mod.__file__ or "").resolve().parents:
            failures.append(f"{name} was imported from the source tree, not the wheel")
    files = importlib.metadata.files("smriti") or []
    top_level_adapters = [str(f) for f in files if str(f).startswith("adapters/")]
    if top_level_adapters:
        failures.append(f"the wheel ships a top-level 'adapters' package: {top_level_adapters[:3]}")
    # Package data (the built-in vocabularies) is listed apart from modules: a missing glob drops it.
    shipped = {str(f) for f in files}
    for data_file in sorted([*(repo / "smriti").glob("data/*"), *(repo / "smriti").glob("*/data/*")]):
        rel = data_file.relative_to(repo).as_posix()
        if rel not in shipped:
            failures.append(f"the wheel lacks the data file {rel}")
    for line in failures:
        print("wheel check failed:", line, file=sys.stderr)
    print(f"imported {len(source_modules(repo))} modules from the wheel")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
