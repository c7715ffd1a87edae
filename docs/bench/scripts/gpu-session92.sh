#!/bin/bash
# The next session's first call (written in session 91, whose four calls measured issue 19's H100
# standing whole, h100-session91-standing.json): test_mttkrp_cuda in the background (its
# cooOrderCompiledOrNot rows now take TENSORSCOPE_COO_ORDER=5 too) while delicious-4d's shape is
# generated; then on that shape gather_floor (the factor-row gathers alone, in each mode's CSF
# order: how fast any kernel making B-CSF's, CSF's or COO's loads could be, against issue 19's
# 4,500 and 2,500 GFLOP/s) and mode 2's SpTV on CFB and COO (CFB 69.6%, under issue 19's 70%)
# with cuSPARSE against the adaptive rows through L1, twice; then the GPU advisor evaluation at
# today's kernels (advisor_cuda_all: its model still charges COO a pass per nonzero off mode 1
# that session 75 fitted when COO ran 1.5-1.9x BLCO's time; COO now beats BLCO on most modes).
# gpu-session92b.sh measures COO's order 5 compiled in.
# Bundle: make_bundle.sh --strip --icu-stub --gather-floor --tests test_mttkrp_cuda gpu-session92.sh gpu-session92b.sh
# (the shared data in it: advisor_eval.py's real tensors).
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session92.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_beside_del4d test_mttkrp_cuda
EXT=jsonl run del4d-gather-floor 120 "$B/bin/gather_floor" "$D/del4d.tsb"
pack "$OUT"
alternate 2 25 TENSORSCOPE_SPTV_ROWS "cusparse through-l1" del4d --kernel sptv --backend cuda --format CFB,COO --mode 2 \
    --repeat 10 --jsonl
pack "$OUT"
rm -f "$D/del4d.tsb"
advisor_cuda_all 150 90
step DONE; touch "$R/DONE"
pack "$OUT"
