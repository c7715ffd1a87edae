#!/bin/bash
# Session 96's third call: delicious-4d's MM-CSF beside B-CSF now that B-CSF's cuda trees take the
# GPU level order by default (README's ratio row), modes 1-4, unchecked, twice; between the two
# rounds bench --gpus 1 on B-CSF's modes 1-3, whose trees MultiGpuMttkrp now builds at the rank
# (f021d75f: each row's path should name the same levels as the one-GPU rows).
# Bundle: make_bundle.sh --strip --icu-stub --no-data --tests test_mttkrp_cuda,test_decomp_cuda,test_multi_gpu_cuda gpu-session96.sh gpu-session96b.sh gpu-session96c.sh
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=470 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session96c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
P=(--kernel mttkrp --backend cuda --rank 32 --repeat 5 --jsonl)
gen_del4d > /dev/null
EXT=jsonl run del4d-bcsf-mmcsf 150 "$CLI" bench "$D/del4d.tsb" --format B-CSF,MM-CSF --mode 1,2,3,4 "${P[@]}"
pack "$OUT"
EXT=jsonl run del4d-gpus1-bcsf 70 "$CLI" bench "$D/del4d.tsb" --format B-CSF --mode 1,2,3 --gpus 1 "${P[@]}"
pack "$OUT"
EXT=jsonl run del4d-bcsf-mmcsf 150 "$CLI" bench "$D/del4d.tsb" --format B-CSF,MM-CSF --mode 1,2,3,4 "${P[@]}"
step DONE; touch "$R/DONE"
pack "$OUT"
