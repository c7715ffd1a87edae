// The CUDA SpTV kernels (HOCOO, HOCSR, CFB, HOCFS-CSR, HOCFS-ELL, CSF) against the CPU oracle:
// fp32 on the device, relative error <= 1e-4. Also: a device allocation that cannot fit fails
// with a clear error and leaves the device usable. Skips, saying why, where there is no GPU.
#include "test_support.hpp"
#include "tscope/bench/kernel_bench.hpp"
#include "tscope/bench/roofline.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/sptv.hpp"

using namespace tscope;

namespace {


void check_against_oracle(const CooTensor& t) {
    for (int mode = 0; mode < t.order(); ++mode) {
        const DenseMatrix vm = random_matrix(t.dim(mode), 1, 70 + std::uint64_t(mode));
        const std::vector<double> v(vm.data.begin(), vm.data.end());
        const CooTensor ref = sptv_reference(t, mode, v);
        for (FormatKind kind : kernel_formats(KernelKind::SpTV, Backend::Cuda)) {  // the registry's
            std::unique_ptr<SparseFormat> f;
            try {
                f = build_format(kind, t, sptv_options(kind, t.order(), mode));
            } catch (const InputError&) {  // HOCSR / ELL refusing a shape too large for them
                continue;
            }
            DeviceTiming timing;
            const CooTensor out = sptv(Backend::Cuda, *f, mode, v, no_control(), &timing);
            const double err = sparse_max_relative_error(out, ref);
            QVERIFY2(err <= 1e-4, qPrintable(QString("%1 mode %2: %3").arg(format_name(kind)).arg(mode + 1).arg(err)));
            QVERIFY(timing.kernel_s > 0);
        }
    }
}

}  // namespace

class TestSptvCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    void randomTensors_data() {
        QTest::addColumn<int>("order");
        for (int order : {3, 4, 5}) QTest::addRow("order %d", order) << order;
    }
    void randomTensors() {
        QFETCH(int, order);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 12);
        dims[0] = 50;
        check_against_oracle(tstest::random_tensor(dims, 2500, std::uint64_t(order), Distribution::PowerLaw));
        check_against_oracle(tstest::random_tensor(dims, 1, 5, Distribution::Uniform));  // one nonzero
    }

    // Fibers of every length in one tensor: one of 5000 nonzeros (a long row for cuSPARSE's
    // split and HOCSR's warp), a run of single-nonzero fibers, empty slices (rows without
    // nonzeros), 7001 nonzeros in all. The cases were written for our tile kernel of 1024
    // nonzeros (session 21 replaced it by cuSPARSE), and keep its edges.
    void fibersAcrossTiles() {
        CooTensor t({40, 3, 6000});
        t.resize(7001);
        std::uint64_t z = 0;
        for (std::uint64_t k = 0; k < 5000; ++k) t.set(z++, std::vector<std::uint64_t>{7, 1, k}, 1.0 + double(k % 13) / 8);
        for (std::uint64_t q = 0; z < 7001; ++q) t.set(z++, std::vector<std::uint64_t>{8 + (q * 7) % 32, q % 3, (q * 131) % 6000}, -0.5 + double(q % 5));
        t = tstest::shuffled(t, 3);
        check_against_oracle(t);
    }

    // Fibers 1024 and 2048 nonzeros long, then 1 and 1023, and 3000: the tile kernel's edges
    // (see above).
    void fibersOnTileEdges() {
        CooTensor t({5, 1, 3100});
        const std::uint64_t lengths[] = {1024, 2048, 1, 1023, 3000};
        std::uint64_t total = 0;
        for (std::uint64_t len : lengths) total += len;
        t.resize(total);
        std::uint64_t z = 0;
        for (std::uint64_t i = 0; i < 5; ++i)
            for (std::uint64_t k = 0; k < lengths[i]; ++k) t.set(z++, std::vector<std::uint64_t>{i, 0, k}, 0.25 + double((k * 7 + i) % 11));
        check_against_oracle(tstest::shuffled(t, 4));
    }

    // The blocks of sptv_adaptive_rows.cuh at their edges: fibers of 255-257 nonzeros (a warp's
    // block of short rows holds 256), 1023-1025 and 2048-2049 (a long row's pieces of 1024), a
    // run of 300 one-nonzero fibers (a block holds 256 rows at most), short fibers between, and
    // four of 33-60 in one block of short rows (each summed by the warp where the vector is small).
    // With a third dimension of 20,003 (an 80 KB vector: blocks of 1,024, their nonzeros loaded in
    // 16-byte groups from each block's first nonzero rounded down to a multiple of 4) the same
    // fibers start at every offset modulo 4, at the groups' edges.
    void adaptiveBlockEdges() {
        adaptiveBlockEdgesOf(2100);
        adaptiveBlockEdgesOf(20003);
    }
    void adaptiveBlockEdgesOf(std::uint64_t dim) {
        const std::uint64_t lengths[] = {255, 1, 256, 257, 3, 1023, 1024, 1025, 2, 2048, 2049, 7, 256, 40, 50, 60, 33};
        std::uint64_t total = 300;
        for (std::uint64_t len : lengths) total += len;
        CooTensor t({20, 300, dim});
        t.resize(total);
        std::uint64_t z = 0;
        for (std::uint64_t i = 0; i < 17; ++i)
            for (std::uint64_t k = 0; k < lengths[i]; ++k)
                t.set(z++, std::vector<std::uint64_t>{i, 0, (k * 17 + i) % dim}, 0.25 + double((k * 5 + i) % 13) / 4);
        for (std::uint64_t q = 0; z < total; ++q)
            t.set(z++, std::vector<std::uint64_t>{17, q, q % dim}, 1.0 - double(q % 3));
        check_against_oracle(tstest::shuffled(t, 9));
    }

    // HOCSR keeps a row for every index tuple: 500 nonzeros over 300 x 300 rows leave most of
    // its 88 blocks of 1024 rows empty, and the outputs are packed across them.
    void manyEmptyRows() { check_against_oracle(tstest::random_tensor({300, 300, 50}, 500, 21, Distribution::Uniform)); }

    // HOCSR's long rows (more than 32 nonzeros) are summed by their warp: four in one warp's
    // step (rows 5, 45, 85 and 125 of mode 3's 24,000, a thread's second row each), one in a
    // middle block and one in the last, among short rows and empty ones.
    void hocsrLongRows() {
        CooTensor t({600, 40, 300});
        const std::uint64_t long_i[] = {0, 1, 2, 3, 300, 599}, long_len[] = {33, 80, 299, 64, 100, 41};
        std::uint64_t total = 2000;
        for (std::uint64_t len : long_len) total += len;
        t.resize(total);
        std::uint64_t z = 0;
        for (int f = 0; f < 6; ++f)
            for (std::uint64_t k = 0; k < long_len[f]; ++k) t.set(z++, std::vector<std::uint64_t>{long_i[f], 5, k}, 0.5 + double((k * 3 + f) % 7));
        for (std::uint64_t q = 0; z < total; ++q)
            t.set(z++, std::vector<std::uint64_t>{(q * 37) % 600, 6 + q % 34, (q * 101) % 300}, -1.0 + double(q % 9) / 4);
        check_against_oracle(tstest::shuffled(t, 6));
    }

    // HOCSR's very long rows (each summed by its warp, sptv_tuples.cuh): rows of 4097, 8192,
    // 12289 and 30000 nonzeros, one in a warp with a 40-nonzero row, among short rows.
    void hocsrVeryLongRows() {
        CooTensor t({200, 30, 30001});
        const std::uint64_t long_i[] = {3, 4, 5, 150, 199}, long_len[] = {4097, 8192, 40, 12289, 30000};
        std::uint64_t total = 3000;
        for (std::uint64_t len : long_len) total += len;
        t.resize(total);
        std::uint64_t z = 0;
        for (int f = 0; f < 5; ++f)
            for (std::uint64_t k = 0; k < long_len[f]; ++k) t.set(z++, std::vector<std::uint64_t>{long_i[f], 2, k}, 0.5 + double((k * 5 + f) % 9) / 3);
        for (std::uint64_t q = 0; z < total; ++q)
            t.set(z++, std::vector<std::uint64_t>{(q * 41) % 200, 3 + q % 27, (q * 97) % 30001}, -1.0 + double(q % 7) / 3);
        check_against_oracle(tstest::shuffled(t, 8));
    }

    // The CSR-shaped formats run either cuSPARSE's SpMV, one of our two kernels with the vector
    // in shared memory (where every row is short and the vector fits; a thread per 4 rows or per
    // row by the vector's size) or the blocks of rows of every length (sptv_adaptive_rows.cuh,
    // where the vector fits in shared memory: blocks of 512 threads up to 64 KB, as in the
    // tensor of dims 301 x 77 x 5003, of 1,024 above, as in mode 3 of 300 x 200 x 20003);
    // TENSORSCOPE_SPTV_ROWS forces cuSPARSE or ours, "shared" even for long rows, "adaptive" even
    // for short ones. Each, on short rows, on long ones, on row counts that are no multiple of 4 (the
    // 4-row steps), on the real tensors, against the oracle.
    // split: how blocks of 1,024 sum rows over 32 nonzeros (TENSORSCOPE_SPTV_WIDE_SPLIT: chosen
    // by their share, 1 the warp, 0 a lane).
    void csrProductsAgree_data() {
        QTest::addColumn<QByteArray>("how");
        QTest::addColumn<QByteArray>("split");
        for (const char* how : {"", "cusparse", "shared", "adaptive"})
            QTest::addRow("%s", *how ? how : "chosen") << QByteArray(how) << QByteArray();
        QTest::addRow("adaptive, warp sums") << QByteArray("adaptive") << QByteArray("1");
        QTest::addRow("adaptive, lane sums") << QByteArray("adaptive") << QByteArray("0");
    }
    void csrProductsAgree() {
        QFETCH(QByteArray, how);
        QFETCH(QByteArray, split);
        // an empty value reads as unset (env_is): the product chosen, the sums by their share
        const tstest::ScopedEnv rows("TENSORSCOPE_SPTV_ROWS", how), sums("TENSORSCOPE_SPTV_WIDE_SPLIT", split);
        adaptiveBlockEdges();
        fibersOnTileEdges();
        check_against_oracle(tstest::random_tensor({301, 77, 5003}, 20000, 31, Distribution::Uniform));
        // mode 3's vector of 80 KB takes the adaptive blocks (the thread-per-row kernel where forced), the others the 4-row one
        check_against_oracle(tstest::random_tensor({300, 200, 20003}, 30000, 33, Distribution::Uniform));
        // power-law fibers (rows of every length) under an 80 KB vector, and an odd vector length
        check_against_oracle(tstest::random_tensor({40, 30, 20003}, 40000, 34, Distribution::PowerLaw));
        check_against_oracle(tstest::random_tensor({40, 30, 17001}, 30000, 35, Distribution::PowerLaw));
        check_against_oracle(tstest::random_tensor({33, 7, 2001}, 9000, 32, Distribution::PowerLaw));
        for (const char* name : {"movielens-100k.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (!path.empty()) check_against_oracle(load_tensor(path).tensor);
        }
    }

    // The bench's bytes for a cuda row: the format with fp32 values (as the device holds it),
    // the vector's distinct entries and one fp32 value per fiber written (the host lays out the
    // fibers' coordinates).
    void benchCountsDeviceBytes() {
        const CooTensor t = tstest::random_tensor({50, 600, 80}, 3000, 12);
        BenchRequest req;
        req.kernel = KernelKind::SpTV;
        req.formats = {FormatKind::CSF};
        req.backends = {Backend::Cuda};
        req.modes = {1};
        req.repeat = 1;
        const auto rows = run_bench(t, req);
        QCOMPARE(rows.size(), std::size_t{1});
        const BenchResult& r = rows.front();
        QVERIFY2(r.ran, r.error.c_str());
        const StorageReport storage = build_format(FormatKind::CSF, t, sptv_options(FormatKind::CSF, 3, 1))->storage();
        const std::uint64_t format = storage.bytes() - t.nnz() * (sizeof(double) - sizeof(float));
        const CooTensor out = sptv_reference(t, 1, std::vector<double>(t.dim(1), 1.0));
        QCOMPARE(r.bytes_moved, format + distinct_indices(t, 1) * sizeof(float) + out.nnz() * sizeof(float));
    }

    // A cuda plan keeps the format on the device: each compute with a new vector (and one seen
    // before) gives the oracle's values, in the layout prepared once; a vector of the wrong
    // length is refused, and a taken result ends the plan.
    void planReusesTheDevice() {
        const CooTensor t = tstest::random_tensor({30, 20, 25}, 700, 5, Distribution::PowerLaw);
        for (FormatKind kind : kernel_formats(KernelKind::SpTV, Backend::Cuda)) {
            const auto f = build_format(kind, t, sptv_options(kind, 3, 1));
            SptvPlan plan = SptvPlan::prepare(*f, 1, Backend::Cuda);
            QCOMPARE(plan.bytes_per_compute(), std::uint64_t{0});
            for (std::uint64_t seed : {3, 4, 3}) {
                const DenseMatrix vm = random_matrix(20, 1, seed);
                const std::vector<double> v(vm.data.begin(), vm.data.end());
                DeviceTiming timing;
                plan.compute(v, no_control(), &timing);
                const double err = sparse_max_relative_error(plan.result(), sptv_reference(t, 1, v));
                QVERIFY2(err <= 1e-4, qPrintable(QString("%1 seed %2: error %3").arg(format_name(kind)).arg(seed).arg(err)));
                QVERIFY(timing.kernel_s > 0);
            }
            QVERIFY_THROWS_EXCEPTION(InputError, plan.compute(std::vector<double>(21, 1.0)));
            QVERIFY(plan.take_result().nnz() > 0);
            QVERIFY_THROWS_EXCEPTION(Error, plan.compute(std::vector<double>(20, 1.0)));
        }
    }

    // Each plan replays its product as one CUDA graph captured when it was prepared (HOCSR in
    // both passes, the packed vector's gather with it, HOCFS-ELL's kernel, the shared-vector and
    // cuSPARSE products), and gives the oracle's values from the replays, again with a new vector;
    // with TENSORSCOPE_GRAPHS=0 it launches the same kernels one by one, to the same values.
    void plansReplayAGraph_data() {
        QTest::addColumn<QByteArray>("graphs");
        QTest::addRow("captured") << QByteArray();
        QTest::addRow("launched one by one") << QByteArray("0");
    }
    void plansReplayAGraph() {
        QFETCH(QByteArray, graphs);
        const tstest::ScopedEnv env("TENSORSCOPE_GRAPHS", graphs.constData());
        const tstest::ScopedEnv hot("TENSORSCOPE_SPTV_HOT", "1"), cap("TENSORSCOPE_SPTV_HOT_BYTES", "");
        const CooTensor t = tstest::random_tensor({40, 30, 2000}, 6000, 17, Distribution::PowerLaw);
        for (const char* pass : {"kept", "one-pass"})
            for (const char* rows : {"", "cusparse", "adaptive"}) {
                const tstest::ScopedEnv hocsr("TENSORSCOPE_HOCSR", pass), product("TENSORSCOPE_SPTV_ROWS", rows);
                for (FormatKind kind : kernel_formats(KernelKind::SpTV, Backend::Cuda)) {
                    std::unique_ptr<SparseFormat> f;
                    try {
                        f = build_format(kind, t, sptv_options(kind, 3, 2));
                    } catch (const InputError&) {  // HOCFS-ELL refusing its padding
                        QCOMPARE(kind, FormatKind::HOCFS_ELL);
                        continue;
                    }
                    SptvPlan plan = SptvPlan::prepare(*f, 2, Backend::Cuda);
                    const QString what =
                        QString("%1 (%2, %3)").arg(format_name(kind)).arg(pass).arg(*rows ? rows : "chosen");
                    QVERIFY2(plan.replays_graph() == graphs.isEmpty(), qPrintable(what));
                    for (std::uint64_t seed : {21, 22}) {
                        const DenseMatrix vm = random_matrix(2000, 1, seed);
                        const std::vector<double> v(vm.data.begin(), vm.data.end());
                        plan.compute(v);
                        const double err = sparse_max_relative_error(plan.result(), sptv_reference(t, 2, v));
                        QVERIFY2(err <= 1e-4, qPrintable(QString("%1 seed %2: error %3").arg(what).arg(seed).arg(err)));
                    }
                }
            }
    }

    // HOCSR in either pass: two (the default, TENSORSCOPE_HOCSR=kept here, where the kept rows' CSR
    // fits 32 bits: its non-empty rows kept by the plan's blocks, then their CSR's product, by
    // cuSPARSE or our kernels as TENSORSCOPE_SPTV_ROWS picks; by default, for vectors up to 64 KB,
    // the adaptive rows reading the kept offsets' low 16 bits (8 in blocks of 1,024, or 16 there too
    // where TENSORSCOPE_HOCSR_KEEP8=0), or all 32 where TENSORSCOPE_HOCSR_LOW16=0) or one
    // (=one-pass: a thread a row).
    // On the tensors of the cases above, random ones of order 3-5, one of 200,000 nonzeros (offsets
    // past 16 bits) and the shared ones: the same results as the oracle.
    void hocsrEitherPass_data() {
        QTest::addColumn<QByteArray>("pass");
        QTest::addColumn<QByteArray>("how");
        QTest::addColumn<QByteArray>("low16");
        QTest::addColumn<QByteArray>("keep8");
        const QByteArray none;
        for (const char* how : {"", "cusparse", "shared", "adaptive"})
            QTest::addRow("kept, %s", *how ? how : "chosen") << QByteArray("kept") << QByteArray(how) << none << none;
        QTest::addRow("kept, adaptive, 32-bit offsets")
            << QByteArray("kept") << QByteArray("adaptive") << QByteArray("0") << none;
        QTest::addRow("kept, adaptive, 16-bit offsets in blocks of 1,024")
            << QByteArray("kept") << QByteArray("adaptive") << none << QByteArray("0");
        QTest::addRow("one pass") << QByteArray("one-pass") << none << none << none;
    }
    void hocsrEitherPass() {
        QFETCH(QByteArray, pass);
        QFETCH(QByteArray, how);
        QFETCH(QByteArray, low16);
        QFETCH(QByteArray, keep8);
        const tstest::ScopedEnv kept("TENSORSCOPE_HOCSR", pass), width("TENSORSCOPE_HOCSR_LOW16", low16),
            bytes("TENSORSCOPE_HOCSR_KEEP8", keep8), rows("TENSORSCOPE_SPTV_ROWS", how);
        manyEmptyRows();
        adaptiveBlockEdges();
        hocsrLongRows();
        hocsrVeryLongRows();
        fibersAcrossTiles();
        fibersOnTileEdges();
        for (int order : {3, 4, 5}) {
            std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 12);
            dims[0] = 50;
            check_against_oracle(tstest::random_tensor(dims, 2500, std::uint64_t(order + 40), Distribution::PowerLaw));
        }
        // nearly every index tuple holding nonzeros, so that the first pass's blocks keep whole
        // groups of 1,024 rows (sptv_kept_rows.cuh gathers a block's kept offsets in shared memory)
        check_against_oracle(tstest::random_tensor({64, 64, 16}, 60000, 45, Distribution::Uniform));
        // over 2^16 nonzeros, so that runs of short rows straddle offsets' 16-bit wraps (low16)
        check_against_oracle(tstest::random_tensor({300, 300, 500}, 200000, 46, Distribution::Uniform));
        // mode 3's kept rows under three nonzeros each and an 80 KB vector: the low 16 bits in
        // the adaptive rows' blocks of 1,024, over 2^16 nonzeros
        check_against_oracle(tstest::random_tensor({300, 200, 20003}, 100000, 47, Distribution::Uniform));
        for (const char* name : {"movielens-100k.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (!path.empty()) check_against_oracle(load_tensor(path).tensor);
        }
    }

    // HOCFS-ELL's fibers past 32 entries are summed by their warp, several long ones in a warp
    // (tstest::long_fibers_tensor: lengths 1, 2, 31, 32 and 33 among them; a thread loads four
    // entries at a time, so 1, 2 and 33 end inside a load).
    void ellLongFibers() {
        const CooTensor t = tstest::long_fibers_tensor();
        const auto f = build_format(FormatKind::HOCFS_ELL, t, sptv_options(FormatKind::HOCFS_ELL, 3, 2));
        const DenseMatrix vm = random_matrix(t.dim(2), 1, 72);
        const std::vector<double> v(vm.data.begin(), vm.data.end());
        const double err = sparse_max_relative_error(sptv(Backend::Cuda, *f, 2, v, no_control()), sptv_reference(t, 2, v));
        QVERIFY2(err <= 1e-4, qPrintable(QString("error %1").arg(err)));
        check_against_oracle(t);
    }

    // The products with the vector's much-read entries packed ahead of it (TENSORSCOPE_SPTV_HOT=1,
    // sptv_hot_columns.cuh), by cuSPARSE or (TENSORSCOPE_SPTV_ROWS=through-l1) by the adaptive rows
    // reading the vector through L1: the same results with every entry read twice packed or a
    // 64-byte cap's 16 (hot and cold columns in one row), on power-law columns (many ties and a
    // few much read), on a vector longer than a block's shared memory, on one whose every entry is
    // read once (nothing packed), and on the real tensors.
    void hotColumnsKeepTheResult_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArray>("rows");
        for (const char* rows : {"cusparse", "through-l1"}) {
            QTest::addRow("all read twice, %s", rows) << QByteArray("1000000000") << QByteArray(rows);
            QTest::addRow("16 packed, %s", rows) << QByteArray("64") << QByteArray(rows);
        }
    }
    void hotColumnsKeepTheResult() {
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArray, rows);
        const tstest::ScopedEnv hot("TENSORSCOPE_SPTV_HOT", "1"), cap("TENSORSCOPE_SPTV_HOT_BYTES", bytes);
        const tstest::ScopedEnv library("TENSORSCOPE_SPTV_ROWS", rows);
        check_against_oracle(tstest::random_tensor({50, 12, 12, 12}, 2500, 44, Distribution::PowerLaw));
        check_against_oracle(tstest::random_tensor({40, 30, 90000}, 30000, 45, Distribution::PowerLaw));
        CooTensor once({30, 20, 600});  // each of mode 3's indices read once
        once.resize(600);
        for (std::uint64_t k = 0; k < 600; ++k)
            once.set(k, std::vector<std::uint64_t>{k % 30, (k * 7) % 20, k}, 0.5 + double(k % 9));
        check_against_oracle(tstest::shuffled(once, 5));
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (!path.empty()) check_against_oracle(load_tensor(path).tensor);
        }
    }

    // The adaptive rows reading the vector through L1, by default (a vector no block's shared
    // memory holds and L2 does) and forced (TENSORSCOPE_SPTV_ROWS=through-l1), unpacked: vectors of
    // 360 KB, power-law columns with long rows and uniform ones, an odd length.
    void rowsThroughL1() {
        for (const char* rows : {"", "through-l1"}) {
            const tstest::ScopedEnv hot("TENSORSCOPE_SPTV_HOT", "0"), library("TENSORSCOPE_SPTV_ROWS", rows);
            check_against_oracle(tstest::random_tensor({40, 30, 90000}, 30000, 45, Distribution::PowerLaw));
            check_against_oracle(tstest::random_tensor({60, 50, 90001}, 40000, 48, Distribution::Uniform));
        }
    }

    // A vector twice the GPU's L2 has its much-read entries packed ahead of it by default: the
    // plan says how many, and every format agrees with the oracle. A vector L2 holds, and the
    // large one with TENSORSCOPE_SPTV_HOT=0, are not packed.
    void largeVectorByDefault() {
        const tstest::ScopedEnv hot("TENSORSCOPE_SPTV_HOT", ""), cap("TENSORSCOPE_SPTV_HOT_BYTES", "");
        const std::uint64_t l2 = query_gpu().l2_bytes;
        QVERIFY(l2 > 0);
        // mode 3: 2 x L2; the other modes' products over 2^29 index tuples, which HOCSR refuses
        const CooTensor t = tstest::random_tensor({3000, 2000, l2 / 2}, 200000, 46, Distribution::PowerLaw);
        auto packed = [&](int mode) {
            const auto f = build_format(FormatKind::COO, t, sptv_options(FormatKind::COO, t.order(), mode));
            return SptvPlan::prepare(*f, mode, Backend::Cuda).vector_packed();
        };
        QVERIFY(packed(2) > 0);
        QCOMPARE(packed(0), std::uint64_t{0});
        {
            const tstest::ScopedEnv off("TENSORSCOPE_SPTV_HOT", "0");
            QCOMPARE(packed(2), std::uint64_t{0});
        }
        check_against_oracle(t);
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent: skipped");
            check_against_oracle(load_tensor(path).tensor);
        }
    }

    void outOfMemoryLeavesTheDeviceUsable() {
        const std::uint64_t too_much = std::uint64_t{1} << 52;  // 4 PB
        try {
            gpu_try_allocate(too_much);
            QFAIL("a 4 PB device allocation succeeded");
        } catch (const Error& e) {
            QVERIFY2(out_of_gpu_memory(e), e.what());
        }
        const std::uint64_t free_after = gpu_free_memory();
        QVERIFY(free_after > 0);
        check_against_oracle(tstest::random_tensor({20, 20, 20}, 500, 9, Distribution::Uniform));
    }
};

QTEST_APPLESS_MAIN(TestSptvCuda)
#include "test_sptv_cuda.moc"
