#!/bin/bash
# Session 87's third call (what device time is left): COO's and BLCO's hot rows with each run's
# row looked up as the run starts (hot_out.cuh's HotLook) and the kernels without hot rows
# compiled apart (HOT = false: as before session 87), after call 2 found the lookup at the flush
# 21-29% slower on delicious-4d's COO modes 2-3 and 18-19% on BLCO's (h100-session87-hot-rows.json).
# test_mttkrp_cuda, then delicious-4d's COO and BLCO against the build before (ae323f11), then
# checked against cpu-ref. Bundle: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda
# --alt ae323f11 gpu-session88c.sh (carry/bundle.tar.xz as session 87 left it, at 0c97d733; the kernels as at 53ed0835). Run:
# tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=330 COMMIT=0c97d733 bash docs/bench/scripts/gpu-session88c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=out run_suites 30 test_mttkrp_cuda
pack "$OUT"
EXT=jsonl
gen_del4d > /dev/null
P=(--kernel mttkrp --backend cuda --format COO,BLCO --mode all --rank 32 --repeat 5 --jsonl)
run del4d-new 50 "$CLI" bench "$D/del4d.tsb" "${P[@]}"
if [ -x "$CLI_ALT" ]; then run del4d-old 50 "$CLI_ALT" bench "$D/del4d.tsb" "${P[@]}"; fi
pack "$OUT"
run del4d-check 90 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --check
step DONE; touch "$R/DONE"
pack "$OUT"
