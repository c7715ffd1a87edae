#!/bin/bash
# Prepared in session 36 for the next session (not yet run): HOCSR's SpTV on every mode of the
# nell-2 and uniform shapes, mode 2 (348M rows) included now that the row limit is 2^29, two
# rounds, each run checked against cpu-ref; about 120 s.
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_pipeline_cuda h200-session37.sh h200-session37b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
gen_uniform
for round in 1 2; do
    for t in nell2 uni; do
        run $t-hocsr 45 "$CLI" bench "$D/$t.tsb" --kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --check --jsonl
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
