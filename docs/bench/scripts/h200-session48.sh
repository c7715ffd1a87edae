#!/bin/bash
# Prepared in session 47 for the next session's first call (about 420 s): SpTV's standing at the
# final commit on the nell-2 shape, whose adaptive rows (sptv_adaptive_rows.cuh, the vector
# staged in shared memory) now also carry COO's fiber segments, not measured so in session 47;
# and the cluster experiment on mode 3 (TENSORSCOPE_SPTV_ADAPTIVE_CLUSTER=1: half the 115 KB
# vector in each block of a cluster of two, three blocks of 512 an SM, not yet run on a GPU).
# h200-session48b.sh, the second call, covers the uniform shape and delicious-4d's mode 4.
# 1. The GPU SpTV and SpTTM suites (the clusters' rows in csrProductsAgree).
# 2. nell-2 shape, COO, CSF, CFB, HOCFS-CSR and HOCSR, every mode: the default against
#    TENSORSCOPE_SPTV_ROWS=cusparse, alternating twice.
# 3. nell-2 shape, the same formats, mode 3: the default against clusters, alternating twice.
# Run names: --tag 'rows-([a-z]+)=rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_spttm_cuda h200-session48.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda test_spttm_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl --format COO,CSF,CFB,HOCFS-CSR,HOCSR"
gen_nell2
for round in 1 2; do
    run nell2-rows-adaptive 60 "$CLI" bench "$D/nell2.tsb" $S --mode all
    run nell2-rows-cusparse 60 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/nell2.tsb" $S --mode all
done
for round in 1 2; do
    run nell2-m3-rows-large 30 "$CLI" bench "$D/nell2.tsb" $S --mode 3
    run nell2-m3-rows-cluster 30 env TENSORSCOPE_SPTV_ADAPTIVE_CLUSTER=1 "$CLI" bench "$D/nell2.tsb" $S --mode 3
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
