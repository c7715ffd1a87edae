#!/bin/bash
# Written in session 95 for the next session's first call: the GPU level order (28b4b3c8 and
# after: cuda CSF and B-CSF trees with delicious-4d's 1,443-row mode at the leaves of modes 1-3,
# kernels/gpu_level_order.cpp) as the default, never run on a GPU as such. test_mttkrp_cuda
# (benchRowsTakeTheGpuLevelOrder: bench rows in that order against the oracle, their paths) and
# test_decomp_cuda (cpdTreesInTheGpuLevelOrder: the device CPD's trees) and test_multi_gpu_cuda
# (benchOverPartsTakesTheGpuLevelOrder: bench --gpus at its rank, session 96) in the background while
# delicious-4d's shape is generated; then that shape's B-CSF by default on modes 1-3, checked
# against cpu-ref (each row's path should read "levels 1,3,2,4", "levels 2,1,3,4", "levels
# 3,1,2,4"), and its CSF unchecked. gpu-session96b.sh then alternates the default with SPLATT's
# order on the same warm machine.
# Bundle: make_bundle.sh --strip --icu-stub --no-data --tests test_mttkrp_cuda,test_decomp_cuda,test_multi_gpu_cuda gpu-session96.sh gpu-session96b.sh
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session96.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_beside_del4d test_mttkrp_cuda test_decomp_cuda test_multi_gpu_cuda
pack "$OUT"
P=(--kernel mttkrp --backend cuda --rank 32 --repeat 5 --jsonl)
EXT=jsonl run del4d-gpu-order-bcsf-checked 300 "$CLI" bench "$D/del4d.tsb" --format B-CSF --mode 1,2,3 "${P[@]}" --check
pack "$OUT"
EXT=jsonl run del4d-gpu-order-csf 60 "$CLI" bench "$D/del4d.tsb" --format CSF --mode 1,2,3 "${P[@]}"
step DONE; touch "$R/DONE"
pack "$OUT"
