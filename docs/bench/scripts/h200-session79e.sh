#!/bin/bash
# Session 79, call 5: the head's default (the tiles' rule, chunks of 64K nonzeros on large trees)
# on the uniform shape against the fiber kernels (TENSORSCOPE_FIBER_TILES=0), B-CSF at
# rank 32, two rounds alternating, --check in round 1. Bundle (make_bundle.sh --strip --no-data --icu-stub): bin/tensorscope-cli, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_uniform

EXT=jsonl
A=(--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl)
run uni-rule-1 40 "$CLI" bench "$D/uni.tsb" "${A[@]}" --check
run uni-fibers-1 30 env TENSORSCOPE_FIBER_TILES=0 "$CLI" bench "$D/uni.tsb" "${A[@]}"
run uni-fibers-2 30 env TENSORSCOPE_FIBER_TILES=0 "$CLI" bench "$D/uni.tsb" "${A[@]}"
run uni-rule-2 30 "$CLI" bench "$D/uni.tsb" "${A[@]}"

step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
