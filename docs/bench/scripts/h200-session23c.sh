#!/bin/bash
# Issue 19, session 23, call 4: HOCSR's GPU SpTV with rows of more than kShortRow nonzeros summed
# by the whole warp, kShortRow 32 (as built, $B/bin/tensorscope-cli, with call 3's 16-byte offset
# loads) against 16 and 8 (variant builds of gpu_sptv.cu: $B/bin/tensorscope-cli-s16, -s8, and
# their test_sptv_cuda in $B/tests/s16, s8). One H100 or H200 from a carried bundle $B (lib/,
# data/; device_steps.sh beside this script). The variants' suites first, then the nell-2 and
# uniform shapes, modes 1 and 3, the three alternating twice. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out
for v in s16 s8; do run test_sptv_cuda-$v 60 env QT_QPA_PLATFORM=offscreen "$B/tests/$v/test_sptv_cuda"; done
EXT=jsonl
gen_nell2
run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
for round in 1 2; do
  for v in s32 s16 s8; do
    bin=$CLI; [ $v != s32 ] && bin=$B/bin/tensorscope-cli-$v
    run nell2-hocsr-$v-$round 40 "$bin" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode 1,3 --repeat 5 --jsonl
    run uni-hocsr-$v-$round 40 "$bin" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode 1,3 --repeat 5 --jsonl
  done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
