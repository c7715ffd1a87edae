#!/bin/bash
# Prepared in session 32 for the next session's third call (session 33's call 3): HOCSR's SpTV in two
# passes (TENSORSCOPE_HOCSR=kept, sptv_kept_rows.cuh: its non-empty rows kept by a select over its
# offsets, then their CSR's product) against its one-pass kernel (unset: 25-44% of the copy bound
# on the nell-2 shape, 59-67% on the uniform one, session 32; issue 19 asks 70%), alternating
# twice on the nell-2 shape and once on the uniform shape; the suite first.
# Run names end in the value: --tag 'hocsr-(unset|kept)$=hocsr'.
# Bundle: as h200-session33.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_sptv_cuda
EXT=jsonl
gen_nell2
V="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
for v in unset kept unset kept; do run nell2-hocsr-$v 30 env TENSORSCOPE_HOCSR=$v "$CLI" bench "$D/nell2.tsb" $V; done
gen_uniform
for v in unset kept; do run uni-hocsr-$v 40 env TENSORSCOPE_HOCSR=$v "$CLI" bench "$D/uni.tsb" $V; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
