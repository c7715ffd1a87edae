#!/bin/bash
# Session 79, call 2: call 1's question for SpTV on delicious-4d's mode 2 (its 69 MB vector, past
# L2, is read 4 bytes an entry: relabelled by degree, the hot entries share 128-byte lines), which
# call 1 did not reach (its five-format MTTKRP runs took 287 s each): every GPU SpTV format on
# the file's labels and on the relabelled copy, two rounds in opposite orders; then B-CSF's
# MTTKRP once more on both (call 1: relabelled 2-21% slower a mode). Bundle (make_bundle.sh
# --strip --no-data --icu-stub): bin/tensorscope-cli, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_del4d
EXT=json run reorder-degree 60 "$CLI" reorder "$D/del4d.tsb" "$D/del4d-deg64.tsb" --method degree --json
run convert-float 40 "$CLI" convert "$D/del4d-deg64.tsb" "$D/del4d-deg.tsb" --float  # reorder writes doubles
EXT=jsonl
sptv() {
    run "$1-sptv-m2-$2" 60 "$CLI" bench "$D/$1.tsb" --kernel sptv --backend cuda --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF \
        --mode 2 --repeat 10 --jsonl
}
bcsf() { run "$1-bcsf-$2" 60 "$CLI" bench "$D/$1.tsb" --kernel mttkrp --backend cuda --format B-CSF --mode all --rank 32 --repeat 5 --jsonl; }
sptv del4d 1
sptv del4d-deg 1
sptv del4d-deg 2
sptv del4d 2
bcsf del4d-deg 2
bcsf del4d 2
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
