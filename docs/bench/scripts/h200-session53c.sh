#!/bin/bash
# Session 53's third call (about 200 s): HOCSR's first pass at eight blocks an SM where there are
# at least 160M rows (sptv_kept_rows.cuh's KeptRows::full), by default: the GPU SpTV suite
# (hocsrEitherPass's new row), then HOCSR's three modes on the nell-2 and uniform shapes with
# --check and medians of 10.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session53c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_to test_sptv_cuda test_sptv_cuda &
EXT=jsonl
gen_nell2
gen_uniform
wait
for t in nell2 uni; do
    run $t-hocsr-default 60 "$CLI" bench "$D/$t.tsb" --kernel sptv --backend cuda --format HOCSR --mode all --jsonl \
        --repeat 10 --check
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
