#!/bin/bash
# Session 79, call 1: does relabelling delicious-4d's shape by degree (reorder --method degree:
# each mode's indices by descending nonzero count) speed its GPU kernels? The generator scatters
# each mode's heavy indices over the whole mode (generator.cpp's bijection), so the hot rows of
# the 2.2 GB and 317 MB factors lie on pages all over them; relabelled, they sit together at the
# front (fewer TLB misses for the same L2 hits), and SpTV's 4-byte vector entries share lines.
# MTTKRP (COO, CSF, B-CSF, MM-CSF, BLCO, rank 32) and SpTV (every GPU format, mode 2: its 69 MB
# vector) on the file's labels and on the relabelled copy, two rounds in opposite orders (the
# second MTTKRP round CSF, B-CSF and MM-CSF only); no --check (the suites check relabelled runs). Bundle (make_bundle.sh --strip --no-data): bin/tensorscope-cli, lib/.
set -u
. "$(dirname "$0")/device_steps.sh"
device_setup
gen_del4d
EXT=json run reorder-degree 60 "$CLI" reorder "$D/del4d.tsb" "$D/del4d-deg64.tsb" --method degree --json
run convert-float 40 "$CLI" convert "$D/del4d-deg64.tsb" "$D/del4d-deg.tsb" --float  # reorder writes doubles
EXT=jsonl
mttkrp() {  # tensor, round, formats
    run "$1-mttkrp-$2" 90 "$CLI" bench "$D/$1.tsb" --kernel mttkrp --backend cuda --format "$3" --mode all --rank 32 --repeat 5 --jsonl
}
sptv() {
    run "$1-sptv-m2-$2" 40 "$CLI" bench "$D/$1.tsb" --kernel sptv --backend cuda --format COO,HOCSR,CFB,HOCFS-CSR,HOCFS-ELL,CSF \
        --mode 2 --repeat 10 --jsonl
}
mttkrp del4d 1 COO,CSF,B-CSF,MM-CSF,BLCO
mttkrp del4d-deg 1 COO,CSF,B-CSF,MM-CSF,BLCO
sptv del4d 1
sptv del4d-deg 1
sptv del4d-deg 2
sptv del4d 2
mttkrp del4d-deg 2 CSF,B-CSF,MM-CSF
mttkrp del4d 2 CSF,B-CSF,MM-CSF
step DONE; touch "$R/DONE"
pack "${OUT:-$(dirname "$R")}"
