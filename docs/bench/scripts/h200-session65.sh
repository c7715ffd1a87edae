#!/bin/bash
# Session 65's call: every GPU test suite at the session's build, then sweep 65's numeric
# hostility on cuda, where values are fp32 (and fp16 in HLS's tensor-core tiles): small dense
# tensors whose values pass float's range (1e39), whose squares do (1e20), that are subnormal in
# fp32 (1e-40) or below it (1e-50), and plain ones, through bench --check (every kernel, every
# format, against cpu-ref), decompose (cpd, tucker, fastertucker) and pipeline on cuda.
# Bundle: make_bundle.sh --tests gpu h200-session65.sh (the 13 suites of gpu_suites.txt)
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_gpu_suites 120
W=$(mktemp -d)
dense() {  # a dense 8x8x8 tensor whose values are (0.5 .. 1.4) times $1
    awk -v S="$1" 'BEGIN { for (i = 1; i <= 8; i++) for (j = 1; j <= 8; j++) for (k = 1; k <= 8; k++)
        printf "%d %d %d %.9g\n", i, j, k, (0.5 + ((i * 7 + j * 13 + k * 3) % 10) / 10) * S }'
}
for s in 1 1e39 1e20 1e-40 1e-50; do
    dense "$s" > "$W/d$s.tns"
    for k in mttkrp sptv spttm ttmc; do
        run "bench-$k-$s" 30 "$CLI" bench "$W/d$s.tns" --backend cpu-ref,cuda --kernel "$k" --rank 4 --repeat 1 --check
    done
    run "cpd-$s" 30 "$CLI" decompose "$W/d$s.tns" --backend cuda --method cpd --rank 3 --iters 5
    run "tucker-$s" 30 "$CLI" decompose "$W/d$s.tns" --backend cuda --method tucker --rank 3 --iters 5
    run "fastertucker-$s" 30 "$CLI" decompose "$W/d$s.tns" --backend cuda --method fastertucker --iters 3
    run "pipeline-$s" 30 "$CLI" pipeline "$W/d$s.tns" --format hocfs --check
done
rm -rf "$W"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
