#!/bin/bash
# Prepared in session 48 for the next session's first call (about 330 s): HOCSR's first pass
# with blocks of four times the rows, four 16-byte loads a thread in flight
# (TENSORSCOPE_HOCSR_KEEP=wide, sptv_kept_rows.cuh, not yet run on a GPU), against the default;
# and the uniform shape as committed at 20d4813 (its mode 3, rows all short under a 115 KB vector,
# through the adaptive rows since then; measured only through TENSORSCOPE_SPTV_ROWS=adaptive).
# 1. The GPU SpTV suite (hocsrEitherPass's "kept wide" row).
# 2. nell-2 shape, HOCSR, every mode: default against wide, alternating twice; Nsight Compute
#    on either pass-1 kernel, mode 3.
# 3. uniform shape: COO, CSF, CFB, HOCFS-CSR and HOCSR, every mode, as committed; HOCSR default
#    against wide, alternating twice; mode 3 (one pass by default) forced to two passes, either
#    first pass, alternating twice.
# Run names: --tag 'keep-([a-z]+)=keep'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session49.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
H="--format HOCSR --mode all"
gen_nell2
for round in 1 2; do
    run nell2-keep-blocks 30 "$CLI" bench "$D/nell2.tsb" $S $H
    run nell2-keep-wide 30 env TENSORSCOPE_HOCSR_KEEP=wide "$CLI" bench "$D/nell2.tsb" $S $H
done
ncu_setup
EXT=out
for v in blocks wide; do
    run ncu-nell2-m3-keep-$v 40 env TENSORSCOPE_HOCSR_KEEP=$v "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:keep_rows' \
        "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
done
EXT=jsonl
rm -f "$D/nell2.tsb"
gen_uniform
run uni-committed 80 "$CLI" bench "$D/uni.tsb" $S --format COO,CSF,CFB,HOCFS-CSR,HOCSR --mode all
for round in 1 2; do
    run uni-keep-blocks 30 "$CLI" bench "$D/uni.tsb" $S $H
    run uni-keep-wide 30 env TENSORSCOPE_HOCSR_KEEP=wide "$CLI" bench "$D/uni.tsb" $S $H
done
# mode 3 runs HOCSR's one pass by default (hocsr_kept); two passes now end in the adaptive rows
for round in 1 2; do
    run uni-m3-hocsr-keep-blocks 30 env TENSORSCOPE_HOCSR=kept "$CLI" bench "$D/uni.tsb" $S --format HOCSR --mode 3
    run uni-m3-hocsr-keep-wide 30 env TENSORSCOPE_HOCSR=kept TENSORSCOPE_HOCSR_KEEP=wide "$CLI" bench "$D/uni.tsb" $S \
        --format HOCSR --mode 3
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
