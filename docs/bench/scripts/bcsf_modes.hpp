// The host models' shared driver (warp_sum_model.cpp, ancestor_reuse_model.cpp): FILE [MODE...]
// from the command line, each named mode's B-CSF built as the engine builds it, and its CSF tree
// handed to the model with the mode (from 0). Returns main's status.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tscope/formats/format_visit.hpp"
#include "tscope/io/tensor_io.hpp"

template <class Model>
int for_each_bcsf_mode(int argc, char** argv, Model&& model) {
    using namespace tscope;
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE [MODE...]   (modes from 1; all where none is named)\n", argv[0]);
        return 2;
    }
    const CooTensor t = load_tensor(argv[1]).tensor;
    std::vector<int> modes;
    for (int a = 2; a < argc; ++a) modes.push_back(std::atoi(argv[a]) - 1);
    if (modes.empty())
        for (int m = 0; m < t.order(); ++m) modes.push_back(m);
    for (const int m : modes) {
        FormatOptions o;
        o.mode = m;
        const auto f = build_format(FormatKind::BCSF, t, o);
        visit_format(*f, overloaded{[&]<class I, class V>(const BcsfFormat<I, V>& x) { model(x.csf, m); },
                                    [](const SparseFormat&) { std::fprintf(stderr, "not a B-CSF\n"); }});
    }
    return 0;
}
