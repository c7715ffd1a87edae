#!/bin/bash
# Prepared in session 28 for the next session's first call (not yet run on a GPU). The GPU
# suites on the binary whose wide teams (engine/cuda/gpu_mttkrp.cu, wide_blocks) ask that a
# launch give every resident thread a lane (cc91adb). Then the experiment: MM-CSF's several
# trees wide too (TENSORSCOPE_FIBER_WIDE=trees: trees_wide_kernel, four blocks, 64 registers,
# 24 bytes spilled, where together they average under 2 nonzeros a fiber) against the default
# (the team kernel for several trees; "auto" reads as unset), alternating: the uniform shape
# (B-CSF 2.47-2.60 ms a mode wide in session 28; MM-CSF must match it) and the delicious-4d
# shape (every tree 1.2 nonzeros a fiber; MM-CSF 10.2-16.4 ms a mode in session 27 against
# B-CSF's 8.73-10.2); between them the real tensors with --check under =4 (every launch wide)
# against =0. One round each, so that the delicious-4d pair fits a 560-second call (its MM-CSF
# build alone took 47.9 s on the host in session 27); a second uniform round after it as time
# allows. Bundle $B:
# docs/bench/scripts/make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda h200-session29.sh h200-session29b.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda test_decomp_cuda
EXT=jsonl
gen_uniform
U="--kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for w in trees auto; do run uni-mmcsf-wide$w 50 env TENSORSCOPE_FIBER_WIDE=$w "$CLI" bench "$D/uni.tsb" $U; done
ab_real TENSORSCOPE_FIBER_WIDE CSF,B-CSF,MM-CSF 4 0
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
for w in trees auto; do run del4d-mmcsf-wide$w 130 env TENSORSCOPE_FIBER_WIDE=$w "$CLI" bench "$D/del4d.tsb" $U; done
for w in auto trees; do run uni-mmcsf-wide$w-2 50 env TENSORSCOPE_FIBER_WIDE=$w "$CLI" bench "$D/uni.tsb" $U; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
