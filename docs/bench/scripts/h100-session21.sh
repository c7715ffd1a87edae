#!/bin/bash
# Issue 19, for the session after session 20, on one H100 from a carried bundle $B (bin/
# tensorscope-cli, tests/, lib/, data/ with the shared real tensors; device_steps.sh beside this
# script). First the cuda suites of what session 20 changed without a GPU (the MTTKRP's host
# side: fp32 factors and the result straight into the caller's rows, 6acf249; SpTTM's staging
# buffer, 2f17c6c), then what session 20's calls had no time for, every bench with --jsonl so a
# step cut at LIMIT keeps its rows: SpTTM (wb) on the uniform nell-2 shape, then on the
# delicious-4d shape CSF, BLCO and COO (B-CSF and MM-CSF were measured in session 20), SpTTM
# and SpTV. Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 60 test_mttkrp_cuda test_spttm_cuda test_decomp_cuda test_ttmc_cuda test_streamed_mttkrp_cuda
EXT=jsonl
run gen-uniform 40 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
run uni-spttm 90 "$CLI" bench "$D/uni.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant wb --mode all --repeat 5 --jsonl
rm -f "$D/uni.tsb"
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
run del4d-rest 200 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda --rank 32 --repeat 5 --format CSF,COO,BLCO --jsonl
run del4d-spttm 60 "$CLI" bench "$D/del4d.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant wb --mode all --repeat 5 --jsonl
run del4d-sptv 90 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format COO,CSF --mode all --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
