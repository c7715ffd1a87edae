#!/bin/bash
# The next session's first call (written in session 90, whose calls ran out of device time): issue
# 19's standing on one H100 at the commit whose COO compiles its order in (session 90,
# h100-session90-coo-order.json), delicious-4d's shape first, where session 86's and 90's calls
# cut cells: test_mttkrp_cuda and test_streamed_mttkrp_cuda (the streamed COO runs COO's kernels
# too) one after another in the background while the tensor is generated; MTTKRP on COO, CSF,
# B-CSF, MM-CSF and BLCO checked against cpu-ref (session 90: COO, CSF and B-CSF took 5m20s
# with their checks); then SpTV on every format unchecked and SpTTM's warp batches while time
# lasts (gpu-session91b.sh takes what is cut, on the same warm machine).
# Bundle: make_bundle.sh --strip --icu-stub --no-data --tests test_mttkrp_cuda,test_streamed_mttkrp_cuda
# gpu-session91.sh gpu-session91b.sh, repacked with xz --lzma2=preset=9e,dict=192MiB (about 17 MB; -9e's is larger).
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session91.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
SUITES="test_mttkrp_cuda test_streamed_mttkrp_cuda"
step "start $SUITES (background, one after another)"
(for t in $SUITES; do suite_to "$t" "$t"; done) &
gen_del4d > /dev/null
wait
for t in $SUITES; do step "end $t: $(grep -E '^Totals|^rc=' "$R/$t.out" | tr '\n' ' ')"; done
pack "$OUT"
CHECK=mttkrp standing del4d
step DONE; touch "$R/DONE"
pack "$OUT"
