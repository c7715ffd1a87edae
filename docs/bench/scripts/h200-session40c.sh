#!/bin/bash
# Session 40's third call (about 330 s): the rank-32 fiber loops (fiber_index32_kernel for B-CSF
# and CSF, trees_team_kernel for MM-CSF) addressing each factor row from the lane's column
# (one wide multiply-add a row, the default now) against from the row's start, shifted and
# added (TENSORSCOPE_FIBER_ADDR=row, as before), alternating twice on the nell-2 shape, every
# mode, rank 32; the shared real tensors with --check both ways. Then each way's SASS
# (cuobjdump) and Nsight Compute's instruction counts and issue activity on mode 1, and, as time
# allows, the delicious-4d shape one round.
# Nsight Compute found the loop issuing an instruction on 62% of a scheduler's cycles (session 34)
# with 2 warps a scheduler stalled not selected per issue (call 2): fewer instructions should tell.
# Run names: --tag 'addr-(\w+)$=fiber_addr' and --tag 'fiber-addr(\w+)$=fiber_addr'.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session40c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda
EXT=jsonl
gen_nell2
M="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
    for v in col row; do run nell2-addr-$v 60 env TENSORSCOPE_FIBER_ADDR=$v "$CLI" bench "$D/nell2.tsb" $M --format B-CSF,CSF,MM-CSF; done
done
ab_real TENSORSCOPE_FIBER_ADDR B-CSF,CSF,MM-CSF col row
EXT=out
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
run sass 30 bash -c "$OBJ -sass $CLI | awk '/Function : .*(fiber_index32_kernelILi2|trees_team_kernelILi8ELi0ELi2)/{p=1} /Function : /{if (!(\$0 ~ /fiber_index32_kernelILi2|trees_team_kernelILi8ELi0ELi2/)) p=0} p'"
ncu_setup
for v in col row; do
    for f in B-CSF MM-CSF; do
        run ncu-nell2-$f-addr-$v 40 env TENSORSCOPE_FIBER_ADDR=$v "$NCU" --clock-control none \
            --metrics smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__warps_active.avg.per_cycle_active,smsp__thread_inst_executed_per_inst_executed.ratio \
            --launch-count 1 --kernel-name 'regex:fiber_index32|trees_team' "$CLI" bench "$D/nell2.tsb" --kernel mttkrp \
            --backend cuda --format $f --mode 1 --rank 32 --repeat 1
    done
done
EXT=jsonl
gen_del4d
for v in col row; do run del4d-addr-$v 60 env TENSORSCOPE_FIBER_ADDR=$v "$CLI" bench "$D/del4d.tsb" $M --format B-CSF,MM-CSF; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
