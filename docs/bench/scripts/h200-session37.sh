#!/bin/bash
# Prepared in session 36 for the next session's first call (not yet run): HOCFS-ELL's SpTV (48
# registers: 5 blocks of 256 an SM, 53% of the warps resident on delicious-4d's mode 1 in session
# 36, bound by the loads' latency) against three comparison switches: its registers capped for 6
# or 8 blocks an SM (TENSORSCOPE_ELL_BLOCKS=6: 40 registers, =8: 32, both spilling about 200
# bytes), the warp taking a fiber past 8 entries rather than 32 (TENSORSCOPE_ELL_SHORT=8), and a
# thread's entries loaded two at a time (TENSORSCOPE_ELL_PAIRS=1). On the delicious-4d shape's
# mode 1 (3.45 ms in session 36; a run loads the 140M nonzeros and builds the format, about 40 s):
# the default, the cap at 8 and the pairs twice, the others once; on the uniform shape's every
# mode (fibers of one or two nonzeros) the default, the cap at 8 and the pairs once; about 500 s
# in all, then Nsight Compute on the pairs.
# Run names: --tag 'ell-b(\d+)=ell_blocks' --tag '-s(\d+)=ell_short' --tag '-p(\d)=ell_pairs'
# (b0: the compiler's registers).
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_pipeline_cuda h200-session37.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda test_pipeline_cuda
EXT=jsonl
gen_del4d
gen_uniform
E="--kernel sptv --backend cuda --format HOCFS-ELL --repeat 10 --jsonl"
ell() {  # tensor, modes, seconds, blocks, short entries, pairs
    run $1-ell-b$4-s$5-p$6 $3 env TENSORSCOPE_ELL_BLOCKS=$4 TENSORSCOPE_ELL_SHORT=$5 TENSORSCOPE_ELL_PAIRS=$6 \
        "$CLI" bench "$D/$1.tsb" $E --mode $2
}
ell uni all 25 0 32 0; ell uni all 25 8 32 0; ell uni all 25 0 32 1
ell del4d 1 50 0 32 0; ell del4d 1 50 8 32 0; ell del4d 1 50 0 32 1; ell del4d 1 50 0 8 0; ell del4d 1 50 6 32 0
ell del4d 1 50 0 32 0; ell del4d 1 50 8 32 0; ell del4d 1 50 0 32 1
ncu_setup
EXT=out
run ncu-ell-del4d-m1-pairs 60 env TENSORSCOPE_ELL_PAIRS=1 "$NCU" $NCU_P --launch-count 1 --kernel-name regex:sptv_ell_kernel \
    "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format HOCFS-ELL --mode 1 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
