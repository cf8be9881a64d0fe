"""Where the renders bench's time goes: its sample drawn exactly as ``python -m bench renders``
draws it (as a render worker: its budgets, the warm-up game, its garbage collector, then the 30
turn ends in order, table then mat), for profilers.

``python -m bench.render_profile --cprofile``: cProfile over the sample's table images (sorted by
internal time). For instruction counts (which the machine's load does not change), callgrind
collecting inside the sample's table images only — each is drawn through ``operator.call``,
which nothing else calls:

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=_operator_call \
        python -m bench.render_profile

(the total over 30 is one turn end's table image; ``--mark mat``: the actor's mat instead). The
mats are drawn between them as the bench draws them (they share caches); ``--no-sample`` stops
after the warm-up, ``--no-mats`` leaves the mats out. ``--ends completing`` marks only the turn
ends in which the actor completed a puzzle (the slowest kind: the puzzle leaves their panel, a
reward piece joins their supply, and often a new card comes into the market), ``--ends other``
only the rest; the count of marked images is printed, to divide the total by. Every image is
drawn either way, so the caches are the same.

``--passes N``: the warm-up and the sample N times, each pass after the first from emptied
drawing caches (:func:`renders.cache.clear_all`), printing each pass's median wall and CPU time
per table image. One pass's median moves by some 5 % from run to run on a shared machine; to
compare two versions of the code, run this in both checkouts in turn, several times, and compare
the medians of the passes' medians (the profiling notes: `git show c8a416e:docs/benchmarks.md`)."""

from __future__ import annotations

import argparse
import cProfile
import operator
import pstats
import statistics
import time
from collections.abc import Callable, Sequence

from engine import Options
from renders import render_mat, render_table
from renders.cache import clear_all
from renders.samples import names_for, play

from .renders import SEED, STATES, TurnEnd, after_image, as_a_render_worker, turn_ends


def _call(function: Callable[..., bytes], *args: object) -> bytes:
    return function(*args)


def _completing(end: TurnEnd) -> bool:
    """Whether the actor completed a puzzle in the turn that ``end`` closes (the previous post's
    state is where the turn started)."""
    if end.previous is None:
        return False
    return len(end.state.players[end.actor].completed) > len(end.previous.players[end.actor].completed)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.render_profile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-sample", action="store_true", help="the setup only (callgrind's baseline)")
    parser.add_argument("--no-mats", action="store_true", help="the sample's tables without its mats")
    parser.add_argument("--cprofile", action="store_true", help="cProfile the sample's tables")
    parser.add_argument("--rows", type=int, default=40, help="cProfile rows printed")
    parser.add_argument("--mark", choices=("table", "mat"), default="table",
                        help="the image drawn through operator.call (callgrind's toggle)")
    parser.add_argument("--ends", choices=("all", "completing", "other"), default="all",
                        help="which turn ends' images are marked (completing: a puzzle completed)")
    parser.add_argument("--passes", type=int, default=1,
                        help="the warm-up and the sample this many times (emptied caches between)")
    args = parser.parse_args(argv)
    states = list(play(Options(players=4), SEED))
    ends = turn_ends(states)
    first = max(0, len(ends) // 2 - STATES // 2)
    sample = ends[first : first + STATES]
    names = names_for(sample[0].state)
    render_table(states[0], names)
    profile = cProfile.Profile() if args.cprofile else None
    marked = 0
    times: list[float] = []
    sizes: list[int] = []
    medians: list[float] = []
    for done in range(args.passes):
        if done:
            clear_all()
        with as_a_render_worker():
            if args.no_sample:
                return 0
            times, cpu, sizes, marked = [], [], [], 0
            for end in sample:
                start, start_cpu = time.perf_counter(), time.process_time()
                if profile is not None:
                    profile.enable()
                chosen = args.ends == "all" or (args.ends == "completing") == _completing(end)
                marked += chosen
                table = operator.call if args.mark == "table" and chosen else _call
                data = table(render_table, end.state, names, end.previous)
                if profile is not None:
                    profile.disable()
                times.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
                sizes.append(len(data))
                after_image()  # as a worker does once its image is written back, untimed
                if not args.no_mats:
                    mat = operator.call if args.mark == "mat" and chosen else _call
                    mat(render_mat, end.state, end.actor, names, end.actor)
                    after_image()
            medians.append(statistics.median(times))
            if args.passes > 1:
                print(f"pass {done + 1}: table median {medians[-1]:.3f} ms wall,"
                      f" {statistics.median(cpu):.3f} ms CPU")
    if args.passes > 1:
        print(f"table: median of the {args.passes} passes' medians {statistics.median(medians):.3f} ms")
    print(f"table: median {statistics.median(times):.2f} ms, largest PNG {max(sizes) / 1024:.1f} KB,"
          f" all {sum(sizes)} bytes; {marked} turn ends marked ({args.ends})")
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
