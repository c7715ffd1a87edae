# Shared by run.sh and test.sh (sourced): install the Debian packages that are missing, then
# configure and build. Safe to run again: installs nothing and rebuilds only what changed.

TS_PACKAGES=(build-essential cmake qt6-base-dev libgl-dev libqcustomplot-dev libopenblas-dev liblapacke-dev
             zlib1g-dev nlohmann-json3-dev xvfb xauth libopenmpi-dev openmpi-bin)

ts_install_missing() {
    local missing=()
    for p in "${TS_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing missing packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

ts_build() {
    local jobs
    jobs=$(nproc 2>/dev/null || echo 2)
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@"
    cmake --build build -j"$jobs"
}
