#!/bin/bash
# Session 38's fifth call (about 130 s, the session's last device time): the GPU SpTV suite at
# the commit that packs by count by default, and SpTV on a tensor of delicious-4d's dimensions
# with 60M nonzeros (mode 2's vector 69 MB, over L2) on the CSR-shaped formats, as packed by
# default, checked against cpu-ref.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_sptv_cuda
EXT=jsonl
run gen-del4d60 60 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 60000000 --dist powerlaw:1.0 --seed 7 --float \
    -o "$D/del4d60.tsb"
run del4d60-checked 90 "$CLI" bench "$D/del4d60.tsb" --kernel sptv --backend cuda --format COO,CFB,HOCFS-CSR,CSF --repeat 10 \
    --jsonl --mode 2 --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
