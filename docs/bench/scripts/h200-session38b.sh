#!/bin/bash
# Prepared in session 37 for the next session's second call (not yet run, about 340 s; 260 where
# the first call's delicious-4d tensor is still there): HOCSR's one pass on the uniform shape's
# mode 3 (68% of the bound) with its short rows' first nonzeros loaded ahead or not
# (TENSORSCOPE_TUPLE_AHEAD=1: 40 registers against 32), alternating twice; then HOCFS-ELL's
# loads four at a time (the default) against eight (TENSORSCOPE_ELL_LOADS=8), alternating twice,
# on the uniform shape's every mode and the delicious-4d shape's mode 1.
# Run names: --tag 'ahead-(\d)=tuple_ahead' --tag 'ell-l(\d)=ell_loads'.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_uniform
for round in 1 2; do
    for ahead in 0 1; do
        run uni-hocsr-ahead-$ahead 25 env TENSORSCOPE_TUPLE_AHEAD=$ahead "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda \
            --format HOCSR --mode 3 --repeat 10 --jsonl
    done
done
gen_del4d
E="--kernel sptv --backend cuda --format HOCFS-ELL --repeat 10 --jsonl"
ell() {  # tensor, modes, seconds, loads
    run $1-ell-l$4 $3 env TENSORSCOPE_ELL_LOADS=$4 "$CLI" bench "$D/$1.tsb" $E --mode $2
}
for round in 1 2; do ell uni all 25 4; ell uni all 25 8; done
for round in 1 2; do ell del4d 1 40 4; ell del4d 1 40 8; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
