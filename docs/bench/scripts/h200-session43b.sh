#!/bin/bash
# Session 43's second call (about 380 s), after call 1 (b8b7e41) found HOCSR's one pass slower
# with fewer rows a thread (uniform mode 3: 1 row 1.46 ms, 2 rows 0.74, 4 rows 0.56) and the
# hot entries' gather in id order about 1% faster on delicious-4d's mode 2.
# 1. HOCSR's one pass with 8 rows a thread, and 4 or 8 with 32-bit offsets held in 32 bits
#    (TENSORSCOPE_HOCSR_ROWS, TENSORSCOPE_HOCSR_NARROW=1), uniform mode 3, alternating twice.
# 2. CFB on delicious-4d's mode 2: the gather by count, by id, and by id with the hot part capped
#    at all of L2 rather than half (TENSORSCOPE_SPTV_HOT_BYTES), alternating twice.
# The GPU SpTV suite first with 8 narrow rows and the id gather.
# Run names: --tag 'rows-(\w+)$=hocsr_rows' --tag 'gather-([\w-]+)$=sptv_gather'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session43b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run test_sptv_cuda-rows8n-id 40 env QT_QPA_PLATFORM=offscreen TENSORSCOPE_HOCSR_ROWS=8 TENSORSCOPE_HOCSR_NARROW=1 \
    TENSORSCOPE_SPTV_GATHER=id "$B/tests/test_sptv_cuda"
EXT=jsonl
gen_uniform
U="--kernel sptv --backend cuda --format HOCSR --repeat 10 --jsonl --mode 3"
for round in 1 2; do
    for v in 4 4n 8 8n; do
        run uni-hocsr-rows-$v 40 env TENSORSCOPE_HOCSR_ROWS=${v%n} TENSORSCOPE_HOCSR_NARROW=$([ "${v%n}" = "$v" ] && echo 0 || echo 1) \
            "$CLI" bench "$D/uni.tsb" $U
    done
done
for v in 8 8n; do
    run uni-hocsr-checked-rows-$v 60 env TENSORSCOPE_HOCSR_ROWS=8 TENSORSCOPE_HOCSR_NARROW=$([ "$v" = 8n ] && echo 1 || echo 0) \
        "$CLI" bench "$D/uni.tsb" $U --repeat 2 --check
done
gen_del4d
S="--kernel sptv --backend cuda --format CFB --repeat 10 --jsonl --mode 2"
for round in 1 2; do
    run del4d-gather-count 40 env TENSORSCOPE_SPTV_GATHER=count "$CLI" bench "$D/del4d.tsb" $S
    run del4d-gather-id 40 env TENSORSCOPE_SPTV_GATHER=id "$CLI" bench "$D/del4d.tsb" $S
    run del4d-gather-id-l2 40 env TENSORSCOPE_SPTV_GATHER=id TENSORSCOPE_SPTV_HOT_BYTES=52428800 "$CLI" bench "$D/del4d.tsb" $S
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
