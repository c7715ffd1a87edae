#!/bin/bash
# Issue 19, session 22's fourth device call (a short one: the budget's rest), from a carried
# bundle $B: HOCSR's SpTV kernel with its short rows walked kWalkBatch nonzeros at a time. The
# committed build (4 rows a thread, batches of 4) and four others that differ only in those
# two constants (bin/tensorscope-cli-rRbB and tests/test_sptv_cuda-rRbB): r4b1 is the first
# version (one by one), r8b4, r4b8, r8b8. Each build's suite, then HOCSR on the nell-2 and
# uniform shapes. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
BUILDS="r4b1 r8b4 r4b8 r8b8"
EXT=out run_suites 20 test_sptv_cuda
for b in $BUILDS; do EXT=out run "test_sptv_cuda-$b" 20 env QT_QPA_PLATFORM=offscreen "$B/tests/test_sptv_cuda-$b"; done
EXT=jsonl
hocsr() {  # tag, tensor
    run "$1-hocsr" 20 "$CLI" bench "$2" --kernel sptv --backend cuda --format HOCSR --mode 1,3 --repeat 5 --jsonl
    for b in $BUILDS; do run "$1-hocsr-$b" 20 "$CLI-$b" bench "$2" --kernel sptv --backend cuda --format HOCSR --mode 1,3 --repeat 5 --jsonl; done
}
gen_nell2
hocsr nell2 "$D/nell2.tsb"
rm -f "$D/nell2.tsb"
run gen-uniform 10 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
hocsr uni "$D/uni.tsb"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
