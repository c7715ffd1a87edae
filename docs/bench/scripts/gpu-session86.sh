#!/bin/bash
# Written in session 85 for the next session with a GPU (about 400 s; the bundle built at 97249495
# still matches the engine: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda gpu-session86.sh).
# What session 85's call skipped at its limit (h200-session85.json):
# 1. Delicious-4d's B-CSF and MM-CSF by the defaults, all four modes (MM-CSF's ratio against
#    today's B-CSF, last measured against session 59's).
# 2. The uniform shape's B-CSF, CSF and MM-CSF by the defaults.
# Run from the checkout's root on the device, beside the bundle in /tmp/bundle. Results are
# packed after each step, so that a call cut short hands back what it finished.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
P=(--kernel mttkrp --backend cuda --rank 32 --repeat 5 --jsonl)
gen_del4d > /dev/null
run del4d-defaults 150 "$CLI" bench "$D/del4d.tsb" --format B-CSF,MM-CSF --mode all "${P[@]}"
pack "$OUT"
gen_uniform
run uni-defaults 90 "$CLI" bench "$D/uni.tsb" --format B-CSF,CSF,MM-CSF --mode all "${P[@]}"
step DONE; touch "$R/DONE"
pack "$OUT"
