#!/bin/bash
# Session 35's third call: the SpTV suite on this binary (the thread-per-row kernel with the
# vector in shared memory now sums a row of more than TENSORSCOPE_SPTV_LONG nonzeros with the
# whole warp; TENSORSCOPE_SPTV_ROWS=shared-rows takes it whatever the vector's size and the
# rows' lengths), then SpTV on the nell-2 shape's power-law rows, every mode, HOCSR (its kept
# rows), HOCFS-CSR and CSF: cuSPARSE's SpMV (what runs there now) against that kernel with long
# rows from 32, 16, 8 and 4 nonzeros, two rounds in turn; then Nsight Compute on it (from 8) on
# HOCSR's mode 3.
# Run names end in the way: --tag 'nell2-sptv-(cusparse|long\d+)=sptv_rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session35c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
gen_nell2
V="--kernel sptv --backend cuda --format HOCSR,HOCFS-CSR,CSF --mode all --repeat 10 --jsonl"
for round in 1 2; do
    run nell2-sptv-cusparse 40 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/nell2.tsb" $V
    for l in 32 16 8 4; do
        run nell2-sptv-long$l 40 env TENSORSCOPE_SPTV_ROWS=shared-rows TENSORSCOPE_SPTV_LONG=$l "$CLI" bench "$D/nell2.tsb" $V
    done
done
ncu_setup
EXT=out
run ncu-hocsr-nell2-m3-long8 60 env TENSORSCOPE_SPTV_ROWS=shared-rows TENSORSCOPE_SPTV_LONG=8 "$NCU" $NCU_P --launch-count 1 \
    --kernel-name regex:shared_vector_row "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
