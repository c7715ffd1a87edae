// The generator: reproducible, exact distinct counts, within bounds, skewed when asked.
#include <set>

#include "test_support.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/tensor_stats.hpp"
#include "tscope/text_parse.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace tscope;

class TestGenerator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void exactDistinctCountAndBounds_data() {
        QTest::addColumn<QString>("dist");
        QTest::addColumn<int>("order");
        for (const char* d : {"uniform", "powerlaw:1.3", "blocks:8"})
            for (int order : {3, 4, 5, 8})
                QTest::newRow(qPrintable(QString("%1 order %2").arg(d).arg(order))) << QString(d) << order;
    }
    void exactDistinctCountAndBounds() {
        QFETCH(QString, dist);
        QFETCH(int, order);
        GeneratorSpec spec;
        spec.dims.assign(static_cast<std::size_t>(order), 20);
        spec.dims[0] = 300;
        spec.nnz = 2000;
        parse_distribution(dist.toStdString(), spec);
        const CooTensor t = generate_tensor(spec);
        QCOMPARE(t.nnz(), spec.nnz);
        QCOMPARE(t.dims(), spec.dims);
        CooTensor copy = t;
        QCOMPARE(sum_duplicates(copy), std::uint64_t{0});
        QVERIFY(is_sorted_lexicographic(t));
        for (std::uint64_t n = 0; n < t.nnz(); ++n) {
            QVERIFY(t.value(n) > 0 && t.value(n) <= 1.0);
            for (int m = 0; m < order; ++m) QVERIFY(t.index(m, n) < spec.dims[static_cast<std::size_t>(m)]);
        }
    }

    // A uniform tensor filled whole, or nearly: every cell once (64 rounds stopped at 16,362 of
    // 128 x 128's 16,384, and said "lower the exponent" of a distribution that has none).
    void uniformFillsEveryCell_data() {
        QTest::addColumn<QString>("dims");
        QTest::addColumn<qulonglong>("nnz");
        QTest::newRow("128 x 128, full") << QStringLiteral("128,128") << qulonglong{16384};
        QTest::newRow("2^16 cells of order 16, full") << QStringLiteral("2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2") << qulonglong{65536};
        QTest::newRow("1000 x 1000, 99.9%") << QStringLiteral("1000,1000") << qulonglong{999000};
    }
    void uniformFillsEveryCell() {
        QFETCH(QString, dims);
        QFETCH(qulonglong, nnz);
        GeneratorSpec spec;
        for (const QString& d : dims.split(QLatin1Char(','))) spec.dims.push_back(d.toULongLong());
        spec.nnz = nnz;
        const CooTensor t = generate_tensor(spec);
        QCOMPARE(t.nnz(), spec.nnz);
        CooTensor copy = t;
        QCOMPARE(sum_duplicates(copy), std::uint64_t{0});
        // concentrated past what 64 rounds find: the message names what to lower
        GeneratorSpec steep;
        steep.dims = {100, 100};
        steep.nnz = 9990;
        parse_distribution("powerlaw:3", steep);
        try {
            generate_tensor(steep);
            QFAIL("9,990 distinct nonzeros under a Zipf exponent of 3");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("lower nnz or the exponent") != std::string::npos, e.what());
        }
    }

    void reproducibleAcrossThreadCounts() {
        GeneratorSpec spec;
        spec.dims = {500, 400, 300};
        spec.nnz = 200000;  // several parallel chunks
        parse_distribution("powerlaw:1.1", spec);
        spec.seed = 42;
#ifdef _OPENMP
        omp_set_num_threads(1);
#endif
        const CooTensor one = generate_tensor(spec);
#ifdef _OPENMP
        omp_set_num_threads(2);
#endif
        const CooTensor two = generate_tensor(spec);
#ifdef _OPENMP
        omp_set_num_threads(5);  // the duplicate filter's shards split unevenly over the threads
#endif
        const CooTensor five = generate_tensor(spec);
        std::string why;
        QVERIFY2(same_entries(one, two, &why), why.c_str());
        QVERIFY2(same_entries(one, five, &why), why.c_str());
        spec.seed = 43;
        QVERIFY(!same_entries(one, generate_tensor(spec)));
    }

    void powerLawIsSkewed() {
        GeneratorSpec uniform, skewed;
        uniform.dims = skewed.dims = {2000, 2000, 2000};
        uniform.nnz = skewed.nnz = 50000;
        parse_distribution("powerlaw:1.2", skewed);
        const TensorStats u = compute_stats(generate_tensor(uniform));
        const TensorStats s = compute_stats(generate_tensor(skewed));
        // The heaviest slice of a Zipf(1.2) mode holds far more than a uniform one's.
        QVERIFY(s.modes[0].slice_nnz.max > 20 * u.modes[0].slice_nnz.max);
        QVERIFY(s.modes[0].slices < u.modes[0].slices);
    }

    void blocksSitOnTheGrid() {
        GeneratorSpec spec;
        spec.dims = {96, 96, 96};  // a multiple of 16: every block is whole
        spec.nnz = 3000;
        parse_distribution("blocks:2:16", spec);
        const CooTensor t = generate_tensor(spec);
        std::set<std::vector<std::uint64_t>> tiles;
        for (std::uint64_t n = 0; n < t.nnz(); ++n)
            tiles.insert({t.index(0, n) / 16, t.index(1, n) / 16, t.index(2, n) / 16});
        QVERIFY(tiles.size() <= 2);
    }

    void badSpecsAreInputErrors() {
        GeneratorSpec spec;
        spec.dims = {4, 4};
        spec.nnz = 17;  // more than 16 cells, said as a count (issue 20: it said "16.000000 cells")
        try {
            generate_tensor(spec);
            QFAIL("17 nonzeros in 16 cells were generated");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("fit in 16 cells") != std::string::npos, e.what());
        }
        spec.nnz = 0;
        QVERIFY_THROWS_EXCEPTION(InputError, generate_tensor(spec));
        QVERIFY_THROWS_EXCEPTION(InputError, parse_distribution("zipf:2", spec));
        QVERIFY_THROWS_EXCEPTION(InputError, parse_distribution("powerlaw:abc", spec));
        QVERIFY_THROWS_EXCEPTION(InputError, parse_distribution("blocks:0x", spec));
        // found by fuzz_cli_options: counts past 64 bits threw std::out_of_range (CLI exit 1)
        for (const char* big : {"lowrank:23333333333333333333333", "blocks:99999999999999999999", "blocks:4:18446744073709551616"})
            QVERIFY_THROWS_EXCEPTION(InputError, parse_distribution(big, spec));
        spec.nnz = 10;
        parse_distribution("powerlaw:1,2,3", spec);  // 3 exponents for 2 modes
        QVERIFY_THROWS_EXCEPTION(InputError, generate_tensor(spec));
        parse_distribution("blocks:1:2", spec);  // one 2x2 block holds 4 < 10
        QVERIFY_THROWS_EXCEPTION(InputError, generate_tensor(spec));
        // more blocks or components than nonzeros: refused (blocks:100000000 for 10 nonzeros held
        // 3.5 GB of origins for 20 s)
        spec.dims = {1000, 1000};
        parse_distribution("blocks:11", spec);
        QVERIFY_THROWS_EXCEPTION(InputError, generate_tensor(spec));
        parse_distribution("lowrank:11", spec);
        QVERIFY_THROWS_EXCEPTION(InputError, generate_tensor(spec));
        parse_distribution("blocks:10", spec);
        QCOMPARE(generate_tensor(spec).nnz(), std::uint64_t{10});
    }

    // lowrank's "about N nonzeros" holds on high orders: at most N, and not far under (each mode's
    // support rounded up made 3^8 = 6,561 for 1,000 over 8 modes, and 262x over 16).
    void lowRankStaysNearItsCount_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<qulonglong>("rank");
        for (int order : {3, 5, 8, 16})
            for (qulonglong rank : {1, 4}) QTest::addRow("order %d, rank %llu", order, rank) << order << rank;
    }
    void lowRankStaysNearItsCount() {
        QFETCH(int, order);
        QFETCH(qulonglong, rank);
        GeneratorSpec spec;
        spec.dims.assign(static_cast<std::size_t>(order), 100);
        spec.nnz = 1000;
        parse_distribution("lowrank:" + std::to_string(rank), spec);
        const std::uint64_t got = generate_tensor(spec).nnz();
        QVERIFY2(got <= spec.nnz && got >= spec.nnz / 3, qPrintable(QString("%1 nonzeros for 1,000").arg(got)));
    }

    // A count of 2^64 - 1 (a mode that long) reads; one past it is too large, said so.
    void countsUpTo64Bits() {
        QCOMPARE(parse_count("18446744073709551615", "--dims"), ~std::uint64_t{0});
        try {
            parse_count("18446744073709551616", "--dims");
            QFAIL("read");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("too large (at most 18446744073709551615)") != std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, parse_count("2x", "--dims"));
    }

    // An empty entry anywhere in a list is refused: getline alone would read "5,5," as {5, 5}.
    void listEntriesAreNeverEmpty() {
        QCOMPARE(parse_count_list("5,6", "--dims"), (std::vector<std::uint64_t>{5, 6}));
        for (const char* text : {"5,5,", ",5,5", "5,,5", ","}) {
            try {
                parse_count_list(text, "--dims");
                QFAIL(text);
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find("an entry is empty") != std::string::npos, e.what());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestGenerator)
#include "test_generator.moc"
