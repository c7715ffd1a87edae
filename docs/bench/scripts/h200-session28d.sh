#!/bin/bash
# Session 28, call 4: wide teams (fiber_wide_kernel, four blocks) by default for rank-32
# whole-fiber trees of order 3 or 4 that average fewer than 2 nonzeros a fiber
# (engine/cuda/gpu_mttkrp.cu, wide_blocks), against TENSORSCOPE_FIBER_WIDE=0 (the 8-lane team
# kernel everywhere), alternating in one binary. The suite first (wideAndNarrowTeamsKeepTheResult
# runs both against cpu-ref). The uniform shape (1.2-1.4 a fiber: wide) with B-CSF and CSF; the
# real tensors with --check; the delicious-4d shape (1.2 a fiber on every mode's tree: wide) on
# mode 1; a second uniform round as time allows. The nell-2 shape (3.7-4.7 a fiber) keeps the
# team kernel by the rule, so it is not run again. Bundle $B:
# docs/bench/scripts/make_bundle.sh --tests test_mttkrp_cuda h200-session28d.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda
EXT=jsonl
gen_uniform
U="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
for w in auto 0; do run uni-wide$w-1 70 env TENSORSCOPE_FIBER_WIDE=$w "$CLI" bench "$D/uni.tsb" $U --format B-CSF,CSF; done
ab_real TENSORSCOPE_FIBER_WIDE CSF,B-CSF auto 0
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
M="--kernel mttkrp --backend cuda --format B-CSF,CSF --mode 1 --rank 32 --repeat 5 --jsonl"
for w in auto 0; do run del4d-wide$w 95 env TENSORSCOPE_FIBER_WIDE=$w "$CLI" bench "$D/del4d.tsb" $M; done
for w in auto 0; do run uni-wide$w-2 45 env TENSORSCOPE_FIBER_WIDE=$w "$CLI" bench "$D/uni.tsb" $U --format B-CSF; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
