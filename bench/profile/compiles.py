#!/usr/bin/env python3
"""The JIT compiles that ran while a range of epochs was published, longest first.

From a server started with
  --server-jvm-opts "... -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=comp.log"
and its log's "published epoch N" lines (the load tool's --work-dir keeps signalbox.log). A compile
counts when it overlaps the window: from the publication of epoch FIRST-1 to half a second after
LAST. Prints the C2 and C1 totals, then each compile: its time, tier (L4 is C2), kind (osr) and
method. Traps behind a recompile are in comp.log itself (<uncommon_trap ... compile_id=...>).
docs/benchmarks.md, "Results: issue 17, eighth part", shows what it found.

Usage: compiles.py comp.log signalbox.log FIRST LAST [TOP]
"""
import collections
import datetime
import re
import sys


def main(log, server_log, first, last, top):
    text = open(log, errors="replace").read()
    start_ms = int(re.search(r"<hotspot_log [^>]*time_ms='(\d+)'", text).group(1))
    published = {}
    for line in open(server_log, errors="replace"):
        m = re.search(r"^(\S+Z) .*published epoch (\d+)", line)
        if m:
            at = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%fZ")
            published.setdefault(int(m.group(2)), at.replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)
    lo = ((published[first - 1] if first - 1 in published else published[first] - 500) - start_ms) / 1000
    hi = (published[last] - start_ms) / 1000 + 0.5
    rows = []
    for t in re.finditer(r"<task ([^>]*)>(.*?)<task_done ([^>]*)/>", text, re.S):
        task = dict(re.findall(r"(\w+)='([^']*)'", t.group(1)))
        done = dict(re.findall(r"(\w+)='([^']*)'", t.group(3)))
        began, ended = float(task["stamp"]), float(done["stamp"])
        if ended >= lo and began <= hi:
            rows.append((ended - began, task.get("level", "4"), task.get("compile_kind", ""),
                         task["method"].replace("&lt;", "<").replace("&gt;", ">")))
    total = collections.Counter()
    for seconds, level, _, _ in rows:
        total["C2" if level == "4" else "C1"] += seconds
    print(f"window {lo:.1f}-{hi:.1f} s after start, {len(rows)} compiles, "
          f"C2 {total['C2'] * 1000:.0f} ms, C1 {total['C1'] * 1000:.0f} ms")
    for seconds, level, kind, method in sorted(rows, reverse=True)[:top]:
        print(f"{seconds * 1000:7.1f} ms L{level} {kind:4} {method}")


if __name__ == "__main__":
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]) if len(sys.argv) == 6 else 40)
