#!/bin/bash
# Prepared in session 30; run in session 31 as its third call (h200-issue19-session31.json): delicious-4d.s
# shape (140M nonzeros, order 4), B-CSF and MM-CSF, with the fibers cut to 32 on upload (unset)
# against 128 (at 128: B-CSF 8.79-10.2 ms a mode in sessions 26-27, MM-CSF 10.2-16.4 in session 30), and B-CSF's
# groups queued (TENSORSCOPE_TEAM_QUEUE=4). Bundle: as h200-session31.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
K="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
for s in unset 128; do run del4d-bcsf-split$s 90 env TENSORSCOPE_FIBER_SPLIT=$s "$CLI" bench "$D/del4d.tsb" $K --format B-CSF; done
for s in unset 128; do run del4d-mmcsf-split$s 120 env TENSORSCOPE_FIBER_SPLIT=$s "$CLI" bench "$D/del4d.tsb" $K --format MM-CSF; done
run del4d-bcsf-queue4 90 env TENSORSCOPE_TEAM_QUEUE=4 "$CLI" bench "$D/del4d.tsb" $K --format B-CSF
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
