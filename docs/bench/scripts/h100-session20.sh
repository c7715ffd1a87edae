#!/bin/bash
# Issue 19, session 20, on one H100 from a carried bundle $B (bin/tensorscope-cli, tests/, lib/,
# data/ with the shared real tensors so the suites' real-tensor cases run; device_steps.sh
# beside this script). PART=1: the cuda suites of the kernels (first to run f4227df's SpTTM
# constants, 8 gathers and 5 blocks, through test_spttm_cuda), then issue 19's "very short
# fibers" shape (uniform, nell-2's dims, 76.9M nonzeros): MTTKRP of every GPU format at rank 32
# checked against cpu-ref, SpTV on every format, SpTTM's variants. PART=2: the delicious-4d
# shape (532,924 x 17,262,471 x 2,480,308 x 1,443, 140M nonzeros, power law): MTTKRP of every
# GPU format, then SpTTM (wb) and SpTV on COO and CSF, and
# PART 1's SpTTM on the uniform shape, as time allows. PART=3: what PART 2 left (below). Each step is skipped once
# the call's time (LIMIT seconds from the start) would pass; results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=json
M="--kernel mttkrp --backend cuda --rank 32 --repeat 5 --json"
if [ "${PART:-1}" = 1 ]; then
    EXT=out run_suites 60 test_spttm_cuda test_sptv_cuda test_mttkrp_cuda test_ttmc_cuda test_decomp_cuda
    run gen-uniform 40 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
    run uni-mttkrp 170 "$CLI" bench "$D/uni.tsb" $M --format COO,CSF,B-CSF,MM-CSF,BLCO --check
    run uni-sptv 60 "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format all --repeat 5 --json
    run uni-spttm 60 "$CLI" bench "$D/uni.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant all --mode all --repeat 5 --json
elif [ "$PART" = 2 ]; then
    run gen-del4d 150 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
    for f in B-CSF MM-CSF CSF BLCO COO; do run "del4d-$f" 70 "$CLI" bench "$D/del4d.tsb" $M --format "$f"; done
    run del4d-spttm 60 "$CLI" bench "$D/del4d.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant wb --mode all --repeat 5 --json
    run del4d-sptv 90 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format COO,CSF --mode all --repeat 5 --json
    rm -f "$D/del4d.tsb"
    [ -f "$D/uni.tsb" ] || run gen-uniform 40 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
    run uni-spttm 60 "$CLI" bench "$D/uni.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant all --mode all --repeat 5 --json
else  # PART=3: what PART 2 had no time for (one bench per invocation took 3-4 minutes there:
      # the factors of 17M and 2.5M rows made and copied each time), the formats in one invocation
    run gen-uniform 40 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
    run uni-spttm 60 "$CLI" bench "$D/uni.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant all --mode all --repeat 5 --json
    rm -f "$D/uni.tsb"
    run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
    run del4d-rest 240 "$CLI" bench "$D/del4d.tsb" $M --format CSF,COO,BLCO
    run del4d-sptv 90 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format COO,CSF --mode all --repeat 5 --json
fi
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
