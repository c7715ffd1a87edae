#!/bin/bash
# Session 55's fifth call (about 120 s): HOCSR's mode 3 on the nell-2 shape with the kept offsets'
# low 16 bits (TENSORSCOPE_HOCSR_LOW16=1, low161) against 32 bits (the default there, low160), now
# that blocks of 1,024 load 16-byte groups and the warp sums long rows; alternating twice, medians
# of 10; then low16 once with --check.
# Run names: --tag 'low16(\d)$=hocsr_low16'.
# Bundle: make_bundle.sh h200-session55e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
H="--kernel sptv --backend cuda --format HOCSR --mode 3 --jsonl"
for round in 1 2; do
    for v in 1 0; do
        run nell2-m3-low16$v 20 env TENSORSCOPE_HOCSR_LOW16=$v "$CLI" bench "$D/nell2.tsb" $H --repeat 10
    done
done
run nell2-m3-check-low161 40 env TENSORSCOPE_HOCSR_LOW16=1 "$CLI" bench "$D/nell2.tsb" $H --repeat 2 --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
