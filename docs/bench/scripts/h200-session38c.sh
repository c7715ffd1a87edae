#!/bin/bash
# Session 38's third call (about 400 s): the GPU SpTV suite, then SpTV on the CSR-shaped formats
# (COO, CFB, HOCFS-CSR, CSF, through cuSPARSE) on the delicious-4d shape's mode 2 (a 69 MB
# vector) with its much-read entries packed ahead of it (sptv_hot_columns.cuh) in four ways, one
# round: off (TENSORSCOPE_SPTV_HOT=0); every entry read twice or more, by count (session 37's
# renumbering, bar the entries read once); half of L2's bytes of them by id (the default); the
# same by count. h200-session38d.sh runs the second round where the tensor is still there.
# Run names: --tag 'pack-(\w+)=sptv_pack'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session38c.sh h200-session38d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_sptv_cuda
EXT=jsonl
gen_del4d
S="--kernel sptv --backend cuda --format COO,CFB,HOCFS-CSR,CSF --repeat 10 --jsonl --mode 2"
run del4d-pack-off 90 env TENSORSCOPE_SPTV_HOT=0 "$CLI" bench "$D/del4d.tsb" $S
run del4d-pack-all 90 env TENSORSCOPE_SPTV_HOT_BYTES=1000000000000 TENSORSCOPE_SPTV_HOT_ORDER=count "$CLI" bench "$D/del4d.tsb" $S
run del4d-pack-id 90 "$CLI" bench "$D/del4d.tsb" $S
run del4d-pack-count 90 env TENSORSCOPE_SPTV_HOT_ORDER=count "$CLI" bench "$D/del4d.tsb" $S
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
