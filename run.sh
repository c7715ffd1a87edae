#!/usr/bin/env bash
# ./run.sh [FILE]: installs what is missing, builds, and opens the explorer on FILE or on the
# bundled JF17K sample. With no display it prints the headless report instead.
set -euo pipefail
cd "$(dirname "$0")"
source .ci/prepare.sh
ts_install_missing
ts_build

file=${1:-build/share/tensorscope/samples/jf17k-4d.tns.gz}
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec build/bin/tensorscope "$file"
fi
echo
echo "No display (DISPLAY and WAYLAND_DISPLAY are unset): printing the headless report instead."
echo "For the window, run ./run.sh on a desktop, or: xvfb-run -a build/bin/tensorscope FILE --screenshot out.png"
echo
build/bin/tensorscope-cli info "$file"
echo
build/bin/tensorscope-cli formats "$file"
