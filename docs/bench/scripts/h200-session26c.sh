#!/bin/bash
# Session 26's third call, an experiment (measured slower and reverted; the kernel it ran is
# b57f2ba's): B-CSF's fiber loop (and CSF's on trees of short fibers)
# with each fiber's leaf indices loaded a team's width at a time, one lane each, and passed round
# the team by shuffles (engine/cuda/gpu_mttkrp.cu, leaf_run), against every lane loading every
# leaf index itself. TENSORSCOPE_FIBER_SHUFFLE=0 is the committed loop (40 registers, six blocks
# of 256 resident), 5 the shuffles bounded to five blocks (48 registers, 48 bytes spilled), 6 to
# six (40, 120 bytes spilled). The suite under each, the shared real tensors with --check, then
# the nell-2 shape and the uniform one alternating the three; last, B-CSF and MM-CSF on the
# delicious-4d shape (the committed loop), which call 2 ran out of time for.
# Bundle $B: bin/tensorscope-cli, tests/test_mttkrp_cuda, lib/, data/, device_steps.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
for v in 0 5 6; do
  step "suite with TENSORSCOPE_FIBER_SHUFFLE=$v"
  TENSORSCOPE_FIBER_SHUFFLE=$v QT_QPA_PLATFORM=offscreen timeout 60 "$B/tests/test_mttkrp_cuda" > "$R/test_mttkrp_cuda-$v.out" 2>&1
  step "end rc=$?"
done
EXT=jsonl
C="--kernel mttkrp --backend cuda --format B-CSF,CSF --mode all --rank 32 --repeat 5 --jsonl --check"
for t in movielens-100k lastfm-tags jf17k-4d; do
  for v in 5 6; do run $t-v$v 20 env TENSORSCOPE_FIBER_SHUFFLE=$v "$CLI" bench "$B/data/$t.tns" $C; done
done
gen_nell2
N="--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
  for v in 0 5 6; do run nell2-v$v-$round 30 env TENSORSCOPE_FIBER_SHUFFLE=$v "$CLI" bench "$D/nell2.tsb" $N; done
done
rm -f "$D/nell2.tsb"
gen_uniform
U="--kernel mttkrp --backend cuda --format B-CSF,CSF --mode all --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
  for v in 0 5 6; do run uni-v$v-$round 40 env TENSORSCOPE_FIBER_SHUFFLE=$v "$CLI" bench "$D/uni.tsb" $U; done
done
rm -f "$D/uni.tsb"
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
run del4d-bcsf 120 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl
run del4d-mmcsf 120 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32 --repeat 5 --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
