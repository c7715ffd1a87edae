#!/bin/bash
# Session 27, call 5 (the split became the default in 3f637ba; TENSORSCOPE_CSF_LONG=flat now keeps
# the flat loop): CSF trees with long fibers (the large ones; small trees are cut to the
# device since 9467d01) split at B-CSF's length on upload and run as fiber groups
# (TENSORSCOPE_CSF_LONG=split, engine/kernels/mttkrp_cuda.cpp), as MM-CSF's partitions do,
# against the flat loop over nonzero groups (the default), alternating in one binary. The suite
# first (longFiberAmongShortOnes runs the split against cpu-ref), then CSF on the nell-2 shape,
# two rounds, then delicious-4d's mode 1 both ways as time allows. Bundle $B:
# bin/tensorscope-cli, tests/test_mttkrp_cuda, lib/, data/, device_steps.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_mttkrp_cuda
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format CSF --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
  run nell2-split-$round 45 env TENSORSCOPE_CSF_LONG=split "$CLI" bench "$D/nell2.tsb" $N
  run nell2-flat-$round 45 "$CLI" bench "$D/nell2.tsb" $N
done
run gen-del4d 90 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
U="--kernel mttkrp --backend cuda --format CSF --mode 1 --rank 32 --repeat 5 --jsonl"
run del4d-split 50 env TENSORSCOPE_CSF_LONG=split "$CLI" bench "$D/del4d.tsb" $U
run del4d-flat 50 "$CLI" bench "$D/del4d.tsb" $U
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
