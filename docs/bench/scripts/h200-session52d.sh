#!/bin/bash
# Session 52's fourth call (about 480 s): issue 19's standing on delicious-4d's shape (140M
# nonzeros, order 4) at the submitted kernels, as h200-session52c.sh on the other two shapes.
# Bundle: make_bundle.sh h200-session52d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_del4d
EXT=jsonl run del4d-sptv 120 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda \
    --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF --mode all --repeat 5 --jsonl
EXT=jsonl run del4d-mttkrp 150 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda \
    --format COO,CSF,B-CSF,MM-CSF,BLCO --mode all --rank 32 --repeat 5 --jsonl
EXT=jsonl run del4d-spttm 60 "$CLI" bench "$D/del4d.tsb" --kernel spttm --backend cuda --format COO --variant wb \
    --mode all --rank 32 --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
