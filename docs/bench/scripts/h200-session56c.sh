#!/bin/bash
# Session 56's third call (about 480 s): issue 19's standing on delicious-4d's shape (140M nonzeros,
# order 4) at this commit, so that all three shapes are measured on one build: SpTV on every format
# with a GPU kernel (the adaptive rows' code changed in sessions 55-56 around the blocks of 512 that
# its modes 1, 3 and 4 run), MM-CSF beside B-CSF at rank 32, SpTTM's warp batches; every mode,
# medians of 5.
# Bundle: make_bundle.sh h200-session56c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_del4d
EXT=jsonl
F=$D/del4d.tsb
run del4d-sptv 150 "$CLI" bench "$F" --kernel sptv --backend cuda --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF \
    --mode all --repeat 5 --jsonl
run del4d-mmcsf-bcsf 150 "$CLI" bench "$F" --kernel mttkrp --backend cuda --format MM-CSF,B-CSF --mode all --rank 32 \
    --repeat 5 --jsonl
run del4d-spttm 90 "$CLI" bench "$F" --kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 \
    --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
