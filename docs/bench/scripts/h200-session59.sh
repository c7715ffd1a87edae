#!/bin/bash
# Session 59's first call (about 540 s): issue 19's standing on delicious-4d's shape (140M nonzeros,
# order 4) at this commit, every kernel the README's table quotes in one run: MTTKRP on COO, CSF,
# B-CSF, MM-CSF and BLCO (rank 32), SpTV on every format with a GPU kernel, SpTTM's wb variant;
# every mode, medians of 5. Until now the table's delicious-4d column mixed sessions 52, 53 and 56.
# Bundle: make_bundle.sh h200-session59.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_del4d
standing del4d
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
