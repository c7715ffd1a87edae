#!/bin/bash
# Prepared in session 47 for the next session's second call (about 250 s): SpTV on the uniform
# shape at the final commit (its rows all short: the shared-vector kernels, unchanged), and on
# delicious-4d's mode 4 (a 6 KB vector), where the adaptive rows with the vector staged, as
# committed, were not measured (session 47 measured them with the vector read through L1).
# Run names: --tag 'rows-([a-z]+)=rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session48b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
gen_uniform
run uni-rows-chosen 80 "$CLI" bench "$D/uni.tsb" $S --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF --mode all
rm -f "$D/uni.tsb"
gen_del4d
F="--format COO,CSF,HOCFS-CSR --mode 4"
run del4d-m4-rows-adaptive 60 "$CLI" bench "$D/del4d.tsb" $S $F
run del4d-m4-rows-cusparse 60 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/del4d.tsb" $S $F
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
