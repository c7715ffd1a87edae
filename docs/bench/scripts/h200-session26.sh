#!/bin/bash
# Prepared in session 25 for the next session's first call (not yet run). CSF trees with no fiber
# longer than B-CSF's split length now run B-CSF's fiber groups instead of the flat loop over
# nonzero groups (engine/kernels/mttkrp_cuda.cpp, runs_as_split); TENSORSCOPE_CSF_SHORT=
# nonzero-groups keeps the flat loop. The suites first (CSF on random tensors of short fibers now
# takes the new path; CPD on the GPU uploads CSF the same way), then CSF against B-CSF and the flat
# loop on the shared real tensors (--check) and two generated shapes, the nell-2 shape (long
# fibers: unchanged, both ways alike), and the GPU advisor evaluation again. Bundle $B:
# bin/tensorscope-cli, tests/test_mttkrp_cuda, tests/test_decomp_cuda, lib/, data/,
# advisor_eval.py and device_steps.sh beside this script; COMMIT names the binary's commit.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 90 test_mttkrp_cuda test_decomp_cuda
EXT=jsonl
"$CLI" generate --dims 4000,3000,2000 --nnz 600000 --dist uniform --seed 1 -o "$D/uniform-3d.tsb" > /dev/null
"$CLI" generate --dims 3000,3000,3000 --nnz 600000 --dist blocks:40:32 --seed 4 -o "$D/blocks-3d.tsb" > /dev/null
C="--kernel mttkrp --backend cuda --format CSF,B-CSF --mode all --rank 32 --repeat 5 --jsonl --check"
for t in "$B/data/movielens-100k.tns" "$B/data/lastfm-tags.tns" "$B/data/jf17k-4d.tns" "$D/uniform-3d.tsb" "$D/blocks-3d.tsb"; do
  n=$(basename "${t%.*}")
  run $n-short 20 "$CLI" bench "$t" $C
  run $n-flat 20 env TENSORSCOPE_CSF_SHORT=nonzero-groups "$CLI" bench "$t" $C
done
gen_nell2
N="--kernel mttkrp --backend cuda --format CSF --mode all --rank 32 --repeat 5 --jsonl"
run nell2-short 40 "$CLI" bench "$D/nell2.tsb" $N
run nell2-flat 40 env TENSORSCOPE_CSF_SHORT=nonzero-groups "$CLI" bench "$D/nell2.tsb" $N
advisor_cuda 60 100
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
