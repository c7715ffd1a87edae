#!/bin/bash
# Session 25's last call: CSF's nonzero groups sized to fill the device (cuda/gpu_mttkrp.cu,
# nonzero_group) against the fixed 32 mean fibers (TENSORSCOPE_CSF_GROUPS=fixed), alternating:
# the suite, the shared real tensors with --check, then the GPU advisor evaluation again (the
# CSF and MM-CSF times it recorded in the fourth call change), and last the nell-2 shape, where
# the groups should stay as they were. Bundle $B: bin/tensorscope-cli, tests/test_mttkrp_cuda,
# lib/, data/, advisor_eval.py and device_steps.sh beside this script; COMMIT as in 25d.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_mttkrp_cuda
EXT=jsonl
C="--kernel mttkrp --backend cuda --format CSF,MM-CSF,B-CSF --mode all --rank 32 --repeat 5 --jsonl"
for t in movielens-100k lastfm-tags jf17k-4d; do
  run $t-sized 20 "$CLI" bench "$B/data/$t.tns" $C --check
  run $t-fixed 20 env TENSORSCOPE_CSF_GROUPS=fixed "$CLI" bench "$B/data/$t.tns" $C --check
done
advisor_cuda 60 100
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
run nell2-sized 40 "$CLI" bench "$D/nell2.tsb" $N
run nell2-fixed 40 env TENSORSCOPE_CSF_GROUPS=fixed "$CLI" bench "$D/nell2.tsb" $N
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
