// MTTKRP over shared-memory tiles (mttkrp_shared_tiles.cuh). The tree's nonzeros are sorted by
// tile (a stable radix sort, so each tile keeps the tree's order: its output rows ascending), and
// each block takes a chunk of one tile's nonzeros (tile_chunk): it copies the tile's kTileJ fiber-level rows
// and kTileK leaf rows into shared memory (192 KiB at rank 32, 96 KiB at rank 16), then 128 teams
// of R/4 lanes (a float4 of the row each) walk consecutive nonzeros, summing v * B(j) * C(k) in
// registers while the output row stays, adding the sum to the output where it changes.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <vector>

#include "env_switch.hpp"
#include "float4_math.cuh"
#include "mttkrp_shared_tiles.cuh"
#include "shared_tiles_rule.hpp"

namespace tscope::gpu {
namespace {

constexpr std::uint32_t kTeams = 128;  // a block's teams, each of a lane a float4 of the row
// Free device memory a nonzero that the build asks for: 20 bytes at its peak (the nonzero's
// fiber, the sort's keys and ids double buffered), 12 kept, and as much again for what the
// MTTKRP allocates later (factors, output).
constexpr std::uint64_t kRoomPerNonzero = 64;

// The switch and the rule (shared_tiles_rule.hpp). Measured on one H200 (session 79 calls 3-4,
// docs/bench/h200-session79.json, rank 32, two rounds alternating): the uniform shape (1.4
// nonzeros a fiber, 147K a tile) 1.62-1.67 ms a mode over tiles in chunks of 32K against
// 2.31-2.46 for B-CSF's fiber kernels, 1.56-1.66 in chunks of 64K and 1.73-1.75 in 16K (one
// round each: each block copies its tile first); the nell-2 shape (fibers of 3.7-4.7) 1.64-1.66
// against 1.37-1.53; 20M uniform nonzeros' mode 1 (16.7K a tile) 0.636-0.642 against 0.706-0.715.
// The 0.6M uniform tensor (50K a tile) ran 38-42 us a mode over tiles against 30-40 (call 4).
TilesSwitch tiles_switch() {
    if (env_is("TENSORSCOPE_FIBER_TILES", "1")) return TilesSwitch::On;
    if (env_is("TENSORSCOPE_FIBER_TILES", "0")) return TilesSwitch::Off;
    return TilesSwitch::Rule;
}

// fiber_of[z] = the fiber holding nonzero z
__global__ void fiber_of_kernel(const std::uint64_t* fiber_ptr, std::uint64_t fibers, std::uint32_t* fiber_of) {
    for (std::uint64_t f = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; f < fibers;
         f += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        for (std::uint64_t z = fiber_ptr[f]; z < fiber_ptr[f + 1]; ++z) fiber_of[z] = static_cast<std::uint32_t>(f);
}

// largest[0] = the largest fiber-level index, largest[1] = the largest leaf index
__global__ void largest_kernel(const std::uint32_t* j, std::uint64_t fibers, const std::uint32_t* k, std::uint64_t nnz,
                               std::uint32_t* largest) {
    std::uint32_t mj = 0, mk = 0;
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t x = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; x < nnz || x < fibers;
         x += stride) {
        if (x < fibers) mj = max(mj, j[x]);
        if (x < nnz) mk = max(mk, k[x]);
    }
    atomicMax(&largest[0], mj);
    atomicMax(&largest[1], mk);
}

__global__ void tile_key_kernel(const std::uint32_t* fiber_of, const std::uint32_t* j, const std::uint32_t* k,
                                std::uint64_t nnz, std::uint32_t k_tiles, std::uint32_t* key, std::uint32_t* id,
                                std::uint32_t* count) {
    for (std::uint64_t z = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; z < nnz;
         z += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        const std::uint32_t tile = j[fiber_of[z]] / kTileJ * k_tiles + k[z] / kTileK;
        key[z] = tile, id[z] = static_cast<std::uint32_t>(z);
        atomicAdd(&count[tile], 1u);
    }
}

__global__ void tile_gather_kernel(const std::uint32_t* id, const std::uint32_t* fiber_of, const std::uint32_t* i,
                                   const std::uint32_t* j, const std::uint32_t* k, const float* vals, std::uint64_t nnz,
                                   std::uint32_t* row, std::uint32_t* jk, float* out_vals) {
    for (std::uint64_t z = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; z < nnz;
         z += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        const std::uint32_t from = id[z], f = fiber_of[from];
        row[z] = i[f];
        jk[z] = (j[f] % kTileJ) | ((k[from] % kTileK) << 16);
        out_vals[z] = vals[from];
    }
}

// Team `team`'s nonzeros of an item of n: [lo, hi) from the item's first. The kernel's split,
// which row_runs_kernel counts the adds of.
__device__ inline uint2 team_range(std::uint32_t n, std::uint32_t team) {
    const std::uint32_t per = (n + kTeams - 1) / kTeams;
    return make_uint2(min(n, team * per), min(n, (team + 1) * per));
}

// One block: a tile's rows into shared memory, then its teams' runs of the item's nonzeros. R4:
// float4s a row (8 at rank 32, 4 at rank 16), a lane each; kTeams teams, so a block of 1,024
// threads at rank 32 and of 512 at rank 16, where two blocks share an SM (96 KiB each).
// Spread: lane l of a team loads nonzero l of each R4 and the team walks them by shuffles, one
// load a lane for R4 nonzeros where each lane loading every nonzero takes R4, and 2 x R4
// nonzeros in flight a team where the registers (64 a thread) held 4 otherwise. The default since
// session 81: on one H200 (docs/bench/h200-session81.json call 2, the uniform shape, B-CSF, rank
// 32, two rounds alternating, round 1 within 1.8e-6 of cpu-ref) 1.261-1.271 ms a mode (5,810-5,855
// GFLOP/s) against 1.608-1.682 (4,390-4,592) with each lane loading every nonzero
// (TENSORSCOPE_FIBER_TILE_LOADS=each) and 2.293-2.456 over the fiber kernels.
template <std::uint32_t R4, bool Spread>
__global__ void __launch_bounds__(kTeams* R4, 8 / R4)
    shared_tiles_kernel(const uint4* items, const std::uint32_t* row, const std::uint32_t* jk, const float* vals,
                        std::uint32_t k_tiles, std::uint64_t dim_j, std::uint64_t dim_k, const float4* fj,
                        const float4* fk, float4* out) {
    constexpr std::uint32_t threads = kTeams * R4;
    extern __shared__ float4 rows[];
    float4* sj = rows;
    float4* sk = rows + kTileJ * R4;
    const uint4 item = items[blockIdx.x];
    const std::uint64_t j0 = static_cast<std::uint64_t>(item.x / k_tiles) * kTileJ;
    const std::uint64_t k0 = static_cast<std::uint64_t>(item.x % k_tiles) * kTileK;
    const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);
    for (std::uint32_t x = threadIdx.x; x < kTileJ * R4; x += threads) {
        const std::uint64_t r = j0 + x / R4;
        sj[x] = r < dim_j ? fj[r * R4 + x % R4] : zero;
    }
    for (std::uint32_t x = threadIdx.x; x < kTileK * R4; x += threads) {
        const std::uint64_t r = k0 + x / R4;
        sk[x] = r < dim_k ? fk[r * R4 + x % R4] : zero;
    }
    __syncthreads();
    const std::uint32_t lane = threadIdx.x % R4;
    const uint2 range = team_range(item.z - item.y, threadIdx.x / R4);
    const std::uint32_t lo = item.y + range.x, hi = item.y + range.y;
    float4 acc = zero;
    std::uint32_t current = ~0u;
    auto step = [&](std::uint32_t i, std::uint32_t p, float v) {
        if (i != current) {
            if (current != ~0u) atomic_add4(out + static_cast<std::uint64_t>(current) * R4 + lane, acc);
            acc = zero, current = i;
        }
        fma4(acc, v, sj[(p & 0xffffu) * R4 + lane] * sk[(p >> 16) * R4 + lane]);
    };
    std::uint32_t z = lo;
    if constexpr (Spread) {
        // a team's lanes share lo and hi, so they run this loop alike
        const unsigned team_lanes = ((1u << R4) - 1) << (threadIdx.x % 32 / R4 * R4);
        for (; z + 2 * R4 <= hi; z += 2 * R4) {
            const std::uint32_t i0 = row[z + lane], p0 = jk[z + lane];
            const std::uint32_t i1 = row[z + R4 + lane], p1 = jk[z + R4 + lane];
            const float v0 = vals[z + lane], v1 = vals[z + R4 + lane];
#pragma unroll
            for (int u = 0; u < static_cast<int>(R4); ++u)
                step(__shfl_sync(team_lanes, i0, u, R4), __shfl_sync(team_lanes, p0, u, R4),
                     __shfl_sync(team_lanes, v0, u, R4));
#pragma unroll
            for (int u = 0; u < static_cast<int>(R4); ++u)
                step(__shfl_sync(team_lanes, i1, u, R4), __shfl_sync(team_lanes, p1, u, R4),
                     __shfl_sync(team_lanes, v1, u, R4));
        }
    }
    for (; z + 4 <= hi; z += 4) {  // four nonzeros' loads in flight before the first add
        std::uint32_t i[4], p[4];
        float v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) i[u] = row[z + u], p[u] = jk[z + u], v[u] = vals[z + u];
#pragma unroll
        for (int u = 0; u < 4; ++u) step(i[u], p[u], v[u]);
    }
    for (; z < hi; ++z) step(row[z], jk[z], vals[z]);
    if (current != ~0u) atomic_add4(out + static_cast<std::uint64_t>(current) * R4 + lane, acc);
}

// runs += the output-row adds shared_tiles_kernel makes on the block's item: one per run of one
// row in each team's nonzeros (for the bench's roofline, SharedTiles::row_runs).
__global__ void row_runs_kernel(const uint4* items, const std::uint32_t* row, unsigned long long* runs) {
    const uint4 item = items[blockIdx.x];
    const std::uint32_t n = item.z - item.y, per = (n + kTeams - 1) / kTeams;
    unsigned long long mine = 0;
    for (std::uint32_t x = threadIdx.x; x < n; x += blockDim.x)
        mine += x % per == 0 || row[item.y + x] != row[item.y + x - 1];
    for (int d = 16; d > 0; d /= 2) mine += __shfl_down_sync(0xffffffffu, mine, d);
    if (threadIdx.x % 32 == 0 && mine) atomicAdd(runs, mine);
}

// Whether a tree may take tiles at all, before any work on the device: the shape the kernel
// takes, the switch and the fibers' rule, a block's 192 KiB of shared memory (an A100 gives 163),
// and room for the tiles beside what the MTTKRP allocates later.
bool tiles_may_apply(int levels, std::uint64_t fibers, std::uint64_t nnz, TilesSwitch sw) {
    // under 2^31 nonzeros: the kernel's 32-bit offsets run up to a chunk past a team's end
    if (levels != 2 || nnz == 0 || nnz >= (std::uint64_t{1} << 31) || fibers >= (std::uint64_t{1} << 32)) return false;
    if (sw == TilesSwitch::Off || (sw == TilesSwitch::Rule && !fibers_short(fibers, nnz))) return false;
    if (static_cast<std::uint64_t>(device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin)) < kTileBytes)
        return false;
    return free_device_bytes() >= kRoomPerNonzero * nnz;
}

// The fiber of each nonzero, and the two gathered factors' row counts into t (Fibers carries no
// dims: the largest index of each level, found in one pass at upload).
DeviceArray<std::uint32_t> number_nonzeros(SharedTiles& t, std::uint64_t fibers, std::uint64_t nnz,
                                           const std::uint32_t* fiber_j, const std::uint64_t* fiber_ptr,
                                           const std::uint32_t* leaf) {
    DeviceArray<std::uint32_t> fiber_of(nnz), largest(2);
    largest.zero();
    fiber_of_kernel<<<grid_for(fibers), 256>>>(fiber_ptr, fibers, fiber_of.get());
    largest_kernel<<<grid_for(std::max(fibers, nnz)), 256>>>(fiber_j, fibers, leaf, nnz, largest.get());
    check(cudaGetLastError(), "numbering the tiles' nonzeros");
    std::uint32_t big[2];
    largest.download(big);
    t.dim_j = std::uint64_t{big[0]} + 1, t.dim_k = std::uint64_t{big[1]} + 1;
    t.k_tiles = static_cast<std::uint32_t>((t.dim_k + kTileK - 1) / kTileK);
    return fiber_of;
}

// The nonzeros' ids in tile order (a stable radix sort on the tile number, so each tile keeps the
// tree's order), and per_tile[x] = the nonzeros of tile x.
DeviceArray<std::uint32_t> sort_by_tile(const SharedTiles& t, const std::uint32_t* fiber_of,
                                        const std::uint32_t* fiber_j, const std::uint32_t* leaf, std::uint64_t nnz,
                                        std::uint64_t tiles, std::vector<std::uint32_t>& per_tile) {
    DeviceArray<std::uint32_t> key(nnz), key_alt(nnz), id(nnz), id_alt(nnz), count(tiles);
    count.zero();
    tile_key_kernel<<<grid_for(nnz), 256>>>(fiber_of, fiber_j, leaf, nnz, t.k_tiles, key.get(), id.get(), count.get());
    check(cudaGetLastError(), "keying the nonzeros by tile");
    int bits = 1;
    while ((std::uint64_t{1} << bits) < tiles) ++bits;
    cub::DoubleBuffer<std::uint32_t> keys(key.get(), key_alt.get()), ids(id.get(), id_alt.get());
    std::size_t bytes = 0;
    check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, ids, nnz, 0, bits), "sizing the tiles' sort");
    {
        DeviceArray<unsigned char> temp(bytes);
        check(cub::DeviceRadixSort::SortPairs(temp.get(), bytes, keys, ids, nnz, 0, bits),
              "sorting the nonzeros by tile");
    }
    per_tile.resize(tiles);
    count.download(per_tile.data());
    return ids.Current() == id.get() ? std::move(id) : std::move(id_alt);  // the others go here
}

// The blocks' items (tile_items: chunks of each tile) onto the device, and the adds they make.
void cut_items(SharedTiles& t, const std::vector<std::uint32_t>& per_tile, std::uint64_t nnz) {
    const std::uint64_t step = tile_chunk(nnz, sm_count(), env_unsigned("TENSORSCOPE_FIBER_TILE_CHUNK", 0));
    std::vector<uint4> items;
    for (const TileItem& it : tile_items(per_tile, step)) items.push_back(make_uint4(it.tile, it.begin, it.end, 0));
    t.items = DeviceArray<uint4>(items.data(), items.size());
    DeviceArray<unsigned long long> runs(1);
    runs.zero();
    if (!items.empty())
        row_runs_kernel<<<static_cast<unsigned>(items.size()), 256>>>(t.items.get(), t.row.get(), runs.get());
    check(cudaGetLastError(), "counting the tiles' output rows");
    unsigned long long counted = 0;
    runs.download(&counted);
    t.row_runs = counted;
}

}  // namespace

std::unique_ptr<SharedTiles> build_shared_tiles(int levels, const int* level_mode, std::uint64_t fibers,
                                                std::uint64_t nnz, const std::uint32_t* const* anc,
                                                const std::uint64_t* fiber_ptr, const std::uint32_t* leaf,
                                                const float* vals, std::uint64_t rank, std::size_t trees) {
    const TilesSwitch sw = tiles_switch();
    if (!tiles_for_trees(trees, sw, !env_is("TENSORSCOPE_MMCSF_TILES", "0"))) return nullptr;
    if ((rank && !tiles_rank(rank)) || !tiles_may_apply(levels, fibers, nnz, sw)) return nullptr;
    auto t = std::make_unique<SharedTiles>();
    t->mode = level_mode[0], t->mode_j = level_mode[1], t->mode_k = level_mode[2];
    t->spread_loads = !env_is("TENSORSCOPE_FIBER_TILE_LOADS", "each");
    const DeviceArray<std::uint32_t> fiber_of = number_nonzeros(*t, fibers, nnz, anc[1], fiber_ptr, leaf);
    const std::uint64_t tiles = tile_count(t->dim_j, t->dim_k);
    if (tiles >= (std::uint64_t{1} << 24) || !tiles_wanted(fibers, nnz, tiles, sw)) return nullptr;
    std::vector<std::uint32_t> per_tile;
    const DeviceArray<std::uint32_t> order = sort_by_tile(*t, fiber_of.get(), anc[1], leaf, nnz, tiles, per_tile);
    t->row = DeviceArray<std::uint32_t>(nnz), t->jk = DeviceArray<std::uint32_t>(nnz),
    t->vals = DeviceArray<float>(nnz);
    tile_gather_kernel<<<grid_for(nnz), 256>>>(order.get(), fiber_of.get(), anc[0], anc[1], leaf, vals, nnz,
                                               t->row.get(), t->jk.get(), t->vals.get());
    check(cudaGetLastError(), "gathering the tiles' nonzeros");
    cut_items(*t, per_tile, nnz);
    check(cudaDeviceSynchronize(), "building the tiles");
    return t;
}

bool shared_tiles_apply(const SharedTiles& t, int mode, std::uint64_t R) { return mode == t.mode && tiles_rank(R); }

namespace {

template <std::uint32_t R4>
void launch_rows_of(const SharedTiles& t, const float* const* factors, float* out) {
    const auto kernel = t.spread_loads ? shared_tiles_kernel<R4, true> : shared_tiles_kernel<R4, false>;
    const std::uint64_t bytes = tile_bytes(R4 * 4);
    // past 48 KiB a block asks for it (on the device it runs on, so every launch)
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
          "sizing the tiles' shared memory");
    // all of L1 as shared memory, so that rank 16's two blocks of 96 KiB fit an SM (a hint)
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared),
          "asking for the tiles' shared memory carveout");
    kernel<<<static_cast<unsigned>(t.items.size()), kTeams * R4, bytes>>>(
        t.items.get(), t.row.get(), t.jk.get(), t.vals.get(), t.k_tiles, t.dim_j, t.dim_k,
        reinterpret_cast<const float4*>(factors[t.mode_j]), reinterpret_cast<const float4*>(factors[t.mode_k]),
        reinterpret_cast<float4*>(out));
    check(cudaGetLastError(), "launching the tiles' MTTKRP");
}

}  // namespace

void launch_shared_tiles(const SharedTiles& t, std::uint64_t R, const float* const* factors, float* out) {
    if (t.items.size() == 0) return;
    if (R == 16)
        launch_rows_of<4>(t, factors, out);
    else
        launch_rows_of<8>(t, factors, out);
}

}  // namespace tscope::gpu
