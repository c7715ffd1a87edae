#!/bin/bash
# Session 95's second call (same bundle as gpu-session95.sh, whose checked MTTKRP on delicious-4d's
# shape took 6m45s and left no time for the rest): SpTTM's warp batches and SpTV on every format,
# unchecked, every mode, then CFB's and COO's mode-2 SpTV three times more (issue 19's 70% line).
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session95b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
gen_del4d > /dev/null
F=$D/del4d.tsb
run del4d-spttm 60 "$CLI" bench "$F" --kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl
run del4d-sptv 120 "$CLI" bench "$F" --kernel sptv --backend cuda --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF \
    --mode all --repeat 5 --jsonl
pack "$OUT"
for k in 1 2 3; do
    run del4d-sptv-cfb-mode2 25 "$CLI" bench "$F" --kernel sptv --backend cuda --format CFB,COO --mode 2 --repeat 10 --jsonl
done
step DONE; touch "$R/DONE"
pack "$OUT"
