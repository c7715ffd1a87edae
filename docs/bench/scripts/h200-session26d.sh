#!/bin/bash
# Session 26's last call, on the device time left (about 270 s): B-CSF and then MM-CSF MTTKRP on
# the delicious-4d shape (140M nonzeros, 4 modes) at this session's kernels, which calls 2 and 3
# ran out of time for. Bundle $B: bin/tensorscope-cli, lib/ and device_steps.sh beside this script.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
run gen-del4d 90 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
for f in B-CSF MM-CSF; do
  run del4d-$f 20 "$CLI" bench "$D/del4d.tsb" --kernel mttkrp --backend cuda --format $f --mode all --rank 32 --repeat 5 --jsonl
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
