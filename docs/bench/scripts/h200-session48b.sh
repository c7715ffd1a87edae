#!/bin/bash
# Prepared in session 47 for the next session's second call (about 360 s): HOCSR in one pass over
# blocks of its tuples cut when the plan is made (sptv_adaptive_tuples.cuh, TENSORSCOPE_HOCSR=fused,
# an experiment not yet run on a GPU) against the default (two passes) on the nell-2 and uniform
# shapes; SpTV on the uniform shape at the final commit (its rows all short: the shared-vector
# kernels, unchanged); and delicious-4d's mode 4 (a 6 KB vector), where the adaptive rows with
# the vector staged, as committed, were not measured (session 47 measured them through L1).
# Run names: --tag 'rows-([a-z]+)=rows' --tag 'hocsr-([a-z]+)=hocsr'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session48b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
H="--format HOCSR --mode all"
gen_nell2
for round in 1 2; do
    run nell2-hocsr-kept 30 "$CLI" bench "$D/nell2.tsb" $S $H
    run nell2-hocsr-fused 30 env TENSORSCOPE_HOCSR=fused "$CLI" bench "$D/nell2.tsb" $S $H
done
run nell2-checked-hocsr-fused 40 env TENSORSCOPE_HOCSR=fused "$CLI" bench "$D/nell2.tsb" $S $H --repeat 2 --check
rm -f "$D/nell2.tsb"
gen_uniform
run uni-hocsr-fused 30 env TENSORSCOPE_HOCSR=fused "$CLI" bench "$D/uni.tsb" $S $H
run uni-rows-chosen 80 "$CLI" bench "$D/uni.tsb" $S --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF --mode all
rm -f "$D/uni.tsb"
gen_del4d
F="--format COO,CSF,HOCFS-CSR --mode 4"
run del4d-m4-rows-adaptive 60 "$CLI" bench "$D/del4d.tsb" $S $F
run del4d-m4-rows-cusparse 60 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/del4d.tsb" $S $F
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
