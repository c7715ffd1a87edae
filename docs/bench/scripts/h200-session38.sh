#!/bin/bash
# Prepared in session 37 for the next session's first call (not yet run, about 420 s): the GPU
# SpTV suite (the vector renumbered by its reads, HOCFS-ELL's loads eight at a time); SpTV on the
# CSR-shaped formats (COO, CFB, HOCFS-CSR, CSF) with cuSPARSE's columns renumbered by their
# reads (TENSORSCOPE_SPTV_HOT=1, sptv_hot_columns.cuh) or not, alternating twice: on the
# delicious-4d shape's mode 2 (a 69 MB vector, 58-64% of the bound; a run loads the 140M
# nonzeros and builds four formats, about 50 s) and on the nell-2 shape's every mode (vectors
# under 120 KB: power-law fibers that keep cuSPARSE). h200-session38b.sh follows.
# Run names: --tag 'hot-(\d)=sptv_hot'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session38.sh h200-session38b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 30 test_sptv_cuda
EXT=jsonl
gen_nell2
gen_del4d
S="--kernel sptv --backend cuda --format COO,CFB,HOCFS-CSR,CSF --repeat 10 --jsonl"
for round in 1 2; do
    for hot in 0 1; do run nell2-sptv-hot-$hot 40 env TENSORSCOPE_SPTV_HOT=$hot "$CLI" bench "$D/nell2.tsb" $S --mode all; done
done
for round in 1 2; do
    for hot in 0 1; do run del4d-sptv-hot-$hot 60 env TENSORSCOPE_SPTV_HOT=$hot "$CLI" bench "$D/del4d.tsb" $S --mode 2; done
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
