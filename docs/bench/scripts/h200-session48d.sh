#!/bin/bash
# Session 48, fourth call (about 330 s): SpTV as committed, the blocks of short rows summed with
# their offsets loaded early (and, in blocks of 512, rows over 32 nonzeros by the warp), the
# default chosen from call 3.
# 1. The GPU SpTV suite.
# 2. nell-2 shape, COO, CSF, CFB, HOCFS-CSR and HOCSR, every mode, twice; then CSF, HOCFS-CSR,
#    HOCSR and COO checked against cpu-ref.
# 3. delicious-4d shape, mode 4 (6 KB vector, blocks of 512): COO, CSF and HOCFS-CSR.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session48d.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
gen_nell2
for round in 1 2; do
    run nell2-committed 70 "$CLI" bench "$D/nell2.tsb" $S --format COO,CSF,CFB,HOCFS-CSR,HOCSR --mode all
done
run nell2-checked 120 "$CLI" bench "$D/nell2.tsb" $S --format COO,CSF,HOCFS-CSR,HOCSR --mode all --repeat 2 --check
rm -f "$D/nell2.tsb"
gen_del4d
run del4d-m4-committed 60 "$CLI" bench "$D/del4d.tsb" $S --format COO,CSF,HOCFS-CSR --mode 4
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
