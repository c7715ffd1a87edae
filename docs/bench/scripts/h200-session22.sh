#!/bin/bash
# Issue 19, for the session after session 21, on one H100 or H200 from a carried bundle $B (bin/
# tensorscope-cli, tests/, lib/, data/; device_steps.sh beside this script). First the suites of
# what session 21 changed without a GPU run of the final code: the cuSPARSE SpTV as committed
# (3e642d6; its kernel ran in session 21 only behind a measurement switch), SpTTM's seventh
# variant, cuSPARSE's CSR SpMM (not run on a GPU yet), the lazy cuSPARSE loading. Then the
# nell-2, uniform and delicious-4d shapes: SpTTM wb against cusparse, and SpTV on every format.
# Every bench with --jsonl. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 60 test_spttm_cuda test_sptv_cuda test_lazy_libraries
EXT=jsonl
gen_nell2
run nell2-spttm 90 "$CLI" bench "$D/nell2.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant wb,cusparse --mode all --repeat 5 --jsonl
run nell2-sptv 70 "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format COO,CSF,HOCFS-CSR,CFB,HOCSR --mode all --repeat 5 --jsonl
rm -f "$D/nell2.tsb"
run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
run uni-spttm 90 "$CLI" bench "$D/uni.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant wb,cusparse --mode all --repeat 5 --jsonl
rm -f "$D/uni.tsb"
run gen-del4d 80 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
run del4d-sptv 120 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format COO,CSF,HOCFS-CSR --mode all --repeat 5 --jsonl
run del4d-spttm 200 "$CLI" bench "$D/del4d.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant cusparse,wb --mode all --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
