#!/bin/bash
# Session 49's third call (about 300 s): HOCSR's first pass keeping 16-bit row lengths rather than
# 32-bit offsets for the adaptive rows (TENSORSCOPE_HOCSR_KEEP=lengths, an experiment) against the
# default as committed (two passes wherever the kept CSR fits, since 277e500), on three shapes:
# 1. The GPU SpTV suite (hocsrEitherPass's "kept lengths" row).
# 2. nell-2, uniform, and the denser uniform shape of call 2: HOCSR every mode, default against
#    lengths, alternating twice.
# 3. nell-2 mode 3 with lengths, --check; Nsight Compute on the product's kernel, either way.
# Run names: --tag 'hocsr-([a-z]+)$=keep'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session49c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
H="--format HOCSR --mode all"
ab() {  # NAME TENSOR: default against lengths, alternating twice
    for round in 1 2; do
        run $1-hocsr-offsets 25 "$CLI" bench "$2" $S $H
        run $1-hocsr-lengths 25 env TENSORSCOPE_HOCSR_KEEP=lengths "$CLI" bench "$2" $S $H
    done
}
gen_nell2
ab nell2 "$D/nell2.tsb"
run nell2-check-m3-hocsr-lengths 40 env TENSORSCOPE_HOCSR_KEEP=lengths "$CLI" bench "$D/nell2.tsb" $S --format HOCSR --mode 3 --check
ncu_setup
EXT=out
for way in offsets lengths; do
    run ncu-nell2-m3-hocsr-$way 40 env TENSORSCOPE_HOCSR_KEEP=$way "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:adaptive_kernel' \
        "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
done
EXT=jsonl
rm -f "$D/nell2.tsb"
gen_uniform
ab uni "$D/uni.tsb"
rm -f "$D/uni.tsb"
run gen-dense 40 "$CLI" generate --dims 8000,6400,28818 --nnz 76900000 --dist uniform --seed 7 --float -o "$D/dense.tsb"
ab dense "$D/dense.tsb"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
