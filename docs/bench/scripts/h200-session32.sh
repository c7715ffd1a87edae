#!/bin/bash
# Prepared in session 31 for the next session's first call (not yet run), on the binary whose GPU
# cuts the CSF family's fibers at 16 (session 31). First the four GPU suites; then MM-CSF's trees
# each walked by blocks of their own (TENSORSCOPE_TREES_BLOCKS=5|6, gpu_mttkrp.cu: the
# single-tree kernel's loop at 48 registers bounded to five blocks, 40 at six, where the
# several-tree kernel keeps four blocks at 56) against the default, alternating, on the nell-2
# shape (MM-CSF ran 2-7% a mode behind B-CSF in session 31) and the real tensors with --check;
# then issue 19's standing on the nell-2 shape: MTTKRP on COO, CSF, B-CSF, MM-CSF and BLCO
# (rank 32, every mode), SpTV on every format with a GPU kernel, SpTTM's wb variant.
# h200-session32b.sh: the same standing on the uniform shape and the real tensors;
# h200-session32c.sh: delicious-4d's shape.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda,test_sptv_cuda,test_spttm_cuda h200-session32.sh h200-session32b.sh h200-session32c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda test_decomp_cuda test_sptv_cuda test_spttm_cuda
EXT=jsonl
gen_nell2
T="--kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for b in unset 5 6 unset 5 6; do run nell2-treesblocks$b 30 env TENSORSCOPE_TREES_BLOCKS=$b "$CLI" bench "$D/nell2.tsb" $T; done
ab_real TENSORSCOPE_TREES_BLOCKS MM-CSF unset 5 6
standing nell2
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
