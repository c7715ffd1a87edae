#!/bin/bash
# Session 94's second call (bundle: make_bundle.sh --strip --icu-stub --tests test_sptv_cuda gpu-session94.sh):
# (TENSORSCOPE_SPTV_GATHER and its word gathers were removed in 76f20687: no faster than the ids' gather.)
# - test_sptv_cuda at this build (the packed vector's gather through words, beside the tensor's generation).
# - Delicious-4d's mode-2 SpTV (CFB 69.75-69.86% of the copy bound in sessions 92-94, under issue
#   19's 70%) with the packed entries gathered through their ids (TENSORSCOPE_SPTV_GATHER=ids, as
#   until now) against through a word for each 32 of v's entries (no hot ids read, 26 MB less a
#   product), its reads of v and the ranks plain (=words-plain) or evict-first (the default now),
#   alternating three times, COO and CFB; then HOCFS-CSR and CSF all three ways once, and CFB
#   checked against cpu-ref.
# Run: tar -C /tmp -xJf carry/bundle.tar.xz && OUT=$OUT LIMIT=540 COMMIT=<bundle's> bash docs/bench/scripts/gpu-session94.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
suite_beside_del4d test_sptv_cuda
pack "$OUT"
alternate 3 30 TENSORSCOPE_SPTV_GATHER "ids words-plain words" del4d --kernel sptv --backend cuda --format COO,CFB --mode 2 --repeat 10 --jsonl
pack "$OUT"
alternate 1 40 TENSORSCOPE_SPTV_GATHER "ids words-plain words" del4d --kernel sptv --backend cuda --format HOCFS-CSR,CSF --mode 2 --repeat 10 --jsonl
pack "$OUT"
EXT=jsonl run del4d-sptv-cfb-checked 150 "$CLI" bench "$D/del4d.tsb" --kernel sptv --backend cuda --format CFB --mode 2 --repeat 10 --jsonl --check
step DONE; touch "$R/DONE"
pack "$OUT"
