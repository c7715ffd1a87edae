#!/bin/bash
# Prepared in session 32 for the next session's second call (session 33's call 2): delicious-4d's shape
# (140M nonzeros, order 4), SpTTM at rank 32 by the warp batches (50-68% of the copy bound in
# session 22) against the fiber teams (TENSORSCOPE_SPTTM_TEAMS=1|2); then MTTKRP's B-CSF and
# MM-CSF on the binary whose single trees take the 32-bit fiber loop (B-CSF not yet measured
# at split 16 with it), as far as the time allows.
# Run names end in the value: --tag 'spttm-teams(unset|1|2)$=spttm_teams'.
# Bundle: as h200-session33.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_del4d
S="--kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl"
for v in unset 1 2; do run del4d-spttm-teams$v 100 env TENSORSCOPE_SPTTM_TEAMS=$v "$CLI" bench "$D/del4d.tsb" $S; done
K="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
run del4d-B-CSF 95 "$CLI" bench "$D/del4d.tsb" $K --format B-CSF
run del4d-MM-CSF 100 "$CLI" bench "$D/del4d.tsb" $K --format MM-CSF
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
