#!/bin/bash
# Session 51's fourth call (about 225 s, the session's last device time): delicious-4d's mode 2
# (packed vector, 95 MB, over L2) by the adaptive rows through L1 with the packed front's first
# entries (15,104 on an H200) staged in each block's shared memory
# (TENSORSCOPE_SPTV_ROWS=through-front), against the default (cuSPARSE): front, cuSPARSE, front
# with --check. The GPU SpTV suite runs beside the tensor's generation.
# Run names: --tag 'del4d-m2-(front|cusparse)=rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session51d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
QT_QPA_PLATFORM=offscreen timeout 100 "$B/tests/test_sptv_cuda" > "$R/test_sptv_cuda.out" 2> "$R/test_sptv_cuda.err" &
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl --mode 2 --format COO,CFB"
F="env TENSORSCOPE_SPTV_ROWS=through-front"
gen_del4d
wait; step "test_sptv_cuda: $(grep Totals "$R/test_sptv_cuda.out")"
run del4d-m2-front 35 timeout 60 $F "$CLI" bench "$D/del4d.tsb" $S
run del4d-m2-cusparse 35 timeout 60 "$CLI" bench "$D/del4d.tsb" $S
run del4d-m2-front-check 60 $F "$CLI" bench "$D/del4d.tsb" $S --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
