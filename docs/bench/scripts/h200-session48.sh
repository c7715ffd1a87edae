#!/bin/bash
# Prepared in session 47 for the next session's first call (about 440 s): SpTV's standing at the
# final commit, whose adaptive rows (sptv_adaptive_rows.cuh, the vector staged in shared memory)
# now also carry COO's fiber segments and delicious-4d's mode 4, neither measured so in session 47.
# 1. The GPU SpTV and SpTTM suites (the final commit's host-side grid helper untested there).
# 2. nell-2 shape, COO, CSF, CFB, HOCFS-CSR and HOCSR, every mode: the default against
#    TENSORSCOPE_SPTV_ROWS=cusparse, alternating twice.
# 3. uniform shape, every format, the default (its rows are all short: the shared-vector kernels).
# 4. delicious-4d shape, mode 4, COO, CSF and HOCFS-CSR: the default against cusparse.
# Run names: --tag 'rows-([a-z]+)=rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_spttm_cuda h200-session48.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda test_spttm_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
gen_nell2
F="--format COO,CSF,CFB,HOCFS-CSR,HOCSR --mode all"
for round in 1 2; do
    run nell2-rows-adaptive 60 "$CLI" bench "$D/nell2.tsb" $S $F
    run nell2-rows-cusparse 60 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/nell2.tsb" $S $F
done
rm -f "$D/nell2.tsb"
gen_uniform
run uni-rows-chosen 80 "$CLI" bench "$D/uni.tsb" $S --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF --mode all
rm -f "$D/uni.tsb"
gen_del4d
F="--format COO,CSF,HOCFS-CSR --mode 4"
run del4d-m4-rows-adaptive 60 "$CLI" bench "$D/del4d.tsb" $S $F
run del4d-m4-rows-cusparse 60 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/del4d.tsb" $S $F
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
