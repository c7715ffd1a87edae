#!/bin/bash
# Session 55's fourth call (about 230 s): issue 19's SpTV line as it now stands, every format with a
# GPU kernel, every mode, medians of 5, on the nell-2 and uniform shapes (standing's SpTV step).
# Bundle: make_bundle.sh h200-session55d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
gen_uniform
for t in nell2 uni; do
    run $t-sptv 100 "$CLI" bench "$D/$t.tsb" --kernel sptv --backend cuda --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF \
        --mode all --repeat 5 --jsonl
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
