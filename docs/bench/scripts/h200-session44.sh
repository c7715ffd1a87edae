#!/bin/bash
# Session 44's first call (about 400 s): SpTV's CSR product by equal runs of nonzeros, a warp a
# tile of 512 (sptv_warp_tiles.cuh, TENSORSCOPE_SPTV_ROWS=tiles), against what runs now
# (cuSPARSE's CSR SpMV on the nell-2 shape, the shared-vector kernels on the uniform one).
# 1. The GPU SpTV suite (its CSR and HOCSR cases now also with tiles).
# 2. nell-2 shape, CSF, CFB and HOCSR, every mode: now and tiles, alternating twice; tiles once
#    with --check.
# 3. uniform shape, the same formats: now and tiles, once each.
# 4. Nsight Compute on the nell-2 shape's mode 3 (CSF): the tile kernel and cuSPARSE's.
# Run names: --tag 'rows-(\w+)$=sptv_rows'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session44.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_sptv_cuda
EXT=jsonl
gen_nell2
S="--kernel sptv --backend cuda --format CSF,CFB,HOCSR --mode all --repeat 10 --jsonl"
for round in 1 2; do
    for v in now tiles; do run nell2-rows-$v 40 env TENSORSCOPE_SPTV_ROWS=${v/now/} "$CLI" bench "$D/nell2.tsb" $S; done
done
run nell2-checked-rows-tiles 60 env TENSORSCOPE_SPTV_ROWS=tiles "$CLI" bench "$D/nell2.tsb" $S --repeat 2 --check
ncu_setup
EXT=out
for v in tiles cusparse; do
    run ncu-nell2-m3-$v 60 env TENSORSCOPE_SPTV_ROWS=$v "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:warp_tile_kernel|csrmv' \
        "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format CSF --mode 3 --repeat 1
done
EXT=jsonl
gen_uniform
for v in now tiles; do run uni-rows-$v 50 env TENSORSCOPE_SPTV_ROWS=${v/now/} "$CLI" bench "$D/uni.tsb" $S; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
