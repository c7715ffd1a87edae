#!/bin/bash
# Session 90's first call (run from the checkout, where this script and device_steps.sh are tracked;
# it replaced gpu-session90.sh, written in session 89 and never run). test_mttkrp_cuda in the
# background while delicious-4d's shape is generated; its COO and BLCO MTTKRP on every mode in this
# build and with TENSORSCOPE_COO_ORDER=1, that one checked against cpu-ref; the H100 standing's
# empty cells on that shape (session 86 cut them at the call's limit): SpTV on every format,
# unchecked (its checks took minutes), and SpTTM's warp batches; then 3e4058fe's build
# (bin/tensorscope-cli-prev) and mode 4 alone in this build, 3e4058fe's and ae323f11's while time
# lasts.
# Bundle: make_bundle.sh --strip --icu-stub --tests test_mttkrp_cuda --alt ae323f11 gpu-session90b.sh,
# then 3e4058fe's tensorscope-cli, stripped, as bin/tensorscope-cli-prev (echo 3e4058fe > bin/prev-commit),
# data/ removed, packed with xz --lzma2=preset=9e,dict=192MiB (about 17 MB).
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session90c.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
step "start test_mttkrp_cuda (background)"
suite_to test_mttkrp_cuda test_mttkrp_cuda &
gen_del4d > /dev/null
wait
step "end test_mttkrp_cuda: $(grep -E '^Totals|^rc=' "$R/test_mttkrp_cuda.out" | tr '\n' ' ')"
pack "$OUT"
EXT=jsonl
F=$D/del4d.tsb
P=(--kernel mttkrp --backend cuda --format COO,BLCO --rank 32 --repeat 5 --jsonl)
run del4d-new 40 "$CLI" bench "$F" "${P[@]}" --mode all
run del4d-order1 40 env TENSORSCOPE_COO_ORDER=1 "$CLI" bench "$F" "${P[@]}" --mode all
run del4d-order1-check 90 env TENSORSCOPE_COO_ORDER=1 "$CLI" bench "$F" "${P[@]}" --mode all --check
pack "$OUT"
run del4d-sptv 100 "$CLI" bench "$F" --kernel sptv --backend cuda --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF \
    --mode all --repeat 5 --jsonl
run del4d-spttm 45 "$CLI" bench "$F" --kernel spttm --backend cuda --format COO --variant wb --mode all --rank 32 --repeat 5 --jsonl
pack "$OUT"
if [ -x "$CLI_PREV" ]; then run del4d-prev 40 "$CLI_PREV" bench "$F" "${P[@]}" --mode all; fi
run del4d-order1 40 env TENSORSCOPE_COO_ORDER=1 "$CLI" bench "$F" "${P[@]}" --mode all
run del4d-new 40 "$CLI" bench "$F" "${P[@]}" --mode all
pack "$OUT"
if [ -x "$CLI_ALT" ]; then run del4d-m4-old 20 "$CLI_ALT" bench "$F" "${P[@]}" --mode 4; fi
if [ -x "$CLI_PREV" ]; then run del4d-m4-prev 20 "$CLI_PREV" bench "$F" "${P[@]}" --mode 4; fi
run del4d-m4-new 20 "$CLI" bench "$F" "${P[@]}" --mode 4
step DONE; touch "$R/DONE"
pack "$OUT"
