#!/bin/bash
# Issue 19, session 22's third device call, from a carried bundle $B (bin/tensorscope-cli,
# tests/, lib/, data/; device_steps.sh beside this script): the final code of this session's
# two kernels. The suites first (HOCSR's SpTV now stages a block's products in shared memory;
# SpTTM's float4 warp batches walk 128 nonzeros a group; the Tucker suites run SpTTM's plans),
# then both kernels on the nell-2 and uniform shapes, then SpTTM on delicious-4d until the
# call's time is spent (--jsonl keeps the modes it finished). Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 60 test_sptv_cuda test_spttm_cuda test_ttmc_cuda test_decomp_cuda
EXT=jsonl
gen_nell2
run nell2-sptv 40 "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR,CSF --mode all --repeat 5 --jsonl
run nell2-spttm 30 "$CLI" bench "$D/nell2.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant wb --mode all --repeat 5 --jsonl
rm -f "$D/nell2.tsb"
run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
run uni-sptv 40 "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR,CSF --mode all --repeat 5 --jsonl
run uni-spttm 55 "$CLI" bench "$D/uni.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant wb --mode all --repeat 5 --jsonl
rm -f "$D/uni.tsb"
run gen-del4d 90 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
run del4d-spttm 60 "$CLI" bench "$D/del4d.tsb" --kernel spttm --backend cuda --format COO --rank 32 --variant wb --mode all --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
