#!/bin/bash
# Prepared in session 36 for the next session (not yet run): HOCSR's SpTV on every mode of the
# nell-2 and uniform shapes, mode 2 (348M rows) included now that the row limit is 2^29, two
# rounds, each run checked against cpu-ref (about 120 s); then SpTV on the CSR-shaped formats
# (COO, CFB, HOCFS-CSR, CSF) on the delicious-4d shape's mode 2, whose 69 MB vector is larger
# than L2 (58-64% of the bound in session 36 against 84-103% on the other modes), with cuSPARSE's
# accesses to the vector persisting in L2 or not (TENSORSCOPE_SPTV_L2=persist), alternating twice
# (a run loads the tensor and builds four formats, about 45 s).
# Run names: --tag 'l2-(off|persist)=sptv_l2'.
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_pipeline_cuda h200-session37.sh h200-session37b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
gen_uniform
for round in 1 2; do
    for t in nell2 uni; do
        run $t-hocsr 45 "$CLI" bench "$D/$t.tsb" --kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --check --jsonl
    done
done
gen_del4d
for round in 1 2; do
    for l2 in off persist; do
        run del4d-sptv-m2-l2-$l2 60 env TENSORSCOPE_SPTV_L2=$l2 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda \
            --format COO,CFB,HOCFS-CSR,CSF --mode 2 --repeat 10 --jsonl
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
