#!/bin/bash
# Issue 19, session 23: candidates for HOCSR's GPU SpTV kernel (the new build, $B/bin/tensorscope-cli)
# against the committed kernel (a thread taking 4 consecutive rows, f78a129's sptv_tuples.cuh,
# built into $B/bin/tensorscope-cli-old). Call 2's candidate: a warp taking 32 adjacent rows a
# step (coalesced offsets). Call 3's: the committed kernel with a thread's four offsets read as
# 16-byte loads. One H100 or H200 from a carried bundle $B (bin/, tests/test_sptv_cuda, lib/,
# data/; device_steps.sh beside this script). The suite first (on the candidate), then the
# nell-2 and uniform shapes, modes 1 and 3 (mode 2's index tuples are over HOCSR's 2^28 rows),
# old and new alternating twice. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 60 test_sptv_cuda
EXT=jsonl
gen_nell2
run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
for round in 1 2; do
  for v in new old; do
    bin=$CLI; [ $v = old ] && bin=$B/bin/tensorscope-cli-old
    run nell2-hocsr-$v-$round 40 "$bin" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode 1,3 --repeat 5 --jsonl
    run uni-hocsr-$v-$round 40 "$bin" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode 1,3 --repeat 5 --jsonl
  done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
