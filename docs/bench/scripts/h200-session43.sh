#!/bin/bash
# Session 43's first call (about 480 s): SpTV's two cells under 70% of the copy bound.
# 1. HOCSR's one pass (the uniform shape's mode 3, 68.4-68.6% in session 40) with 1, 2 or 4 rows
#    a thread (TENSORSCOPE_HOCSR_ROWS; blocks of 1,024 rows each way), alternating twice.
# 2. The packed vector's hot entries gathered in their ids' order, each written to its place in
#    v' (TENSORSCOPE_SPTV_GATHER=id), against read in v''s order (=count), on the delicious-4d
#    shape's mode 2 (CFB 68.8-69.6%), COO and CFB, alternating twice.
# 3. For MM-CSF (still behind B-CSF): Nsight Compute's L2 sectors by operation (reads, writes,
#    reductions) on the nell-2 shape's mode 1, MM-CSF and B-CSF, to size the leaf partitions'
#    atomics; and the SASS of a shared-memory fp32 atomicAdd (carry/sass_probe.cubin), native
#    or a compare-and-swap loop.
# The GPU SpTV suite first, as it is and with both experiments on; each variant once with --check.
# Run names: --tag 'rows-(\d)$=hocsr_rows' --tag 'gather-(\w+)$=sptv_gather'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session43.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_sptv_cuda
run test_sptv_cuda-rows2-id 40 env QT_QPA_PLATFORM=offscreen TENSORSCOPE_HOCSR_ROWS=2 TENSORSCOPE_SPTV_GATHER=id \
    "$B/tests/test_sptv_cuda"
EXT=jsonl
gen_uniform
U="--kernel sptv --backend cuda --format HOCSR --repeat 10 --jsonl --mode 3"
for round in 1 2; do
    for v in 4 2 1; do run uni-hocsr-rows-$v 40 env TENSORSCOPE_HOCSR_ROWS=$v "$CLI" bench "$D/uni.tsb" $U; done
done
for v in 2 1; do run uni-hocsr-checked-rows-$v 60 env TENSORSCOPE_HOCSR_ROWS=$v "$CLI" bench "$D/uni.tsb" $U --repeat 2 --check; done
gen_nell2
ncu_setup
EXT=out
SASS=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null | head -1)
run sass-probe 10 "$SASS" -sass "$CARRY/sass_probe.cubin"
for f in MM-CSF B-CSF; do
    run ncu-nell2-$f-l2ops 90 "$NCU" --clock-control none --section SpeedOfLight --metrics \
        lts__t_sectors.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum,lts__t_requests_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum \
        --launch-count 1 --kernel-name 'regex:fiber_index32|trees_team' "$CLI" bench "$D/nell2.tsb" --kernel mttkrp \
        --backend cuda --format $f --mode 1 --rank 32 --repeat 1
done
EXT=jsonl
gen_del4d
S="--kernel sptv --backend cuda --format COO,CFB --repeat 10 --jsonl --mode 2"
for round in 1 2; do
    for v in count id; do run del4d-gather-$v 60 env TENSORSCOPE_SPTV_GATHER=$v "$CLI" bench "$D/del4d.tsb" $S; done
done
run del4d-checked-gather-id 90 env TENSORSCOPE_SPTV_GATHER=id "$CLI" bench "$D/del4d.tsb" $S --repeat 2 --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
