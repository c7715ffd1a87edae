// The up-front checks (tscope/checks.hpp) that refuse, in words, work this machine cannot hold
// or values a decomposition cannot measure, before anything is allocated or run.
#include <QtTest>

#include <limits>

#include "tscope/bench/machine.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/tensor/coo_tensor.hpp"

using namespace tscope;

class TestChecks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Sweep 65: each factor was checked alone, so three that each take 60% of the memory passed
    // (bench and CPD then ran out of memory, or had the OOM killer end them); sweep 65c: factors
    // that fit together were killed beside their output. Here each factor is 40% of the memory.
    void factorsAreCheckedTogether() {
        const std::uint64_t memory = physical_memory_bytes();
        if (memory == 0) QSKIP("this machine's memory cannot be told");
        const std::uint64_t rank = 8, rows = memory / (8 * rank) * 4 / 10;
        check_factors_fit({rows, 10}, rank);  // one, and its output: 80%
        const auto refused = [&](const std::vector<std::uint64_t>& dims, long double beside) {
            try {
                check_factors_fit(dims, rank, beside);
                return false;
            } catch (const InputError& e) {
                return std::string(e.what()).find("the rank-8 factors of the " + std::to_string(dims.size()) +
                                                  " modes and an output, beside the tensor, would need") !=
                       std::string::npos;
            }
        };
        QVERIFY(refused({rows, rows, rows}, 0));  // 160%
        QVERIFY(refused({rows, rows}, 0));        // 120%: the factors alone, 80%, had passed
        QVERIFY(refused({rows, 10}, 0.3L * static_cast<long double>(memory)));  // beside a tensor of 30%
    }

    // Sweep 65: a sum of squares that underflowed to 0 is refused as too small, one past the top
    // as too large; between them, subnormal sums included (sweep 65c), decompositions run.
    void valuesAreDecomposableBetweenBothEnds() {
        check_values_decomposable(1.0, 100, "CPD");
        check_values_decomposable(std::numeric_limits<double>::min(), 1, "CPD");
        check_values_decomposable(1e-315, 5, "CPD");
        QVERIFY_THROWS_EXCEPTION(InputError, check_values_decomposable(0.0, 5, "CPD"));
        QVERIFY_THROWS_EXCEPTION(InputError, check_values_decomposable(1e300, 1000000000u, "CPD"));
        check_values_decomposable(0.0, 0, "CPD");  // no nonzeros: said elsewhere, not here
    }

    // Sweep 65 on an H200: values past float's normal range became inf or 0 on the GPU. Which
    // values survive fp32 there, said without a GPU.
    void valuesTheGpuCannotHoldAreNamed() {
        CooTensor t({4, 4});
        t.resize(3);
        const std::uint64_t a[] = {0, 0}, b[] = {1, 2}, c[] = {3, 3};
        t.set(0, a, 1.0), t.set(1, b, -3e38), t.set(2, c, 2e-38);
        QVERIFY(gpu_value_refusal(t).empty());
        check_values_fit_gpu(t);
        for (const double bad : {1e39, -1e39, 1e-40, -1e-300}) {
            t.set(1, b, bad);
            const std::string why = gpu_value_refusal(t);
            QVERIFY2(why.find("cuda computes in fp32") != std::string::npos &&
                         why.find(bad > 1 || bad < -1 ? "which would be inf there"
                                                      : "which the GPU's kernels would make 0") != std::string::npos,
                     why.c_str());
            QVERIFY_THROWS_EXCEPTION(InputError, check_values_fit_gpu(t));
        }
    }
};

QTEST_APPLESS_MAIN(TestChecks)
#include "test_checks.moc"
