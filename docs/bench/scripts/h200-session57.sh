#!/bin/bash
# Session 57, one call (about 450 s): the GPU SpTV suite at this build (KeptRows' offsets now
# ended through one helper for 32, 16 and 8 bits); then what each part of MM-CSF's launch costs on
# the nell-2 shape (TENSORSCOPE_MMCSF_TREES=all, leaves, middle, root: only the partitions where the
# output mode sits at that level), alternating twice, medians of 10, with B-CSF once beside it; the
# uniform shape once; HOCSR's SpTV and MM-CSF's MTTKRP with --check on the nell-2 shape.
# Run names: --tag 'mmcsf-trees(\w+)$=mmcsf_trees'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session57.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_to test_sptv_cuda test_sptv_cuda &
gen_nell2
gen_uniform
wait
step "suite done: $(tail -1 "$R/test_sptv_cuda.out")"
M=(--kernel mttkrp --backend cuda --format MM-CSF --mode all --rank 32 --repeat 10 --jsonl)
alternate 2 30 TENSORSCOPE_MMCSF_TREES "all leaves middle root" nell2 "${M[@]}"
EXT=jsonl run nell2-bcsf 40 "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 \
    --repeat 10 --jsonl
alternate 1 30 TENSORSCOPE_MMCSF_TREES "all leaves middle root" uni "${M[@]}"
EXT=jsonl run nell2-hocsr-check 40 "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode all \
    --repeat 2 --check --jsonl
EXT=jsonl run nell2-mmcsf-check 60 "$CLI" bench "$D/nell2.tsb" "${M[@]:0:10}" --repeat 2 --check --jsonl
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
