#!/usr/bin/env python3
"""Splits each request's measured TTFT into what the mock and the client each own (issue 6, 5b).

Usage: ttft_decompose.py CLIENT_TSV MOCK_TXT TTFT_MS
  CLIENT_TSV  "send_ns first_token_ns" per request, run-relative (the run's requests table)
  MOCK_TXT    "received_ns first_write_ns" per stream, CLOCK_MONOTONIC (GET /mock/timing/requests;
              received = the request's kernel arrival stamp, or its read for a connection's first)
One worker sends in planned order, one mock loop reads in arrival order: the i-th send is the
i-th request the mock read. Per request (all exact, the run's t0 cancels out):
  measured − configured = mock lateness + outside the mock
  mock lateness     = first write began − (request received + configured TTFT)
  outside the mock  = (mock received it − client send began) + (client's first-token instant − mock write began)
The two legs of "outside" need the run's t0 on the monotonic clock, which the run does not
store; it is bounded by every request (neither leg is negative), and the legs are printed with
the bound's half-width.
"""
import sys


def pct(values, q):
    v = sorted(values)
    k = max(0, min(len(v) - 1, -(-int(q * len(v) * 1000) // 1000) - 1))
    return v[k]


def line(label, values_ns, note=""):
    us = [x / 1000.0 for x in values_ns]
    print(f"    {label:<52} p50 {pct(us, .5):8.1f}  p90 {pct(us, .9):8.1f}  p99 {pct(us, .99):8.1f}  "
          f"max {max(us):9.1f} µs{note}")


def main():
    client = [tuple(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
    mock = [tuple(map(int, l.split())) for l in open(sys.argv[2]) if l.strip() and l[0].isdigit()]
    ttft = int(float(sys.argv[3]) * 1e6)
    client.sort()
    measured = [f - s for s, f in client]
    if not client or len(client) != len(mock):
        if client:
            line("measured TTFT − configured (exact, per request)", [m - ttft for m in measured])
        print(f"    cannot split: {len(client)} client records, {len(mock)} mock records (a mock without /mock/timing?)")
        return 1
    late = [w - r - ttft for r, w in mock]
    outside = [m - ttft - l for m, l in zip(measured, late)]
    hi = min(r - s for (s, _), (r, _) in zip(client, mock))   # t0 <= mock received − send
    lo = max(w - f for (_, f), (_, w) in zip(client, mock))   # t0 >= mock write − first token
    note = ""
    if lo > hi:
        # Two sends close together (after a stall) read by the mock in the other order: those
        # pairs are mixed up by their send gap. Take t0 at its upper bound and say how many.
        t0, half = hi, 0.0
        bad = sum(1 for (_, f), (_, w) in zip(client, mock) if f + t0 - w < 0)
        note = f"  (t0 at its upper bound: {bad} requests out of order)"
    else:
        t0 = (lo + hi) // 2
        half = (hi - lo) / 2000.0
        note = f"  (± {half:.1f})"
    excess = [m - ttft for m in measured]
    line("measured TTFT − configured (exact, per request)", excess)
    line("  the mock's lateness (write began − received − TTFT)", late)
    line("  outside the mock (measured − the mock's own TTFT)", outside)
    line("    request leg: send began → mock received it", [r - s - t0 for (s, _), (r, _) in zip(client, mock)], note)
    line("    reply leg: mock write began → client's token instant", [f + t0 - w for (_, f), (_, w) in zip(client, mock)], note)
    p99 = pct(excess, .99)
    print(f"    target 5b (measured − configured ≤ 200 µs at p99): {p99 / 1000:.1f} µs: "
          f"{'met' if p99 <= 200_000 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
