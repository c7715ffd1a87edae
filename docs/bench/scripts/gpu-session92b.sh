#!/bin/bash
# The next session's second call (see gpu-session92.sh; same bundle, best on the machine that call
# left warm, where the 5-order tensors are still in /tmp/tensors): their standing with MTTKRP
# checked (COO with its order 5 compiled in), then a second round of delicious-4d's mode-2 SpTV
# against the adaptive rows through L1 while time lasts.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session92b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_5d
export TENSORSCOPE_COO_ORDER=5
CHECK=mttkrp standing vast5d
pack "$OUT"
CHECK=mttkrp standing uni5d
pack "$OUT"
unset TENSORSCOPE_COO_ORDER
gen_del4d > /dev/null
alternate 2 25 TENSORSCOPE_SPTV_ROWS "cusparse through-l1" del4d --kernel sptv --backend cuda --format CFB,COO --mode 2 \
    --repeat 10 --jsonl
step DONE; touch "$R/DONE"
pack "$OUT"
