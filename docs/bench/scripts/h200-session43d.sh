#!/bin/bash
# Session 43's fourth call (about 280 s), at c04b51d, where a cuda bench row first counts its
# format's values in fp32 (as the device holds them) rather than at the host's 8 bytes: the GPU
# SpTV suite (its bytes test now expects fp32 values), then SpTV on every format with a GPU kernel
# and SpTTM's wb variant, every mode, on the nell-2 and uniform shapes, for the standing against
# issue 19's shares under the corrected count.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session43d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_sptv_cuda
EXT=jsonl
for shape in nell2 uni; do
    if [ $shape = nell2 ]; then gen_nell2; else gen_uniform; fi
    f=$D/$shape.tsb
    run $shape-sptv 90 "$CLI" bench "$f" --kernel sptv --backend cuda --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF \
        --mode all --repeat 5 --jsonl
    run $shape-spttm 45 "$CLI" bench "$f" --kernel spttm --backend cuda --format COO --variant wb --mode all \
        --rank 32 --repeat 5 --jsonl
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
