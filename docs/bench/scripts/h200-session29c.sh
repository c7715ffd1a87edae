#!/bin/bash
# Session 29, call 3: MM-CSF's several trees wide by default where they measured faster in call 1
# (engine/cuda/wide_teams.hpp, several_trees_wide: order 3, and under half the nonzeros in trees
# whose leaves are the output mode). The GPU suites on that binary; then the uniform shape's
# MM-CSF under the new default (auto) against the team kernel everywhere (=0) and the wide
# kernel on every mode (=trees), alternating, two rounds; the real tensors with --check, auto
# against 0 (their trees fill too little of the device to run wide either way); last, B-CSF on the
# uniform shape in the same call, to compare against. Bundle $B:
# docs/bench/scripts/make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda h200-session29c.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda test_decomp_cuda
EXT=jsonl
gen_uniform
U="--kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for w in auto 0 trees; do run uni-mmcsf-wide$w-1 70 env TENSORSCOPE_FIBER_WIDE=$w "$CLI" bench "$D/uni.tsb" $U; done
ab_real TENSORSCOPE_FIBER_WIDE MM-CSF auto 0
for w in 0 auto; do run uni-mmcsf-wide$w-2 70 env TENSORSCOPE_FIBER_WIDE=$w "$CLI" bench "$D/uni.tsb" $U; done
run uni-bcsf 60 "$CLI" bench "$D/uni.tsb" ${U/MM-CSF/B-CSF}
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
