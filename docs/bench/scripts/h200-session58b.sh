#!/bin/bash
# Session 58's second call (about 560 s): issue 19's standing at this build (its kernels' sources
# as at 5a924aa but for comments; the bench's MM-CSF rows now carry add_bytes / add_gbps), on the
# nell-2 and uniform shapes: MTTKRP on COO, CSF, B-CSF, MM-CSF and BLCO (rank 32), SpTV on every
# format with a GPU kernel, SpTTM's wb variant, every mode; and every SpTTM variant on the nell-2
# shape, for the Kernels tab's bundled recordings.
# Bundle: make_bundle.sh h200-session58b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_nell2
gen_uniform
standing nell2
EXT=jsonl run nell2-spttm-all 60 "$CLI" bench "$D/nell2.tsb" --kernel spttm --backend cuda --format COO --variant all \
    --mode all --rank 32 --repeat 5 --jsonl
standing uni
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
