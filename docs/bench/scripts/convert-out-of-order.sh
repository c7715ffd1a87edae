#!/usr/bin/env bash
# `convert` of text that fits the default budget, its lines in order and shuffled: the default
# route (in order: loaded whole; out of order: about eight sorted runs) against --in-memory (how
# every fitting text was converted before), interleaved rounds, wall time and peak resident
# memory of each process. Writes JSON lines to stdout.
# Usage: convert-out-of-order.sh CLI WORKDIR [ROUNDS]
set -euo pipefail
cli=$1; dir=$2; rounds=${3:-3}
mkdir -p "$dir"
for n in 5M 20M; do
  case $n in
    5M) dims=100000,80000,60000 ;;
    20M) dims=1000000,800000,600000 ;;
  esac
  [ -f "$dir/pl$n.tns" ] || "$cli" generate --dims $dims --nnz $n --dist powerlaw:1.1 --seed 7 -o "$dir/pl$n.tns" >&2
  [ -f "$dir/pl${n}_shuf.tns" ] || shuf --random-source=<(yes) "$dir/pl$n.tns" > "$dir/pl${n}_shuf.tns"
done
export OMP_NUM_THREADS=2
for r in $(seq 1 "$rounds"); do
  for n in 5M 20M; do
    for lines in sorted shuffled; do
      tns=$dir/pl$n.tns
      [ "$lines" = shuffled ] && tns=$dir/pl${n}_shuf.tns
      cat "$tns" > /dev/null  # in the page cache for every variant
      for variant in in-memory default; do
        args=(--json)
        [ "$variant" = in-memory ] && args=(--in-memory)
        /usr/bin/time -f '%e %M' -o "$dir/time.txt" "$cli" convert "$tns" "$dir/out.tsb" "${args[@]}" > "$dir/report.json" 2> /dev/null
        read -r wall kb < "$dir/time.txt"
        runs=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])) if sys.argv[2]!='in-memory' else {}; print(d.get('runs', 0))" "$dir/report.json" "$variant")
        echo "{\"round\": $r, \"nnz\": \"$n\", \"lines\": \"$lines\", \"variant\": \"$variant\", \"wall_s\": $wall, \"peak_rss_kb\": $kb, \"runs\": $runs}"
        rm -f "$dir/out.tsb"
      done
    done
  done
done
