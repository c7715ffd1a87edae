#!/bin/bash
# Session 30's third call: two B-CSF knobs never measured on a GPU, both plain CLI options.
# (1) The tree's level order. Each B-CSF (and CSF) tree puts the output mode at the root and the
# others by increasing length (SPLATT's rule, default_mode_order): on the nell-2 shape mode 1's
# tree is 1-2-3, its leaves mode 3's 28,818 factor rows (3.7 MB at rank 32) over 16.2M fibers
# (4.7 nonzeros a fiber); 1-3-2 gathers its leaves from mode 2's 9,184 rows (1.2 MB) over 22.0M
# fibers (3.5 a fiber), host counts by formats --json. The kernels wait on their gathers (session
# 25, Nsight: L1 hits 54%), so the smaller leaf factor may pay for the extra fibers. Default and
# reversed order alternating, two rounds, each mode on its own (--mode M --mode-order ...), CSF
# and B-CSF; the uniform shape once each; Last.fm with --check.
# (2) B-CSF's fiber split threshold (--fiber-threshold, default 128) on the nell-2 shape.
# Bundle: make_bundle.sh --tests test_mttkrp_cuda h200-session30c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_nell2
F="--kernel mttkrp --backend cuda --format CSF,B-CSF --rank 32 --repeat 5 --jsonl"
ORD=("1 1,2,3 1,3,2" "2 2,1,3 2,3,1" "3 3,2,1 3,1,2")
for round in 1 2; do
    for o in "${ORD[@]}"; do
        set -- $o
        run nell2-m$1-order${2//,/} 25 "$CLI" bench "$D/nell2.tsb" $F --mode $1 --mode-order $2
        run nell2-m$1-order${3//,/} 25 "$CLI" bench "$D/nell2.tsb" $F --mode $1 --mode-order $3
    done
done
T="--kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl"
for th in 128 32 64 512 128; do run nell2-bcsf-threshold$th 30 "$CLI" bench "$D/nell2.tsb" $T --fiber-threshold $th; done
L=$B/data/lastfm-tags.tns
for o in "1 1,3,2" "2 2,3,1" "3 3,1,2"; do
    set -- $o; run lastfm-tags-m$1-order${2//,/} 15 "$CLI" bench "$L" $F --mode $1 --mode-order $2 --check
done
gen_uniform
for o in "${ORD[@]}"; do
    set -- $o
    run uni-m$1-order${2//,/} 25 "$CLI" bench "$D/uni.tsb" $F --mode $1 --mode-order $2
    run uni-m$1-order${3//,/} 25 "$CLI" bench "$D/uni.tsb" $F --mode $1 --mode-order $3
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
