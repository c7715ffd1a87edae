#!/bin/bash
# Session 42, call 3 (about 150 s): MM-CSF's partitioning (Alg. 5) on the device for the CPD
# (gpu_mmcsf_partition.cu; it was the host's mmcsf_partition, 8.7-11.8 s of the CPD's setup on the
# nell-2 shape in calls 1-2). Its suite first (the device's labels against the host's serial and
# blocked passes, label for label, with the host's counts of blocks, sweeps and serial rest), then
# the suites that build MM-CSF on the device (the format build's, with its 72 MiB row for the
# fiber ordering that did not run in call 2; the CPD's; the multi-GPU parts'); then the CPD with
# MM-CSF on the nell-2 shape twice and the uniform shape once (setup_seconds, the fit), and B-CSF
# on the nell-2 shape once beside them.
# Bundle: make_bundle.sh --tests test_mmcsf_partition_cuda,test_format_build_cuda,test_decomp_cuda,test_multi_gpu_cuda h200-session42c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 100 test_mmcsf_partition_cuda test_format_build_cuda test_decomp_cuda test_multi_gpu_cuda
EXT=json
gen_nell2
for f in MM-CSF B-CSF MM-CSF; do
    run "nell2-cpd-$f" 40 "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda --format $f --rank 32 --iters 5 --tol 0 --json
done
gen_uniform
run uni-cpd-MM-CSF 40 "$CLI" decompose "$D/uni.tsb" --method cpd --backend cuda --format MM-CSF --rank 32 --iters 5 --tol 0 --json
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
