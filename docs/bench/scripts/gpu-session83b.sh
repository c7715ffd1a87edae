#!/bin/bash
# Session 83, for the budget's last minutes (about 260 s with a fresh machine): delicious-4d's
# shape, MM-CSF at rank 32 with its trees' 8-lane warp sums (TENSORSCOPE_FIBER_TEAM_WARP_SUM=1,
# the default since session 83), against call 1's B-CSF on an H100 of the same kind
# (h100-session83.json): the MM-CSF ratio, measured at session 59 against a slower B-CSF.
# Run from the checkout's root on the device, beside the bundle in /tmp/bundle.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_del4d
run del4d-mmcsf-teamsum 150 env TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 "$CLI" bench "$D/del4d.tsb" --format MM-CSF \
    --kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
