// The storage formats of the papers, built from a CooTensor for a chosen mode.
//
// Every format reports its storage two ways: in the papers' storage units (words: one per
// array element, as hocfs-sptv-pipeline Tables 4-6 count them, which leaves out the closing
// sentinel of pointer arrays) and in bytes with the real element widths, broken down by array.
// Every format converts back to exactly the tensor it was built from (to_coo()).
//
// Index and pointer arrays are 32-bit when every dim and nnz fit, else 64-bit; values keep the
// tensor's type. Concrete formats are templates on (index type I, value type V).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tscope/formats/format_list.hpp"
#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope {

// One value per row of format_list.hpp, in its order.
enum class FormatKind {
#define TSCOPE_FORMAT_ENUM(kind, ...) kind,
    TSCOPE_FORMATS(TSCOPE_FORMAT_ENUM)
#undef TSCOPE_FORMAT_ENUM
};

// The registry's answers (format_registry.hpp has the whole rows).
// The names the CLI, the JSON and the GUI use (format_list.hpp): COO, HOCSR, CFB, HOCFS-CSR,
// HOCFS-ELL, CSF, B-CSF, MM-CSF, HiCOO, HLS, sCOO.
const char* format_name(FormatKind kind);
// Parses a name (case-insensitive); InputError listing the known names otherwise.
FormatKind parse_format(const std::string& name);
// False for formats that hold every mode in one copy (MM-CSF, HiCOO, HLS): they are built once.
bool format_is_per_mode(FormatKind kind);
// The formats this build can construct, in display order.
std::vector<FormatKind> available_formats();

// One array of a format.
struct ArrayInfo {
    std::string name;          // as the paper calls it: "Ap", "fibers", "Tj", ...
    std::string meaning;       // one line for tooltips and the teaching view
    std::uint64_t elements = 0;  // stored elements
    std::uint32_t element_bytes = 0;
    std::uint64_t units = 0;   // the paper's count (usually == elements; sentinels excluded)
    bool values = false;       // holds the tensor's values (padding included), not indices
    std::uint64_t bytes() const { return elements * element_bytes; }
};

struct StorageReport {
    std::vector<ArrayInfo> arrays;
    std::uint64_t units() const;
    std::uint64_t bytes() const;
    // The bytes with each value stored in value_bytes: the format as a kernel of that precision
    // holds it (the GPU's, in fp32, where the host's values are doubles).
    std::uint64_t bytes_with_values_of(std::uint32_t value_bytes) const;
};

// Parameters of the build. mode is 0-based here (user-facing surfaces print mode + 1).
struct FormatOptions {
    int mode = 0;
    // Mode order, root / main mode first: CSF and B-CSF (default: the mode, then by increasing
    // length), COO, HOCSR and HOCFS (default: the mode, then the others ascending; the last mode
    // is the one HOCSR/HOCFS store as columns). Empty = default.
    std::vector<int> mode_order;
    std::uint64_t bcsf_fiber_threshold = 128;  // B-CSF: longest fiber before splitting
    int hicoo_bits = 7;                    // HiCOO: blocks of 2^b per mode
    std::uint64_t hls_threshold = 78;      // HLS: nonzeros that make a 16^3 tile dense
    // HLS built for TTMc: hls Sec. VII-A3 gives SpTTMChain its own default on the A100, 61 (78
    // is SpMTTKRP's). The paper's percentages beside them are crossed (1.9% and 2.0% are 78 and
    // 82 of 4,096 cells, 1.5% and 0.9% on the TITAN are 61 and 41): the thresholds are taken as
    // printed. --hls-threshold sets both.
    std::uint64_t hls_ttmc_threshold = 61;
    // MM-CSF: each partition's level order, indexed by its leaf mode (root first, that mode last).
    // Empty = the paper's (mmcsf_partition_order); cuda's builds pass the GPU's
    // (gpu_mmcsf_partition_order: a tiny mode just above the leaves on delicious-4d's shape).
    std::vector<std::vector<int>> mmcsf_orders;
};

// Concrete formats derive from TypedFormat<I, V>, which answers the two type questions below;
// visit_format (format_visit.hpp) uses them with kind() to reach the concrete class.
class SparseFormat {
public:
    virtual ~SparseFormat() = default;
    virtual FormatKind kind() const = 0;
    virtual bool wide_indices() const = 0;  // 64-bit index/pointer arrays (else 32-bit)
    virtual bool float_values() const = 0;  // fp32 values (else fp64)
    std::string name() const { return format_name(kind()); }
    // The mode it was built for (0-based); -1 for formats that serve every mode at once.
    virtual int mode() const = 0;
    virtual StorageReport storage() const = 0;
    virtual CooTensor to_coo() const = 0;
    // Its parameters as (name, value) pairs, for tables and the teaching view.
    virtual std::vector<std::pair<std::string, std::string>> parameters() const { return {}; }

    const std::vector<std::uint64_t>& dims() const { return dims_; }
    double build_seconds() const { return build_seconds_; }
    void set_build_seconds(double s) { build_seconds_ = s; }
    void set_dims(std::vector<std::uint64_t> dims) { dims_ = std::move(dims); }

protected:
    std::vector<std::uint64_t> dims_;
    double build_seconds_ = 0;
};

template <class I, class V>
class TypedFormat : public SparseFormat {
public:
    using Index = I;
    using Value = V;
    bool wide_indices() const final { return sizeof(I) == 8; }
    bool float_values() const final { return sizeof(V) == 4; }
};

// Checks the parameters against the tensor (mode range, CSF order a permutation, thresholds
// positive); InputError naming the bad one.
void validate_options(const CooTensor& t, const FormatOptions& options);

// Builds one format. InputError for bad parameters (mode out of range, threshold 0, ...).
std::unique_ptr<SparseFormat> build_format(FormatKind kind, const CooTensor& t, const FormatOptions& options,
                                           RunControl& control = no_control());

// The index/pointer width formats use for this tensor: 32-bit when every dim and nnz fit.
bool format_uses_32bit(const CooTensor& t);

}  // namespace tscope
