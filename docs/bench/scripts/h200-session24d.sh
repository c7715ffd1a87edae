#!/bin/bash
# Issue 19, session 24, call 5, on one H100 or H200 from a carried bundle $B (bin/tensorscope-cli,
# tests/test_sptv_cuda, lib/, data/; device_steps.sh beside this script). SpTV's shared-vector
# product as committed: the 4-row kernel for a vector of up to 64 KB, a thread per row above
# (calls 3 and 4). The suite, then the uniform shape's CSR-shaped formats on every mode twice and
# the nell-2 shape's once (its long rows keep cuSPARSE). Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 60 test_sptv_cuda
EXT=jsonl
gen_nell2
[ -f "$D/uni.tsb" ] || run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
F="--kernel sptv --backend cuda --format COO,CSF,HOCFS-CSR,CFB --mode all --repeat 5 --jsonl"
run uni-1 60 "$CLI" bench "$D/uni.tsb" $F
run nell2 50 "$CLI" bench "$D/nell2.tsb" $F
run uni-2 60 "$CLI" bench "$D/uni.tsb" $F
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
