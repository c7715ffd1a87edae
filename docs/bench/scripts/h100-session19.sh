#!/bin/bash
# Issue 19, session 19 on one H100, from a carried bundle $B (bin/tensorscope-cli at the commit
# under test; bin/variants/tb5 and tb4/tensorscope-cli: the same with MM-CSF's block-owned tree
# kernel bounded to 5 and 4 resident blocks instead of 6; tests/, lib/, data/; device_steps.sh
# beside this script): the cuda suites, then on the nell-2 shape (rank 32):
# - MM-CSF's MTTKRP with the block-owned tree kernel against the shared-grid one it replaces
#   (TENSORSCOPE_TREES_KERNEL=shared), with B-CSF in the same call;
# - SpTV on COO, CFB, HOCFS-CSR and CSF with v in shared memory (the default where it fits)
#   against v read through L1 (TENSORSCOPE_SPTV_V=global) and each block size forced;
# - both checked against cpu-ref.
# Results in $R, packed into $OUT.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 60 test_sptv_cuda test_mttkrp_cuda test_decomp_cuda test_kernel_registry test_format_build_cuda test_streamed_mttkrp_cuda
gen_nell2
M="--kernel mttkrp --backend cuda --rank 32 --repeat 5 --json"
V="--kernel sptv --backend cuda --mode all --repeat 5 --json"
EXT=json
run mm-blocks 50 "$CLI" bench "$D/nell2.tsb" $M --format MM-CSF,B-CSF
run mm-shared 40 env TENSORSCOPE_TREES_KERNEL=shared "$CLI" bench "$D/nell2.tsb" $M --format MM-CSF
run mm-tb5 40 "$B/bin/variants/tb5/tensorscope-cli" bench "$D/nell2.tsb" $M --format MM-CSF
run mm-tb4 40 "$B/bin/variants/tb4/tensorscope-cli" bench "$D/nell2.tsb" $M --format MM-CSF
run sptv-auto 90 "$CLI" bench "$D/nell2.tsb" $V --format COO,CFB,HOCFS-CSR,CSF
run sptv-global 90 env TENSORSCOPE_SPTV_V=global "$CLI" bench "$D/nell2.tsb" $V --format COO,CFB,HOCFS-CSR,CSF
run sptv-1024 60 env TENSORSCOPE_SPTV_V=shared1024 "$CLI" bench "$D/nell2.tsb" $V --format COO,CSF
run sptv-512 60 env TENSORSCOPE_SPTV_V=shared512 "$CLI" bench "$D/nell2.tsb" $V --format COO,CSF
run mm-check 60 "$CLI" bench "$D/nell2.tsb" $M --format MM-CSF --check --repeat 3
run sptv-check 60 "$CLI" bench "$D/nell2.tsb" --kernel sptv --backend cuda --format CSF,COO --mode all --repeat 3 --json --check
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
