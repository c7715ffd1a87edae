#!/bin/bash
# Session 42, call 2 (about 480 s): the fiber ordering on the device by default (uploaded trees and
# the CPD's device-built ones; TENSORSCOPE_FIBER_ORDER=tree keeps the trees' order), its sort double
# buffered (24 bytes a fiber where it held 36), and skipped where the device has no room for it.
# The suites that build or upload trees first; then the CPD on the nell-2 shape, B-CSF and MM-CSF,
# rank 32, 5 iterations, ordered and not, alternating twice (peak_device_bytes: the sort's memory);
# B-CSF under --limit-gpu-memory 4600M and 5000M (near its peak: some trees may go unordered; the
# fit must not change); the nell-2 MTTKRP standing on every GPU format (the Kernels tab's bundled
# H200 recording); last, delicious-4d's MM-CSF ordered and not (never measured), one round.
# Run names: --tag 'order-(\w+)$=fiber_order' --tag 'limit-(\w+)$=gpu_memory_limit'.
# Bundle: make_bundle.sh --tests test_format_build_cuda,test_mttkrp_cuda,test_decomp_cuda,test_multi_gpu_cuda h200-session42b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 100 test_format_build_cuda test_mttkrp_cuda test_decomp_cuda test_multi_gpu_cuda
EXT=json
gen_nell2
for round in 1 2; do
    for f in B-CSF MM-CSF; do
        for v in length tree; do
            a=; [ "$v" = tree ] && a=tree
            run "nell2-cpd-$f-order-$v" 30 env TENSORSCOPE_FIBER_ORDER=$a "$CLI" decompose "$D/nell2.tsb" \
                --method cpd --backend cuda --format $f --rank 32 --iters 5 --tol 0 --json
        done
    done
done
for lim in 4600M 5000M; do
    run "nell2-cpd-B-CSF-limit-$lim" 30 "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda --format B-CSF \
        --rank 32 --iters 5 --tol 0 --limit-gpu-memory $lim --json
done
EXT=jsonl run nell2-mttkrp-standing 90 "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda \
    --format COO,CSF,B-CSF,MM-CSF,BLCO --mode all --rank 32 --repeat 5 --jsonl
gen_del4d
for v in length tree; do
    a=; [ "$v" = tree ] && a=tree
    EXT=jsonl run "del4d-mttkrp-order-$v" 120 env TENSORSCOPE_FIBER_ORDER=$a "$CLI" bench "$D/del4d.tsb" \
        --kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32 --repeat 5 --jsonl
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
