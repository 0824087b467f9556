"""Write smriti/data/general_words.txt: the words any programming conversation is full of.

    pip install wordfreq                  # only to run this script (it is not a dependency of smriti)
    python scripts/gen_general_words.py   # rewrite the file

Recall's floor (smriti.recall) must tell a prompt the store answers from a general question whose
words a big store of coding sessions holds somewhere anyway ("how do I profile memory usage of a
python script"). The store's own frequencies cannot tell them apart: a team's sessions repeat
their own vocabulary ("gunicorn", "loki", "testflight") as often as the general one ("python",
"memory", "function"). So this list comes from outside the store. A word is general when
- it is in at least PROGRAMMING_SHARE of the windows of WINDOW lines of the Python standard
  library's source (code, docstrings, comments and tests; site-packages left out), or
- it is among the most common words of English: wordfreq's Zipf frequency at least ENGLISH_ZIPF
  (summed over the forms that analyze to it: "day", "ask", "team", "build").
Words are written as smriti's index analyzes them (lowercase, English stop words out, English
stemmer), one a line, sorted. A one-letter word is always general and is not listed. The header
records the Python and wordfreq versions the file was built from.
"""

from __future__ import annotations

import math
import sys
import sysconfig
from collections import Counter
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

from wordfreq import top_n_list, zipf_frequency

from smriti.index import _analyzer

REPO = Path(__file__).resolve().parent.parent
OUTPUT = REPO / "smriti" / "data" / "general_words.txt"
WINDOW = 50
PROGRAMMING_SHARE = 0.01  # a word in 1 of 100 windows of the standard library
ENGLISH_ZIPF = 5.5  # about 1 in 3,000 words of English text
ENGLISH_TOP = 50_000  # wordfreq's most common words looked at


def windows(root: Path) -> Iterator[str]:
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).parts
        if rel and (rel[0] in ("site-packages", "dist-packages") or rel[0].startswith("config-")):
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for start in range(0, len(lines), WINDOW):
            yield "\n".join(lines[start : start + WINDOW])


def main() -> None:
    analyzer = _analyzer()
    df: Counter[str] = Counter()
    n = 0
    for text in windows(Path(sysconfig.get_paths()["stdlib"])):
        n += 1
        df.update(set(analyzer.analyze(text)))
    general = {w for w, c in df.items() if c / n >= PROGRAMMING_SHARE}
    english: dict[str, float] = {}
    for word in top_n_list("en", ENGLISH_TOP):
        toks = analyzer.analyze(word)
        if len(toks) == 1:
            english[toks[0]] = english.get(toks[0], 0.0) + 10 ** zipf_frequency(word, "en")
    general |= {w for w, f in english.items() if math.log10(f) >= ENGLISH_ZIPF}
    general = {w for w in general if len(w) > 1 and not w.isdigit()}
    py = ".".join(map(str, sys.version_info[:3]))
    lines = [
        "# Words any programming conversation is full of, as smriti's index analyzes them. Written by",
        "# scripts/gen_general_words.py (do not edit by hand): a word in at least 1 of 100 windows of 50",
        f"# lines of the Python {py} standard library, or with a Zipf frequency of at least {ENGLISH_ZIPF} in",
        f"# English (wordfreq {version('wordfreq')}). Read by smriti.recall: a passage holding only such",
        "# words is no evidence that a big store answers a prompt.",
    ]
    OUTPUT.write_text("\n".join(lines + sorted(general)) + "\n", encoding="utf-8")
    print(f"{OUTPUT}: {len(general)} words ({n} windows)")


if __name__ == "__main__":
    main()
