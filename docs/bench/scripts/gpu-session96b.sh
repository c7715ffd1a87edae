#!/bin/bash
# The next session's second call (see gpu-session96.sh; same bundle, best on the machine that call
# left warm, where delicious-4d's tensor is still in /tmp/tensors): the GPU level order by default
# against SPLATT's order given by --mode-order, B-CSF and CSF, modes 1-3, two alternating rounds
# (session 95 timed the same orders through --mode-order alone: 8.4-10.0% less time).
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session96b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
P=(--format B-CSF,CSF --kernel mttkrp --backend cuda --rank 32 --repeat 5 --jsonl)
gen_del4d > /dev/null
del4d_order_rounds 2 del4d-order-gpu del4d-order-splatt "1,4,3,2 2,4,1,3 3,4,1,2" "${P[@]}"
step DONE; touch "$R/DONE"
pack "$OUT"
