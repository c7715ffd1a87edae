#!/bin/bash
# Prepared in session 30 for the next session's second call (not yet run on a GPU): the trees the
# device builds for the CPD and several GPUs (mttkrp_slots.cpp) still split long fibers at
# B-CSF's 128, where the uploads cut them to 32 since 0ea80f5: decompose --backend cuda on the
# nell-2 shape, B-CSF and MM-CSF, rank 32, 5 iterations, TENSORSCOPE_FIBER_SPLIT unset (128) /
# 32 / unset / 32 (the JSON's per-iteration MTTKRP seconds); then delicious-4d's B-CSF and MM-CSF
# (bench, uploads) unset (32) / 128, as time allows. Bundle: as h200-session31.sh's.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_nell2
EXT=json
for s in unset 32 unset 32; do
    for f in B-CSF MM-CSF; do
        run nell2-cpd-$f-split$s 45 env TENSORSCOPE_FIBER_SPLIT=$s "$CLI" decompose "$D/nell2.tsb" --method cpd --backend cuda \
            --format $f --rank 32 --iters 5 --tol 0 --json
    done
done
EXT=jsonl
run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
M="--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for s in unset 128; do run del4d-split$s 150 env TENSORSCOPE_FIBER_SPLIT=$s "$CLI" bench "$D/del4d.tsb" $M; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
