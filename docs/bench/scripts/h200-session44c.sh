#!/bin/bash
# Session 44's third call (about 500 s): the delicious-4d shape's standing at f77a755, where
# SpTV's products replay as CUDA graphs and the bench counts a cuda row's values in fp32 (until
# now its shares were old rows recounted): SpTV on COO, CFB, HOCFS-CSR and CSF, every mode;
# SpTTM's wb variant, every mode; HOCFS-ELL on modes 1 and 3 (it refuses the others' padding).
# Bundle: make_bundle.sh h200-session44c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_del4d
f=$D/del4d.tsb
run del4d-sptv 300 "$CLI" bench "$f" --kernel sptv --backend cuda --format COO,CFB,HOCFS-CSR,CSF --mode all --repeat 5 --jsonl
run del4d-spttm 90 "$CLI" bench "$f" --kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl
for m in 1 3; do run del4d-sptv-ell-m$m 50 "$CLI" bench "$f" --kernel sptv --backend cuda --format HOCFS-ELL --mode $m --repeat 5 --jsonl; done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
