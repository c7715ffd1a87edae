#!/bin/bash
# Session 47, third call (about 450 s): SpTV's CSR product by warps over blocks of rows cut once
# (sptv_adaptive_rows.cuh, the default where rows are not all short and the vector would fit in
# shared memory) against cuSPARSE (TENSORSCOPE_SPTV_ROWS=cusparse) and against itself with the
# vector staged in shared memory (TENSORSCOPE_SPTV_ADAPTIVE_V=shared).
# 1. The GPU SpTV suite.
# 2. nell-2 shape, CSF, CFB, HOCFS-CSR and HOCSR, every mode: default, cusparse, shared-v; then
#    default and cusparse again; one run with --check.
# 3. Nsight Compute on the kernel, CSF mode 3.
# 4. uniform shape, CSF and HOCSR: the default (short-row kernels) against =adaptive.
# Run names: --tag 'rows-([a-z]+)=rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session47c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --mode all --repeat 10 --jsonl"
F="--format CSF,CFB,HOCFS-CSR,HOCSR"
gen_nell2
run nell2-rows-adaptive 60 "$CLI" bench "$D/nell2.tsb" $S $F
run nell2-rows-cusparse 60 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/nell2.tsb" $S $F
run nell2-rows-stagedv 60 env TENSORSCOPE_SPTV_ADAPTIVE_V=shared "$CLI" bench "$D/nell2.tsb" $S $F
run nell2-rows-adaptive.2 60 "$CLI" bench "$D/nell2.tsb" $S $F
run nell2-rows-cusparse.2 60 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/nell2.tsb" $S $F
run nell2-checked-rows-adaptive 90 "$CLI" bench "$D/nell2.tsb" $S --format CSF,HOCSR --repeat 2 --check
ncu_setup
EXT=out
run ncu-nell2-m3-adaptive 60 "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:sptv_adaptive' \
    "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format CSF --mode 3 --repeat 1
EXT=jsonl
rm -f "$D/nell2.tsb"
gen_uniform
F="--format CSF,HOCSR"
run uni-rows-short 50 "$CLI" bench "$D/uni.tsb" $S $F
run uni-rows-adaptive 50 env TENSORSCOPE_SPTV_ROWS=adaptive "$CLI" bench "$D/uni.tsb" $S $F
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
