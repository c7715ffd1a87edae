#!/bin/bash
# Prepared in session 31 for the next session's first call (not yet run), on the binary whose GPU
# cuts the CSF family's fibers at 16 (session 31): the four GPU suites, then two experiments
# against the default, alternating, on the nell-2 shape and the real tensors (with --check):
# - TENSORSCOPE_TREES_BLOCKS=5|6, MM-CSF's trees each walked by blocks of their own (the
#   single-tree loop, 48 registers bounded to five blocks, 40 at six, where the several-tree
#   kernel keeps four blocks at 56); MM-CSF ran 2-7% a mode behind B-CSF in session 31;
# - TENSORSCOPE_FIBER_INDEX32=6|8, the single-tree loop (B-CSF's and CSF's trees) with 32-bit
#   fiber and nonzero numbers: 40 registers and no spill bounded to six blocks (the default
#   spills 36 bytes), 32 bounded to eight.
# Run names end in the switch's value (index32unset, index326, index328): device_record.py's
# --tag 'index32(unset|6|8)$=fiber_index32' --tag 'treesblocks(unset|5|6)$=trees_blocks'
# --tag 'trees-blocks(unset|5|6)$=trees_blocks' reads them back.
# h200-session32b.sh: the uniform shape (the wide loop in 32 bits, then the standing);
# h200-session32c.sh: delicious-4d's shape; h200-session32d.sh: the nell-2 shape's standing.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda,test_sptv_cuda,test_spttm_cuda
#   h200-session32.sh h200-session32b.sh h200-session32c.sh h200-session32d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda test_decomp_cuda test_sptv_cuda test_spttm_cuda
EXT=jsonl
gen_nell2
T="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
for b in unset 5 6 unset 5 6; do run nell2-treesblocks$b 30 env TENSORSCOPE_TREES_BLOCKS=$b "$CLI" bench "$D/nell2.tsb" $T --format MM-CSF; done
for b in unset 6 8 unset 6 8; do run nell2-index32$b 30 env TENSORSCOPE_FIBER_INDEX32=$b "$CLI" bench "$D/nell2.tsb" $T --format B-CSF; done
ab_real TENSORSCOPE_TREES_BLOCKS MM-CSF unset 5 6
ab_real TENSORSCOPE_FIBER_INDEX32 CSF,B-CSF unset 6 8
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
