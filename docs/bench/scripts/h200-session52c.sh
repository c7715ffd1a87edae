#!/bin/bash
# Session 52's third call (about 540 s): issue 19's standing at the submitted kernels (both of the
# session's experiments removed; the kernels' sources as at 01dd3b5 but for comments), on the
# nell-2 and uniform shapes: MTTKRP on COO, CSF, B-CSF, MM-CSF and BLCO (rank 32), SpTV on every
# format with a GPU kernel, SpTTM's wb variant, every mode; COO's MTTKRP on nell-2 with --check.
# Bundle: make_bundle.sh h200-session52c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_nell2
gen_uniform
standing nell2
EXT=jsonl run nell2-mttkrp-coo-checked 60 "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format COO \
    --mode all --rank 32 --repeat 3 --jsonl --check
standing uni
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
