#!/usr/bin/env bash
# Issue 18, item 3: `convert` of a 5M-nonzero .tns to .tsb, in memory against the bounded
# external sort (default budget: it fits; 64 MiB and 8 MiB: 7 and 56 sorted runs), interleaved
# rounds, wall time and peak resident memory of each process. Writes JSON lines to stdout.
# Usage: bounded-convert.sh CLI WORKDIR [ROUNDS]
set -euo pipefail
cli=$1; dir=$2; rounds=${3:-3}
mkdir -p "$dir"
tns=$dir/pl5m.tns
[ -f "$tns" ] || "$cli" generate --dims 100000,80000,60000 --nnz 5000000 --dist powerlaw:1.1 --seed 1 -o "$tns" >&2
cat "$tns" > /dev/null  # in the page cache for every variant
export OMP_NUM_THREADS=2
for r in $(seq 1 "$rounds"); do
  for variant in in-memory default 64M 8M; do
    case $variant in
      in-memory) args=(--in-memory) ;;
      default) args=(--json) ;;
      *) args=(--memory "$variant" --json) ;;
    esac
    /usr/bin/time -f '%e %M' -o "$dir/time.txt" "$cli" convert "$tns" "$dir/out.tsb" "${args[@]}" > "$dir/report.json" 2> /dev/null
    read -r wall kb < "$dir/time.txt"
    runs=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])) if sys.argv[2]!='in-memory' else {}; print(d.get('runs', 0))" "$dir/report.json" "$variant")
    echo "{\"round\": $r, \"variant\": \"$variant\", \"wall_s\": $wall, \"peak_rss_kb\": $kb, \"runs\": $runs}"
    rm -f "$dir/out.tsb"
  done
done
