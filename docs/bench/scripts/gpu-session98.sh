#!/bin/bash
# Written in session 97 for the next session's call: the alternated rounds session 97's H100 calls
# had no time for. Delicious-4d's MM-CSF modes 1-4 in the GPU's level order (the default since
# 6e046511) and with TENSORSCOPE_MMCSF_LEVELS=paper, alternating twice, then B-CSF's modes 1-4 on
# the same machine for MM-CSF's ratio (README's table), then the default once checked, if time
# is left. No suites: session 97's call 3 ran them at 6e046511.
# Bundle: make_bundle.sh --strip --icu-stub --no-data gpu-session98.sh
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session98.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_del4d > /dev/null
P=(--kernel mttkrp --backend cuda --rank 32 --repeat 5 --mode 1,2,3,4 --jsonl)
for round in 1 2; do
    EXT=jsonl run del4d-mmcsf-gpu-levels 85 "$CLI" bench "$D/del4d.tsb" --format MM-CSF "${P[@]}"
    EXT=jsonl run del4d-mmcsf-paper 85 env TENSORSCOPE_MMCSF_LEVELS=paper "$CLI" bench "$D/del4d.tsb" --format MM-CSF "${P[@]}"
    pack "$OUT"
done
EXT=jsonl run del4d-bcsf 90 "$CLI" bench "$D/del4d.tsb" --format B-CSF "${P[@]}"
pack "$OUT"
EXT=jsonl run del4d-mmcsf-gpu-levels-checked 200 "$CLI" bench "$D/del4d.tsb" --format MM-CSF "${P[@]}" --check
step DONE; touch "$R/DONE"
pack "$OUT"
