#!/bin/bash
# Session 35's fifth call: the SpTV suite on this binary (HOCSR's block scans now CUB's warp
# scans), then HOCSR's SpTV on every mode of the nell-2 shape as chosen, and of the uniform shape
# in one pass and in two (the rule keeps one pass on its mode 3: measured again now that both
# passes' scans are faster), two rounds in turn; then issue 19's standing kernels (MTTKRP, SpTV on
# every format, SpTTM) on both shapes at this commit.
# Run names: --tag 'hocsr-(chosen|one-pass|kept)(\.\d+)?$=hocsr_pass'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session35e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
gen_nell2
gen_uniform
V="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
for round in 1 2; do
    run nell2-hocsr-chosen 30 "$CLI" bench "$D/nell2.tsb" $V
    for p in one-pass kept; do
        run uni-hocsr-$p 30 env TENSORSCOPE_HOCSR=$p "$CLI" bench "$D/uni.tsb" $V
    done
done
standing nell2
standing uni
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
