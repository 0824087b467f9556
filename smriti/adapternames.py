"""The built-in adapters' names, as pyproject.toml registers them (tests/test_plugins.py checks that
they agree): the CLI accepts `--agent` values on its read paths without importing any adapter.

A module of their own, outside the adapters package: `smriti search --agent codex` checks the name
without importing `smriti.adapters` (its registry's dataclasses, pathlib, the models), a third of
a search process. `smriti.adapters` re-exports it.
"""

BUILTIN_NAMES = frozenset(
    (
        "aider",
        "amp",
        "claude-code",
        "cline",
        "codex",
        "continue",
        "copilot",
        "copilot-cli",
        "cursor",
        "droid",
        "gemini",
        "generic",
        "opencode",
        "pi",
        "roo",
        "windsurf",
    )
)
