#!/bin/bash
# Session 49's second call (about 300 s): HOCSR's one pass with a block's products staged in shared
# memory (TENSORSCOPE_HOCSR=staged, sptv_staged_tuples.cuh, an experiment) against the default
# (two passes, since call 1 with the wide first pass, or one pass by hocsr_kept's rule) and the
# forced ways, on three shapes:
# 1. The GPU SpTV suite (hocsrEitherPass's "one pass, staged" row).
# 2. uniform shape: HOCSR every mode, default against staged, alternating twice; mode 3 forced
#    to one pass (sptv_tuple_kernel) once; staged --check once; Nsight Compute on the staged and
#    one-pass kernels, mode 3.
# 3. a denser uniform shape (8,000 x 6,400 x 28,818, 76.9M nonzeros: mode 3's index tuples 1.5
#    nonzeros each, mode 1's 0.42): HOCSR every mode, kept, one pass and staged, alternating twice.
# 4. nell-2 shape: HOCSR every mode, default against staged, once (long rows: most blocks' nonzeros
#    exceed the stage).
# Run names: --tag 'hocsr-([a-z-]+)$=hocsr'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session49b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
H="--format HOCSR --mode all"
gen_uniform
for round in 1 2; do
    run uni-hocsr-default 25 "$CLI" bench "$D/uni.tsb" $S $H
    run uni-hocsr-staged 25 env TENSORSCOPE_HOCSR=staged "$CLI" bench "$D/uni.tsb" $S $H
done
run uni-m3-hocsr-one-pass 15 env TENSORSCOPE_HOCSR=one-pass "$CLI" bench "$D/uni.tsb" $S --format HOCSR --mode 3
run uni-check-hocsr-staged 60 env TENSORSCOPE_HOCSR=staged "$CLI" bench "$D/uni.tsb" $S $H --check
ncu_setup
EXT=out
run ncu-uni-m3-staged 40 env TENSORSCOPE_HOCSR=staged "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:tuple_staged' \
    "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
run ncu-uni-m3-one-pass 40 env TENSORSCOPE_HOCSR=one-pass "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:sptv_tuple_kernel' \
    "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
EXT=jsonl
rm -f "$D/uni.tsb"
run gen-dense 40 "$CLI" generate --dims 8000,6400,28818 --nnz 76900000 --dist uniform --seed 7 --float -o "$D/dense.tsb"
for round in 1 2; do
    for way in kept one-pass staged; do
        run dense-hocsr-$way 25 env TENSORSCOPE_HOCSR=$way "$CLI" bench "$D/dense.tsb" $S $H
    done
done
rm -f "$D/dense.tsb"
gen_nell2
run nell2-hocsr-default 25 "$CLI" bench "$D/nell2.tsb" $S $H
run nell2-hocsr-staged 25 env TENSORSCOPE_HOCSR=staged "$CLI" bench "$D/nell2.tsb" $S $H
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
