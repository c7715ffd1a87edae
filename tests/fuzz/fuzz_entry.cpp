#include "fuzz_entry.hpp"

#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/decomp/decomposition.hpp"
#include "tscope/decomp/faster_tucker.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/kernel_registry.hpp"
#include "tscope/kernels/spttm.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/generator.hpp"
#include "tscope/text_parse.hpp"

namespace tsfuzz {

namespace {

// A broken invariant: say which and abort, so that libFuzzer keeps the input and the replay
// test fails on it.
[[noreturn]] void broken(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "fuzz invariant broken: %s %s\n", what, detail.c_str());
    std::abort();
}

// The input as a file the readers open by path. An anonymous memory file (memfd) rather than
// one on disk: nothing to clean up when a run crashes, and no disk traffic per execution.
class MemoryFile {
public:
    explicit MemoryFile(const std::string& bytes) {
        fd_ = ::memfd_create("tsfuzz", MFD_CLOEXEC);
        if (fd_ < 0) broken("memfd_create failed");
        for (std::size_t done = 0; done < bytes.size();) {
            const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
            if (n <= 0) broken("write to memfd failed");
            done += static_cast<std::size_t>(n);
        }
        path_ = "/proc/self/fd/" + std::to_string(fd_);
    }
    ~MemoryFile() { ::close(fd_); }
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;
    const std::string& path() const { return path_; }

private:
    int fd_ = -1;
    std::string path_;
};

// What every loaded tensor must satisfy, whatever the file: indices below their dims, finite
// nonzero values (zeros are dropped, infinities refused), no coordinate twice (duplicates are
// summed), and the counts in the report consistent.
void check_loaded(const tscope::LoadedTensor& loaded) {
    const tscope::CooTensor& t = loaded.tensor;
    if (t.order() < 1 || t.order() > tscope::kMaxOrder) broken("order out of range", std::to_string(t.order()));
    t.visit([&](auto itag, auto vtag) {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        for (int m = 0; m < t.order(); ++m) {
            if (t.indices<I>(m).size() != t.nnz()) broken("index column length differs from nnz");
            for (std::uint64_t i = 0; i < t.nnz(); ++i)
                if (static_cast<std::uint64_t>(t.indices<I>(m)[i]) >= t.dim(m)) broken("index beyond its dim");
        }
        if (t.values<V>().size() != t.nnz()) broken("value column length differs from nnz");
        for (std::uint64_t i = 0; i < t.nnz(); ++i) {
            const V v = t.values<V>()[i];
            if (!std::isfinite(v)) broken("non-finite value kept", std::to_string(i));
            if (v == V{0}) broken("zero value kept", std::to_string(i));
        }
    });
    tscope::CooTensor copy = t;
    if (tscope::sum_duplicates(copy) != 0) broken("duplicate coordinates kept");
    if (loaded.info.zero_based.size() != static_cast<std::size_t>(t.order())) broken("zero_based has the wrong length");
}

// Loads the bytes as a file; InputError is the expected refusal, anything else is a finding.
void load_and_check(const std::string& bytes, const tscope::LoadOptions& options) {
    MemoryFile file(bytes);
    tscope::LoadedTensor loaded;
    try {
        loaded = tscope::load_tensor(file.path(), options);
    } catch (const tscope::InputError& e) {
        // a refusal must say which file: every parse error names it
        if (std::string(e.what()).find(file.path()) == std::string::npos) broken("error without the file's name", e.what());
        return;
    }
    check_loaded(loaded);
}

std::string gzip(const std::string& text) {
    z_stream z{};
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) broken("deflateInit2");
    std::string out(deflateBound(&z, static_cast<uLong>(text.size())) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) broken("deflate");
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::uint32_t crc(const char* p, std::size_t n) { return static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(p), n)); }

}  // namespace

int tns_text(const std::uint8_t* data, std::size_t size) {
    tscope::LoadOptions options;
    load_and_check(std::string(reinterpret_cast<const char*>(data), size), options);
    options.values = tscope::ValueType::F32;  // the fp32 path parses and checks ranges apart
    load_and_check(std::string(reinterpret_cast<const char*>(data), size), options);
    return 0;
}

int tns_gz(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::uint8_t control = data[0];
    const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
    tscope::LoadOptions options;
    // blocks of 1 to 64 bytes: every line of a small input crosses a block boundary somewhere
    options.stream_block_bytes = 1 + (control >> 2);
    if (control & 2) options.values = tscope::ValueType::F32;
    load_and_check((control & 1) ? rest : gzip(rest), options);
    return 0;
}

int tsb(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::uint8_t control = data[0];
    std::string file(reinterpret_cast<const char*>(data + 1), size - 1);
    if (control & 4) file.insert(0, tscope::kTsbMagic, sizeof tscope::kTsbMagic);
    constexpr std::size_t fixed = 8 + 4 * 4 + 8;
    if (file.size() >= fixed) {
        std::uint32_t order = 0;
        std::memcpy(&order, file.data() + 12, 4);
        const std::size_t header = fixed + 8 * static_cast<std::size_t>(std::min<std::uint32_t>(order, 64)) + 4;
        if ((control & 1) && order <= 64 && file.size() >= header) {
            const std::uint32_t c = crc(file.data(), header - 4);
            std::memcpy(file.data() + header - 4, &c, 4);
        }
        if ((control & 2) && order <= 64 && file.size() >= header + 4) {
            const std::uint32_t c = crc(file.data() + header, file.size() - header - 4);
            std::memcpy(file.data() + file.size() - 4, &c, 4);
        }
    }
    tscope::LoadOptions options;
    if (control & 8) options.values = tscope::ValueType::F32;
    if (control & 16) options.keep_stored_values = true;
    load_and_check(file, options);
    return 0;
}

namespace {

// The fixture the per-tensor option checks run against (--mode, --mode-order, ...).
const tscope::CooTensor& fixture() {
    static const tscope::CooTensor t = [] {
        tscope::CooTensor f({4, 5, 6});
        f.resize(2);
        f.visit([&](auto itag, auto vtag) {
            using I = typename decltype(itag)::type;
            using V = typename decltype(vtag)::type;
            for (int m = 0; m < 3; ++m) f.indices<I>(m)[0] = 0, f.indices<I>(m)[1] = 1;
            f.values<V>()[0] = 1, f.values<V>()[1] = 2;
        });
        return f;
    }();
    return t;
}

// parse_bytes against its definition: a count times 1, 2^10, 2^20 or 2^30, never wrapped.
void check_bytes(const std::string& text, const std::string& what) {
    const std::uint64_t got = tscope::cli::parse_bytes(text, what);
    if (text == "auto") {
        if (got != 0) broken("parse_bytes(auto) is not 0");
        return;
    }
    std::string digits = text;
    unsigned __int128 scale = 1;
    switch (digits.empty() ? '\0' : digits.back()) {
    case 'k': case 'K': scale = 1u << 10; digits.pop_back(); break;
    case 'm': case 'M': scale = 1u << 20; digits.pop_back(); break;
    case 'g': case 'G': scale = 1u << 30; digits.pop_back(); break;
    default: break;
    }
    const unsigned __int128 expected = static_cast<unsigned __int128>(tscope::parse_count(digits, what)) * scale;
    if (expected == 0 || expected != got) broken("parse_bytes wrapped or lost its unit", text);
}

void check_range(std::uint64_t x, std::uint64_t lo, std::uint64_t hi, const char* what) {
    if (x < lo || x > hi) broken("integer option out of its range", what);
}

void parse_command(int argc, char** argv) {
    using tscope::cli::Args;
    const std::string command = argv[1];
    const tscope::CooTensor& t = fixture();
    auto threads = [](const Args& a) { check_range(a.integer("--threads", 1, 1, 4096), 1, 4096, "--threads"); };
    auto modes = [&](const Args& a) {
        for (int m : tscope::cli::parse_modes(a.value_or("--mode", "all"), t.order()))
            if (m < 0 || m >= t.order()) broken("parse_modes returned a mode out of range", std::to_string(m));
    };
    auto format_options = [&](const Args& a) {
        const tscope::FormatOptions o = tscope::cli::parse_format_options(a, t);
        for (int m : o.mode_order)
            if (m < 0 || m >= t.order()) broken("a mode order accepted with a mode out of range");
        if (o.hicoo_bits < 1 || o.hicoo_bits > 16) broken("--hicoo-bits accepted out of range");
    };
    auto gpus = [](const Args& a) {
        const int g = tscope::cli::parse_gpus(a);
        if (g < 0 || g > 64) broken("--gpus out of range");
    };
    // The option sets below are the commands' own (app/cli/cmd_*.cpp), in the same order.
    if (command == "info" || command == "convert") {
        Args a(argc, argv, 2, command, {"--threads"}, command == "info" ? std::set<std::string>{"--json", "--float"}
                                                                             : std::set<std::string>{"--float"});
        (void)a.positional(0, "the tensor FILE");
        if (command == "convert") (void)a.positional(1, "OUT");
        a.expect_positionals(command == "info" ? 1 : 2);
        threads(a);
    } else if (command == "generate") {
        Args a(argc, argv, 2, "generate", {"--dims", "--nnz", "--dist", "--seed", "-o", "--output", "--threads"}, {"--float"});
        a.expect_positionals(0);
        threads(a);
        tscope::GeneratorSpec spec;
        if (auto d = a.value("--dims"))
            for (std::uint64_t x : tscope::parse_count_list(*d, "--dims"))
                if (x == 0) broken("a zero dim accepted");
        if (auto n = a.value("--nnz")) (void)tscope::parse_count(*n, "--nnz");
        tscope::parse_distribution(a.value_or("--dist", "uniform"), spec);
        (void)a.integer("--seed", 1);
    } else if (command == "formats") {
        Args a(argc, argv, 2, "formats",
               {"--mode", "--format", "--threads", "--csf-order", "--mode-order", "--fiber-threshold", "--hicoo-bits", "--hls-threshold"},
               {"--json", "--verify"});
        (void)a.positional(0, "the tensor FILE");
        a.expect_positionals(1);
        threads(a);
        modes(a);
        (void)tscope::cli::parse_names<tscope::FormatKind>(a.value_or("--format", "all"), tscope::parse_format);
        format_options(a);
    } else if (command == "bench") {
        Args a(argc, argv, 2, "bench",
               {"--kernel", "--format", "--backend", "--mode", "--rank", "--repeat", "--threads", "--factors", "--write",
                "--csf-order", "--mode-order", "--fiber-threshold", "--variant", "--hls-threshold", "--gpus"},
               {"--check", "--json"});
        (void)a.positional(0, "the tensor FILE");
        a.expect_positionals(1);
        threads(a);
        (void)tscope::parse_kernel(a.value_or("--kernel", "mttkrp"));
        (void)tscope::cli::parse_names<tscope::FormatKind>(a.value_or("--format", "all"), tscope::parse_format);
        (void)tscope::cli::parse_names<tscope::Backend>(a.value_or("--backend", "omp"), tscope::parse_backend);
        modes(a);
        check_range(a.integer("--rank", 32, 1, 4096), 1, 4096, "--rank");
        check_range(a.integer("--repeat", 5, 1, 100000), 1, 100000, "--repeat");
        (void)tscope::cli::parse_names<tscope::SpttmVariant>(a.value_or("--variant", "all"), tscope::parse_spttm_variant);
        format_options(a);
        if (a.value("--gpus")) gpus(a);
    } else if (command == "decompose") {
        Args a(argc, argv, 2, "decompose",
               {"--method", "--rank", "--iters", "--backend", "--threads", "--seed", "--tol", "--format", "--init", "--write", "--j",
                "--lr-a", "--lr-b", "--reg-a", "--reg-b", "--test-fraction", "--fiber-threshold", "--schedule", "--restarts", "--gpus",
                "--limit-gpu-memory", "--streams", "--chunk-bytes"},
               {"--json", "--stream"});
        (void)a.positional(0, "the tensor FILE");
        a.expect_positionals(1);
        threads(a);
        (void)tscope::parse_decomp_method(a.value_or("--method", "cpd"));
        (void)tscope::parse_backend(a.value_or("--backend", "omp"));
        (void)tscope::parse_ft_schedule(a.value_or("--schedule", "hogwild"));
        (void)a.integer("--seed", 1);
        check_range(a.integer("--rank", 16, 1, 4096), 1, 4096, "--rank");
        check_range(a.integer("--iters", 50, 1, 100000), 1, 100000, "--iters");
        (void)tscope::parse_format(a.value_or("--format", "CSF"));
        (void)tscope::parse_cpd_init(a.value_or("--init", "random"));
        check_range(a.integer("--restarts", 1, 1, 1000), 1, 1000, "--restarts");
        gpus(a);
        if (auto v = a.value("--limit-gpu-memory")) check_bytes(*v, "--limit-gpu-memory");
        if (auto v = a.value("--chunk-bytes")) check_bytes(*v, "--chunk-bytes");
        check_range(a.integer("--streams", 4, 1, 16), 1, 16, "--streams");
    } else if (command == "pipeline") {
        Args a(argc, argv, 2, "pipeline", {"--format", "--mode", "--streams", "--chunk-bytes", "--limit-gpu-memory", "--threads"},
               {"--check", "--json"});
        (void)a.positional(0, "the tensor FILE");
        a.expect_positionals(1);
        threads(a);
        if (a.value_or("--streams", "4") != "auto") check_range(a.integer("--streams", 4, 1, 8), 1, 8, "--streams");
        check_bytes(a.value_or("--chunk-bytes", "64M"), "--chunk-bytes");
        if (auto v = a.value("--limit-gpu-memory")) check_bytes(*v, "--limit-gpu-memory");
        check_range(a.integer("--mode", 1, 1, static_cast<std::uint64_t>(t.order())), 1, static_cast<std::uint64_t>(t.order()), "--mode");
    }
}

}  // namespace

int cli_options(const std::uint8_t* data, std::size_t size) {
    // one argument a line; NUL cannot be in an argument (argv strings end at it)
    std::vector<std::string> words{"tensorscope-cli"};
    std::string word;
    for (std::size_t i = 0; i < size && words.size() < 64; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\n') {
            words.push_back(word);
            word.clear();
        } else if (c != '\0') {
            word += c;
        }
    }
    if (!word.empty() && words.size() < 64) words.push_back(word);
    if (words.size() < 2) return 0;
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    try {
        parse_command(static_cast<int>(words.size()), argv.data());
    } catch (const tscope::InputError&) {
        // the refusal the CLI turns into exit status 2
    }
    return 0;
}

}  // namespace tsfuzz
