#!/bin/bash
# Session 87's first call (about 560 s; one H100 preferred, the device issue 19's lines name).
# Bundle: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda --alt ae323f11 gpu-session88.sh
# gpu-session88b.sh (bin/tensorscope-cli-alt: the kernels before the hot rows).
# Session 86 gave MM-CSF's partitions hot-row copies (engine/cuda/hot_rows.cuh), session 87 COO's
# and BLCO's modes whose whole-output copies do not fit (hot_out.cuh); neither has run on a GPU:
# 1. test_mttkrp_cuda: every test, the new ones among them: hotRowIdsMatchTheHostRule,
#    mmcsfHeavyRowsStayAccurate and cooAndBlcoHotRowsStayAccurate.
# 2. Delicious-4d's MM-CSF, COO and BLCO on every mode checked against cpu-ref (session 86's
#    standing: MM-CSF 3.0e-3 and 4.0e-3 on modes 2-3, COO 2.5e-5 to 5.2e-5 on modes 1-3, BLCO
#    5.4e-4 on mode 1; h100-session86-standing.json; the bench's limit is 1e-4, issue 19's COO line 1e-5).
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 240 test_mttkrp_cuda
pack "$OUT"
gen_del4d > /dev/null
EXT=jsonl run del4d-check 200 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda --format MM-CSF,COO,BLCO \
    --mode all --rank 32 --repeat 3 --jsonl --check
step DONE; touch "$R/DONE"
pack "$OUT"
