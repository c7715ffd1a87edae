#!/bin/bash
# Session 90's second call (see gpu-session90c.sh; same bundle): the nell-2 and uniform
# shapes' COO and BLCO, where the whole-output copies fit (no hot rows), with
# TENSORSCOPE_COO_ORDER=1 against without, alternating, checked against cpu-ref once each way;
# then delicious-4d's issue-19 standing with MTTKRP checked (CHECK=mttkrp: session 86 found
# SpTV's checks of 140M-entry results took 7 minutes), while time lasts.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session90b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
P=(--kernel mttkrp --backend cuda --format COO,BLCO --mode all --rank 32 --repeat 5 --jsonl)
gen_nell2 > /dev/null
gen_uniform > /dev/null
run nell2-check 80 "$CLI" bench "$D/nell2.tsb" "${P[@]}" --check
run nell2-order1-check 80 env TENSORSCOPE_COO_ORDER=1 "$CLI" bench "$D/nell2.tsb" "${P[@]}" --check
run uni-order1 30 env TENSORSCOPE_COO_ORDER=1 "$CLI" bench "$D/uni.tsb" "${P[@]}"
run uni-new 30 "$CLI" bench "$D/uni.tsb" "${P[@]}"
run uni-order1 30 env TENSORSCOPE_COO_ORDER=1 "$CLI" bench "$D/uni.tsb" "${P[@]}"
run uni-new 30 "$CLI" bench "$D/uni.tsb" "${P[@]}"
pack "$OUT"
rm -f "$D/nell2.tsb" "$D/uni.tsb"
gen_del4d > /dev/null
CHECK=mttkrp standing del4d
step DONE; touch "$R/DONE"
pack "$OUT"
