// Formats built where the work is: the COO goes up once, narrowed to 32-bit indices
// and fp32 values on the device, and each CSF tree (or B-CSF, its fibers split) is built there
// in the kernels' fiber layout. A lexicographic sort by the tree's levels is one stable CUB
// radix sort per level, least significant first, of a permutation keyed by that level's index
// (only the bits the mode's length needs); fiber starts are flagged where a non-leaf level
// changes (and, for B-CSF, every `split` nonzeros into a fiber, as the host build cuts them),
// then compacted. The host holds nothing but the COO it already had.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cuda_util.cuh"
#include "device_coo.cuh"
#include "fiber_length_order.cuh"
#include "gpu_mttkrp.hpp"
#include "permutation_kernels.cuh"
#include "resident_tensor.cuh"

namespace tscope::gpu {

namespace {

constexpr int kMaxLevels = 16;
constexpr std::uint64_t kChunk = std::uint64_t{1} << 26;  // elements per narrowing chunk (512 MB of 64-bit)

struct LevelPtrs {
    const std::uint32_t* p[kMaxLevels];
};
struct LevelOut {
    std::uint32_t* p[kMaxLevels];
};

template <class From, class To>
__global__ void narrow_kernel(const From* in, To* out, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        out[i] = static_cast<To>(in[i]);
}

// Copies n host elements into `out`, narrowing 64-bit ones on the device chunk by chunk.
template <class Wide, class Narrow>
void upload_narrowed(const void* host, bool wide, std::uint64_t n, Narrow* out, DeviceArray<Wide>& staging) {
    if (!wide) {
        check(cudaMemcpy(out, host, n * sizeof(Narrow), cudaMemcpyHostToDevice), "copying the tensor to the device");
        return;
    }
    if (staging.size() == 0) staging = DeviceArray<Wide>(std::min(n, kChunk));
    const auto* src = static_cast<const Wide*>(host);
    for (std::uint64_t at = 0; at < n; at += kChunk) {
        const std::uint64_t len = std::min(kChunk, n - at);
        check(cudaMemcpy(staging.get(), src + at, len * sizeof(Wide), cudaMemcpyHostToDevice), "copying the tensor to the device");
        narrow_kernel<<<grid_for(len), 256>>>(staging.get(), out + at, len);
        check(cudaGetLastError(), "narrowing the tensor on the device");
    }
}

// flag[i]: nonzero i (in sorted order) starts a fiber: a level above the leaves changes there.
__global__ void fiber_flag_kernel(LevelPtrs levels, int above_leaves, const std::uint32_t* perm, std::uint8_t* flag,
                                  std::uint32_t* start, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        bool first = i == 0;
        for (int l = 0; !first && l < above_leaves; ++l) first = levels.p[l][perm[i]] != levels.p[l][perm[i - 1]];
        flag[i] = first;
        if (start) start[i] = first ? static_cast<std::uint32_t>(i) : 0;
    }
}

// B-CSF (mm-csf Sec. 3): a fiber longer than `split` becomes sub-fibers of `split` nonzeros from
// its start; start[i] is the start of i's fiber.
__global__ void split_flag_kernel(const std::uint32_t* start, std::uint64_t split, std::uint8_t* flag, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        if ((i - start[i]) % split == 0) flag[i] = 1;
}

// Fiber f: its first nonzero's position (fiber_ptr) and each ancestor level's index there.
__global__ void fiber_kernel(const std::uint32_t* first, std::uint64_t fibers, std::uint64_t nnz, LevelPtrs levels, int above_leaves,
                             const std::uint32_t* perm, std::uint64_t* fiber_ptr, LevelOut anc_out) {
    for (std::uint64_t f = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; f <= fibers;
         f += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        if (f == fibers) {
            fiber_ptr[f] = nnz;
            continue;
        }
        const std::uint32_t at = first[f];
        fiber_ptr[f] = at;
        for (int l = 0; l < above_leaves; ++l) anc_out.p[l][f] = levels.p[l][perm[at]];
    }
}

struct MaxOp {
    __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a > b ? a : b; }
};

int bits_for(std::uint64_t length) {
    int bits = 1;
    while (bits < 32 && (std::uint64_t{1} << bits) < length) ++bits;
    return bits;
}

}  // namespace

std::uint32_t* sort_permutation(const DeviceCoo::Impl& c, const std::vector<int>& order, std::uint64_t n,
                                DeviceArray<std::uint32_t>& perm, DeviceArray<std::uint32_t>& perm_alt,
                                DeviceArray<std::uint32_t>& keys, DeviceArray<std::uint32_t>& keys_alt) {
    cub::DoubleBuffer<std::uint32_t> k(keys.get(), keys_alt.get()), v(perm.get(), perm_alt.get());
    DeviceArray<unsigned char> temp;
    for (int l = static_cast<int>(order.size()) - 1; l >= 0; --l) {
        const auto m = static_cast<std::size_t>(order[static_cast<std::size_t>(l)]);
        gather_kernel<<<grid_for(n), 256>>>(c.idx[m].get(), v.Current(), k.Current(), n);
        check(cudaGetLastError(), "gathering sort keys");
        const int bits = bits_for(c.dims[m]);
        std::size_t bytes = 0;
        check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n, 0, bits), "sizing the radix sort");
        if (bytes > temp.size()) temp = DeviceArray<unsigned char>(bytes);
        check(cub::DeviceRadixSort::SortPairs(temp.get(), bytes, k, v, n, 0, bits), "sorting the nonzeros");
    }
    return v.Current();
}

DeviceCoo::DeviceCoo(const HostCoo& host) : impl_(std::make_unique<Impl>()) {
    use_device();
    if (host.idx.size() > static_cast<std::size_t>(kMaxLevels)) throw Error("the device build takes tensors of up to 16 modes");
    for (std::uint64_t d : host.dims)
        if (d > std::numeric_limits<std::uint32_t>::max()) throw Error("the device build needs every mode shorter than 2^32");
    Event t0, t1;
    t0.record();
    impl_->nnz = host.nnz;
    impl_->dims = host.dims;
    DeviceArray<std::uint64_t> wide_idx;
    for (const void* p : host.idx) {
        impl_->idx.emplace_back(host.nnz);
        upload_narrowed<std::uint64_t, std::uint32_t>(p, host.idx64, host.nnz, impl_->idx.back().get(), wide_idx);
    }
    wide_idx = DeviceArray<std::uint64_t>();
    DeviceArray<double> wide_vals;
    impl_->vals = DeviceArray<float>(host.nnz);
    upload_narrowed<double, float>(host.vals, host.vals64, host.nnz, impl_->vals.get(), wide_vals);
    t1.record();
    upload_s_ = Event::seconds(t0, t1);
}

DeviceCoo::~DeviceCoo() = default;
std::uint64_t DeviceCoo::nnz() const { return impl_->nnz; }
int DeviceCoo::order() const { return static_cast<int>(impl_->idx.size()); }

ResidentTensor::ResidentTensor(const DeviceCoo& coo, std::uint64_t first, std::uint64_t last) : impl_(std::make_unique<Impl>()) {
    use_device();
    const DeviceCoo::Impl& c = coo.impl();
    last = std::min(last, c.nnz);
    first = std::min(first, last);
    const std::uint64_t n = last - first;
    impl_->coo = true;
    impl_->nnz = n;
    for (const auto& col : c.idx) {
        impl_->idx.emplace_back(n);
        if (n) check(cudaMemcpy(impl_->idx.back().get(), col.get() + first, n * 4, cudaMemcpyDeviceToDevice), "copying the COO");
    }
    impl_->vals = DeviceArray<float>(n);
    if (n) check(cudaMemcpy(impl_->vals.get(), c.vals.get() + first, n * 4, cudaMemcpyDeviceToDevice), "copying the COO");
    impl_->measure_coo_shape();
}

namespace {

// One CSF tree over the nonzeros `perm` lists (n of them; perm is consumed as scratch), its
// levels the modes in `order`, fibers split every `split` nonzeros (0: never).
ResidentTensor::Impl::Part build_part(const DeviceCoo::Impl& c, const std::vector<int>& order, std::uint64_t split,
                                      DeviceArray<std::uint32_t>& perm, std::uint64_t n) {
    const int N = static_cast<int>(order.size());
    ResidentTensor::Impl::Part part;
    part.meta.levels = N - 1;
    part.meta.level_mode = order;
    part.meta.nnz = n;
    part.meta.split_fibers = split > 0;
    if (n == 0) {
        part.fiber_ptr = DeviceArray<std::uint64_t>(1);
        part.fiber_ptr.zero();
        part.anc.resize(static_cast<std::size_t>(N - 1));
        return part;
    }
    DeviceArray<std::uint32_t> perm_alt(n), keys(n), keys_alt(n);
    const std::uint32_t* sorted = sort_permutation(c, order, n, perm, perm_alt, keys, keys_alt);
    DeviceArray<std::uint32_t>& free_perm = sorted == perm.get() ? perm_alt : perm;

    LevelPtrs levels{};
    for (int l = 0; l < N; ++l) levels.p[l] = c.idx[static_cast<std::size_t>(order[static_cast<std::size_t>(l)])].get();
    DeviceArray<std::uint8_t> flag(n);
    std::uint32_t* start = split ? keys.get() : nullptr;  // the keys are free once sorted
    fiber_flag_kernel<<<grid_for(n), 256>>>(levels, N - 1, sorted, flag.get(), start, n);
    check(cudaGetLastError(), "flagging fiber starts");
    DeviceArray<unsigned char> temp;
    std::size_t bytes = 0;
    if (split) {  // start[i] = the start of i's fiber: a running maximum of the fiber starts
        check(cub::DeviceScan::InclusiveScan(nullptr, bytes, start, start, MaxOp{}, n), "sizing the scan");
        temp = DeviceArray<unsigned char>(bytes);
        check(cub::DeviceScan::InclusiveScan(temp.get(), bytes, start, start, MaxOp{}, n), "finding fiber starts");
        split_flag_kernel<<<grid_for(n), 256>>>(start, split, flag.get(), n);
        check(cudaGetLastError(), "splitting long fibers");
    }
    // the positions of the flags, compacted into keys_alt; their count comes back
    DeviceArray<std::uint64_t> count(1);
    thrust::counting_iterator<std::uint32_t> positions(0);
    bytes = 0;
    check(cub::DeviceSelect::Flagged(nullptr, bytes, positions, flag.get(), keys_alt.get(), count.get(), n), "sizing the compaction");
    if (bytes > temp.size()) temp = DeviceArray<unsigned char>(bytes);
    check(cub::DeviceSelect::Flagged(temp.get(), bytes, positions, flag.get(), keys_alt.get(), count.get(), n), "listing fibers");
    std::uint64_t fibers = 0;
    count.download(&fibers);
    temp = DeviceArray<unsigned char>();
    flag = DeviceArray<std::uint8_t>();

    part.meta.fibers = fibers;
    part.fiber_ptr = DeviceArray<std::uint64_t>(fibers + 1);
    LevelOut anc{};
    for (int l = 0; l < N - 1; ++l) {
        part.anc.emplace_back(fibers);
        anc.p[l] = part.anc.back().get();
    }
    fiber_kernel<<<grid_for(fibers + 1), 256>>>(keys_alt.get(), fibers, n, levels, N - 1, sorted, part.fiber_ptr.get(), anc);
    check(cudaGetLastError(), "laying out the fibers");
    keys = DeviceArray<std::uint32_t>();
    keys_alt = DeviceArray<std::uint32_t>();
    free_perm = DeviceArray<std::uint32_t>();
    part.leaf = DeviceArray<std::uint32_t>(n);
    gather_kernel<<<grid_for(n), 256>>>(levels.p[N - 1], sorted, part.leaf.get(), n);
    part.vals = DeviceArray<float>(n);
    gather_kernel<<<grid_for(n), 256>>>(c.vals.get(), sorted, part.vals.get(), n);
    check(cudaGetLastError(), "gathering the leaves");
    check(cudaDeviceSynchronize(), "building the format on the device");
    perm = DeviceArray<std::uint32_t>();  // consumed: its memory for the ordering's copies
    if (device_order_applies(fibers)) order_fibers_by_length(part);
    return part;
}

void check_buildable(const DeviceCoo::Impl& c, std::size_t order_size) {
    if (order_size != c.idx.size() || order_size < 2) throw Error("a device CSF build needs every mode once, and two at least");
    if (c.nnz >= std::numeric_limits<std::uint32_t>::max()) throw Error("the device build takes fewer than 2^32 - 1 nonzeros");
}

// flag[i]: nonzero i is labelled `want` (labels null: every one is) and its index in the
// filter's mode is in the filter's range (no mode: any).
__global__ void member_flag_kernel(const std::uint8_t* labels, std::uint8_t want, const std::uint32_t* rows, std::uint64_t lo,
                                   std::uint64_t hi, std::uint8_t* flag, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        flag[i] = (!labels || labels[i] == want) && (!rows || (rows[i] >= lo && rows[i] < hi));
}

// The positions of the nonzeros member_flag_kernel flags, in input order, into `members`;
// returns their count.
std::uint64_t select_members(const DeviceCoo::Impl& c, const std::uint8_t* labels, std::uint8_t want, const RowFilter& filter,
                             DeviceArray<std::uint8_t>& flag, DeviceArray<std::uint32_t>& members) {
    const std::uint32_t* rows = filter.mode >= 0 ? c.idx[static_cast<std::size_t>(filter.mode)].get() : nullptr;
    member_flag_kernel<<<grid_for(c.nnz), 256>>>(labels, want, rows, filter.lo, filter.hi, flag.get(), c.nnz);
    check(cudaGetLastError(), "selecting nonzeros");
    DeviceArray<std::uint64_t> count(1);
    thrust::counting_iterator<std::uint32_t> positions(0);
    std::size_t bytes = 0;
    check(cub::DeviceSelect::Flagged(nullptr, bytes, positions, flag.get(), members.get(), count.get(), c.nnz), "sizing the selection");
    DeviceArray<unsigned char> temp(bytes);
    check(cub::DeviceSelect::Flagged(temp.get(), bytes, positions, flag.get(), members.get(), count.get(), c.nnz), "selecting nonzeros");
    std::uint64_t n = 0;
    count.download(&n);
    return n;
}

}  // namespace

ResidentTensor ResidentTensor::build(const DeviceCoo& coo, const std::vector<int>& order, std::uint64_t split,
                                     RowFilter filter, std::uint64_t tiles_rank) {
    use_device();
    const DeviceCoo::Impl& c = coo.impl();
    check_buildable(c, order.size());
    auto impl = std::make_unique<Impl>();
    DeviceArray<std::uint32_t> perm(c.nnz);
    std::uint64_t n = c.nnz;
    if (filter.mode >= 0 && c.nnz) {
        DeviceArray<std::uint8_t> flag(c.nnz);
        n = select_members(c, nullptr, 0, filter, flag, perm);
    } else if (c.nnz) {
        iota_kernel<<<grid_for(c.nnz), 256>>>(perm.get(), c.nnz);
        check(cudaGetLastError(), "numbering the nonzeros");
    }
    impl->nnz = n;
    impl->parts.push_back(build_part(c, order, split, perm, n));  // which frees perm
    add_hot_rows(impl->parts);                            // its root's, before the tiles (a hot root takes none)
    add_shared_tiles(impl->parts.back(), tiles_rank, 1);  // the CPD's trees, each rooted at its mode
    return ResidentTensor(std::move(impl));
}

ResidentTensor ResidentTensor::build_partitioned(const DeviceCoo& coo, const std::uint8_t* labels,
                                                 const std::vector<std::vector<int>>& orders,
                                                 const std::vector<RowFilter>& filters, std::uint64_t split,
                                                 std::uint64_t tiles_rank) {
    use_device();
    const DeviceCoo::Impl& c = coo.impl();
    auto impl = std::make_unique<Impl>();
    DeviceArray<std::uint8_t> dlabels(labels, c.nnz), flag(c.nnz);
    for (std::size_t p = 0; p < orders.size(); ++p) {
        if (orders[p].empty()) continue;
        check_buildable(c, orders[p].size());
        // the nonzeros labelled p (and in this part's slices), in input order: the permutation to sort
        DeviceArray<std::uint32_t> members(c.nnz);
        const RowFilter filter = p < filters.size() ? filters[p] : RowFilter{};
        const std::uint64_t n = select_members(c, dlabels.get(), static_cast<std::uint8_t>(p), filter, flag, members);
        if (n == 0) continue;
        impl->nnz += n;
        impl->parts.push_back(build_part(c, orders[p], split, members, n));
    }
    add_hot_rows(impl->parts);  // as an upload's: first, a hot root takes no tiles
    for (Impl::Part& part : impl->parts) add_shared_tiles(part, tiles_rank, impl->parts.size());
    return ResidentTensor(std::move(impl));
}

}  // namespace tscope::gpu
