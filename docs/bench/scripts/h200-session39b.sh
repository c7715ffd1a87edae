#!/bin/bash
# Prepared in session 38 for the next session's second call, straight after h200-session39.sh on
# the same machine (not yet run, about 330 s with its delicious-4d tensor, 80 s more without):
# the GPU MTTKRP suite, then COO's MTTKRP at rank 32 on the delicious-4d shape's every mode with
# a single output copy widened on the host (the default since session 38) or summed into fp64
# on the device (TENSORSCOPE_COO_SUM=device, as before), alternating twice (mode 2's 17M rows
# take one copy: 792 GFLOP/s in session 36); then the default once more on mode 2 with --check.
# Run names: --tag 'sum-(\w+)=coo_sum'.
# Bundle: make_bundle.sh --tests test_sptv_cuda,test_mttkrp_cuda h200-session39.sh h200-session39b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 120 test_mttkrp_cuda
EXT=jsonl
gen_del4d
M="--kernel mttkrp --backend cuda --format COO --rank 32 --repeat 10 --jsonl"
for round in 1 2; do
    run del4d-coo-sum-host 60 "$CLI" bench "$D/del4d.tsb" $M --mode all
    run del4d-coo-sum-device 60 env TENSORSCOPE_COO_SUM=device "$CLI" bench "$D/del4d.tsb" $M --mode all
done
run del4d-coo-checked 120 "$CLI" bench "$D/del4d.tsb" $M --mode 2 --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
