#!/bin/bash
# Prepared in session 46 for the next session's second call (about 230 s): HOCSR's two passes in
# chunks of rows, each chunk's product beside the next chunk's pass (sptv_kept_chunks.cuh,
# TENSORSCOPE_HOCSR_CHUNKS, off unless set, not yet run on a GPU), against one pass over all rows
# then one product.
# 1. The GPU SpTV suite (hocsrEitherPass's chunk rows, plansReplayAGraph's captured chunks).
# 2. nell-2 shape, SpTV on HOCSR, every mode (two passes and cuSPARSE's product chosen there):
#    chunks 0 (off), 4 and 8, alternating twice.
# Run names: --tag 'chunks-(\d+)$=chunks'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session47b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
gen_nell2
for round in 1 2; do
    for c in 0 4 8; do run nell2-hocsr-chunks-$c 30 env TENSORSCOPE_HOCSR_CHUNKS=$c "$CLI" bench "$D/nell2.tsb" $S; done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
