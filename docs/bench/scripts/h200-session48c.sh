#!/bin/bash
# Session 48, third call (about 380 s): how sptv_adaptive_rows.cuh sums a block of short rows once
# staged (TENSORSCOPE_SPTV_RUNS: by default a lane a row, offsets read after the staging; "split":
# rows over 32 nonzeros by the whole warp; "preload": the offsets loaded with the nonzeros; both),
# on the nell-2 shape, whose CSF and HOCFS-CSR mode 3 and HOCSR stay under 70% of the copy bound.
# 1. The GPU SpTV suite (csrProductsAgree's rows for each experiment).
# 2. nell-2 shape, CSF, HOCFS-CSR and HOCSR, every mode: the four ways in turn, twice.
# 3. Nsight Compute on the default kernel, CSF mode 3 (one block of 1,024 an SM).
# Run names: --tag 'runs-([a-z-]+)=runs'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session48c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --mode all --repeat 10 --jsonl --format CSF,HOCFS-CSR,HOCSR"
gen_nell2
for round in 1 2; do
    for v in lanes split preload split-preload; do
        run nell2-runs-$v 50 env TENSORSCOPE_SPTV_RUNS=$v "$CLI" bench "$D/nell2.tsb" $S
    done
done
ncu_setup
EXT=out
run ncu-nell2-m3-lanes 60 "$NCU" $NCU_P --launch-count 1 --kernel-name 'regex:sptv_adaptive' \
    "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format CSF --mode 3 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
