#!/bin/bash
# Prepared in session 35 for the next session's first call (not yet run): the SpTV suite on this
# binary (two comparison switches in HOCSR's kernels: TENSORSCOPE_TUPLE_NEXT=shuffle passes each
# thread's fifth row offset from the next lane rather than loading it again, in the plan's count,
# the kept rows and the one pass; TENSORSCOPE_TUPLE_RUN=1 walks a thread's short rows in the one
# pass as one run of nonzeros), then HOCSR's SpTV on every mode of the nell-2 shape (two passes
# on modes 1 and 3) with the offset loaded or shuffled, and of the uniform shape (two passes on
# mode 1, one pass on mode 3: 0.54 ms, 69-70% of the copy bound in session 35) with each of the
# four, two rounds in turn; then Nsight Compute on the kept rows with the offset shuffled (nell-2
# mode 3) and on the one pass with runs (uniform mode 3).
# Run names end in the values: --tag 'next-(load|shuffle)=tuple_next' --tag 'run(\d)$=tuple_run'.
# Bundle: make_bundle.sh --tests test_sptv_cuda h200-session36.sh
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda
EXT=jsonl
gen_nell2
gen_uniform
V="--kernel sptv --backend cuda --format HOCSR --mode all --repeat 10 --jsonl"
for round in 1 2; do
    for n in load shuffle; do
        run nell2-hocsr-next-$n 30 env TENSORSCOPE_TUPLE_NEXT=$n "$CLI" bench "$D/nell2.tsb" $V
    done
    for r in 0 1; do
        for n in load shuffle; do
            run uni-hocsr-next-$n-run$r 30 env TENSORSCOPE_TUPLE_NEXT=$n TENSORSCOPE_TUPLE_RUN=$r "$CLI" bench "$D/uni.tsb" $V
        done
    done
done
ncu_setup
EXT=out
run ncu-hocsr-nell2-m3-shuffle 60 env TENSORSCOPE_TUPLE_NEXT=shuffle "$NCU" $NCU_P --launch-count 1 \
    --kernel-name regex:keep_rows "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
run ncu-hocsr-uni-m3-run 60 env TENSORSCOPE_TUPLE_RUN=1 "$NCU" $NCU_P --launch-count 1 \
    --kernel-name regex:sptv_tuple_kernel "$CLI" bench "$D/uni.tsb" --kernel sptv --backend cuda --format HOCSR --mode 3 --repeat 1
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
