#!/bin/bash
# The next session's first call (written in session 92, whose calls gave every tree's root rows
# their hot copies, h100-session92-root-hot-rows.json): row_gather_bandwidth, compiled on the
# device with its nvcc (how many random 128-byte rows a second the H100 gathers from footprints
# inside and past L2: whether delicious-4d's 4,500 and 2,500 GFLOP/s lines, 12-16 TB/s of rows,
# are within the hardware's reach); test_mttkrp_cuda (its fiveOrderTreeLevels) beside the
# 5-order shapes' generation; then the fiber kernels with order 5's four levels compiled in
# (TENSORSCOPE_FIBER_LEVELS=4) against at run time on those shapes, alternating twice, then
# checked (MM-CSF too), and streamed. gpu-session93b.sh checks MM-CSF on the standing's shapes.
# Bundle: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda,test_streamed_mttkrp_cuda gpu-session93.sh gpu-session93b.sh
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session93.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run build-row-gather 60 /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o "$D/row_gather_bandwidth" \
    "$(dirname "$0")/row_gather_bandwidth.cu"
EXT=jsonl run row-gather-bandwidth 60 "$D/row_gather_bandwidth" 8 16 32 48 64 256 2048
pack "$OUT"
step "start test_mttkrp_cuda, test_streamed_mttkrp_cuda (background)"
(suite_to test_mttkrp_cuda test_mttkrp_cuda; suite_to test_streamed_mttkrp_cuda test_streamed_mttkrp_cuda) &
gen_5d > /dev/null
wait
for t in test_mttkrp_cuda test_streamed_mttkrp_cuda; do
    step "end $t: $(grep -E '^Totals|^rc=' "$R/$t.out" | tr '\n' ' ')"
done
MT=(--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl)
alternate 2 40 TENSORSCOPE_FIBER_LEVELS "0 4" "vast5d uni5d" "${MT[@]}" --format CSF,B-CSF
pack "$OUT"
for t in vast5d uni5d; do
    EXT=jsonl run "$t-levels4-check" 80 env TENSORSCOPE_FIBER_LEVELS=4 "$CLI" bench "$D/$t.tsb" "${MT[@]}" \
        --format CSF,B-CSF,MM-CSF --check
done
# streamed (session 93: a hot row's chunks add into its copies), checked
EXT=jsonl run vast5d-stream-check 90 "$CLI" bench "$D/vast5d.tsb" --kernel mttkrp --backend cuda --stream \
    --format CSF,B-CSF,MM-CSF,BLCO --mode all --rank 32 --repeat 2 --jsonl --check
step DONE; touch "$R/DONE"
pack "$OUT"
