#!/bin/bash
# Session 89's second call. Its first (gpu-session89.sh, one H100, h100-session89-hot-lookup.json)
# found delicious-4d's COO at 3e4058fe over issue 19's 800 GFLOP/s on every mode, checked, but
# mode 4 (no hot rows: the kernels compiled with HOT = false) 5% slower than 0d25ba31's and
# ae323f11's, COO 13.68-13.73 ms against 13.05 and BLCO 14.35-14.40 against 13.78, where BLCO's
# mode-4 kernel has the same code in all three (its PTX at 0d25ba31 and 3e4058fe differs only in
# the HotOut parameter's size, 32 bytes against 24; COO's loses the 64-bit remainder's routine).
# So: mode 4 alone in the three builds, twice
# alternating (does the gap follow the binary, or the modes run before it?), then the nell-2
# shape's COO and BLCO at 3e4058fe checked against cpu-ref (the lookup's first run there).
# Run (the same bundle as gpu-session89.sh, this script from the carried tree):
#   tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=300 COMMIT=3e4058fe bash docs/bench/scripts/gpu-session89c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
CLI_PREV=$B/bin/tensorscope-cli-prev
EXT=jsonl
P=(--kernel mttkrp --backend cuda --format COO,BLCO --rank 32 --repeat 5 --jsonl)
gen_del4d > /dev/null
for round in 1 2; do
    run del4d-m4-new 25 "$CLI" bench "$D/del4d.tsb" "${P[@]}" --mode 4
    run del4d-m4-prev 25 "$CLI_PREV" bench "$D/del4d.tsb" "${P[@]}" --mode 4
    run del4d-m4-old 25 "$CLI_ALT" bench "$D/del4d.tsb" "${P[@]}" --mode 4
done
pack "$OUT"
gen_nell2 > /dev/null
run nell2-check 90 "$CLI" bench "$D/nell2.tsb" "${P[@]}" --mode all --check
step DONE; touch "$R/DONE"
pack "$OUT"
