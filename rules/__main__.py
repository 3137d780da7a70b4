"""``python -m rules``: the judge, the simulator and the fairness check (``judge.md``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse


def build_parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m rules",
        description="Queyou rules engine: judge hands, simulate rounds, verify a revealed wall.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    judge = commands.add_parser(
        "judge",
        help="check and score hands given as JSON lines (see judge.md)",
        description=(
            "Read JSON-lines cases from FILE (or standard input when FILE is absent or '-') and "
            "write one JSON answer line per input line, in order. A bad line gets "
            '{"id": ..., "error": "..."}; the other lines are still judged.'
        ),
    )
    judge.add_argument("file", nargs="?", default="-", metavar="FILE")

    simulate = commands.add_parser(
        "simulate",
        help="play whole rounds with random bots and check the invariants",
        description=(
            "Play N rounds of a variant with four bots that always take a legal win and otherwise "
            "choose uniformly among their legal actions; check tile conservation and zero-sum "
            "payments after each round. The last line is a JSON summary."
        ),
    )
    simulate.add_argument("--variant", default="changchun")
    simulate.add_argument("--rounds", type=int, default=100)
    simulate.add_argument("--seed", default="0", help="any string; same seed, same result")
    simulate.add_argument(
        "--replay-every",
        type=int,
        default=1,
        metavar="N",
        help="replay every N-th round from its seed to check it reproduces (1: every round, the "
        "default; 0: none)",
    )

    arena = commands.add_parser(
        "arena",
        help="bots against bots, duplicate format (same walls, seats rotated)",
        description=(
            "Play N deals of a variant, each once per distinct rotation of the four bots over the "
            "seats (so every bot plays the same walls from every seat), and report per bot its "
            "points per round with a 95%% interval, win rate, deal-in rate and decision times. "
            "Levels: basic (the old bot), easy, normal, hard. One JSON line per bot, then a "
            "summary line."
        ),
    )
    arena.add_argument("--variant", default="changchun")
    arena.add_argument("--bots", default="hard,basic,hard,basic", help="four levels, seats 0-3")
    arena.add_argument("--rounds", type=int, default=100, help="deals (duplicate rounds)")
    arena.add_argument("--seed", default="0", help="any string; same seed, same result")
    arena.add_argument(
        "--every", type=int, default=0, help="also report after every N deals (partial lines)"
    )

    verify = commands.add_parser(
        "verify",
        help="check a revealed round against its published commitment",
        description=(
            "Read a JSON object {commitment, salt, wall} from FILE (or standard input) and check "
            "that sha256(salt || canonical wall) equals the commitment published at the deal."
        ),
    )
    verify.add_argument("file", nargs="?", default="-", metavar="FILE")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    if _plain_judge(given):
        # ``judge`` or ``judge FILE``, nothing argparse would read otherwise: judged without
        # importing argparse and building every command's parser (a tenth of the judge's
        # start-up, which a program running it once per question pays every time).
        from rules.judge import judge_main

        return judge_main(given[1] if len(given) == 2 else "-")
    args = build_parser().parse_args(given)
    if args.command == "judge":
        from rules.judge import judge_main

        return judge_main(args.file)
    if args.command == "simulate":
        from rules.simulate import simulate_main

        return simulate_main(
            variant=args.variant,
            rounds=args.rounds,
            seed=args.seed,
            replay_every=args.replay_every,
        )
    if args.command == "arena":
        from rules.arena import arena_main

        return arena_main(
            variant=args.variant,
            bots=args.bots,
            rounds=args.rounds,
            seed=args.seed,
            every=args.every,
        )
    from rules.wall import verify_main

    return verify_main(args.file)


def _plain_judge(argv: Sequence[str]) -> bool:
    """``judge`` alone or with one FILE that argparse takes as it is (not an option: no
    leading ``-``, except ``-`` itself for standard input)."""
    return (
        1 <= len(argv) <= 2
        and argv[0] == "judge"
        and (len(argv) == 1 or argv[1] == "-" or not argv[1].startswith("-"))
    )


if __name__ == "__main__":
    sys.exit(main())
