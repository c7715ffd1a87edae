#!/bin/bash
# Session 27, call 3: the delicious-4d shape (140M nonzeros, 4 modes) where session 26 left it:
# MM-CSF on every mode (one build, one copy for all modes; never measured on an H200), then
# B-CSF's modes 3 and 4 (session 26 measured modes 1 and 2, 8.79-9.15 ms), a bench each so that
# a cut at the call's limit keeps what finished. Its trees are large: the cut to the device
# (9467d01) does not touch them. Bundle $B: bin/tensorscope-cli, lib/, device_steps.sh.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
U="--kernel mttkrp --backend cuda --rank 32 --repeat 5 --jsonl"
run del4d-MM-CSF 120 "$CLI" bench "$D/del4d.tsb" $U --format MM-CSF --mode all
for m in 3 4; do run del4d-B-CSF-mode$m 40 "$CLI" bench "$D/del4d.tsb" $U --format B-CSF --mode $m; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
