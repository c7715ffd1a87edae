#!/bin/bash
# The next session's second call (see gpu-session91.sh; same bundle, best on the machine that
# call left warm, where delicious-4d's tensor is still in /tmp/tensors): SpTTM's warp batches on
# delicious-4d's shape, every mode (session 90's call reached mode 1 alone in 47 s), and SpTV on
# every format, unchecked (session 86: its checks of 140M-entry results took 7 minutes); then the
# nell-2 and uniform shapes' standing with MTTKRP checked, while time lasts.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session91b.sh
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
rm -f "$F"
gen_nell2 > /dev/null
gen_uniform > /dev/null
CHECK=mttkrp standing nell2
pack "$OUT"
CHECK=mttkrp standing uni
step DONE; touch "$R/DONE"
pack "$OUT"
