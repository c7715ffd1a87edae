#!/bin/bash
# Session 75, call 3: SpTV's CSR product after the rule of call 2 (the 4-row shared-vector kernel
# only for rows of at most 1.25 nonzeros on average, else the adaptive blocks). test_sptv_cuda;
# then, on the advisor evaluation's 600K-nonzero and real tensors, COO, CFB, HOCFS-CSR and CSF
# by default and with TENSORSCOPE_SPTV_ROWS=shared (the 4-row kernel forced: the previous
# default wherever no row is over 32 nonzeros, which info's fiber maxima tell), two rounds
# alternating, checked against cpu-ref in the first; then the GPU advisor evaluation of those
# tensors at this commit. Bundle $B: bin/tensorscope-cli, tests/test_sptv_cuda, lib/, data/,
# advisor_eval.py and device_steps.sh beside this script.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
run_suites 90 test_sptv_cuda
EXT=jsonl
C=(--kernel sptv --format COO,CFB,HOCFS-CSR,CSF --backend cuda --mode all --repeat 10 --jsonl)
(cd "$B" && python3 -c "
import advisor_eval as a
for n, g, f in a.TENSORS: print(n, g or '')") > "$R/tensors.txt"
while read -r name gen; do
    if [ -z "$gen" ]; then t=$B/data/$name.tns; else t=$D/$name.tsb; "$CLI" generate $gen -o "$t" > /dev/null; fi
    EXT=json run "info-$name" 20 "$CLI" info "$t" --json
    for round in 1 2; do
        chk=(); [ $round = 1 ] && chk=(--check)
        run "$name-default-$round" 20 "$CLI" bench "$t" "${C[@]}" "${chk[@]}"
        run "$name-shared-$round" 20 env TENSORSCOPE_SPTV_ROWS=shared "$CLI" bench "$t" "${C[@]}" "${chk[@]}"
    done
done < "$R/tensors.txt"
E=(python3 "$B/advisor_eval.py" --bin "$B/bin" --data "$B/data" --backend cuda --rounds 2 --repeat 5 --sptv-repeat 10
   --threads 8 --commit "${COMMIT:-unknown}")
EXT=out run advisor-cuda-all 150 "${E[@]}" --out "$R/gpu-advisor-all.json"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
