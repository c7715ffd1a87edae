#!/bin/bash
# Session 95's third call (same bundle as gpu-session95.sh): delicious-4d's trees with the
# 1,443-row mode at the leaves, alternating with SPLATT's order, two rounds, B-CSF and CSF.
# level_order_model.cpp (cpu-level-order-model.json) counts the rows each order gathers: with mode
# 4 at the leaves, every nonzero's leaf row comes from a 185 KB factor that L1 can hold, and the
# rows gathered from the three large factors fall from 254.4M to 206.0M (mode 1, 1,3,2,4), from
# 258.2M to 214.4M (mode 2, 2,1,3,4) and from 254.4M to 206.0M (mode 3, 3,1,2,4). Sessions 84-85
# timed the 17M-row mode one level above the leaves (1.3-2.5% faster) but never this.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=480 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session95c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
P=(--format B-CSF,CSF --kernel mttkrp --backend cuda --rank 32 --repeat 5 --jsonl)
gen_del4d > /dev/null
del4d_order_rounds 2 del4d-order-splatt del4d-order "1,3,2,4 2,1,3,4 3,1,2,4" "${P[@]}"
step DONE; touch "$R/DONE"
pack "$OUT"
