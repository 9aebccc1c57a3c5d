#!/usr/bin/env python3
"""Where a server's CPU went, from async-profiler's collapsed stacks with thread names ("threads").

Groups the samples as docs/benchmarks.md reports them: the JIT compilers, G1's concurrent
refinement, the GC workers, library code on the gRPC event loops and send threads (no Signalbox
frame on the stack but the GatedStream interceptor, which only forwards), Signalbox's own code by
thread, and the rest. Usage: split.py <file.collapsed>
"""
import collections
import re
import sys


def group(frames):
    thread = re.sub(r"\s*tid=\d+\]?$", "", frames[0].strip("[]"))
    thread = re.sub(r"[-#]?\d+$", "", thread).rstrip("-")
    ours = [f for f in frames[1:] if f.startswith("io/signalbox") and "GatedStream" not in f]
    if "Compiler" in thread:
        return "JIT compilers"
    if "G1 Refine" in thread:
        return "G1 concurrent refinement"
    if "GC Thread" in thread or thread.startswith("G1 ") or thread == "VM Thread":
        return "GC workers, VM thread"
    if any("GatedStream$1.onCancel" in f for f in frames) or thread in ("shutdown", "SIGTERM handler"):
        return "clients disconnecting, shutdown"
    if thread.startswith(("grpc-default-worker", "xds-send", "grpc-default-executor")):
        return ("event loops and send threads: Signalbox code" if ours
                else "event loops and send threads: gRPC, Netty, protobuf, java-control-plane")
    if ours:
        return "Signalbox: " + thread
    return "other: " + thread


def main(path):
    counts = collections.Counter()
    for line in open(path):
        stack, n = line.rstrip().rsplit(" ", 1)
        counts[group(stack.split(";"))] += int(n)
    total = sum(counts.values())
    jit = counts["JIT compilers"]
    print(f"{total} samples, {total - jit} without the JIT compilers")
    print(f"{'samples':>8} {'share':>6} {'of non-JIT':>10}  where")
    for where, n in counts.most_common():
        non_jit = "" if where == "JIT compilers" else f"{100 * n / max(1, total - jit):9.1f}%"
        print(f"{n:8d} {100 * n / total:5.1f}% {non_jit:>10}  {where}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
