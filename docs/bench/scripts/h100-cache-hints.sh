#!/bin/bash
# Issue 19, an experiment on one H100 (bundle $B: bin/tensorscope-cli as committed; variants
# bin/variants/el (the CSF family's factor gathers with L1::evict_last, TS_FACTOR_EVICT_LAST)
# and bin/variants/cs (SpTV's tile loads of col, val and the row pointer as streaming loads,
# __ldcs, TS_SPTV_STREAM_LOADS); lib/; device_steps.sh beside this script): the nell-2 shape's
# MTTKRP (CSF, B-CSF, MM-CSF, rank 32) and SpTV (CFB, HOCFS-CSR, CSF, every mode), each binary
# in turn. Results in $R, packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run gen-nell2 60 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o "$D/nell2.tsb"
M="--kernel mttkrp --backend cuda --rank 32 --repeat 5 --json --format CSF,B-CSF,MM-CSF"
V="--kernel sptv --backend cuda --mode all --repeat 5 --json --format CFB,HOCFS-CSR,CSF"
EXT=json
run sptv-base 70 "$CLI" bench "$D/nell2.tsb" $V
run sptv-cs 70 "$B/bin/variants/cs/tensorscope-cli" bench "$D/nell2.tsb" $V
run mttkrp-base 100 "$CLI" bench "$D/nell2.tsb" $M
run mttkrp-el 100 "$B/bin/variants/el/tensorscope-cli" bench "$D/nell2.tsb" $M
run sptv-cs-2 70 "$B/bin/variants/cs/tensorscope-cli" bench "$D/nell2.tsb" $V
run sptv-base-2 70 "$CLI" bench "$D/nell2.tsb" $V
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
