#!/bin/bash
# Session 88's first call: session 87's third call as planned (gpu-session88c.sh, never run: its
# budget went to failed starts), with one more build and the hot rows' chain limit beside it.
# COO's and BLCO's hot rows look each run's row up as the run starts (hot_out.cuh's HotLook) and
# the launches without hot rows run kernels compiled apart (HOT = false); session 87's call 2
# found the lookup at the flush 21-29% slower on delicious-4d's COO modes 2-3 and 18-19% on BLCO's
# (h100-session87-hot-rows.json). Three builds: the bundle's (bin/tensorscope-cli: the lookup's
# bitmap word and count in one 8-byte load, copies picked by 32-bit remainders), the build
# before that (bin/tensorscope-cli-prev, 0d25ba31: the kernels as at 53ed0835) and the build
# before both hot-row changes (bin/tensorscope-cli-alt, ae323f11). In order: test_mttkrp_cuda;
# delicious-4d's COO and BLCO in the three builds; the bundle's checked against cpu-ref; its
# chain limits 16,384 and 32,768 (TENSORSCOPE_HOT_CHAIN: fewer hot rows and copies, longer fp32
# chains a copy), timed, then checked; SpTV on CFB and COO, delicious-4d's mode 2 (session 86:
# CFB 69.0% of the copy bound, 1 point under the line); a second round of the three builds.
# Bundle: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda --alt ae323f11 gpu-session89.sh,
# then 0d25ba31's tensorscope-cli, stripped, added as bin/tensorscope-cli-prev (same libraries),
# data/ left out and packed with xz --lzma2=preset=9e,dict=192MiB (16.8 MB: the three CLIs share
# most of their code): at 19.9 MB the call was refused, the working tree over 64 MiB.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=560 COMMIT=<bundle's> bash /tmp/bundle/gpu-session89.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
CLI_PREV=$B/bin/tensorscope-cli-prev
EXT=out run_suites 30 test_mttkrp_cuda
pack "$OUT"
EXT=jsonl
gen_del4d > /dev/null
P=(--kernel mttkrp --backend cuda --mode all --rank 32 --repeat 5 --jsonl)
three() {  # the three builds, one round
    run del4d-new 40 "$CLI" bench "$D/del4d.tsb" --format COO,BLCO "${P[@]}"
    if [ -x "$CLI_PREV" ]; then run del4d-prev 40 "$CLI_PREV" bench "$D/del4d.tsb" --format COO,BLCO "${P[@]}"; fi
    if [ -x "$CLI_ALT" ]; then run del4d-old 40 "$CLI_ALT" bench "$D/del4d.tsb" --format COO,BLCO "${P[@]}"; fi
}
three
pack "$OUT"
run del4d-check 90 "$CLI" bench "$D/del4d.tsb" --format COO,BLCO "${P[@]}" --check
pack "$OUT"
for c in 16384 32768; do run "del4d-chain$c" 40 env TENSORSCOPE_HOT_CHAIN=$c "$CLI" bench "$D/del4d.tsb" --format COO,BLCO "${P[@]}"; done
pack "$OUT"
for c in 16384 32768; do
    run "del4d-chain$c-check" 70 env TENSORSCOPE_HOT_CHAIN=$c "$CLI" bench "$D/del4d.tsb" --format COO,BLCO "${P[@]}" --check
done
pack "$OUT"
run del4d-sptv 40 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format CFB,COO --mode 2 --repeat 10 --jsonl
pack "$OUT"
three
step DONE; touch "$R/DONE"
pack "$OUT"
