#!/bin/bash
# Prepared in session 36 for the next session's first call (not yet run): HOCFS-ELL's SpTV (48
# registers: 5 blocks of 256 an SM, 53% of the warps resident on delicious-4d's mode 1 in session
# 36, bound by the loads' latency) with its registers capped for 6 or 8 blocks an SM
# (TENSORSCOPE_ELL_BLOCKS=6: 40 registers, =8: 32, both spilling about 200 bytes), and with the
# warp taking a fiber past 8 or 16 entries rather than 32 (TENSORSCOPE_ELL_SHORT), on the
# delicious-4d shape's mode 1 (3.45 ms in session 36; a run loads the 140M nonzeros and builds
# the format, about 40 s), the default and the two caps twice, and on the uniform shape's every
# mode (fibers of one or two nonzeros: the caps only), once; about 500 s in all, then Nsight
# Compute on the kernel capped at 32 registers.
# Run names: --tag 'ell-b(\d+)=ell_blocks' --tag '-s(\d+)=ell_short' (b0: the compiler's).
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_pipeline_cuda h200-session37.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda test_pipeline_cuda
EXT=jsonl
gen_del4d
gen_uniform
E="--kernel sptv --backend cuda --format HOCFS-ELL --repeat 10 --jsonl"
del4d() { run del4d-ell-b$1-s$2 50 env TENSORSCOPE_ELL_BLOCKS=$1 TENSORSCOPE_ELL_SHORT=$2 "$CLI" bench "$D/del4d.tsb" $E --mode 1; }
for b in 0 6 8; do run uni-ell-b$b-s32 25 env TENSORSCOPE_ELL_BLOCKS=$b "$CLI" bench "$D/uni.tsb" $E --mode all; done
del4d 0 32; del4d 8 32; del4d 0 8; del4d 6 32; del4d 0 16
del4d 0 32; del4d 8 32; del4d 0 8
ncu_setup
EXT=out
run ncu-ell-del4d-m1-b8 60 env TENSORSCOPE_ELL_BLOCKS=8 "$NCU" $NCU_P --launch-count 1 --kernel-name regex:sptv_ell_kernel \
    "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format HOCFS-ELL --mode 1 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
