#!/usr/bin/env python3
"""Who held the CPU while the run's workers waited to run.

Reads `perf sched timehist` output (perf sched record -a, then timehist) and, for every
switch-in of a worker thread (pl-worker-N) that had waited runnable at least THRESHOLD ms
(its "sch delay": woken, not yet on a CPU), adds up which tasks ran on that CPU during the
wait. The wait is attributed to the CPU the worker finally ran on: a worker woken on one CPU
and pulled to another shows the second CPU's tasks, so read the figures as where the time
went, not as an exact causal chain.
   python3 bench/sched_blame.py TIMEHIST.txt [THRESHOLD_MS ...]
"""
import collections
import re
import sys

LINE = re.compile(r"\s*([\d.]+)\s+\[(\d+)\]\s+(.+?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$")


def parse(path):
    per_cpu = collections.defaultdict(list)  # cpu -> [(end_s, task, sch_delay_ms, run_ms)]
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            end, cpu, task, _wait, delay, run = m.groups()
            per_cpu[int(cpu)].append((float(end), task.strip(), float(delay), float(run)))
    return per_cpu


def blame(per_cpu, threshold_ms):
    held = collections.Counter()
    waits = []
    for rows in per_cpu.values():
        for i, (end, task, delay, run) in enumerate(rows):
            if not task.startswith("pl-worker") or delay < threshold_ms:
                continue
            waits.append(delay)
            wait_end = end - run / 1000
            wait_start = wait_end - delay / 1000
            for end2, task2, _d, run2 in rows[max(0, i - 400):i]:
                overlap = min(wait_end, end2) - max(wait_start, end2 - run2 / 1000)
                if overlap > 0:
                    held[re.sub(r"\[.*", "", task2)] += overlap * 1000
    return waits, held


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    per_cpu = parse(sys.argv[1])
    if not per_cpu:
        sys.exit(f"{sys.argv[1]}: no perf sched timehist lines")
    span = max(r[-1][0] for r in per_cpu.values()) - min(r[0][0] for r in per_cpu.values())
    for threshold in [float(t) for t in sys.argv[2:]] or [0.2, 0.5]:
        waits, held = blame(per_cpu, threshold)
        print(f"worker wake-ups that waited >= {threshold} ms to run: {len(waits)} in {span:.1f} s, "
              f"{sum(waits):.1f} ms in all, longest {max(waits, default=0):.2f} ms; meanwhile on their CPU:")
        for task, ms in held.most_common(10):
            print(f"  {task:24s} {ms:8.1f} ms")


if __name__ == "__main__":
    main()
