#!/bin/bash
# Session 49's fifth call (about 380 s): HOCSR's first pass keeping its offsets' low 16 bits
# rather than all 32, the adaptive rows restoring them from each block's first offset
# (TENSORSCOPE_HOCSR_KEEP=low16, an experiment), against the default as committed, on three shapes:
# 1. The GPU SpTV suite (hocsrEitherPass's "kept low16" row, a 200,000-nonzero tensor among them).
# 2. nell-2, uniform, and the denser uniform shape of call 2: HOCSR every mode, default against
#    low16, alternating twice.
# 3. nell-2 every mode with low16, --check; Nsight Compute on the product's kernel, mode 3, low16.
# Run names: --tag 'hocsr-([a-z0-9]+)$=keep'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session49e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
H="--format HOCSR --mode all"
ab() {  # NAME TENSOR: default against low16, alternating twice
    for round in 1 2; do
        run $1-hocsr-offsets 25 "$CLI" bench "$2" $S $H
        run $1-hocsr-low16 25 env TENSORSCOPE_HOCSR_KEEP=low16 "$CLI" bench "$2" $S $H
    done
}
gen_nell2
ab nell2 "$D/nell2.tsb"
run nell2-check-hocsr-low16 60 env TENSORSCOPE_HOCSR_KEEP=low16 "$CLI" bench "$D/nell2.tsb" $S $H --check
ncu_setup
EXT=out
run ncu-nell2-m3-hocsr-low16 40 env TENSORSCOPE_HOCSR_KEEP=low16 "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:adaptive_kernel' \
    "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
EXT=jsonl
rm -f "$D/nell2.tsb"
gen_uniform
ab uni "$D/uni.tsb"
rm -f "$D/uni.tsb"
run gen-dense 40 "$CLI" generate --dims 8000,6400,28818 --nnz 76900000 --dist uniform --seed 7 --float -o "$D/dense.tsb"
ab dense "$D/dense.tsb"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
