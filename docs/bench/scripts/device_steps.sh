# Sourced by the device scripts (carry it in the bundle beside them). device_setup: the bundle
# B, results R, tensors D and the call's seconds LIMIT (their defaults unless set), the library
# path, OpenMP threads, NCCL_NVLS_ENABLE=0, TS_SHARED_DATA where the bundle has data/, CLI, START
# and the log's machine line; CLI_ALT, where the bundle has it (make_bundle.sh --alt), the other
# commit's CLI, and ALT_COMMIT, that commit (both in the log); CLI_PREV and PREV_COMMIT
# likewise where the bundle has bin/tensorscope-cli-prev (added by hand, see gpu-session90c.sh).
# Else the script sets R, LIMIT and START (its start, date +%s) itself. EXT names what a step's stdout becomes (default out). step: a line in
# $R/log. run NAME SECONDS CMD...: CMD's stdout to $R/NAME.$EXT and stderr to $R/NAME.err,
# skipped where SECONDS more would pass LIMIT, cut at LIMIT.
# run_suites SECONDS NAME...: each test binary $B/tests/NAME under the offscreen platform.
# gen_nell2: the nell-2-shaped tensor (76.9M nonzeros) as $D/nell2.tsb unless it is there;
# gen_uniform: the uniform tensor of the same shape as $D/uni.tsb, likewise; gen_del4d:
# delicious-4d's shape as $D/del4d.tsb, likewise. standing NAME: issue 19's kernels on a tensor.
# Steps that bench should pass --jsonl (EXT=jsonl): a step cut at LIMIT then keeps the rows it
# finished (session 20 lost a whole call's SpTTM rows to a --json bench that outran it).
# pack DIR: $R as one $(basename $R).tgz in DIR. The device hands back at most 8 files from $OUT
# (session 17 lost a call's results to that), so keep R outside $OUT and pack it into $OUT.
step() { echo "[$(date +%T)] $*" >> "$R/log"; }
run() {  # name, the seconds it may need, command...
    local name=$1 need=$2; shift 2
    if [ $(( $(date +%s) - START + need )) -gt "$LIMIT" ]; then step "skip $name (time)"; return; fi
    local k=2 base=$name  # a name run again (alternating rounds) keeps every round's output
    while [ -e "$R/$name.${EXT:-out}" ]; do name=$base.$k; k=$((k + 1)); done
    step "start $name"; timeout $(( LIMIT - ($(date +%s) - START) )) "$@" > "$R/$name.${EXT:-out}" 2> "$R/$name.err"; step "end $name rc=$?"
}
pack() { tar -C "$(dirname "$R")" -czf "$1/$(basename "$R").tgz" "$(basename "$R")"; }
device_setup() {
    B=${B:-/tmp/bundle}; R=${R:-/tmp/res}; D=${D:-/tmp/tensors}; LIMIT=${LIMIT:-560}
    mkdir -p "$R" "$D"
    export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
    export OMP_NUM_THREADS=$(nproc) NCCL_NVLS_ENABLE=0
    if [ -d "$B/data" ]; then export TS_SHARED_DATA=$B/data; fi
    CLI=$B/bin/tensorscope-cli
    CLI_ALT=$B/bin/tensorscope-cli-alt ALT_COMMIT=$(cat "$B/bin/alt-commit" 2>/dev/null || echo none)
    CLI_PREV=$B/bin/tensorscope-cli-prev PREV_COMMIT=$(cat "$B/bin/prev-commit" 2>/dev/null || echo none)
    START=$(date +%s)
    step "machine: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>&1)"
    if [ -x "$CLI_ALT" ]; then step "alt: $CLI_ALT at $ALT_COMMIT"; fi
    if [ -x "$CLI_PREV" ]; then step "prev: $CLI_PREV at $PREV_COMMIT"; fi
}
# nccl_setup: NCCL's library from the GPU machine's Python package on the library path, NVLink
# multicast off, and the GPU count and that path in the log (the multi-GPU kinds).
nccl_setup() {
    NCCL_LIB=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))")
    export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$NCCL_LIB NCCL_NVLS_ENABLE=0
    step "gpus: $(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l), nccl: $NCCL_LIB"
}
# suite_to NAME BINARY [VAR=VALUE...]: test binary BINARY with those variables set, its output and
# an rc= line in $R/NAME.out, uncut by LIMIT (scripts run it in the background beside the tensors'
# generation, then wait).
suite_to() {
    local name=$1 t=$2; shift 2
    env "$@" QT_QPA_PLATFORM=offscreen "$B/tests/$t" > "$R/$name.out" 2>&1
    echo "rc=$?" >> "$R/$name.out"
}
run_suites() {  # the seconds each may need, test binary names...
    local need=$1 t; shift
    for t in "$@"; do run "$t" "$need" env QT_QPA_PLATFORM=offscreen "$B/tests/$t"; done
}
# run_gpu_suites SECONDS: every GPU test suite (gpu_suites.txt, which make_bundle.sh's --tests gpu
# bundles), one after another.
run_gpu_suites() { run_suites "$1" $(cat "$B/gpu_suites.txt"); }
gen_nell2() {
    [ -f "$D/nell2.tsb" ] || run gen-nell2 60 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist powerlaw:1.0 --seed 11 --float -o "$D/nell2.tsb"
}
# advisor_cuda FIT_SECONDS HELD_SECONDS: the GPU advisor evaluation (advisor_eval.py --backend cuda,
# beside the scripts in the bundle, 2 rounds), the fit tensors and the held-out ones as two records
# in $R (each is written only at its end), the binary's commit from COMMIT.
advisor_cuda() {
    local E=(python3 "$B/advisor_eval.py" --bin "$B/bin" --data "$B/data" --backend cuda --rounds 2 --repeat 5 --sptv-repeat 10
             --commit "${COMMIT:-unknown}")
    EXT=out run advisor-cuda-fit "$1" "${E[@]}" --out "$R/gpu-advisor-fit.json" \
        --only uniform-3d,powerlaw-3d,blocks-4d,blocks-3d-tiles,blocks-3d-sparse-tiles
    EXT=out run advisor-cuda-held "$2" "${E[@]}" --out "$R/gpu-advisor-held.json" \
        --only blocks-3d,powerlaw-3d-steep,uniform-4d,powerlaw-4d,uniform-5d,powerlaw-5d,blocks-5d,movielens-100k,lastfm-tags,jf17k-4d
}
# advisor_cuda_all ALL_SECONDS CHECK_SECONDS: the GPU advisor evaluation as sessions 76-77 ran it
# by hand in each script: the 15 tensors (gpu-advisor-all.json) and the five check tensors
# (gpu-advisor-check.json), 2 rounds, 8 host threads, the binary's commit from COMMIT.
advisor_cuda_all() {
    local E=(python3 "$B/advisor_eval.py" --bin "$B/bin" --data "$B/data" --backend cuda --rounds 2 --repeat 5 --sptv-repeat 10
             --threads 8 --commit "${COMMIT:-unknown}")
    EXT=out run advisor-cuda-all "$1" "${E[@]}" --out "$R/gpu-advisor-all.json"
    EXT=out run advisor-cuda-check "$2" "${E[@]}" --out "$R/gpu-advisor-check.json" \
        --only check-powerlaw-3d,check-uniform-4d,check-blocks-3d,check-powerlaw-4d,check-powerlaw-3d-5m
}
# gen_del4d: delicious-4d's shape (140M nonzeros, order 4) as $D/del4d.tsb unless it is there.
gen_del4d() {
    [ -f "$D/del4d.tsb" ] || run gen-del4d 100 "$CLI" generate --dims 532924,17262471,2480308,1443 --nnz 140000000 \
        --dist powerlaw:1.0 --seed 7 --float -o "$D/del4d.tsb"
}
# standing NAME: issue 19's kernels on $D/NAME.tsb as NAME-mttkrp, NAME-sptv, NAME-spttm (.jsonl):
# MTTKRP on COO, CSF, B-CSF, MM-CSF and BLCO (rank 32), SpTV on every format with a GPU kernel,
# SpTTM's wb variant, every mode. With CHECK=1 the MTTKRP and SpTV rows are checked against
# cpu-ref (bench --check: one serial result a mode, kept for every format's rows); CHECK=mttkrp
# checks MTTKRP's alone (session 86: on delicious-4d's 140M nonzeros SpTV's sparse comparisons
# took 7 minutes for 9 rows on one H100's host).
standing() {
    local f=$D/$1.tsb c=() cs=()
    if [ "${CHECK:-0}" = 1 ] || [ "${CHECK:-0}" = mttkrp ]; then c=(--check); fi
    if [ "${CHECK:-0}" = 1 ]; then cs=(--check); fi
    EXT=jsonl run "$1-mttkrp" 90 "$CLI" bench "$f" --kernel mttkrp --backend cuda --format COO,CSF,B-CSF,MM-CSF,BLCO \
        --mode all --rank 32 --repeat 5 --jsonl "${c[@]}"
    EXT=jsonl run "$1-sptv" 90 "$CLI" bench "$f" --kernel sptv --backend cuda --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF \
        --mode all --repeat 5 --jsonl "${cs[@]}"
    EXT=jsonl run "$1-spttm" 45 "$CLI" bench "$f" --kernel spttm --backend cuda --format COO --variant wb --mode all \
        --rank 32 --repeat 5 --jsonl
}
gen_uniform() {
    [ -f "$D/uni.tsb" ] || run gen-uniform 30 "$CLI" generate --dims 12092,9184,28818 --nnz 76900000 --dist uniform --seed 5 --float -o "$D/uni.tsb"
}
# suite_beside_del4d SUITE...: the test binaries SUITE, one after another, in the background while
# gen_del4d makes delicious-4d's shape (about 75 s each on an H100's host), each one's totals in the
# log once all end.
suite_beside_del4d() {
    local t
    step "start $* (background, one after another)"
    (for t in "$@"; do suite_to "$t" "$t"; done) &
    gen_del4d > /dev/null
    wait
    for t in "$@"; do step "end $t: $(grep -E '^Totals|^rc=' "$R/$t.out" | tr '\n' ' ')"; done
}
# del4d_order_rounds ROUNDS NAME PREFIX "ORDERS" BENCH_ARGS...: on $D/del4d.tsb, ROUNDS times,
# BENCH_ARGS on modes 1-3 as the defaults build their trees (as $R/NAME.jsonl), then on each
# --mode-order in ORDERS, its root mode alone ($R/PREFIX-ORDER.jsonl, the commas left out);
# BENCH_ARGS should hold --jsonl. Packed after each round.
del4d_order_rounds() {
    local rounds=$1 name=$2 prefix=$3 orders=$4 round o; shift 4
    for round in $(seq "$rounds"); do
        EXT=jsonl run "$name" 50 "$CLI" bench "$D/del4d.tsb" --mode 1,2,3 "$@"
        for o in $orders; do
            EXT=jsonl run "$prefix-${o//,/}" 30 "$CLI" bench "$D/del4d.tsb" --mode "${o%%,*}" --mode-order "$o" "$@"
        done
        pack "$OUT"
    done
}
# gen_5d: two 5-order shapes as $D/vast5d.tsb (FROSTT's vast-2015-mc1-5d dimensions, 26M
# power-law nonzeros) and $D/uni5d.tsb (50M uniform ones), unless they are there.
gen_5d() {
    [ -f "$D/vast5d.tsb" ] || run gen-vast5d 40 "$CLI" generate --dims 165427,11374,2,100,89 --nnz 26000000 --dist powerlaw:1.0 \
        --seed 13 --float -o "$D/vast5d.tsb"
    [ -f "$D/uni5d.tsb" ] || run gen-uni5d 60 "$CLI" generate --dims 40000,30000,20000,2000,500 --nnz 50000000 --dist uniform \
        --seed 17 --float -o "$D/uni5d.tsb"
}
# switch_tag SWITCH: the switch's name after TENSORSCOPE_, lower case, _ as -, for run names.
switch_tag() { echo "${1#TENSORSCOPE_}" | tr 'A-Z_' 'a-z-'; }
# ab_real SWITCH FORMATS VALUES...: CUDA MTTKRP at rank 32 with --check on each shared real tensor,
# once for each value of the environment switch SWITCH (alternating), as $R/TENSOR-TAGVALUE.jsonl
# (TAG: switch_tag SWITCH).
ab_real() {
    local sw=$1 formats=$2 t n v tag; shift 2
    tag=$(switch_tag "$sw")
    for t in "$B/data/movielens-100k.tns" "$B/data/lastfm-tags.tns" "$B/data/jf17k-4d.tns"; do
        n=$(basename "${t%.*}")
        for v in "$@"; do
            EXT=jsonl run "$n-$tag$v" 20 env "$sw=$v" "$CLI" bench "$t" --kernel mttkrp --backend cuda --format "$formats" \
                --mode all --rank 32 --repeat 5 --jsonl --check
        done
    done
}
# alternate ROUNDS SECONDS SWITCH "VALUES" "TENSORS" BENCH_ARGS...: bench BENCH_ARGS on each
# $D/TENSOR.tsb once for each value of the environment switch SWITCH, the whole set ROUNDS times
# (so that the machine's drift touches every value alike), as $R/TENSOR-TAGVALUE.jsonl (TAG as in
# ab_real; a round after the first adds .2, .3, ... to the name). BENCH_ARGS should hold --jsonl.
alternate() {
    local rounds=$1 need=$2 sw=$3 values=$4 tensors=$5 round t v tag; shift 5
    tag=$(switch_tag "$sw")
    for round in $(seq "$rounds"); do
        for t in $tensors; do
            for v in $values; do EXT=jsonl run "$t-$tag$v" "$need" env "$sw=$v" "$CLI" bench "$D/$t.tsb" "$@"; done
        done
    done
}
# ncu_setup: NCU, Nsight Compute's binary (PATH, /opt/nvidia or the CUDA toolkit's), and NCU_P, the
# sections issue 19's profiles read (speed of light, memory, warp states, occupancy, launch,
# schedulers) at the GPU's own clocks; the binary found goes in the log.
ncu_setup() {
    NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
    NCU_P="--clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats"
    NCU_P="$NCU_P --section Occupancy --section LaunchStats --section SchedulerStats"
    step "ncu: $NCU"
}
