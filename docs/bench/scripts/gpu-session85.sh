#!/bin/bash
# Written in session 84 for the next session with a GPU (about 560 s; bundle at session 84's last
# commit, make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda gpu-session85.sh).
# 0. test_mttkrp_cuda (the ancestor reuse removed), beside delicious-4d's generation.
# 1. Delicious-4d's trees with the 17M-row mode one level above the leaves, alternating with
#    SPLATT's order, two rounds, B-CSF and CSF (one kernel, two builds): session 84 found
#    --mode-order 1,4,2,3 / 3,4,2,1 / 4,1,2,3 1.4-2.2% faster on B-CSF in one unalternated run
#    each (h100-session84.json call 2); a default moves only on alternating rounds.
# 2. Delicious-4d's B-CSF and MM-CSF by the defaults (MM-CSF's ratio against today's B-CSF, last
#    measured against session 59's), then B-CSF on the 8-lane loop with its warp sums
#    (TENSORSCOPE_FIBER_WIDE=0 TENSORSCOPE_FIBER_TEAM_WARP_SUM=1: never timed on that shape).
# 3. While time lasts, the uniform shape's B-CSF, CSF and MM-CSF by the defaults.
# Run from the checkout's root on the device, beside the bundle in /tmp/bundle. Results are
# packed after each step, so that a call cut short hands back what it finished.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
P=(--kernel mttkrp --backend cuda --rank 32 --repeat 5 --jsonl)
gen_del4d > /dev/null &
GEN=$!
suite_to test_mttkrp_cuda test_mttkrp_cuda
wait "$GEN"
pack "$OUT"
for round in 1 2; do
    run del4d-order-splatt 50 "$CLI" bench "$D/del4d.tsb" --format B-CSF,CSF --mode 1,3,4 "${P[@]}"
    for o in 1,4,2,3 3,4,2,1 4,1,2,3; do
        run "del4d-order-${o//,/}" 30 "$CLI" bench "$D/del4d.tsb" --format B-CSF,CSF --mode "${o%%,*}" --mode-order "$o" "${P[@]}"
    done
    pack "$OUT"
done
run del4d-defaults 150 "$CLI" bench "$D/del4d.tsb" --format B-CSF,MM-CSF --mode all "${P[@]}"
pack "$OUT"
run del4d-narrow-sums 70 env TENSORSCOPE_FIBER_WIDE=0 TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 "$CLI" bench "$D/del4d.tsb" \
    --format B-CSF --mode all "${P[@]}"
pack "$OUT"
gen_uniform
run uni-defaults 90 "$CLI" bench "$D/uni.tsb" --format B-CSF,CSF,MM-CSF --mode all "${P[@]}"
step DONE; touch "$R/DONE"
pack "$OUT"
