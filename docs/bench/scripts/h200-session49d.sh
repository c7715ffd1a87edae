#!/bin/bash
# Session 49's last call (about 250 s): SpTV as committed at its end (HOCSR's wide first pass,
# two passes wherever the kept CSR fits) on the nell-2 and uniform shapes, every CSR-shaped format
# and mode, and HOCSR's results on the uniform shape checked against cpu-ref.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session49d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
F="--format COO,CSF,CFB,HOCFS-CSR,HOCSR --mode all"
gen_nell2
run nell2-committed 70 "$CLI" bench "$D/nell2.tsb" $S $F
rm -f "$D/nell2.tsb"
gen_uniform
run uni-committed 90 "$CLI" bench "$D/uni.tsb" $S $F
run uni-check-hocsr 80 "$CLI" bench "$D/uni.tsb" $S --format HOCSR --mode all --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
