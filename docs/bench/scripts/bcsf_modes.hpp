// What the host models (warp_sum_model.cpp, ancestor_reuse_model.cpp) share: the upload's cut of
// a tree into team groups, and the driver that builds each named mode's B-CSF.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "tscope/formats/format_visit.hpp"
#include "tscope/io/tensor_io.hpp"

// The upload's cut: fibers in pieces of at most kPiece nonzeros, kGroup pieces a team's group.
constexpr std::uint64_t kPiece = 16, kGroup = 8;

// visit(fiber, first) for each piece of the tree's fibers in its order, first where the piece
// starts a group.
template <class I, class V, class Visit>
void for_each_piece(const tscope::CsfFormat<I, V>& csf, Visit&& visit) {
    const std::size_t fl = csf.fptr.size() - 1;
    std::uint64_t in_group = 0;
    for (std::uint64_t f = 0; f + 1 < csf.fptr[fl].size(); ++f) {
        const std::uint64_t len = csf.fptr[fl][f + 1] - csf.fptr[fl][f];
        for (std::uint64_t piece = 0; piece < (len + kPiece - 1) / kPiece; ++piece) {
            visit(f, in_group == 0);
            if (++in_group == kGroup) in_group = 0;
        }
    }
}

// The driver: FILE [MODE...] from the command line, each named mode's B-CSF built as the engine
// builds it, and its CSF tree handed to model with the mode (from 0). A MODE written as a level
// order (2,1,4,3: the mode first, as --mode-order takes it) builds its tree in that order.
// Returns main's status.
template <class Model>
int for_each_bcsf_mode(int argc, char** argv, Model&& model) {
    using namespace tscope;
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE [MODE|ORDER...]   (modes from 1; all where none is named)\n", argv[0]);
        return 2;
    }
    const CooTensor t = load_tensor(argv[1]).tensor;
    std::vector<std::vector<int>> orders;  // each tree's mode, then its lower levels where named
    for (int a = 2; a < argc; ++a) {
        orders.emplace_back();
        std::istringstream in(argv[a]);
        for (std::string item; std::getline(in, item, ',');) orders.back().push_back(std::atoi(item.c_str()) - 1);
    }
    if (orders.empty())
        for (int m = 0; m < t.order(); ++m) orders.push_back({m});
    for (const std::vector<int>& order : orders) {
        const int m = order.front();
        FormatOptions o;
        o.mode = m;
        if (order.size() > 1) o.mode_order = order;
        const auto f = build_format(FormatKind::BCSF, t, o);
        visit_format(*f, overloaded{[&]<class I, class V>(const BcsfFormat<I, V>& x) { model(x.csf, m); },
                                    [](const SparseFormat&) { std::fprintf(stderr, "not a B-CSF\n"); }});
    }
    return 0;
}
