#!/bin/bash
# Session 75, call 2: SpTV's CSR product on small and blocked tensors. Call 1's GPU advisor
# record had COO, CFB, HOCFS-CSR and CSF at 29-37 us a mode on the blocks tensors (600K
# nonzeros, fibers of about 15), where HOCSR's kept rows through the adaptive blocks took 11-17
# and HOCFS-ELL 7: there the 4-row shared-vector kernel (a thread walks 4 rows, blocks of 1,024)
# gets 10 blocks for 132 SMs. Here, for every tensor of the advisor's evaluation, the four CSR
# formats' SpTV by default and with TENSORSCOPE_SPTV_ROWS=adaptive (sptv_adaptive_rows.cuh's
# blocks for any rows), two rounds alternating, checked against cpu-ref in the first; and each
# tensor's fiber counts (info --json), to place the rule. Bundle $B: bin/tensorscope-cli, lib/,
# data/, advisor_eval.py and device_steps.sh beside this script.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
EXT=jsonl
C=(--kernel sptv --format COO,CFB,HOCFS-CSR,CSF --backend cuda --mode all --repeat 10 --jsonl)
(cd "$B" && python3 -c "
import advisor_eval as a
for n, g, f in a.TENSORS + a.LARGE: print(n, g or '')") > "$R/tensors.txt"
while read -r name gen; do
    if [ -z "$gen" ]; then t=$B/data/$name.tns; else t=$D/$name.tsb; "$CLI" generate $gen -o "$t" > /dev/null; fi
    EXT=json run "info-$name" 20 "$CLI" info "$t" --json
    for round in 1 2; do
        chk=(); [ $round = 1 ] && chk=(--check)
        run "$name-default-$round" 30 "$CLI" bench "$t" "${C[@]}" "${chk[@]}"
        run "$name-adaptive-$round" 30 env TENSORSCOPE_SPTV_ROWS=adaptive "$CLI" bench "$t" "${C[@]}" "${chk[@]}"
    done
    rm -f "$D/$name.tsb"
done < "$R/tensors.txt"
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
