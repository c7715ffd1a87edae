// Issue 26's streamed MTTKRP (`bench --stream`): the format stays in host memory and goes
// through the GPU in chunks over several streams, each chunk's kernel the resident one on the
// chunk's copy. Small chunks make many of them, so chunk edges fall inside BLCO's blocks and
// inside CSF's trees. Every mode against cpu-ref (fp32: 1e-4); the rows carry the bytes streamed
// and the host-to-device rate. Skips, saying why, where there is no GPU.
#include "test_support.hpp"
#include "tscope/bench/kernel_bench.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"

using namespace tscope;

namespace {

// Every row ran, matches cpu-ref and reports a streamed run of at least `chunks` chunks' bytes.
void check_streamed(const CooTensor& t, std::vector<FormatKind> formats, std::uint64_t rank, std::uint64_t chunk_bytes,
                    double within = 1e-4) {
    BenchRequest r;
    r.kernel = KernelKind::MTTKRP, r.backends = {Backend::Cuda}, r.formats = formats, r.rank = rank, r.repeat = 2, r.check = true;
    r.stream = true, r.streams = 3, r.chunk_bytes = chunk_bytes;
    const std::vector<BenchResult> rows = run_bench(t, r);
    QCOMPARE(rows.size(), formats.size() * std::size_t(t.order()));
    for (const BenchResult& row : rows) {
        const QString what = QString("%1 mode %2 rank %3").arg(format_name(row.format)).arg(row.mode + 1).arg(rank);
        QVERIFY2(row.ran, qPrintable(what + ": " + QString::fromStdString(row.error)));
        QVERIFY(row.streamed);
        QVERIFY2(row.max_rel_error && *row.max_rel_error <= within,
                 qPrintable(what + QString(": %1").arg(row.max_rel_error.value_or(-1))));
        QVERIFY2(row.bytes_streamed > 2 * chunk_bytes, qPrintable(what + QString(": %1 bytes").arg(row.bytes_streamed)));
        QVERIFY(row.h2d_gbps > 0);
        QVERIFY(row.h2d_share_of_bound > 0);
    }
}

}  // namespace

class TestStreamedMttkrpCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    void randomTensorsOfOrders3To5() {
        for (int order : {3, 4, 5}) {
            std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 40);
            dims[0] = 3000;
            const CooTensor t = tstest::random_tensor(dims, 30000, std::uint64_t(order), Distribution::PowerLaw);
            check_streamed(t, {FormatKind::BLCO, FormatKind::BCSF, FormatKind::COO}, 16, 16384);
        }
    }

    // BLCO with blocks (75 bits: 11 high bits per block): chunks of 4 KiB start inside blocks,
    // so a chunk's kernel must find blocks by the tensor's numbering, not the chunk's. Rank 7
    // takes the warp kernel, rank 16 the team kernel.
    void blcoBlocksAcrossChunks() {
        const CooTensor t = tstest::random_tensor({30000, 20000, 25000, 22000, 31000}, 20000, 8, Distribution::PowerLaw);
        QVERIFY(build_format(FormatKind::BLCO, t, {})->parameters().back().second != "1");  // several blocks
        for (std::uint64_t rank : {16, 7}) check_streamed(t, {FormatKind::BLCO}, rank, 4096);
    }

    // Rows that take long chains of fp32 adds (hot_rows_rule.hpp): two root rows of 150,000 to
    // 200,000 fibers each in CSF's and B-CSF's trees rooted at mode 1, rows of 250,000 to
    // 350,000 nonzeros in BLCO's and COO's mode 1, and MM-CSF's partitions. Streamed, each chunk's
    // kernel added such a row's sums into the output itself (some 10^5 fp32 adds in one place on
    // a 5-order tensor's 2-row mode); they now go into the rows' copies, kept for the whole
    // stream and summed in fp64 after its last chunk, so that every mode stays within 1e-5 of
    // cpu-ref, at rank 10 (the warp kernels) too.
    void hotRowsStayAccurate() {
        const CooTensor t = tstest::random_tensor({2, 200000, 150000}, 2000000, 31, Distribution::Uniform);
        for (std::uint64_t rank : {32, 10})
            check_streamed(t, {FormatKind::CSF, FormatKind::BCSF, FormatKind::MMCSF, FormatKind::BLCO, FormatKind::COO},
                           rank, 4 << 20, 1e-5);
    }

    void realTensors() {
        for (const char* file : {"movielens-100k.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(file);
            if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
            check_streamed(load_tensor(path).tensor, {FormatKind::BLCO, FormatKind::CSF}, 32, 65536);
        }
    }
};

QTEST_APPLESS_MAIN(TestStreamedMttkrpCuda)
#include "test_streamed_mttkrp_cuda.moc"
