#!/bin/bash
# Session 48, fifth call (about 150 s): on the uniform shape, whose rows are all short (the
# shared-vector kernels by default), the adaptive rows as committed (their offsets loaded early,
# the vector staged; TENSORSCOPE_SPTV_ROWS=adaptive), never measured so on this shape.
# Uniform shape, COO, CSF, CFB, HOCFS-CSR and HOCSR, every mode: default, then adaptive.
# Run names: --tag 'rows-([a-z]+)=rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session48e.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl --format COO,CSF,CFB,HOCFS-CSR,HOCSR --mode all"
gen_uniform
run uni-rows-chosen 80 "$CLI" bench "$D/uni.tsb" $S
run uni-rows-adaptive 80 env TENSORSCOPE_SPTV_ROWS=adaptive "$CLI" bench "$D/uni.tsb" $S
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
