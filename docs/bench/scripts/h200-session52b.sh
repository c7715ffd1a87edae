#!/bin/bash
# Session 52's second call (about 500 s): the adaptive rows launched behind the kernel before them
# (programmatic dependent launch, dependent_launch.cuh: HOCSR's first pass, or the split rows'
# clearing), staging the vector while it ends, against launched in turn (TENSORSCOPE_SPTV_PDL=0).
# 1. The GPU SpTV suite (hocsrEitherPass's new row) beside the tensor's generation.
# 2. The nell-2 and uniform shapes: HOCSR's mode 3 alternating twice; every mode of HOCSR and the
#    CSR formats once each way; HOCSR by default with --check.
# 3. delicious-4d's shape: COO and CFB on modes 1 and 3 (the through-L1 rows) each way.
# Run names: --tag 'pdl(\w+)$=sptv_pdl'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session52b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
(env QT_QPA_PLATFORM=offscreen "$B/tests/test_sptv_cuda" > "$R/test_sptv_cuda.out" 2>&1; echo "rc=$?" >> "$R/test_sptv_cuda.out") &
EXT=jsonl
gen_nell2
gen_uniform
wait
S="--kernel sptv --backend cuda --repeat 10 --jsonl"
for t in nell2 uni; do
    for round in 1 2; do
        run $t-m3-hocsr-pdlauto 30 "$CLI" bench "$D/$t.tsb" $S --mode 3 --format HOCSR
        run $t-m3-hocsr-pdl0 30 env TENSORSCOPE_SPTV_PDL=0 "$CLI" bench "$D/$t.tsb" $S --mode 3 --format HOCSR
    done
    run $t-all-pdlauto 60 "$CLI" bench "$D/$t.tsb" $S --mode all --format HOCSR,COO,CFB,HOCFS-CSR,CSF
    run $t-all-pdl0 60 env TENSORSCOPE_SPTV_PDL=0 "$CLI" bench "$D/$t.tsb" $S --mode all --format HOCSR,COO,CFB,HOCFS-CSR,CSF
    run $t-check-hocsr-pdlauto 60 "$CLI" bench "$D/$t.tsb" $S --mode all --format HOCSR --repeat 2 --check
done
rm -f "$D/uni.tsb"
gen_del4d
for m in 1 3; do
    run del4d-m$m-pdlauto 45 "$CLI" bench "$D/del4d.tsb" $S --mode $m --format COO,CFB
    run del4d-m$m-pdl0 45 env TENSORSCOPE_SPTV_PDL=0 "$CLI" bench "$D/del4d.tsb" $S --mode $m --format COO,CFB
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
