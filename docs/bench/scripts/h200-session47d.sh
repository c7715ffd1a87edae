#!/bin/bash
# Session 47, fourth call (about 420 s): sptv_adaptive_rows.cuh as chosen now (the vector
# through L1 up to 64 KB, staged in shared memory above) against cuSPARSE and against itself with
# each warp's next block loaded before it sums the rows of this one
# (TENSORSCOPE_SPTV_ADAPTIVE_PREFETCH=1), and on delicious-4d's mode 4 (a 6 KB vector), where it is
# now chosen too, against cuSPARSE.
# 1. The GPU SpTV suite.
# 2. nell-2 shape, CSF, CFB, HOCFS-CSR and HOCSR, every mode: default, prefetch, cusparse, then
#    default and prefetch again.
# 3. delicious-4d shape, CSF and HOCFS-CSR, mode 4: default and cusparse.
# Run names: --tag 'rows-([a-z]+)=rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session47d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
F="--format CSF,CFB,HOCFS-CSR,HOCSR --mode all"
gen_nell2
run nell2-rows-adaptive 60 "$CLI" bench "$D/nell2.tsb" $S $F
run nell2-rows-prefetch 60 env TENSORSCOPE_SPTV_ADAPTIVE_PREFETCH=1 "$CLI" bench "$D/nell2.tsb" $S $F
run nell2-rows-cusparse 60 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/nell2.tsb" $S $F
run nell2-rows-adaptive.2 60 "$CLI" bench "$D/nell2.tsb" $S $F
run nell2-rows-prefetch.2 60 env TENSORSCOPE_SPTV_ADAPTIVE_PREFETCH=1 "$CLI" bench "$D/nell2.tsb" $S $F
rm -f "$D/nell2.tsb"
gen_del4d
F="--format CSF,HOCFS-CSR --mode 4"
run del4d-m4-rows-adaptive 60 "$CLI" bench "$D/del4d.tsb" $S $F
run del4d-m4-rows-cusparse 60 env TENSORSCOPE_SPTV_ROWS=cusparse "$CLI" bench "$D/del4d.tsb" $S $F
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
