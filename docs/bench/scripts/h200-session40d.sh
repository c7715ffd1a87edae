#!/bin/bash
# Session 40's fourth call (about 170 s): call 3 again with the lane's column pointer hidden from
# the compiler (opaque(), so that a leaf row's address is one IMAD.WIDE; in call 3 the compiler
# had folded the column back in and both ways ran the same SASS): TENSORSCOPE_FIBER_ADDR=col (the
# default) against row, alternating twice on the nell-2 shape (B-CSF, MM-CSF, every mode, rank
# 32), then Nsight Compute's instruction count on B-CSF's mode 1 each way and the SASS.
# Run names: --tag 'addr-(\w+)$=fiber_addr'.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session40d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda
EXT=jsonl
gen_nell2
M="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
    for v in col row; do run nell2-addr-$v 35 env TENSORSCOPE_FIBER_ADDR=$v "$CLI" bench "$D/nell2.tsb" $M --format B-CSF,MM-CSF; done
done
EXT=out
ncu_setup
for v in col row; do
    run ncu-nell2-B-CSF-addr-$v 20 env TENSORSCOPE_FIBER_ADDR=$v "$NCU" --clock-control none \
        --metrics smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum \
        --launch-count 1 --kernel-name 'regex:fiber_index32' "$CLI" bench "$D/nell2.tsb" --kernel mttkrp \
        --backend cuda --format B-CSF --mode 1 --rank 32 --repeat 1
done
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
run sass 20 bash -c "$OBJ -sass $CLI | awk '/Function : .*fiber_index32_kernelILi2ELb1/{p=1;print;next} /Function : /{p=0} p'"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
