#!/bin/bash
# The next session's first call (written in session 91, whose four calls measured issue 19's H100
# standing whole, h100-session91-standing.json): test_mttkrp_cuda in the background (its
# cooOrderCompiledOrNot rows now take TENSORSCOPE_COO_ORDER=5 too) while delicious-4d's shape is
# generated; then the GPU advisor evaluation at today's kernels (advisor_cuda_all: its model still
# charges COO a pass per nonzero off mode 1 that session 75 fitted when COO ran 1.5-1.9x BLCO's
# time; COO now beats BLCO on most modes); delicious-4d's mode-2 SpTV on CFB and COO
# (CFB 69.6%, under issue 19's 70%) with cuSPARSE against the adaptive rows through L1, and the
# packed front's cap at a quarter, half and three quarters of the H100's L2; COO's order 5
# compiled in (=5) against at run time (=1) on two 5-order shapes, then checked.
# Bundle: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda gpu-session92.sh gpu-session92b.sh
# (the shared data in it: advisor_eval.py's real tensors).
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session92.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
step "start test_mttkrp_cuda (background)"
suite_to test_mttkrp_cuda test_mttkrp_cuda &
gen_del4d > /dev/null
wait
step "end test_mttkrp_cuda: $(grep -E '^Totals|^rc=' "$R/test_mttkrp_cuda.out" | tr '\n' ' ')"
pack "$OUT"
advisor_cuda_all 150 90
pack "$OUT"
SPTV=(--kernel sptv --backend cuda --format CFB,COO --mode 2 --repeat 10 --jsonl)
alternate 2 25 TENSORSCOPE_SPTV_ROWS "cusparse through-l1" del4d "${SPTV[@]}"
alternate 1 25 TENSORSCOPE_SPTV_HOT_BYTES "13107200 26214400 39321600" del4d "${SPTV[@]}"
pack "$OUT"
rm -f "$D/del4d.tsb"
gen_5d
MT=(--kernel mttkrp --backend cuda --format COO --mode all --rank 32 --repeat 5 --jsonl)
alternate 2 20 TENSORSCOPE_COO_ORDER "1 5" "vast5d uni5d" "${MT[@]}"
for t in vast5d uni5d; do
    EXT=jsonl run "$t-check" 40 env TENSORSCOPE_COO_ORDER=5 "$CLI" bench "$D/$t.tsb" "${MT[@]}" --check
done
step DONE; touch "$R/DONE"
pack "$OUT"
