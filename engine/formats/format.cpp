#include "tscope/formats/format.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <limits>

#include "format_builders.hpp"

namespace tscope {

namespace {

struct NamedFormat {
    FormatKind kind;
    const char* name;
};

constexpr NamedFormat kFormats[] = {
    {FormatKind::COO, "COO"},     {FormatKind::HOCSR, "HOCSR"},   {FormatKind::CFB, "CFB"},
    {FormatKind::HOCFS_CSR, "HOCFS-CSR"}, {FormatKind::HOCFS_ELL, "HOCFS-ELL"}, {FormatKind::CSF, "CSF"},
    {FormatKind::BCSF, "B-CSF"},  {FormatKind::MMCSF, "MM-CSF"},  {FormatKind::HiCOO, "HiCOO"},
    {FormatKind::HLS, "HLS"},     {FormatKind::sCOO, "sCOO"}};

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

template <class I, class V>
std::unique_ptr<SparseFormat> build_typed(FormatKind kind, const CooTensor& t, const FormatOptions& o, RunControl& control) {
    switch (kind) {
    case FormatKind::COO: return detail::build_coo<I, V>(t, o, control);
    case FormatKind::HOCSR: return detail::build_hocsr<I, V>(t, o, control);
    case FormatKind::CFB: return detail::build_cfb<I, V>(t, o, control);
    case FormatKind::HOCFS_CSR: return detail::build_hocfs<I, V>(t, o, false, control);
    case FormatKind::HOCFS_ELL: return detail::build_hocfs<I, V>(t, o, true, control);
    case FormatKind::CSF: return detail::build_csf<I, V>(t, o, control);
    case FormatKind::sCOO: return detail::build_scoo<I, V>(t, o, control);
    case FormatKind::BCSF: return detail::build_bcsf<I, V>(t, o, control);
    case FormatKind::MMCSF: return detail::build_mmcsf<I, V>(t, o, control);
    case FormatKind::HiCOO: return detail::build_hicoo<I, V>(t, o, control);
    case FormatKind::HLS: return detail::build_hls<I, V>(t, o, control);
    default: break;
    }
    throw InputError(std::string(format_name(kind)) + " is not built by this version yet");
}

}  // namespace

const char* format_name(FormatKind kind) {
    for (const auto& f : kFormats)
        if (f.kind == kind) return f.name;
    return "?";
}

FormatKind parse_format(const std::string& name) {
    for (const auto& f : kFormats)
        if (lower(name) == lower(f.name)) return f.kind;
    if (lower(name) == "hocoo") return FormatKind::COO;
    std::string known;
    for (const auto& f : kFormats) known += std::string(known.empty() ? "" : ", ") + f.name;
    throw InputError("unknown format '" + name + "' (known: " + known + ")");
}

bool format_is_per_mode(FormatKind kind) {
    return kind != FormatKind::MMCSF && kind != FormatKind::HiCOO && kind != FormatKind::HLS;
}

std::vector<FormatKind> available_formats() {
    return {FormatKind::COO, FormatKind::HOCSR, FormatKind::CFB,   FormatKind::HOCFS_CSR, FormatKind::HOCFS_ELL,
            FormatKind::CSF, FormatKind::BCSF,  FormatKind::MMCSF, FormatKind::HiCOO,     FormatKind::HLS,
            FormatKind::sCOO};
}

std::uint64_t StorageReport::units() const {
    std::uint64_t u = 0;
    for (const auto& a : arrays) u += a.units;
    return u;
}

std::uint64_t StorageReport::bytes() const {
    std::uint64_t b = 0;
    for (const auto& a : arrays) b += a.bytes();
    return b;
}

bool format_uses_32bit(const CooTensor& t) {
    constexpr std::uint64_t limit = std::numeric_limits<std::uint32_t>::max();
    if (t.nnz() >= limit) return false;
    for (auto d : t.dims())
        if (d > limit) return false;
    return true;
}

void validate_options(const CooTensor& t, const FormatOptions& options) {
    if (options.mode < 0 || options.mode >= t.order())
        throw InputError("mode " + std::to_string(options.mode + 1) + " is out of range: the tensor has " +
                         std::to_string(t.order()) + " modes");
    if (!options.mode_order.empty()) {
        std::vector<int> sorted = options.mode_order;
        std::sort(sorted.begin(), sorted.end());
        bool permutation = static_cast<int>(sorted.size()) == t.order();
        for (int m = 0; permutation && m < t.order(); ++m) permutation = sorted[static_cast<std::size_t>(m)] == m;
        if (!permutation)
            throw InputError("CSF mode order must list every mode once (1.." + std::to_string(t.order()) + ")");
    }
    if (options.bcsf_fiber_threshold == 0) throw InputError("the B-CSF fiber threshold must be at least 1");
    if (options.hls_threshold == 0) throw InputError("the HLS tile threshold must be at least 1");
    if (options.hicoo_bits < 1 || options.hicoo_bits > 16) throw InputError("HiCOO block bits must be between 1 and 16");
}

std::unique_ptr<SparseFormat> build_format(FormatKind kind, const CooTensor& t, const FormatOptions& options,
                                           RunControl& control) {
    validate_options(t, options);
    if (t.nnz() == 0) throw InputError(std::string(format_name(kind)) + ": the tensor has no nonzeros");
    const auto start = std::chrono::steady_clock::now();
    const bool narrow = format_uses_32bit(t);
    const bool floats = t.value_type() == ValueType::F32;
    std::unique_ptr<SparseFormat> f;
    if (narrow)
        f = floats ? build_typed<std::uint32_t, float>(kind, t, options, control)
                   : build_typed<std::uint32_t, double>(kind, t, options, control);
    else
        f = floats ? build_typed<std::uint64_t, float>(kind, t, options, control)
                   : build_typed<std::uint64_t, double>(kind, t, options, control);
    f->set_dims(t.dims());
    f->set_build_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return f;
}

}  // namespace tscope
