#!/bin/bash
# Prepared in session 31 for the next session's second call (not yet run): issue 19's standing on
# the split-16 binary (device_steps.sh's standing: MTTKRP on COO, CSF, B-CSF, MM-CSF and BLCO,
# SpTV on every format with a GPU kernel, SpTTM wb) on the nell-2 and uniform shapes, then the
# real tensors' MTTKRP with --check. Bundle: as h200-session32.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
standing nell2
gen_uniform
standing uni
for t in movielens-100k lastfm-tags jf17k-4d; do
    run $t-mttkrp 20 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --backend cuda --format COO,CSF,B-CSF,MM-CSF --mode all \
        --rank 32 --repeat 5 --jsonl --check
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
