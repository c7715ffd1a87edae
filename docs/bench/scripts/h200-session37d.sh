#!/bin/bash
# Session 37, call 4 (about 400 s): the GPU SpTV suite (HOCFS-ELL's loads two and four at a
# time); HOCSR's SpTV on every mode of the uniform shape with --check, mode 2 (348M rows) for the
# first time, now that the oracle sorts rather than maps (call 2's check ran past its limit);
# then HOCFS-ELL with a thread's entries loaded two at a time (the default from 3ddec4b) against
# four (TENSORSCOPE_ELL_LOADS=4), alternating twice, on the uniform shape's every mode and the
# delicious-4d shape's mode 1. Run names: --tag 'ell-l(\d)=ell_loads'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session37d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_sptv_cuda
EXT=jsonl
gen_uniform
run uni-hocsr 60 "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --check --jsonl
E="--kernel sptv --backend cuda --format HOCFS-ELL --repeat 10 --jsonl"
ell() {  # tensor, modes, seconds, loads
    run $1-ell-l$4 $3 env TENSORSCOPE_ELL_LOADS=$4 "$CLI" bench "$D/$1.tsb" $E --mode $2
}
for round in 1 2; do ell uni all 25 2; ell uni all 25 4; done
gen_del4d
for round in 1 2; do ell del4d 1 40 2; ell del4d 1 40 4; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
