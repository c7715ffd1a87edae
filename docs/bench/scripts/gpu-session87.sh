#!/bin/bash
# Session 86's first call (about 560 s): issue 19's standing on the H100, the device its lines
# name, at this commit: the nell-2 and uniform shapes (76.9M nonzeros each), every kernel the
# README's table quotes (device_steps.sh's standing with CHECK=1: MTTKRP on COO, CSF, B-CSF, MM-CSF
# and BLCO at rank 32 and SpTV on every format with a GPU kernel, each checked against cpu-ref;
# SpTTM's warp batches), every mode, medians of 5. The last standing on an H100 was session 20's;
# the README's table since is one H200's (sessions 58-59, 81-82). gpu-session87b.sh does
# delicious-4d's shape. The bundle built at 97249495 matches the engine (only docs changed since).
# Run from the checkout's root on the device, beside the bundle in /tmp/bundle. Results are packed
# after each shape, so that a call cut short hands back what it finished.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
export CHECK=1
gen_nell2
standing nell2
pack "$OUT"
gen_uniform
standing uni
step DONE; touch "$R/DONE"
pack "$OUT"
