#!/bin/bash
# The next session's first call (written in session 90, whose calls ran out of device time): issue
# 19's standing on one H100 at the commit whose COO compiles its order in (session 90,
# h100-session90-coo-order.json), delicious-4d's shape first, where session 86's and 90's calls
# cut cells: test_mttkrp_cuda in the background while the tensor is generated; MTTKRP on COO,
# CSF, B-CSF, MM-CSF and BLCO checked against cpu-ref (session 90: COO, CSF and B-CSF took 5m20s
# with their checks); then SpTV on every format unchecked and SpTTM's warp batches while time
# lasts (gpu-session91b.sh takes what is cut, on the same warm machine).
# Bundle: make_bundle.sh --strip --icu-stub --no-data --tests test_mttkrp_cuda gpu-session91.sh gpu-session91b.sh
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session91.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
step "start test_mttkrp_cuda (background)"
suite_to test_mttkrp_cuda test_mttkrp_cuda &
gen_del4d > /dev/null
wait
step "end test_mttkrp_cuda: $(grep -E '^Totals|^rc=' "$R/test_mttkrp_cuda.out" | tr '\n' ' ')"
pack "$OUT"
CHECK=mttkrp standing del4d
step DONE; touch "$R/DONE"
pack "$OUT"
