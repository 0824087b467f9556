"""The user's data directory for smriti without importing platformdirs.

Importing platformdirs costs a process ~20 ms (it pulls pathlib, tempfile, shutil and more), which
every command and every hook would pay before doing anything. The answer in the ordinary
environments is simple, so it is computed here with `os` alone; whenever the environment holds
anything this does not decide with certainty (a relative HOME or XDG_DATA_HOME, Windows, another
platform), `None` sends the caller to platformdirs itself, so smriti's data never moves because of
this shortcut. tests/test_datadir.py holds the two equal over many environments, against the
installed platformdirs' own Unix and macOS classes.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: the prompt hook imports this module
if TYPE_CHECKING:
    from collections.abc import Mapping

APP = "smriti"


def lean_user_data_dir(environ: Mapping[str, str] | None = None, platform: str | None = None) -> str | None:
    """platformdirs' `user_data_dir("smriti", appauthor=False)` where it is certain, else None."""
    env = os.environ if environ is None else environ
    plat = sys.platform if platform is None else platform
    home = env.get("HOME", "")
    if not home.startswith("/") or home != home.strip():
        return None  # no or relative HOME: platformdirs' own fallbacks (pwd) decide
    xdg = env.get("XDG_DATA_HOME", "")
    if xdg and (not xdg.startswith("/") or xdg != xdg.strip()):
        return None  # set but relative or padded: platformdirs versions disagree on those
    # As platformdirs builds them: os.path.expanduser's "~" (HOME without trailing slashes), then
    # os.path.join with the app's name; no normalisation.
    if plat.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        base = xdg or home.rstrip("/") + "/.local/share"
    elif plat == "darwin":
        if xdg:
            return None  # platformdirs honours XDG_DATA_HOME on macOS from some 4.x on, not before
        base = home.rstrip("/") + "/Library/Application Support"
    else:
        return None
    return os.path.join(base, APP)


def user_data_dir() -> str:
    """The data directory when SMRITI_HOME does not name one, as platformdirs would give it."""
    lean = lean_user_data_dir()
    if lean is not None:
        return lean
    from platformdirs import user_data_dir as full

    return full(APP, appauthor=False)
