#!/bin/bash
# Compiles the MPI programs of this folder with SMPI's smpicc and traces them with
# `smpirun -trace-ti` on the 2-cluster platform, writing traces/<program>/: the index
# <program>.ti and one file per rank, rank-<r>.txt.
#
# Usage: workloads/mpi/trace.sh [PROGRAM...]       (default: every program below)
#
# SMPI writes the index with the per-rank paths as it opened them: <tracing/filename>_files/
# <time>_rank-<pid>.txt, relative to smpirun's working directory when tracing/filename is
# relative, absolute otherwise. `smpirun -replay` opens each listed path as is, so relative paths
# are resolved from ITS working directory. To make the committed traces relocatable, this script
# renames the files rank-<r>.txt (r the MPI rank, which is the first field of every line) next to
# the index and lists them by bare name: replay them from the index's folder (replay_reference.sh
# does), or give the index to a reader that resolves paths relative to the index file.
#
# Compute amounts are measured (CPU time of the code between MPI calls x smpi/host-speed), so a
# new trace has the same actions and sizes but slightly different compute amounts.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
platform=$here/platforms/two-clusters.xml
hostfile=$here/platforms/two-clusters.hosts

# program -> "ranks arguments"
declare -A runs=(
  [jacobi2d]="16 1024 30 5"
  [cg]="16 512 30"
  [master_worker]="16 10 1000 20 45"
  [coverage]="8 100"
)
programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=(jacobi2d cg master_worker coverage)

for cmd in smpicc smpirun; do
  command -v "$cmd" >/dev/null || { echo "trace.sh: $cmd not found (Debian: apt install libsimgrid-dev)" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for program in "${programs[@]}"; do
  [ -n "${runs[$program]:-}" ] || { echo "trace.sh: unknown program '$program' (known: ${!runs[*]})" >&2; exit 2; }
  read -r ranks args <<<"${runs[$program]}"
  echo "== $program: $ranks ranks, arguments $args"
  smpicc -O2 -Wall -o "$work/$program" "$here/$program.c" -lm

  # shellcheck disable=SC2086 # $args holds several arguments
  (cd "$work" && smpirun -np "$ranks" -platform "$platform" -hostfile "$hostfile" -trace-ti \
    --cfg=tracing/filename:"$program.ti" --cfg=smpi/host-speed:1Gf "./$program" $args) >"$work/$program.log" 2>&1 ||
    { cat "$work/$program.log" >&2; echo "trace.sh: tracing $program failed" >&2; exit 1; }
  grep -v '\[xbt_cfg/INFO\]' "$work/$program.log" || true

  out=$here/traces/$program
  rm -rf "$out"
  mkdir -p "$out"
  rank=0
  while IFS= read -r path; do
    [ -n "$path" ] || continue
    # Every line of a rank's file starts with its rank; the index lists the ranks in order.
    if ! awk -v r="$rank" '$1 != r { exit 1 }' "$work/$path"; then
      echo "trace.sh: $path is not rank $rank's trace" >&2
      exit 1
    fi
    cp "$work/$path" "$out/rank-$rank.txt"
    echo "rank-$rank.txt" >>"$out/$program.ti"
    rank=$((rank + 1))
  done <"$work/$program.ti"
  [ "$rank" -eq "$ranks" ] || { echo "trace.sh: $program.ti lists $rank files, not $ranks" >&2; exit 1; }

  # The relocated trace must replay (from the index's folder: SMPI resolves the paths there).
  (cd "$out" && smpirun -np "$ranks" -platform "$platform" -hostfile "$hostfile" -replay "$program.ti") \
    >"$work/$program.replay.log" 2>&1 && grep -q 'Simulation time' "$work/$program.replay.log" ||
    { cat "$work/$program.replay.log" >&2; echo "trace.sh: the trace of $program does not replay" >&2; exit 1; }
  echo "   $(cat "$out"/rank-*.txt | wc -l) actions, $(cat "$out"/* | wc -c) bytes in ${out#"$here"/}"
done
