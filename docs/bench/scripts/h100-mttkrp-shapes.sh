#!/bin/bash
# Issue 19 on one H100, from a carried bundle $B (bin/, tests/, lib/, data/, and device_steps.sh beside this script); results in $R:
# - the cuda suites that cover the MTTKRP kernels (COO's output copies, the fiber kernels with
#   their levels compiled in, MM-CSF's split fibers; CPD, streaming, NCCL parts, the registry);
# - the CUDA MTTKRP of every GPU format at rank 32, --check against cpu-ref, on the nell-2 shape
#   (power law), and on a uniform tensor of its dims and nonzeros (fibers of about one nonzero);
# - COO's two kernels forced on every mode (TENSORSCOPE_COO_KERNEL=team|tile);
# - MM-CSF with whole fibers (TENSORSCOPE_MMCSF_UNSPLIT=1) and the fiber kernels with the
#   run-time level count (TENSORSCOPE_FIBER_GENERIC=1) on nell-2, for comparison.
# Each step is skipped once the call's time (LIMIT s) would pass; the whole list took two calls.
set -u
B=${B:-/tmp/bundle}; R=${R:-/tmp/res}; D=${D:-/tmp/tensors}; LIMIT=${LIMIT:-560}
mkdir -p "$R" "$D"
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=$(nproc) TS_SHARED_DATA=$B/data NCCL_NVLS_ENABLE=0
CLI=$B/bin/tensorscope-cli
START=$(date +%s)
. "$(dirname "$0")/device_steps.sh"
step "machine: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader)"
for t in test_mttkrp_cuda test_format_build_cuda test_streamed_mttkrp_cuda test_multi_gpu_cuda test_decomp_cuda test_kernel_registry; do
    run "$t" 60 env QT_QPA_PLATFORM=offscreen "$B/tests/$t"
done
[ -f "$D/nell2.tsb" ] || run gen-nell2 60 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o "$D/nell2.tsb"
[ -f "$D/uni.tsb" ] || run gen-uni 60 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
M="--kernel mttkrp --backend cuda --rank 32 --repeat 5 --json"
run nell2-all 200 "$CLI" bench "$D/nell2.tsb" $M --format COO,CSF,B-CSF,MM-CSF,BLCO --check
run nell2-mmcsf-unsplit 60 env TENSORSCOPE_MMCSF_UNSPLIT=1 "$CLI" bench "$D/nell2.tsb" $M --format MM-CSF
run nell2-trees-generic 90 env TENSORSCOPE_FIBER_GENERIC=1 "$CLI" bench "$D/nell2.tsb" $M --format B-CSF,CSF,MM-CSF
for k in team tile; do run "nell2-coo-$k" 40 env TENSORSCOPE_COO_KERNEL=$k "$CLI" bench "$D/nell2.tsb" $M --format COO; done
# the uniform tensor: COO checked; the trees' host builds and checks on it outrun a call together
run uni-coo 70 "$CLI" bench "$D/uni.tsb" $M --format COO --check
run uni-trees 140 "$CLI" bench "$D/uni.tsb" $M --format B-CSF,MM-CSF,CSF
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"  # one file back from the device (it hands back 8 at most)
