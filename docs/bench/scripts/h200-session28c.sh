#!/bin/bash
# Session 28, third call if the budget allows: the delicious-4d shape's CSF mode 1 with the
# default binary (long fibers split at upload since 3f637ba) against TENSORSCOPE_CSF_LONG=flat,
# alternating, two rounds (session 27 measured split 9.24 ms once, the flat loop only in session
# 26, 11.47 ms). The step log's timestamps give each bench's wall time, for the seconds the split
# seemed to add per mode in session 27. Bundle $B as for h200-session28.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
U="--kernel mttkrp --backend cuda --format CSF --mode 1 --rank 32 --repeat 5 --jsonl"
for round in 1 2; do
  run del4d-split-$round 50 "$CLI" bench "$D/del4d.tsb" $U
  run del4d-flat-$round 50 env TENSORSCOPE_CSF_LONG=flat "$CLI" bench "$D/del4d.tsb" $U
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
