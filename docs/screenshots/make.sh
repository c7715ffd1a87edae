#!/usr/bin/env bash
# The README's screenshots: every tab on three tensors (MovieLens 100K and Last.fm tags, order
# 3; JF17K, order 4), the Kernels and Decompositions tabs after a run with their defaults.
# Usage: docs/screenshots/make.sh [BUILD_DIR]  (offscreen; no display needed)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
data=${TS_SHARED_DATA:-$root/../shared/data}
# each shot in a fresh settings folder: the recent-files list and remembered choices of the
# shots before would show in the next
shot() { local cfg; cfg=$(mktemp -d); XDG_CONFIG_HOME=$cfg QT_QPA_PLATFORM=offscreen "$build/bin/tensorscope" "$@" 2>/dev/null; rm -rf "$cfg"; }
declare -A tensors=([movielens]="$data/movielens-100k.tns" [lastfm]="$data/lastfm-tags.tns"
                    [jf17k]="$root/resources/samples/jf17k-4d.tns.gz")
for name in movielens lastfm jf17k; do
    for tab in Overview Density Formats Teaching Kernels Pipeline Decompositions; do
        run=()
        [[ $tab == Kernels || $tab == Decompositions ]] && run=(--run)
        out="$root/docs/screenshots/$(echo "$tab" | tr 'A-Z' 'a-z')-$name.png"
        shot "${tensors[$name]}" --tab "$tab" "${run[@]}" --screenshot "$out"
        echo "$out"
    done
done
# The Reorder tab: Last.fm in its file order and relabelled by Lexi-Order (the tab's default)
out="$root/docs/screenshots/reorder-lastfm.png"
shot "${tensors[lastfm]}" --tab Reorder --run --screenshot "$out"
echo "$out"
