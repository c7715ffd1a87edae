#!/bin/bash
# Session 42's last call (about 250 s): the CUDA suites that the session's changes reach (the
# trees' ordering, their build and MM-CSF's partition on the device, the CPD; the GPU parts ran on
# two GPUs in call 6) at its final commit (more did not fit the 64 MiB a call carries), then
# SpTTM on the nell-2 shape with every variant (rank 32), to refresh the Kernels tab's bundled
# H200 SpTTM recording (resources/recordings/bench/, session 25's COO wb rows until now).
# Bundle: make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda,test_format_build_cuda,test_mmcsf_partition_cuda h200-session42g.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 120 test_mttkrp_cuda test_decomp_cuda test_format_build_cuda test_mmcsf_partition_cuda
gen_nell2
EXT=jsonl run nell2-spttm-standing 150 "$CLI" bench "$D/nell2.tsb" --kernel spttm --backend cuda --format COO --variant all \
    --mode all --rank 32 --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
