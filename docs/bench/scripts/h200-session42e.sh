#!/bin/bash
# Session 42, call 5 (about 60 s): MM-CSF's partitioning on the device with the runs of 32 members
# and more walked by a warp each (a ballot's count per 32 members) and each run's end found by a
# binary search, where a thread walked every run (call 3: 1.05-1.08 s of the nell-2 shape's MM-CSF
# build). Its suite and the CPD's first, then the CPD with MM-CSF on the nell-2 shape twice and the
# uniform shape once (build_s counts the partition).
# Bundle: make_bundle.sh --tests test_mmcsf_partition_cuda,test_decomp_cuda h200-session42e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_mmcsf_partition_cuda test_decomp_cuda
EXT=json
gen_nell2
run nell2-cpd-MM-CSF 30 "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda --format MM-CSF --rank 32 --iters 5 --tol 0 --json
run nell2-cpd-MM-CSF 30 "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda --format MM-CSF --rank 32 --iters 5 --tol 0 --json
gen_uniform
run uni-cpd-MM-CSF 30 "$CLI" decompose "$D/uni.tsb" --method cpd --backend cuda --format MM-CSF --rank 32 --iters 5 --tol 0 --json
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
