"""Typed, user-readable errors. The CLI turns any SmritiError into a message and exit 1."""


class SmritiError(Exception):
    """Base of every error smriti reports to a user (never with a traceback)."""


class NotFound(SmritiError):
    pass


class InvalidInput(SmritiError):
    pass


class ConfigError(SmritiError):
    pass


class StoreError(SmritiError):
    pass
