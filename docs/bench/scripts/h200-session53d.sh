#!/bin/bash
# Session 53's fourth call (about 480 s): what session 52's call 4 left unmeasured on
# delicious-4d's shape (140M nonzeros, order 4) at the submitted kernels: SpTTM's wb variant,
# BLCO's MTTKRP, and MM-CSF beside B-CSF on every mode (rank 32, medians of 5).
# Bundle: make_bundle.sh h200-session53d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_del4d
EXT=jsonl
run del4d-spttm 90 "$CLI" bench "$D/del4d.tsb" --kernel spttm --backend cuda --format COO --variant wb \
    --mode all --rank 32 --repeat 5 --jsonl
run del4d-blco 90 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda --format BLCO --mode all --rank 32 \
    --repeat 5 --jsonl
run del4d-mmcsf-bcsf 150 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda --format MM-CSF,B-CSF --mode all \
    --rank 32 --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
