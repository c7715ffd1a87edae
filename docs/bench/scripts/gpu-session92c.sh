#!/bin/bash
# Session 92's third call (same bundle layout, rebuilt with the trees' root hot rows and COO's
# order 5 compiled in by default): test_mttkrp_cuda (its new treeRootHotRowsStayAccurate) in the
# background while the shapes are generated; then the vast-2015-mc1-5d shape's CSF and B-CSF,
# whose 2-row mode 3 failed the check at 3.3e-4 in call 2, checked; then B-CSF (and the
# 5-order shape's CSF) with the root's hot rows at the default chain limit against none
# (TENSORSCOPE_HOT_CHAIN=4000000000: every row in one place, as before), alternating, on the
# shapes of issue 19's standing: whether the copies cost time where rows are hot.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session92c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
step "start test_mttkrp_cuda (background)"
suite_to test_mttkrp_cuda test_mttkrp_cuda &
gen_5d > /dev/null
gen_nell2 > /dev/null
gen_uniform > /dev/null
gen_del4d > /dev/null
wait
step "end test_mttkrp_cuda: $(grep -E '^Totals|^rc=' "$R/test_mttkrp_cuda.out" | tr '\n' ' ')"
MT=(--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl)
EXT=jsonl run vast5d-trees-check 60 "$CLI" bench "$D/vast5d.tsb" "${MT[@]}" --format CSF,B-CSF --check
pack "$OUT"
alternate 2 40 TENSORSCOPE_HOT_CHAIN "8192 4000000000" "vast5d nell2" "${MT[@]}" --format B-CSF
pack "$OUT"
alternate 2 60 TENSORSCOPE_HOT_CHAIN "8192 4000000000" "del4d" "${MT[@]}" --format B-CSF
pack "$OUT"
alternate 1 40 TENSORSCOPE_HOT_CHAIN "8192 4000000000" "uni" "${MT[@]}" --format B-CSF
step DONE; touch "$R/DONE"
pack "$OUT"
