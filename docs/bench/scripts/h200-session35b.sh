#!/bin/bash
# Session 35's second call: the SpTV suite on this binary (HOCSR's kept rows now written from
# the block's shared memory side by side; TENSORSCOPE_HOCSR_KEEP=scattered writes each
# thread's own, as before; TENSORSCOPE_HOCSR=one-pass-shared runs the one pass with the vector in
# shared memory), then HOCSR's SpTV on every mode of the nell-2 and uniform shapes, each of the
# four ways (two passes with the kept rows staged or scattered, one pass, one pass with the vector
# shared), two rounds in turn; then Nsight Compute on the staged kept rows (nell-2 shape, mode 3)
# and the shared one pass (uniform shape, mode 3).
# Run names end in the way: --tag 'hocsr-([a-z-]+?)(\.\d+)?$=hocsr_way' (the tag reads the name).
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session35b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
gen_nell2
gen_uniform
V="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
for round in 1 2; do
    for t in nell2 uni; do
        run $t-hocsr-kept-staged 30 env TENSORSCOPE_HOCSR=kept "$CLI" bench "$D/$t.tsb" $V
        run $t-hocsr-kept-scattered 30 env TENSORSCOPE_HOCSR=kept TENSORSCOPE_HOCSR_KEEP=scattered "$CLI" bench "$D/$t.tsb" $V
        run $t-hocsr-one-pass 30 env TENSORSCOPE_HOCSR=one-pass "$CLI" bench "$D/$t.tsb" $V
        run $t-hocsr-one-pass-shared 30 env TENSORSCOPE_HOCSR=one-pass-shared "$CLI" bench "$D/$t.tsb" $V
    done
done
ncu_setup
EXT=out
run ncu-hocsr-nell2-m3-staged 60 env TENSORSCOPE_HOCSR=kept "$NCU" $NCU_P --launch-count 2 --kernel-name regex:keep_rows \
    "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
run ncu-hocsr-uni-m3-shared 60 env TENSORSCOPE_HOCSR=one-pass-shared "$NCU" $NCU_P --launch-count 1 \
    --kernel-name regex:tuple_shared "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
