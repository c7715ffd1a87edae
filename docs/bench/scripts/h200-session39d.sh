#!/bin/bash
# Session 39's fourth call (about 400 s): the device CPD with COO where a mode's one fp32 output
# copy takes all its adds (delicious-4d's mode 2 at rank 32): that copy is the output, widened
# on the device after the MTTKRP (the default since this call's commit), against every COO mode
# summed into fp64 as before (TENSORSCOPE_CPD_COO_SUM=device), 5 iterations each, alternating
# twice; the GPU decomposition, multi-GPU and MTTKRP suites first.
# Run names: --tag 'cpd-coo-(\w+)$=cpd_coo_sum'.
# Bundle: make_bundle.sh --tests test_decomp_cuda,test_multi_gpu_cuda,test_mttkrp_cuda h200-session39d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 90 test_decomp_cuda test_multi_gpu_cuda test_mttkrp_cuda
gen_del4d
EXT=json
for round in 1 2; do
    for v in widened device; do
        run del4d-cpd-coo-$v 60 env TENSORSCOPE_CPD_COO_SUM=$v "$CLI" decompose "$D/del4d.tsb" --method cpd --backend cuda \
            --format COO --rank 32 --iters 5 --tol 0 --json
    done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
