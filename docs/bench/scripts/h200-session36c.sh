#!/bin/bash
# Session 36's third call: HOCFS-ELL's SpTV with fibers past 32 entries summed by their warp
# (the default) or each walked by its own thread (TENSORSCOPE_ELL_LONG=thread, Fig. 10 as
# written, 20.6 and 26.5 ms on the delicious-4d shape's modes 1 and 3 in call 2), on that shape
# (warp, thread, warp) and on the uniform shape (every mode, two rounds); then the delicious-4d
# standing's parts call 2 ran out of time for: SpTV on CSF and SpTTM's wb, every mode; Nsight
# Compute on the new ELL kernel (delicious-4d mode 1) last.
# Run names end in the walk: --tag 'ell-(warp|thread)=ell_long'.
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_pipeline_cuda h200-session36c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda test_pipeline_cuda
EXT=jsonl
gen_del4d
gen_uniform
E="--kernel sptv --backend cuda --format HOCFS-ELL --repeat 10 --jsonl"
for walk in warp thread warp; do
    run del4d-ell-$walk 60 env TENSORSCOPE_ELL_LONG=$walk "$CLI" bench "$D/del4d.tsb" $E --mode 1,3
done
for round in 1 2; do
    for walk in warp thread; do
        run uni-ell-$walk 30 env TENSORSCOPE_ELL_LONG=$walk "$CLI" bench "$D/uni.tsb" $E --mode all
    done
done
run del4d-sptv-csf 60 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format CSF --mode all --repeat 5 --jsonl
run del4d-spttm 90 "$CLI" bench "$D/del4d.tsb" --kernel spttm --backend cuda --format COO --variant wb --mode all \
    --rank 32 --repeat 5 --jsonl
ncu_setup
EXT=out
run ncu-ell-del4d-m1 60 "$NCU" $NCU_P --launch-count 1 --kernel-name regex:sptv_ell_kernel "$CLI" bench "$D/del4d.tsb" \
    --kernel sptv --backend cuda --format HOCFS-ELL --mode 1 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
