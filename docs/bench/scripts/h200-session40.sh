#!/bin/bash
# Session 40's first call (about 450 s): the team kernels asking for the largest L1
# (TENSORSCOPE_L1_CARVEOUT=0, cudaFuncAttributePreferredSharedMemoryCarveout) against the
# driver's own split (the switch empty), alternating twice: MTTKRP on the nell-2 shape (B-CSF,
# CSF, MM-CSF: the index32, team and trees kernels), SpTTM's fiber teams (wb) on it, MTTKRP on
# the uniform shape (B-CSF and MM-CSF: the wide kernels) and SpTV there on HOCSR (its one pass
# on mode 3) and HOCFS-ELL. Every mode, rank 32. The GPU MTTKRP and SpTV suites first.
# Run names: --tag 'l1-(\w+)$=l1_carveout'.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda,test_sptv_cuda h200-session40.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda test_sptv_cuda
EXT=jsonl
gen_nell2
M="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
    for v in default 0; do
        c=$v; [ "$v" = default ] && c=
        run nell2-mttkrp-l1-$v 60 env TENSORSCOPE_L1_CARVEOUT=$c "$CLI" bench "$D/nell2.tsb" $M --format B-CSF,CSF,MM-CSF
    done
done
for round in 1 2; do
    for v in default 0; do
        c=$v; [ "$v" = default ] && c=
        run nell2-spttm-l1-$v 40 env TENSORSCOPE_L1_CARVEOUT=$c "$CLI" bench "$D/nell2.tsb" --kernel spttm --backend cuda \
            --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl
    done
done
gen_uniform
for round in 1 2; do
    for v in default 0; do
        c=$v; [ "$v" = default ] && c=
        run uni-mttkrp-l1-$v 45 env TENSORSCOPE_L1_CARVEOUT=$c "$CLI" bench "$D/uni.tsb" $M --format B-CSF,MM-CSF
        run uni-sptv-l1-$v 40 env TENSORSCOPE_L1_CARVEOUT=$c "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda \
            --format HOCSR,HOCFS-ELL --mode all --repeat 10 --jsonl
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
