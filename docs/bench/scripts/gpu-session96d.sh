#!/bin/bash
# Session 96's last minutes of device time: test_mttkrp_cuda's mmcsfShortModeAboveTheLeaves alone
# (TENSORSCOPE_MMCSF_LEVELS=short-above-leaves against the oracle on the GPU), then the nell-2
# shape's MM-CSF by the paper's trees and with the switch, once each, unchecked: a first look
# before gpu-session97.sh and 97b.sh measure it properly.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=150 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session96d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
QT_QPA_PLATFORM=offscreen "$B/tests/test_mttkrp_cuda" mmcsfShortModeAboveTheLeaves > "$R/test_mttkrp_cuda-mmcsf.out" 2>&1
echo "rc=$?" >> "$R/test_mttkrp_cuda-mmcsf.out"
step "end test_mttkrp_cuda mmcsfShortModeAboveTheLeaves: $(grep -E '^Totals|^rc=' "$R/test_mttkrp_cuda-mmcsf.out" | tr '\n' ' ')"
pack "$OUT"
gen_nell2 > /dev/null
P=(--format MM-CSF --kernel mttkrp --backend cuda --rank 32 --repeat 5 --jsonl)
EXT=jsonl run nell2-mmcsf-paper 35 "$CLI" bench "$D/nell2.tsb" "${P[@]}"
pack "$OUT"
EXT=jsonl run nell2-mmcsf-short-above-leaves 35 env TENSORSCOPE_MMCSF_LEVELS=short-above-leaves "$CLI" bench "$D/nell2.tsb" "${P[@]}"
step DONE; touch "$R/DONE"
pack "$OUT"
