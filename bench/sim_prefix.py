#!/usr/bin/env python3
"""Prefix caching in the simulated engine: TTFT of prompts sharing a long prefix (a system
prompt) against prompts of the same length sharing nothing. The harness's synthetic prompts
share no prefix, so this drives the mock directly: a fresh `plumbline mock --preset gpu-8b`
per variant, REQUESTS streaming chat requests from CONCURRENCY client threads, TTFT measured
client-side (request sent to first content chunk). Standard library only; 127.0.0.1 only.
Measured on the 2-core dev VM (200 requests, concurrency 4, 1024+32 words, 16 out):
TTFT p50 96.1 ms / p90 140.2 ms without a shared prefix, 16.8 / 18.5 ms with one
(203776 prompt tokens, 199 x 1024, served from the prefix cache).
Usage: bench/sim_prefix.py [PLUMBLINE_BIN] [--requests N] [--concurrency C] [--prefix W] [--suffix W]
"""
import argparse
import http.client
import json
import os
import statistics
import subprocess
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def start_mock(binary):
    proc = subprocess.Popen([binary, "mock", "--listen", "127.0.0.1:0", "--preset", "gpu-8b", "--threads", "1"],
                            stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        proc.kill()
        raise SystemExit("sim_prefix: mock did not start")
    return proc, int(url.rsplit(":", 1)[1])


def ttft_ms(port, prompt):
    body = json.dumps({"model": "mock", "messages": [{"role": "user", "content": prompt}], "max_tokens": 16,
                       "ignore_eos": True, "temperature": 0.7, "stream": True})
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    start = time.perf_counter()
    conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
    resp = conn.getresponse()
    first = None
    for line in resp:
        if line.startswith(b"data: {") and b'"content"' in line and first is None:
            first = time.perf_counter()
    conn.close()
    return (first - start) * 1000.0


def run_variant(binary, args, shared):
    proc, port = start_mock(binary)
    prefix = " ".join(f"sys{i}" for i in range(args.prefix))
    results, lock, counter = [], threading.Lock(), iter(range(args.requests))

    def worker():
        for n in counter:
            own = " ".join(f"q{n}w{i}" for i in range(args.suffix))
            # Same length either way: the shared prefix, or one of the same size unique to this request.
            head = prefix if shared else " ".join(f"u{n}w{i}" for i in range(args.prefix))
            t = ttft_ms(port, head + " " + own)
            with lock:
                results.append(t)

    threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/metrics")
    metrics = conn.getresponse().read().decode()
    proc.terminate()
    proc.wait(timeout=10)
    hits = next((l.split()[-1] for l in metrics.splitlines() if l.startswith("vllm:prefix_cache_hits_total")), "?")
    results.sort()
    p90 = results[int(0.9 * (len(results) - 1))]
    return statistics.median(results), p90, hits


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(HERE, "..", "build", "dev", "app", "plumbline"))
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--prefix", type=int, default=1024)
    parser.add_argument("--suffix", type=int, default=32)
    args = parser.parse_args()
    args.requests = min(args.requests, 5000)
    print(f"sim_prefix: gpu-8b, {args.requests} requests, concurrency {args.concurrency}, "
          f"prompt {args.prefix}+{args.suffix} words, 16 output tokens")
    print("variant\tttft_p50_ms\tttft_p90_ms\tprefix_cache_hit_tokens")
    for shared in (False, True):
        p50, p90, hits = run_variant(args.binary, args, shared)
        print(f"{'shared-prefix' if shared else 'no-shared-prefix'}\t{p50:.1f}\t{p90:.1f}\t{hits}")


if __name__ == "__main__":
    main()
