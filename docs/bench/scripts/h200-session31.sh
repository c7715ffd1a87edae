#!/bin/bash
# Prepared in session 30 for the next session's first call (not yet run on a GPU). Since 0ea80f5
# the CSF family's fibers are cut to at most 32 nonzeros on upload (mttkrp_cuda.cpp,
# kGpuFiberSplit; calls 3-4 of session 30 measured 32 against 128 on the nell-2 shape). First the
# suites on that binary (it has not yet run on a GPU); then shorter pieces, which looked faster
# still on the nell-2 shape (16: one round), alternating: TENSORSCOPE_FIBER_SPLIT unset (32) /
# 16 / 8 / 12 / unset / 16 for CSF, B-CSF, MM-CSF; the real tensors with --check at unset / 16 /
# 8 (16 and 8 also cut the small trees finer than fill_device's floor of 32); the device-built
# trees of the CPD (mttkrp_slots.cpp, still B-CSF's 128 there): decompose --backend cuda on the
# nell-2 shape, B-CSF and MM-CSF, 5 iterations, unset (128) / 32 / unset / 32; delicious-4d's
# B-CSF and MM-CSF unset (32) / 128 as time allows.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda,test_decomp_cuda h200-session31.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_mttkrp_cuda test_decomp_cuda
EXT=jsonl
gen_nell2
N="--kernel mttkrp --backend cuda --format CSF,B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl"
for s in unset 16 8 12 unset 16; do run nell2-split$s 40 env TENSORSCOPE_FIBER_SPLIT=$s "$CLI" bench "$D/nell2.tsb" $N; done
ab_real TENSORSCOPE_FIBER_SPLIT CSF,B-CSF,MM-CSF unset 16 8
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
