#!/usr/bin/env bash
# Samples every thread of the server of one load-tool run, native and kernel frames included, with
# async-profiler (1 ms of CPU per sample), between two epochs the server logs as published: the
# warm measured phase, not start-up or the connect storm. Then prints where the CPU went
# (profile/split.py). docs/benchmarks.md, "Where the warm SotW CPU goes", was made with it:
#
#   bench/profile/profile-warm.sh 45 59 /tmp/warm.collapsed -- load --clients 1000 --clusters 100 \
#       --endpoints 10 --cold-after 4 --cold-changes 10 --warmup-changes 30 --changes 15 \
#       --store embedded --target signalbox --server-jvm-opts "-Xms1g -Xmx4g"
#
# Stop before the run's last epoch: the load tool stops the server soon after it. Signalbox only
# (it reads the server's "published epoch N" lines). Needs jcmd (the JDK) and python3;
# fetches async-profiler from Maven Central into ~/.cache/signalbox on first use. The profiler adds CPU of its
# own: read shares, not milliseconds.
set -euo pipefail
[ $# -ge 5 ] && [ "$4" = "--" ] || { echo "usage: $0 <first epoch> <last epoch> <out.collapsed> -- <load tool args>" >&2; exit 2; }
first=$1 last=$2 out=$3; shift 4
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
version=3.0
lib=${ASYNC_PROFILER_LIB:-$HOME/.cache/signalbox/async-profiler-$version/linux-x64/libasyncProfiler.so}
if [ ! -f "$lib" ]; then
  dir=$(dirname "$(dirname "$lib")")
  mkdir -p "$dir"
  mvn -B -q dependency:copy -Dartifact=tools.profiler:async-profiler:$version:jar:linux-x64 -DoutputDirectory="$dir"
  (cd "$dir" && unzip -o -q "async-profiler-$version-linux-x64.jar")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
java -Xmx8g -jar "$root/bench/target/signalbox-bench.jar" "$@" --work-dir "$work" &
tool=$!
published() { grep -hs "published epoch $1 " "$work"/*/signalbox.log | head -1; }
until [ -n "$(published "$first")" ]; do
  kill -0 $tool 2>/dev/null || { echo "the load tool ended before epoch $first" >&2; exit 1; }
  sleep 0.1
done
server=$(pgrep -n -f "signalbox.jar serve")
# The inner quotes keep jcmd from reading the options' '=' as its own name=value arguments.
agent() { jcmd "$server" JVMTI.agent_load "$lib" "\"$1\"" | grep -q "return code: 0" || { echo "async-profiler: $1 failed" >&2; exit 1; }; }
agent "start,event=cpu,interval=1ms,threads"
until [ -n "$(published "$last")" ]; do sleep 0.1; done
agent "stop,file=$out,collapsed,threads"
wait $tool
python3 "$here/split.py" "$out"
