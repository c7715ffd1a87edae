#!/bin/bash
# The next session's second call (see gpu-session93.sh; same bundle): B-CSF and MM-CSF checked on
# the three shapes of issue 19's standing. MM-CSF's partitions rooted at the mode now take the
# root's hot copies too (session 92): its times and errors at today's binary (session 91's H100:
# 1.13-2.54x B-CSF's time, delicious-4d's mode 4 2.3e-5 from cpu-ref).
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session93b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_nell2 > /dev/null
gen_uniform > /dev/null
gen_del4d > /dev/null
MT=(--kernel mttkrp --backend cuda --format B-CSF,MM-CSF --mode all --rank 32 --repeat 5 --jsonl --check)
for t in nell2 uni del4d; do EXT=jsonl run "$t-mm-check" 240 "$CLI" bench "$D/$t.tsb" "${MT[@]}"; pack "$OUT"; done
step DONE; touch "$R/DONE"
pack "$OUT"
