"""The ``mahjong`` library's side of ``bench_judge_cli.py``: the same JSON-lines contract as
``python -m rules judge`` for ``kind: ting`` (one answer line per input line, flushed as our
judge flushes), with the waits from ``Agari.is_agari`` tried on each of the 34 kinds (how the
library is used for waits). Run as a whole process, like ours:
``python bench/judge_cli_mahjong.py FILE``.
"""

from __future__ import annotations

import json
import sys

from mahjong.agari import Agari
from mahjong.tile import TilesConverter

NAMES = [f"{d}{s}" for s in "mps" for d in range(1, 10)] + [f"{d}z" for d in range(1, 8)]


def waits_of(hand: str) -> list[str]:
    counts = TilesConverter.one_line_string_to_34_array(hand)
    waits = []
    for t in range(34):
        if counts[t] >= 4:
            continue
        counts[t] += 1
        if Agari.is_agari(counts):
            waits.append(NAMES[t])
        counts[t] -= 1
    return waits


def main(path: str) -> None:
    out = sys.stdout
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            try:
                case = json.loads(line)
                waits = waits_of(case["hand"])
                answer = {"id": case.get("id"), "waits": waits, "ting_allowed": bool(waits)}
            except Exception as exc:  # the same contract: an error line, never a crash
                answer = {"id": None, "error": str(exc)}
            out.write(json.dumps(answer, ensure_ascii=False) + "\n")
            out.flush()


if __name__ == "__main__":
    main(sys.argv[1])
