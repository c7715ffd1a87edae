#!/bin/bash
# Session 86's second call (about 560 s): issue 19's standing on the H100 on delicious-4d's shape
# (140M nonzeros, order 4), as gpu-session87.sh does the nell-2 and uniform shapes: MTTKRP on COO,
# CSF, B-CSF, MM-CSF and BLCO at rank 32 and SpTV on every format with a GPU kernel, each checked
# against cpu-ref, then SpTTM's warp batches; every mode, medians of 5.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
export CHECK=1
gen_del4d
standing del4d
step DONE; touch "$R/DONE"
pack "$OUT"
