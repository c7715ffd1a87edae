#!/bin/bash
# The next session's first call (written in session 92, whose calls gave every tree's root rows
# their hot copies, h100-session92-root-hot-rows.json): row_gather_bandwidth, compiled on the
# device with its nvcc (how many random 128-byte rows a second the H100 gathers from footprints
# inside and past L2: whether delicious-4d's 4,500 and 2,500 GFLOP/s lines, 12-16 TB/s of rows,
# are within the hardware's reach), then test_mttkrp_cuda beside delicious-4d's generation, then
# MM-CSF (whose partitions rooted at the mode now take the root's copies too) checked on the
# three shapes of issue 19's standing, with B-CSF beside it.
# Bundle: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda gpu-session93.sh
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session93.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run build-row-gather 60 /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o "$D/row_gather_bandwidth" \
    "$(dirname "$0")/row_gather_bandwidth.cu"
EXT=jsonl run row-gather-bandwidth 60 "$D/row_gather_bandwidth" 8 16 32 48 64 256 2048
pack "$OUT"
suite_beside_del4d test_mttkrp_cuda
gen_nell2 > /dev/null
gen_uniform > /dev/null
MT=(--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl --check)
for t in nell2 uni del4d; do EXT=jsonl run "$t-mm-check" 200 "$CLI" bench "$D/$t.tsb" "${MT[@]}"; pack "$OUT"; done
step DONE; touch "$R/DONE"
pack "$OUT"
