#!/bin/bash
# Ran in session 97 (calls 1-2, h200-session97.json). The switch it sets left the code at 6e046511
# (the GPU's MM-CSF now takes gpu_mmcsf_partition_order by default): rerun it on binaries of cc9025ec.
# The next session's second call (see gpu-session97.sh; same bundle): the same MM-CSF switch on the
# nell-2 and uniform shapes, where each partition has two upper modes and the switch swaps them,
# beside B-CSF for the ratio (README's table), alternating twice, unchecked.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session97b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
P=(--kernel mttkrp --backend cuda --rank 32 --repeat 5 --jsonl)
SW=(env TENSORSCOPE_MMCSF_LEVELS=short-above-leaves)
gen_nell2 > /dev/null
gen_uniform > /dev/null
for round in 1 2; do
    for s in nell2 uni; do
        EXT=jsonl run "$s-bcsf-mmcsf-paper" 60 "$CLI" bench "$D/$s.tsb" --format B-CSF,MM-CSF "${P[@]}"
        EXT=jsonl run "$s-mmcsf-short-above-leaves" 40 "${SW[@]}" "$CLI" bench "$D/$s.tsb" --format MM-CSF "${P[@]}"
    done
    pack "$OUT"
done
step DONE; touch "$R/DONE"
pack "$OUT"
