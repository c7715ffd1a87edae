#!/bin/bash
# Session 27, call 4 (an experiment, reverted in cd38edc: slower every way, see the fiber loop): whole-fiber groups (B-CSF's trees, MM-CSF's, CSF's short-fiber ones) run a
# fiber loop that loads each fiber's end and ancestor indices a fiber ahead
# (engine/cuda/gpu_mttkrp.cu team_fiber_group_ahead), bounded to five blocks (48 registers, the
# default) or six (TENSORSCOPE_FIBER_AHEAD=6: 40, 80-100 bytes spilled), against the plain fiber
# loop (=0: 40 registers, 36 bytes spilled), alternating in one binary. The suites first
# (everyFiberLoopKeepsTheResult runs =0 and =6 against cpu-ref); then the nell-2 shape, B-CSF
# and MM-CSF, 5 / 0 / 6 then 0 / 5; the real and 600K tensors with --check, 5 and 0; the
# uniform tensor of nell-2's dims, B-CSF, 5 and 0, as time allows. Bundle $B:
# bin/tensorscope-cli, tests/test_mttkrp_cuda, tests/test_decomp_cuda, lib/, data/, device_steps.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_mttkrp_cuda test_decomp_cuda
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for a in 5 0 6; do run nell2-ahead$a-1 60 env TENSORSCOPE_FIBER_AHEAD=$a "$CLI" bench "$D/nell2.tsb" $N; done
for a in 0 5; do run nell2-ahead$a-2 60 env TENSORSCOPE_FIBER_AHEAD=$a "$CLI" bench "$D/nell2.tsb" $N; done
"$CLI" generate --dims 4000,3000,2000 --nnz 600000 --dist uniform --seed 1 -o "$D/uniform-3d.tsb" > /dev/null
"$CLI" generate --dims 3000,3000,3000 --nnz 600000 --dist blocks:40:32 --seed 4 -o "$D/blocks-3d.tsb" > /dev/null
C="--kernel mttkrp --backend cuda --format CSF,B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl --check"
for t in "$B/data/movielens-100k.tns" "$B/data/lastfm-tags.tns" "$B/data/jf17k-4d.tns" "$D/uniform-3d.tsb" "$D/blocks-3d.tsb"; do
  n=$(basename "${t%.*}")
  for a in 5 0; do run $n-ahead$a 20 env TENSORSCOPE_FIBER_AHEAD=$a "$CLI" bench "$t" $C; done
done
gen_uniform
U="--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl"
for a in 5 0; do run uni-ahead$a 50 env TENSORSCOPE_FIBER_AHEAD=$a "$CLI" bench "$D/uni.tsb" $U; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
