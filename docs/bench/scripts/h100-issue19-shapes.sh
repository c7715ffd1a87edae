#!/bin/bash
# Issue 19's "the same on other shapes", one H100, from a carried bundle $B (device_steps.sh beside this script; bin/tensorscope-cli,
# lib/): a uniform tensor of the nell-2 shape (76.9M nonzeros, fibers of about one nonzero) and
# the delicious-4d shape (532,924 x 17,262,471 x 2,480,308 x 1,443, power law); on each the CUDA
# MTTKRP of every GPU format (rank 32, --check against cpu-ref on the uniform one), SpTV on every
# format and SpTTM's variants with the roofline columns. Each step is skipped once the call's
# time (LIMIT seconds, from the start) would be passed. Results (JSON, stderr) land in $R.
set -u
B=${B:-/tmp/bundle}; R=${R:-/tmp/res}; D=${D:-/tmp/tensors}; LIMIT=${LIMIT:-520}
mkdir -p "$R" "$D"
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=$(nproc)
CLI=$B/bin/tensorscope-cli
START=$(date +%s)
EXT=json; . "$(dirname "$0")/device_steps.sh"
step "machine: $(nvidia-smi --query-gpu=name --format=csv,noheader)"
run gen-uniform 40 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
run uni-mttkrp 150 "$CLI" bench "$D/uni.tsb" --kernel mttkrp --backend cuda --format COO,CSF,B-CSF,MM-CSF,BLCO --rank 32 --check --json
run uni-sptv 60 "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format all --json
run gen-del4d 150 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
run del4d-mttkrp 200 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda --format B-CSF,CSF,BLCO,COO --rank 32 --json
run del4d-sptv 60 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format all --json
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"  # one file back from the device (it hands back 8 at most)
