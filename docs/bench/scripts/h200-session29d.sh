#!/bin/bash
# Session 29, call 4 (the session's last device seconds): the GPU MTTKRP suite on the binary whose
# bench uploads a CUDA row's format once (MttkrpPlan, b2ccc92; benchRowsRunFromOneUpload), and
# the real tensors' bench with --check on that binary, each bench's wall time in the log.
# Bundle $B: docs/bench/scripts/make_bundle.sh --tests test_mttkrp_cuda h200-session29d.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda
EXT=jsonl
for t in movielens-100k lastfm-tags jf17k-4d; do
    run "$t-plan" 20 "$CLI" bench "$B/data/$t.tns" --kernel mttkrp --backend cuda --format CSF,B-CSF,MM-CSF,COO --mode all --rank 32 --repeat 5 --jsonl --check
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
