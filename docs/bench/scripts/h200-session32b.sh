#!/bin/bash
# Prepared in session 31 for the next session's second call (not yet run): delicious-4d's shape
# (140M nonzeros, order 4) on the binary whose GPU cuts the CSF family's fibers at 16: B-CSF, CSF
# and MM-CSF, every mode, rank 32 (session 31 at 32: B-CSF 8.15-9.61 ms a mode; MM-CSF 10.1-17.0
# at 16). Bundle: as h200-session32.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
K="--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl"
for f in B-CSF CSF MM-CSF; do run del4d-$f 110 "$CLI" bench "$D/del4d.tsb" $K --format $f; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
