#!/bin/bash
# Prepared in session 80 (no device was lent that session; not yet run), call 1 of 4 (80, 80c, 81, 80b): every GPU
# suite at the head (the tiles since session 79's call 4, their spread loads and rank 16, the
# device-built trees' tiles, the CPD's dense side allocated before its formats, the bench's tile
# rows), then five CPD iterations at rank 16 and at rank 32 on the uniform shape (76.9M nonzeros,
# nell-2's dims) over CSF built on the device, the tiles forced and off (rank 32 by the rule and
# off): the fits should agree, the times say what the tiles give the CPD.
# Bundle (make_bundle.sh --strip --icu-stub --tests gpu): CLI, the suites, data/, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_gpu_suites 120
gen_uniform
EXT=json
CPD=(decompose "$D/uni.tsb" --method cpd --backend cuda --format CSF --iters 5 --seed 1 --json)
run "uni-cpd16-tiles" 60 env TENSORSCOPE_FIBER_TILES=1 "$CLI" "${CPD[@]}" --rank 16
run "uni-cpd16-fibers" 60 env TENSORSCOPE_FIBER_TILES=0 "$CLI" "${CPD[@]}" --rank 16
run "uni-cpd32-rule" 60 "$CLI" "${CPD[@]}" --rank 32
run "uni-cpd32-fibers" 60 env TENSORSCOPE_FIBER_TILES=0 "$CLI" "${CPD[@]}" --rank 32
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
