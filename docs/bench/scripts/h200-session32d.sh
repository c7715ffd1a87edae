#!/bin/bash
# Prepared in session 31 for the next session's fourth call (not yet run): issue 19's standing
# on the split-16 binary on the nell-2 shape (device_steps.sh's standing: MTTKRP on COO, CSF,
# B-CSF, MM-CSF and BLCO, SpTV on every format with a GPU kernel, SpTTM wb). If calls 1-3 made
# an experiment the default, rebuild first and run this on that binary. Bundle: as
# h200-session32.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
standing nell2
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
