#!/bin/bash
# Session 35's fourth call: the SpTV suite on this binary (HOCSR's block scans as
# TENSORSCOPE_TUPLE_SCAN picks: CUB's raking scan, the default, warp scans or the raking scan
# memoized), then HOCSR's SpTV on every mode of the nell-2 shape (two passes on modes 1 and 3:
# the scan keeps the rows) and the uniform shape (two passes on mode 1, one pass on mode 3: the
# scan places the sums) with each scan, two rounds in turn; then Nsight Compute on the warp
# scans (the kept rows on nell-2's mode 3, the one pass on the uniform shape's mode 3).
# Run names end in the scan: --tag 'hocsr-scan-([a-z-]+?)(\.\d+)?$=tuple_scan'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session35d.sh
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
        for s in raking warp-scans raking-memoize; do
            run $t-hocsr-scan-$s 30 env TENSORSCOPE_TUPLE_SCAN=$s "$CLI" bench "$D/$t.tsb" $V
        done
    done
done
ncu_setup
EXT=out
run ncu-hocsr-nell2-m3-warp-scans 60 env TENSORSCOPE_TUPLE_SCAN=warp-scans "$NCU" $NCU_P --launch-count 1 \
    --kernel-name regex:keep_rows "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
run ncu-hocsr-uni-m3-warp-scans 60 env TENSORSCOPE_TUPLE_SCAN=warp-scans "$NCU" $NCU_P --launch-count 1 \
    --kernel-name regex:sptv_tuple_kernel "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
