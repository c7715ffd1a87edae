#!/bin/bash
# Session 33's fifth call, on what was left of the device time (about 150 s): the GPU suites of
# the experiments prepared for session 34 (the SpTTM suite runs the fiber teams at every piece and
# group size, the SpTV suite HOCSR's kept rows by either select, all against the oracle), then
# HOCSR's kept rows by CUB's select against the plan's blocks (TENSORSCOPE_HOCSR_SELECT=blocks),
# two passes forced, once each on the nell-2 shape, as far as the time allows.
# Run names end in the value: --tag 'select-(unset|blocks)$=hocsr_select'.
# Bundle: as h200-session34.sh's, with this script.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_spttm_cuda test_sptv_cuda
EXT=jsonl
gen_nell2
V="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
for v in unset blocks; do
    run nell2-hocsr-select-$v 15 env TENSORSCOPE_HOCSR=kept TENSORSCOPE_HOCSR_SELECT=$v "$CLI" bench "$D/nell2.tsb" $V
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
