#!/bin/bash
# Session 97's third call: MM-CSF's partitions in the GPU's level order by default
# (gpu_mmcsf_partition_order: a tiny mode just above the leaves where the other upper modes'
# factors are past L2), after calls 1-2 measured the experiment's switch on three shapes. The three
# GPU suites that build MM-CSF on the device (bench rows, the device CPD on one part and two, bench
# --gpus over two parts) in the background while delicious-4d's shape is generated; then MM-CSF's
# modes 1-4 by default and with TENSORSCOPE_MMCSF_LEVELS=paper, alternating twice, unchecked; the
# default once checked, and B-CSF's modes 1-4 for the ratio on this card, if time is left.
# Bundle: make_bundle.sh --strip --icu-stub --no-data --tests test_mttkrp_cuda,test_decomp_cuda,test_multi_gpu_cuda gpu-session97c.sh
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=560 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session97c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_beside_del4d test_mttkrp_cuda test_decomp_cuda test_multi_gpu_cuda
pack "$OUT"
P=(--kernel mttkrp --backend cuda --rank 32 --repeat 5 --mode 1,2,3,4 --jsonl)
for round in 1 2; do
    EXT=jsonl run del4d-mmcsf-gpu-levels 70 "$CLI" bench "$D/del4d.tsb" --format MM-CSF "${P[@]}"
    EXT=jsonl run del4d-mmcsf-paper 70 env TENSORSCOPE_MMCSF_LEVELS=paper "$CLI" bench "$D/del4d.tsb" --format MM-CSF "${P[@]}"
    pack "$OUT"
done
EXT=jsonl run del4d-mmcsf-gpu-levels-checked 200 "$CLI" bench "$D/del4d.tsb" --format MM-CSF "${P[@]}" --check
pack "$OUT"
EXT=jsonl run del4d-bcsf 90 "$CLI" bench "$D/del4d.tsb" --format B-CSF "${P[@]}"
step DONE; touch "$R/DONE"
pack "$OUT"
