#!/bin/bash
# Issue 25: how BFS-MCS breaks ties between vertices of equal cardinality. HiCOO block counts
# (blocks of 2^4 to 2^7) of the shared real tensors and the 5M power-law tensor under the degree
# sort and BFS-MCS as built ($CLI: ties to the vertex reached last) and under a second build
# ($FIFO: bfs_mcs.cpp as of f78a129, ties first come first). Prints one JSON document.
# Usage: FIFO=/path/to/old/tensorscope-cli docs/bench/scripts/reorder-ties.sh [CLI]
set -euo pipefail
CLI=${1:-build/bin/tensorscope-cli}
FIFO=${FIFO:?set FIFO to a tensorscope-cli built with bfs_mcs.cpp as of f78a129}
DATA=${TS_SHARED_DATA:-../shared/data}
DIR=${DIR:-/tmp/reorder-bench}
mkdir -p "$DIR"
GEN="generate --dims 100000,80000,60000 --nnz 5M --dist powerlaw:1.1 --seed 1"
[ -f "$DIR/pl5m.tsb" ] || $CLI $GEN -o "$DIR/pl5m.tsb" > /dev/null
blocks() { $CLI formats "$1" --format HiCOO --mode 1 --hicoo-bits "$2" --json | python3 -c "import json,sys;print(json.load(sys.stdin)['formats'][0]['parameters']['blocks'])"; }
rows=()
for t in "$DATA/movielens-100k.tns" "$DATA/lastfm-tags.tns" "$DATA/jf17k-4d.tns" "$DIR/pl5m.tsb"; do
  name=$(basename "$t"); name=${name%%.*}
  for variant in degree bfs-mcs-last bfs-mcs-first; do
    case $variant in
      degree) $CLI reorder "$t" "$DIR/ties.tsb" --method degree > /dev/null ;;
      bfs-mcs-last) $CLI reorder "$t" "$DIR/ties.tsb" --method bfs-mcs > /dev/null ;;
      bfs-mcs-first) $FIFO reorder "$t" "$DIR/ties.tsb" --method bfs-mcs > /dev/null ;;
    esac
    nnz=$($CLI formats "$DIR/ties.tsb" --format COO --json | python3 -c "import json,sys;print(json.load(sys.stdin)['nnz'])")
    row="{\"tensor\": \"$name\", \"nnz\": $nnz, \"method\": \"$variant\""
    for b in 4 5 6 7; do row="$row, \"blocks_2^$b\": $(blocks "$DIR/ties.tsb" $b)"; done
    rows+=("$row}")
  done
done
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- engine app || echo +dirty)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
{ echo "{\"what\": \"issue 25: BFS-MCS ties to the vertex reached last (bfs-mcs-last, as built) against first come first (bfs-mcs-first, bfs_mcs.cpp at f78a129), HiCOO block counts at block edges 2^4..2^7\","
  echo " \"device\": \"$cpu\", \"commit\": \"$commit\", \"generated\": \"tensorscope-cli $GEN\","
  echo " \"command\": \"tensorscope-cli reorder IN OUT --method degree|bfs-mcs; tensorscope-cli formats OUT --format HiCOO --mode 1 --hicoo-bits B --json (parameters.blocks)\","
  echo " \"results\": ["; (IFS=$'\n'; echo "${rows[*]}" | sed '$!s/$/,/'); echo "]}"; } | python3 -m json.tool
