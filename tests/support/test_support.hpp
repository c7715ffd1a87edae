// Helpers shared by the test suites: where the data lives, small tensors, brute-force oracles.
#pragma once

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QString>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "tscope/cuda/device.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"
#include "tscope/tensor/generator.hpp"

// AddressSanitizer's build (.ci/sanitize.sh): its shadow memory and quarantine make address-space
// limits, deliberate out-of-memory and peak-memory bounds mean nothing, so such tests skip there.
#if defined(__SANITIZE_ADDRESS__)
#define TS_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TS_UNDER_ASAN 1
#endif
#endif
#ifndef TS_UNDER_ASAN
#define TS_UNDER_ASAN 0
#endif
#define TS_SKIP_UNDER_ASAN(why)        \
    do {                               \
        if (TS_UNDER_ASAN) QSKIP(why); \
    } while (0)

namespace tstest {

// The environment for a process that initialises MPI, with LeakSanitizer off: Open MPI unloads
// its plugins (mca_*.so, libpmix) as it finalises, so their leaks come with no module to
// suppress by name (sanitizer run 69: every rank of test_cli_distributed exited 1 on them).
// AddressSanitizer's other checks stay on.
inline QProcessEnvironment without_mpi_leak_checks() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString asan = env.value(QStringLiteral("ASAN_OPTIONS"));
    env.insert(QStringLiteral("ASAN_OPTIONS"), asan + (asan.isEmpty() ? "" : ":") + QStringLiteral("detect_leaks=0"));
    return env;
}

// Counts the cancel checks and cancels from the `cancel_at`-th on (0: never): shows that long
// work looks at Cancel while it runs, without timing it.
class CountingControl : public tscope::RunControl {
public:
    explicit CountingControl(std::uint64_t cancel_at = 0) : cancel_at_(cancel_at) {}
    bool cancelled() const override { return ++checks_ >= cancel_at_ && cancel_at_ > 0; }
    std::uint64_t checks() const { return checks_; }

private:
    std::uint64_t cancel_at_;
    mutable std::atomic<std::uint64_t> checks_{0};
};

// A shared real tensor, or "" when ../shared/data is absent (callers QSKIP with the reason).
// TS_SHARED_DATA in the environment points elsewhere (the GPU machine gets a carried copy).
inline std::string shared_tensor(const char* name) {
    const QString dir = qEnvironmentVariableIsSet("TS_SHARED_DATA") ? qEnvironmentVariable("TS_SHARED_DATA")
                                                                     : QStringLiteral(TS_SHARED_DATA_DIR);
    const QString path = QDir(dir).filePath(name);
    return QFileInfo::exists(path) ? path.toStdString() : std::string();
}

// In a GPU suite's initTestCase: skips the whole suite, saying why, where there is no GPU.
#define TS_REQUIRE_GPU()                                                                          \
    do {                                                                                          \
        const tscope::GpuInfo gpu_ = tscope::query_gpu();                                         \
        if (!gpu_.available) QSKIP(("no GPU here: " + gpu_.reason).c_str());                      \
        qInfo("GPU: %s", gpu_.name.c_str());                                                      \
    } while (false)

#define TS_REQUIRE_SHARED(var, name)                                                              \
    const std::string var = tstest::shared_tensor(name);                                        \
    if (var.empty()) QSKIP("../shared/data/" name " is absent (a fresh clone): skipped")

inline std::string test_data(const char* relative) { return std::string(TS_TEST_DATA_DIR "/") + relative; }

// A file's bytes, whole (empty if it cannot be read): to compare two written files exactly.
inline std::string read_file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Writes bytes to a new file at path; false if it cannot.
inline bool write_file(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// How many files in `dir` process `pid` holds open with no name (a writer's temporaries, which
// exist only as descriptors): /proc/PID/fd links read "DIR/#INODE (deleted)" for them.
inline int nameless_files_open(qint64 pid, const QString& dir) {
    const std::string prefix = QDir(dir).canonicalPath().toStdString() + "/";
    const std::string tail = " (deleted)";
    std::error_code ec;
    int n = 0;
    for (const auto& fd : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
        const std::string to = std::filesystem::read_symlink(fd.path(), ec).string();
        if (!ec && to.starts_with(prefix) && to.ends_with(tail)) ++n;
    }
    return n;
}

// A small reproducible random tensor.
inline tscope::CooTensor random_tensor(std::vector<std::uint64_t> dims, std::uint64_t nnz, std::uint64_t seed,
                                       tscope::Distribution dist = tscope::Distribution::Uniform) {
    tscope::GeneratorSpec spec;
    spec.dims = std::move(dims);
    spec.nnz = nnz;
    spec.seed = seed;
    spec.distribution = dist;
    if (dist == tscope::Distribution::PowerLaw) spec.zipf = {1.2};
    if (dist == tscope::Distribution::Blocks) spec.blocks = 24, spec.block_edge = 4;
    return tscope::generate_tensor(spec);
}

// The same entries in a random (seeded) order, in the same widths: input order matters to
// MM-CSF's partitioning.
inline tscope::CooTensor shuffled(const tscope::CooTensor& t, std::uint64_t seed) {
    std::vector<std::uint64_t> perm(t.nnz());
    std::iota(perm.begin(), perm.end(), std::uint64_t{0});
    std::mt19937_64 rng(seed);
    std::shuffle(perm.begin(), perm.end(), rng);
    tscope::CooTensor out(t.dims(), t.index_width(), t.value_type());
    out.resize(t.nnz());
    std::vector<std::uint64_t> at(static_cast<std::size_t>(t.order()));
    for (std::uint64_t n = 0; n < t.nnz(); ++n) {
        for (int m = 0; m < t.order(); ++m) at[static_cast<std::size_t>(m)] = t.index(m, perm[n]);
        out.set(n, at, t.value(perm[n]));
    }
    return out;
}

// The kernels' edge cases: a single nonzero in a corner, and a tensor whose first
// mode is mostly empty slices (3 nonzeros over 300 slices, two sharing a fiber of mode 1).
inline tscope::CooTensor one_nonzero_tensor() {
    tscope::CooTensor t({5, 6, 7});
    t.resize(1);
    t.set(0, std::vector<std::uint64_t>{4, 0, 6}, 2.5);
    return t;
}
inline tscope::CooTensor empty_slices_tensor() {
    tscope::CooTensor t({300, 4, 4});
    t.resize(3);
    t.set(0, std::vector<std::uint64_t>{0, 1, 2}, 1.0);
    t.set(1, std::vector<std::uint64_t>{299, 3, 0}, -1.0);
    t.set(2, std::vector<std::uint64_t>{150, 3, 0}, 4.0);
    return t;
}

// Fibers of mode 3 whose lengths put several long ones in one warp of a thread-per-fiber
// kernel: 40 x 2 fibers, lengths cycling through 1, 33, 288 (32 + one 256-entry step of the
// warp's loop), 32, 289, 1999, 2, 64, 31, 257 and 1000, so that HOCFS-ELL's slices (padded to
// their longest, at most 1999) hold both kinds: 28,294 nonzeros in 160,000 ELL cells or fewer.
inline tscope::CooTensor long_fibers_tensor() {
    const std::uint64_t lengths[] = {1, 33, 288, 32, 289, 1999, 2, 64, 31, 257, 1000};
    tscope::CooTensor t({40, 2, 2000});
    std::uint64_t total = 0;
    for (std::uint64_t f = 0; f < 80; ++f) total += lengths[f % 11];
    t.resize(total);
    std::uint64_t z = 0;
    for (std::uint64_t f = 0; f < 80; ++f)
        for (std::uint64_t k = 0; k < lengths[f % 11]; ++k)
            t.set(z++, std::vector<std::uint64_t>{f / 2, f % 2, (k * 7 + f) % 2000}, 0.5 + double((k + f) % 5) / 4);
    return shuffled(t, 12);
}

// A sum of `rank` rank-one tensors with sparse factor vectors (the generator's lowrank), about
// nnz nonzeros: CPD at that rank and Tucker at that multilinear rank fit it exactly.
inline tscope::CooTensor low_rank_tensor(std::vector<std::uint64_t> dims, std::uint64_t nnz, std::uint64_t rank, std::uint64_t seed) {
    tscope::GeneratorSpec spec;
    spec.dims = std::move(dims);
    spec.nnz = nnz;
    spec.distribution = tscope::Distribution::LowRank;
    spec.rank = rank;
    spec.seed = seed;
    return tscope::generate_tensor(spec);
}

// One random factor matrix per mode (dims[m] x ranks[m]), seeded per mode.
inline std::vector<tscope::DenseMatrix> random_factors(const tscope::CooTensor& t, const std::vector<std::uint64_t>& ranks,
                                                      std::uint64_t seed) {
    std::vector<tscope::DenseMatrix> f;
    for (int m = 0; m < t.order(); ++m)
        f.push_back(tscope::random_matrix(t.dim(m), ranks[static_cast<std::size_t>(m) % ranks.size()], seed + std::uint64_t(m)));
    return f;
}

// The tensor as a map from coordinates to value: the obvious, slow oracle.
inline std::map<std::vector<std::uint64_t>, double> as_map(const tscope::CooTensor& t) {
    std::map<std::vector<std::uint64_t>, double> out;
    for (std::uint64_t n = 0; n < t.nnz(); ++n) {
        std::vector<std::uint64_t> c;
        for (int m = 0; m < t.order(); ++m) c.push_back(t.index(m, n));
        out[c] += t.value(n);
    }
    return out;
}

// An environment switch set for one scope (the GPU kernels' path switches are read at each
// launch).
class ScopedEnv {
public:
    ScopedEnv(const char* name, const QByteArray& value) : name_(name) { qputenv(name, value); }
    ~ScopedEnv() { qunsetenv(name_); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
};

}  // namespace tstest
