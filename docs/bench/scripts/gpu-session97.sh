#!/bin/bash
# Ran in session 97 (calls 1-2, h200-session97.json). The switch it sets left the code at 6e046511
# (the GPU's MM-CSF now takes gpu_mmcsf_partition_order by default): rerun it on binaries of cc9025ec.
# Written in session 96 for the next session's first call: MM-CSF's partitions with their shortest
# upper mode above the leaves (TENSORSCOPE_MMCSF_LEVELS=short-above-leaves, an experiment: on
# delicious-4d's shape the 1,443-row mode leaves every partition's root). The host model
# (mmcsf_order_model.cpp, docs/bench/cpu-mmcsf-order-model-del4d.json) counts for the 107M-nonzero
# partition (leaves: mode 2), its order 1,3,4,2 against the paper's 4,1,3,2: mode 1 gathers 171M
# rows against 197M and adds none (the root) against 29M; mode 2 gathers 64M against 119M (107M
# leaf adds either way); mode 3 gathers 108M against 136M and adds 64M against 90M; mode 4
# gathers 172M against 226M but adds 90M rows into its 1,443 against none. test_mttkrp_cuda
# (mmcsfShortModeAboveTheLeaves) in the background while delicious-4d's shape is generated; then
# MM-CSF's modes 1-4 by default and with the switch, alternating twice, unchecked, and the
# switch's once checked if time is left.
# Bundle: make_bundle.sh --strip --icu-stub --no-data --tests test_mttkrp_cuda gpu-session97.sh gpu-session97b.sh
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session97.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_beside_del4d test_mttkrp_cuda
pack "$OUT"
P=(--format MM-CSF --kernel mttkrp --backend cuda --rank 32 --repeat 5 --mode 1,2,3,4 --jsonl)
SW=(env TENSORSCOPE_MMCSF_LEVELS=short-above-leaves)
for round in 1 2; do
    EXT=jsonl run del4d-mmcsf-paper 90 "$CLI" bench "$D/del4d.tsb" "${P[@]}"
    EXT=jsonl run del4d-mmcsf-short-above-leaves 90 "${SW[@]}" "$CLI" bench "$D/del4d.tsb" "${P[@]}"
    pack "$OUT"
done
EXT=jsonl run del4d-mmcsf-short-above-leaves-checked 200 "${SW[@]}" "$CLI" bench "$D/del4d.tsb" "${P[@]}" --check
step DONE; touch "$R/DONE"
pack "$OUT"
