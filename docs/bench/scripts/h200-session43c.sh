#!/bin/bash
# Session 43's third call (about 260 s), at the commit that makes the id-order gather of the
# packed vector's hot entries the only one (d09e3a6): the GPU SpTV suite, then SpTV on the
# delicious-4d shape's mode 2 (the one mode of the three shapes whose vector is packed) on every
# format with a GPU kernel, twice, the first with --check against cpu-ref.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session43c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_sptv_cuda
EXT=jsonl
gen_del4d
S="--kernel sptv --backend cuda --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF --repeat 10 --jsonl --mode 2"
run del4d-sptv-m2-checked 120 "$CLI" bench "$D/del4d.tsb" $S --check
run del4d-sptv-m2 90 "$CLI" bench "$D/del4d.tsb" $S
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
