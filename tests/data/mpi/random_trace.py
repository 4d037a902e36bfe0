#!/usr/bin/python3
"""Writes a random time-independent MPI trace (one file, every rank's actions):

    random_trace.py SEED RANKS ITERATIONS OUT [small|large]

Each iteration every rank computes, then posts in a random order isends of 1 to 4 messages to
random other ranks and irecvs of the messages sent to it (tags 1-3, so a later message of another
tag often overtakes an earlier one under rendezvous sends), with computations sprinkled between,
and waits for all. `random8.ti` is `random_trace.py 16 8 30 random8.ti small`: the random stress
of issue 17 found hc3i hung (failure-free) and msglog lost and doubled deliveries (after failures)
on it, placed round-robin on two clusters. Standard library only."""
import random
import sys


def main():
    seed, ranks, iterations, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    large = len(sys.argv) > 5 and sys.argv[5] == "large"
    rnd = random.Random(seed)
    lines = [f"{r} init" for r in range(ranks)]
    for _ in range(iterations):
        msgs = []  # (src, dst, tag, size)
        for s in range(ranks):
            for d in [rnd.choice([x for x in range(ranks) if x != s]) for _ in range(rnd.randint(1, 4))]:
                size = rnd.choice([100, 1000, 100000]) if large else rnd.choice([100, 1000, 20000])
                msgs.append((s, d, rnd.choice([1, 2, 3]), size))
        for r in range(ranks):
            first = ("compute", rnd.choice([1e6, 1e6, 2e6]))
            items = [("isend", m) for m in msgs if m[0] == r] + [("irecv", m) for m in msgs if m[1] == r]
            rnd.shuffle(items)
            ops = []
            for item in items:
                ops.append(item)
                if rnd.random() < 0.3:
                    ops.append(("compute", rnd.choice([1e5, 5e5])))
            for op in [first] + ops:
                if op[0] == "compute":
                    lines.append(f"{r} compute {op[1]:g}")
                elif op[0] == "isend":
                    s, d, t, z = op[1]
                    lines.append(f"{r} isend {d} {t} {z}")
                else:
                    s, d, t, z = op[1]
                    lines.append(f"{r} irecv {s} {t} {z}")
            lines.append(f"{r} waitall")
    for r in range(ranks):
        lines.append(f"{r} finalize")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
