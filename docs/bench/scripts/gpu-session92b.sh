#!/bin/bash
# The next session's second call (see gpu-session92.sh; same bundle, on the machine that call left
# warm or a fresh one): COO's order 5 compiled in (TENSORSCOPE_COO_ORDER=5) against at run time
# (=1) on two 5-order shapes, alternating twice, then checked against cpu-ref; then those shapes'
# standing with MTTKRP checked (COO with order 5 compiled in) while time lasts.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session92b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_5d
MT=(--kernel mttkrp --backend cuda --format COO --mode all --rank 32 --repeat 5 --jsonl)
alternate 2 20 TENSORSCOPE_COO_ORDER "1 5" "vast5d uni5d" "${MT[@]}"
for t in vast5d uni5d; do
    EXT=jsonl run "$t-check" 40 env TENSORSCOPE_COO_ORDER=5 "$CLI" bench "$D/$t.tsb" "${MT[@]}" --check
done
pack "$OUT"
export TENSORSCOPE_COO_ORDER=5
CHECK=mttkrp standing vast5d
pack "$OUT"
CHECK=mttkrp standing uni5d
step DONE; touch "$R/DONE"
pack "$OUT"
