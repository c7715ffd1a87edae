#!/bin/bash
# Session 87's second call (about 570 s, on the machine of gpu-session88.sh, its delicious-4d
# tensor kept where the machine stayed warm): the hot rows' time against the build before them
# (CLI_ALT, ae323f11), two rounds alternating. Delicious-4d's shape: MM-CSF (its partitions' hot
# rows), B-CSF (the wide loop's adds through one row pointer: its order-4 wide kernel spills 0
# bytes against 8 on sm_90), COO and BLCO (their hot rows; where they apply COO now runs its team
# kernel, where the build before sorted tiles on every mode of this shape); COO's tile kernel
# forced once (TENSORSCOPE_COO_KERNEL=tile), with the hot rows, to tell the kernel from the copies.
# Then the nell-2 one, MM-CSF and B-CSF, one round.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_del4d > /dev/null
P=(--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl)
for round in 1 2; do
    run del4d-new 100 "$CLI" bench "$D/del4d.tsb" --format MM-CSF,B-CSF,COO,BLCO "${P[@]}"
    if [ -x "$CLI_ALT" ]; then run del4d-old 100 "$CLI_ALT" bench "$D/del4d.tsb" --format MM-CSF,B-CSF,COO,BLCO "${P[@]}"; fi
done
pack "$OUT"
run del4d-coo-tile 40 env TENSORSCOPE_COO_KERNEL=tile "$CLI" bench "$D/del4d.tsb" --format COO "${P[@]}"
pack "$OUT"
gen_nell2
run nell2-new 30 "$CLI" bench "$D/nell2.tsb" --format MM-CSF,B-CSF "${P[@]}"
if [ -x "$CLI_ALT" ]; then run nell2-old 30 "$CLI_ALT" bench "$D/nell2.tsb" --format MM-CSF,B-CSF "${P[@]}"; fi
step DONE; touch "$R/DONE"
pack "$OUT"
