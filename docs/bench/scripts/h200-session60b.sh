#!/bin/bash
# Session 60's second call: cuSPARSE's merge-based CSR SpMV (ALG2) against ALG1, where cuSPARSE
# still runs SpTV: delicious-4d's mode 2, whose 69 MB vector is past L2 (COO and CFB, the packed
# front as always), alternating twice in one binary (TENSORSCOPE_SPTV_SPMV=alg2 switches), the
# first round checked against cpu-ref.
# Bundle: make_bundle.sh h200-session60b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_del4d
sptv() { EXT=jsonl run "del4d-sptv-m2-$1" 60 env TENSORSCOPE_SPTV_SPMV=$1 "$CLI" bench "$D/del4d.tsb" --kernel sptv \
    --backend cuda --format COO,CFB --mode 2 --repeat 10 --jsonl "${@:2}"; }
sptv alg1 --check
sptv alg2 --check
sptv alg2
sptv alg1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
