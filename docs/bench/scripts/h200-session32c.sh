#!/bin/bash
# Prepared in session 31 for the next session's third call (not yet run): delicious-4d's shape
# (140M nonzeros, order 4) on the split-16 binary. MM-CSF at 16 ran 10.1-17.0 ms a mode in
# session 31, its modes 2-3 the nonzero and fiber algorithms over a partition of 107M of the 140M
# nonzeros; B-CSF ran 8.15-9.61 at 32 (not yet measured at 16). Each against an experiment:
# MM-CSF with TENSORSCOPE_TREES_BLOCKS=5 (h200-session32.sh), B-CSF, whose trees run the wide
# loop (1.2 nonzeros a fiber), with TENSORSCOPE_WIDE_INDEX32=5 (h200-session32b.sh).
# Bundle: as h200-session32.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_del4d
K="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
for b in unset 5; do run del4d-MM-CSF-treesblocks$b 95 env TENSORSCOPE_TREES_BLOCKS=$b "$CLI" bench "$D/del4d.tsb" $K --format MM-CSF; done
for b in unset 5; do run del4d-B-CSF-wide32$b 95 env TENSORSCOPE_WIDE_INDEX32=$b "$CLI" bench "$D/del4d.tsb" $K --format B-CSF; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
