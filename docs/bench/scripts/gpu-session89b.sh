#!/bin/bash
# Session 88's second call (same bundle as gpu-session89.sh, same warm machine where it holds
# $D/del4d.tsb): issue 19's standing on delicious-4d's shape with both hot-row changes (MM-CSF's
# since session 86, COO's and BLCO's since 87), MTTKRP checked against cpu-ref (CHECK=mttkrp:
# session 86 found SpTV's checks of 140M-entry outputs took 7 minutes there), then the nell-2
# shape's MTTKRP, checked, where time is left.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=560 COMMIT=<bundle's> bash /tmp/bundle/gpu-session89b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_del4d > /dev/null
CHECK=mttkrp standing del4d
pack "$OUT"
gen_nell2 > /dev/null
run nell2-mttkrp 60 "$CLI" bench "$D/nell2.tsb" --kernel mttkrp --backend cuda --format COO,CSF,B-CSF,MM-CSF,BLCO \
    --mode all --rank 32 --repeat 5 --jsonl --check
step DONE; touch "$R/DONE"
pack "$OUT"
