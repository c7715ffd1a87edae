#!/bin/bash
# Session 38's fourth call, straight after h200-session38c.sh on the same machine (about 420 s
# with its delicious-4d tensor, 80 s more without): the second round of its four ways in the
# opposite order, then the default once more with --check (cpu-ref's SpTV on mode 2).
# Run names: --tag 'pack-(\w+)=sptv_pack'.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_del4d
S="--kernel sptv --backend cuda --format COO,CFB,HOCFS-CSR,CSF --repeat 10 --jsonl --mode 2"
run del4d-pack-count 90 env TENSORSCOPE_SPTV_HOT_ORDER=count "$CLI" bench "$D/del4d.tsb" $S
run del4d-pack-id 90 "$CLI" bench "$D/del4d.tsb" $S
run del4d-pack-all 90 env TENSORSCOPE_SPTV_HOT_BYTES=1000000000000 TENSORSCOPE_SPTV_HOT_ORDER=count "$CLI" bench "$D/del4d.tsb" $S
run del4d-pack-off 90 env TENSORSCOPE_SPTV_HOT=0 "$CLI" bench "$D/del4d.tsb" $S
run del4d-checked 150 "$CLI" bench "$D/del4d.tsb" $S --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
