#!/bin/bash
# Replays every committed trace (traces/<program>/<program>.ti) with `smpirun -replay` on each
# platform of platforms/ and writes smpi_reference.csv: trace, platform, ranks, the simulated
# time SMPI reports (seconds), SimGrid's version.
#
# Usage: workloads/mpi/replay_reference.sh
#
# SMPI's default settings: smpirun itself adds --cfg=network/model:SMPI (latency and bandwidth
# factors by message size: smpi/lat-factor, smpi/bw-factor) and --cfg=surf/precision:1e-9; a send
# below smpi/send-is-detached-thresh (65536 bytes) is detached (the sender goes on without
# waiting for the receiver), a larger one waits for it; the collectives use the "default"
# selector (smpi/coll-selector). The only options given:
#   -np N                 the trace's rank count (the index's line count): without it smpirun
#                         starts one rank per hostfile line, and ranks beyond the index fail;
#   -platform, -hostfile  the platform XML and its node hosts in order (rank i on line i: the
#                         XML also holds "controller" and checkpoint servers, which SMPI must not
#                         use);
#   --cfg=smpi/display-timing:yes   prints "Simulated time: T seconds." (T = the simulation clock
#                         at the end, %g: 6 significant digits), which this script reads. smpirun
#                         -replay also logs "Simulation time T" (smpi_replay, %f: 6 decimals) when
#                         the last rank ends; both give the same time.
# smpirun runs from the trace's folder: SMPI opens the index's paths relative to its working
# directory, and the committed index lists bare file names (trace.sh).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
platforms=(two-clusters four-clusters)
csv=$here/smpi_reference.csv

command -v smpirun >/dev/null || { echo "replay_reference.sh: smpirun not found (Debian: apt install libsimgrid-dev)" >&2; exit 2; }
version=$(smpirun -version | sed -n 's/^SimGrid version //p')
[ -n "$version" ] || { echo "replay_reference.sh: cannot read the SimGrid version from smpirun -version" >&2; exit 1; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT
lines=("trace,platform,ranks,simulated_time_s,simgrid_version")
for dir in "$here"/traces/*/; do
  trace=$(basename "$dir")
  index=$trace.ti
  [ -f "$dir/$index" ] || { echo "replay_reference.sh: $dir has no $index" >&2; exit 1; }
  ranks=$(grep -c . "$dir/$index")
  for platform in "${platforms[@]}"; do
    (cd "$dir" && smpirun -np "$ranks" -platform "$here/platforms/$platform.xml" \
      -hostfile "$here/platforms/$platform.hosts" -replay "$index" --cfg=smpi/display-timing:yes) >"$log" 2>&1 ||
      { cat "$log" >&2; echo "replay_reference.sh: replaying $trace on $platform failed" >&2; exit 1; }
    time=$(sed -n 's/.*Simulated time: \([^ ]*\) seconds.*/\1/p' "$log")
    [ -n "$time" ] || { cat "$log" >&2; echo "replay_reference.sh: no simulated time for $trace on $platform" >&2; exit 1; }
    echo "$trace on $platform ($ranks ranks): $time s"
    lines+=("$trace,$platform,$ranks,$time,$version")
  done
done
printf '%s\n' "${lines[@]}" >"$csv"
echo "wrote ${csv#"$here"/}"
