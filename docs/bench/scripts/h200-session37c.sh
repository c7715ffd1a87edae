#!/bin/bash
# Session 37, call 3: the part of h200-session37b.sh that its HOCSR runs left no time for (the
# uniform shape's HOCSR checks ran past 350 s): SpTV on the CSR-shaped formats on the
# delicious-4d shape's mode 2 with cuSPARSE's vector accesses persisting in L2 or not
# (TENSORSCOPE_SPTV_L2), alternating twice. Run names: --tag 'l2-(off|persist)=sptv_l2'.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_del4d
for round in 1 2; do
    for l2 in off persist; do
        run del4d-sptv-m2-l2-$l2 60 env TENSORSCOPE_SPTV_L2=$l2 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda \
            --format COO,CFB,HOCFS-CSR,CSF --mode 2 --repeat 10 --jsonl
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
