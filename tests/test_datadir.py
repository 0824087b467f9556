"""smriti's lean data-dir resolver gives platformdirs' answer wherever it gives one at all."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from platformdirs.macos import MacOS
from platformdirs.unix import Unix

from smriti.datadir import lean_user_data_dir

PLATFORMS = {"linux": Unix, "darwin": MacOS}

paths = st.one_of(
    st.sampled_from(["", "/", "/home/ada", "/home/ada/", "//srv//x/", "relative/dir", " /padded", "/a b/c", "~"]),
    st.text(alphabet="/ab. ~", max_size=12),
)


def platformdirs_answer(cls: type, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> str:
    for name in ("HOME", "XDG_DATA_HOME"):
        if name in env:
            monkeypatch.setenv(name, env[name])
        else:
            monkeypatch.delenv(name, raising=False)
    return str(cls("smriti", appauthor=False).user_data_dir)


@settings(max_examples=300, deadline=None)
@given(home=paths, xdg=st.one_of(st.none(), paths), platform=st.sampled_from(sorted(PLATFORMS)))
def test_lean_answer_is_platformdirs_answer(home: str, xdg: str | None, platform: str) -> None:
    env = {"HOME": home} if xdg is None else {"HOME": home, "XDG_DATA_HOME": xdg}
    lean = lean_user_data_dir(env, platform)
    if lean is None:
        return  # platformdirs itself decides
    with pytest.MonkeyPatch.context() as mp:
        assert lean == platformdirs_answer(PLATFORMS[platform], env, mp)


@pytest.mark.parametrize(
    ("env", "platform", "expected"),
    [
        ({"HOME": "/home/ada"}, "linux", "/home/ada/.local/share/smriti"),
        ({"HOME": "/home/ada", "XDG_DATA_HOME": "/data"}, "linux", "/data/smriti"),
        ({"HOME": "/home/ada", "XDG_DATA_HOME": ""}, "linux", "/home/ada/.local/share/smriti"),
        ({"HOME": "/Users/ada"}, "darwin", "/Users/ada/Library/Application Support/smriti"),
    ],
)
def test_ordinary_environments_never_need_platformdirs(env: dict[str, str], platform: str, expected: str) -> None:
    assert lean_user_data_dir(env, platform) == expected


@pytest.mark.parametrize(
    ("env", "platform"),
    [
        ({"HOME": "relative"}, "linux"),
        ({}, "linux"),
        ({"HOME": "/home/ada", "XDG_DATA_HOME": "rel"}, "linux"),
        ({"HOME": "/Users/ada", "XDG_DATA_HOME": "/data"}, "darwin"),
        ({"HOME": "C:/Users/ada"}, "win32"),
    ],
)
def test_uncertain_environments_are_left_to_platformdirs(env: dict[str, str], platform: str) -> None:
    assert lean_user_data_dir(env, platform) is None


def test_commands_and_hooks_agree_without_smriti_home_and_skip_platformdirs(tmp_path: os.PathLike[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"SMRITI_HOME", "XDG_DATA_HOME"}}
    env["HOME"] = str(tmp_path)
    code = (
        "import sys; from smriti import paths; from smriti.hooks import protocol;"
        "print(paths.data_dir()); print(protocol.data_dir()); print('platformdirs' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    full, hook, imported = out.stdout.splitlines()
    expected = f"{tmp_path}/.local/share/smriti" if sys.platform.startswith("linux") else full
    assert full == hook == expected
    assert imported == "False"
