#!/bin/bash
# Written in session 94 for the next session's first call (bundle: make_bundle.sh --strip
# --icu-stub --no-data gpu-session95.sh): issue 19's standing on delicious-4d's shape at this
# build, the README table's last column (session 91's at 9b159646 until then; session 94 refreshed
# the nell-2 and uniform columns, gpu-session94b.sh). MTTKRP checked against cpu-ref, SpTV and
# SpTTM unchecked (device_steps.sh's standing; session 86: SpTV's sparse comparisons on 140M
# nonzeros took 7 minutes), then CFB's mode-2 SpTV three times more (issue 19's 70% line, where it
# sits: 69.8-70.4% on two H100s in session 94).
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session95.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_del4d > /dev/null
CHECK=mttkrp standing del4d
pack "$OUT"
for k in 1 2 3; do
    EXT=jsonl run del4d-sptv-cfb-mode2 25 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format CFB,COO --mode 2 \
        --repeat 10 --jsonl
done
step DONE; touch "$R/DONE"
pack "$OUT"
