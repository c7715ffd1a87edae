#!/bin/bash
# Prepared in session 40 for the next session's first call (not yet run, about 480 s): SpTTM's
# fiber teams (wb, rank 32) with U's rows addressed from the lane's column (TENSORSCOPE_SPTTM_ADDR=col,
# opaque() in float4_math.cuh: one IMAD.WIDE a row where the compiler's folded address takes
# four) against the folded address (empty, the default), alternating twice on the nell-2 shape
# (mode 3 at 49.8-49.9% of the copy bound in session 40 call 1, the issue's target 50%) and once
# on the uniform shape, every mode. The GPU SpTTM suite first (its rows run both ways). Then
# B-CSF and MM-CSF on the nell-2 shape as committed (session 40's final code, whose launch no
# longer reads TENSORSCOPE_FIBER_ADDR), every mode; and the wide kernels (the uniform shape's
# B-CSF and MM-CSF, teams of 4 lanes) with their rows from the lane's column
# (TENSORSCOPE_FIBER_WIDE_ADDR=col) against the folded address, alternating twice.
# Run names: --tag 'spttm-addr-(\w+)$=spttm_addr' and --tag 'wide-addr-(\w+)$=fiber_wide_addr'.
# Bundle: make_bundle.sh --tests test_spttm_cuda,test_mttkrp_cuda h200-session41.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_spttm_cuda test_mttkrp_cuda
EXT=jsonl
gen_nell2
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
    for v in folded col; do
        a=$v; [ "$v" = folded ] && a=
        run nell2-spttm-addr-$v 40 env TENSORSCOPE_SPTTM_ADDR=$a "$CLI" bench "$D/nell2.tsb" $S
    done
done
run nell2-mttkrp-committed 40 "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format B-CSF,MM-CSF \
    --mode all --rank 32 --repeat 5 --jsonl
gen_uniform
for v in folded col; do
    a=$v; [ "$v" = folded ] && a=
    run uni-spttm-addr-$v 40 env TENSORSCOPE_SPTTM_ADDR=$a "$CLI" bench "$D/uni.tsb" $S
done
for round in 1 2; do
    for v in folded col; do
        a=$v; [ "$v" = folded ] && a=
        run uni-mttkrp-wide-addr-$v 40 env TENSORSCOPE_FIBER_WIDE_ADDR=$a "$CLI" bench "$D/uni.tsb" --kernel mttkrp \
            --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
