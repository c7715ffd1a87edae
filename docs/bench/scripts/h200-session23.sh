#!/bin/bash
# Issue 19, for the session after session 22, on one H100 or H200 from a carried bundle $B
# (bin/tensorscope-cli, tests/test_sptv_cuda, lib/, data/; device_steps.sh beside this script).
# Session 22's review (its last commit) changed HOCSR's SpTV set-up without a GPU to run it on:
# the device now counts the non-empty rows (the host's pass over every row pointer is gone) and
# 64-bit offsets go up without a host copy. Its suite first, then HOCSR on the nell-2 shape,
# which should match docs/bench/h200-issue19-session22-call4-nell2.json's r4b1 rows
# (1.16 and 1.37 ms on modes 1 and 3, ~6 ms of transfers a compute). Results packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 60 test_sptv_cuda
EXT=jsonl
gen_nell2
run nell2-hocsr 40 "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode 1,3 --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
