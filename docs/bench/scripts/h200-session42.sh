#!/bin/bash
# Prepared in session 41 for the next session's first call (not yet run, about 400 s): the CPD's
# device-built trees with each parent's fibers ordered by length (TENSORSCOPE_DEVICE_FIBER_ORDER=
# length, fiber_length_order.cu; the host upload orders large trees so by default since session 41,
# 3f4dcdf) against their own order (empty, the default). The GPU format-build suite first (its
# deviceOrderByLength row builds an ordered tree and compares it with the host's order array for
# array; nothing of fiber_length_order.cu has run on a GPU yet), then the MTTKRP suite; then the CPD
# on the nell-2 shape (B-CSF and MM-CSF, rank 32, 5 iterations, each iteration's MTTKRP seconds in
# the rows) alternating twice; and the uniform shape's once. The nell-2 bench's uploaded B-CSF and
# MM-CSF trees ordered on the device in place of the host (the same layout: the kernels' times
# should match; transfer_s and the runs' lengths in the log say what each costs). Last, MTTKRP on
# the nell-2 shape on every GPU format as committed (COO, CSF, B-CSF, MM-CSF, BLCO), to refresh the
# Kernels tab's bundled H200 recording (resources/recordings/bench/, session 25's numbers), and
# Nsight Compute on MM-CSF's trees kernel, mode 1 (10-19% behind B-CSF a mode since the order).
# Run names: --tag 'device-order-(\w+)$=device_fiber_order' --tag 'upload-order-(\w+)$=upload_fiber_order'.
# Bundle: make_bundle.sh --tests test_format_build_cuda,test_mttkrp_cuda h200-session42.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_format_build_cuda test_mttkrp_cuda
EXT=json
cpd() {  # tensor name, seconds a run may need
    local f v a
    for f in B-CSF MM-CSF; do
        for v in tree length; do
            a=$v; [ "$v" = tree ] && a=
            run "$1-cpd-$f-device-order-$v" "$2" env TENSORSCOPE_DEVICE_FIBER_ORDER=$a "$CLI" decompose "$D/$1.tsb" \
                --method cpd --backend cuda --format $f --rank 32 --iters 5 --tol 0 --json
        done
    done
}
gen_nell2
cpd nell2 30; cpd nell2 30
for v in host device; do  # the upload's ordering on the host (the default) or on the device
    a=; [ "$v" = device ] && a=length
    EXT=jsonl run "nell2-mttkrp-upload-order-$v" 45 env TENSORSCOPE_DEVICE_FIBER_ORDER=$a "$CLI" bench "$D/nell2.tsb" \
        --kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl
done
gen_uniform
cpd uni 30
EXT=jsonl run nell2-mttkrp-standing 90 "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda \
    --format COO,CSF,B-CSF,MM-CSF,BLCO --mode all --rank 32 --repeat 5 --jsonl
ncu_setup
EXT=out run ncu-nell2-mmcsf-m1 50 "$NCU" $NCU_P --launch-count 1 --kernel-name regex:trees_team_kernel "$CLI" bench \
    "$D/nell2.tsb" --kernel mttkrp --backend cuda --format MM-CSF --mode 1 --rank 32 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
