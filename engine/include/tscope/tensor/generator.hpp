// Synthetic sparse tensors: uniform, power-law (per-mode Zipf) and block-clustered, any order.
// Output is reproducible: the same spec and seed give the same tensor on any machine and any
// thread count. The tensor has exactly `nnz` distinct coordinates (duplicates drawn while
// sampling are summed, and more samples are drawn until the count is reached).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope {

enum class Distribution { Uniform, PowerLaw, Blocks, LowRank };

struct GeneratorSpec {
    std::vector<std::uint64_t> dims;
    std::uint64_t nnz = 0;
    Distribution distribution = Distribution::Uniform;
    // PowerLaw: Zipf exponent per mode (one value applies to every mode). 0 is uniform.
    std::vector<double> zipf;
    // Blocks: how many blocks, and their edge; blocks sit on a grid of that edge, so edge 16
    // makes the dense 16^3 tiles that HLS looks for.
    std::uint64_t blocks = 0;
    std::uint64_t block_edge = 16;
    // LowRank: the sum of `rank` rank-one tensors whose factor vectors are sparse (each has s
    // nonzeros in [0.5, 1.5) at random places, s = (nnz / rank)^(1/N) capped by the dim), so
    // that CPD at that rank (and Tucker at that multilinear rank) can fit it exactly. nnz is
    // then about, not exactly, the requested count (supports may overlap; overlaps are summed).
    std::uint64_t rank = 0;
    std::uint64_t seed = 1;
    ValueType values = ValueType::F64;
};

// Parses the CLI's --dist text: "uniform", "powerlaw:A" or "powerlaw:A1,A2,...",
// "blocks:B" or "blocks:B:EDGE", "lowrank:R". Fills the distribution fields of spec.
void parse_distribution(const std::string& text, GeneratorSpec& spec);
std::string describe(const GeneratorSpec& spec);

// InputError when `spec` cannot be generated (no dims, more distinct nonzeros than cells, a
// bad exponent...): what generate_tensor checks first, for a dialog to say before it closes.
void check_generator_spec(const GeneratorSpec& spec);
CooTensor generate_tensor(const GeneratorSpec& spec, RunControl& control = no_control());

}  // namespace tscope
