#!/bin/bash
# Issue 19: the flat nonzero-group loop for CSF's team kernel (team_flat_group) against the
# clipped fiber loop it replaces, on one H100, from a carried bundle $B (bin/tensorscope-cli with
# the flat loop on by default; bin/variants/NAME/tensorscope-cli built with other batch sizes and
# register bounds, named by them: bK = kFlatBatch K, mK = TS_FLAT_MIN_BLOCKS K, fK = the fiber
# loop's TS_FIBER_MIN_BLOCKS K; tests/, lib/; device_steps.sh beside this script). The clipped
# loop runs in the same binary with TENSORSCOPE_FIBER_LOOP=fibers. First the cuda suites, then
# the nell-2 shape's MTTKRP at rank 32 (CSF, B-CSF, MM-CSF; CSF alone for the clipped loop and
# the flat-loop variants), then CSF checked against cpu-ref. Results in $R, packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
for t in test_mttkrp_cuda test_decomp_cuda; do run "$t" 60 env QT_QPA_PLATFORM=offscreen "$B/tests/$t"; done
[ -f "$D/nell2.tsb" ] || run gen-nell2 60 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o "$D/nell2.tsb"
M="--kernel mttkrp --backend cuda --rank 32 --repeat 5 --json"
EXT=json
run flat 110 "$CLI" bench "$D/nell2.tsb" $M --format CSF,B-CSF,MM-CSF
run csf-fibers 50 env TENSORSCOPE_FIBER_LOOP=fibers "$CLI" bench "$D/nell2.tsb" $M --format CSF
for v in b1m4 b3m4; do run "csf-$v" 50 "$B/bin/variants/$v/tensorscope-cli" bench "$D/nell2.tsb" $M --format CSF; done
run f6 110 "$B/bin/variants/f6/tensorscope-cli" bench "$D/nell2.tsb" $M --format B-CSF,MM-CSF
run csf-check 150 "$CLI" bench "$D/nell2.tsb" $M --format CSF --check --repeat 3
run csf-flat-2 50 "$CLI" bench "$D/nell2.tsb" $M --format CSF
run csf-fibers-2 50 env TENSORSCOPE_FIBER_LOOP=fibers "$CLI" bench "$D/nell2.tsb" $M --format CSF
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
