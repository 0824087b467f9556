"""The `smriti` command's launcher: bin/smriti beside pip's generated console-script launcher (which
imports `re`), each running a disabled prompt hook (SMRITI_DISABLE=1: start, dispatch, exit), and
`python -c pass`, interleaved (the machine may be shared: compare the ratios within one run).

    python benchmarks/bench_launcher.py --rounds 60
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# What pip writes for a [project.scripts] entry (pip 23-25), pointed at smriti.console:main.
PIP_LAUNCHER = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from smriti.console import main
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(main())
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=60)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="smriti-bench-launcher-"))
    pip_launcher = work / "smriti-pip"
    pip_launcher.write_text(PIP_LAUNCHER.format(python=sys.executable))
    ours = work / "smriti"
    ours.write_text((REPO / "bin" / "smriti").read_text().replace("#!python", f"#!{sys.executable}", 1))
    for p in (pip_launcher, ours):
        p.chmod(0o755)
    env = {**os.environ, "SMRITI_DISABLE": "1", "SMRITI_HOME": str(work / "data")}
    hook = ["hook", "claude-code", "UserPromptSubmit"]
    runs = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "pip's launcher (import re)": [str(pip_launcher), *hook],
        "bin/smriti": [str(ours), *hook],
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, cmd in runs.items():
            t = time.perf_counter()
            subprocess.run(cmd, input=b'{"prompt": "hello", "session_id": "s"}', env=env, capture_output=True)
            times[name].append((time.perf_counter() - t) * 1000)
    base = statistics.median(times["python -c pass"])
    print(f"# launcher, disabled prompt hook — load average {os.getloadavg()[0]:.1f}; {args.rounds} rounds, p50\n")
    print("| process | p50 ms | x python -c pass |")
    print("|---|---|---|")
    for name, ts in times.items():
        print(f"| {name} | {statistics.median(ts):.1f} | {statistics.median(ts) / base:.2f}x |")


if __name__ == "__main__":
    main()
