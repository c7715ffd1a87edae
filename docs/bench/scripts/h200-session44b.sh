#!/bin/bash
# Session 44's second call (about 400 s): SpTV's product replayed as a CUDA graph captured once
# at plan time (launch_graph.cuh), against the kernels launched one by one (TENSORSCOPE_GRAPHS=0).
# Call 1 found the bench's product times 26-37 us longer than Nsight Compute's kernel durations on
# the nell-2 shape's mode 3: the host's launch work, which the idle device waits out.
# 1. The GPU SpTV suite, with graphs (the default) and without.
# 2. nell-2 shape, COO, CSF, CFB, HOCFS-CSR and HOCSR, every mode: graphs on and off,
#    alternating twice.
# 3. uniform shape, every format with a GPU SpTV kernel: on and off, once each.
# Run names: --tag 'graphs-(\w+)$=graphs'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session44b.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 40 test_sptv_cuda
run test_sptv_cuda-graphs-0 40 env QT_QPA_PLATFORM=offscreen TENSORSCOPE_GRAPHS=0 "$B/tests/test_sptv_cuda"
EXT=jsonl
gen_nell2
S="--kernel sptv --backend cuda --mode all --repeat 10 --jsonl"
for round in 1 2; do
    for v in 1 0; do
        run nell2-graphs-$v 60 env TENSORSCOPE_GRAPHS=$v "$CLI" bench "$D/nell2.tsb" $S --format COO,CSF,CFB,HOCFS-CSR,HOCSR
    done
done
gen_uniform
for v in 1 0; do
    run uni-graphs-$v 90 env TENSORSCOPE_GRAPHS=$v "$CLI" bench "$D/uni.tsb" $S --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF
done
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
