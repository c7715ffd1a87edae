// Pipelined SpTV on the GPU (hocfs-sptv-pipeline Sec. 6.2): the streamed result equals the
// CPU oracle for HOCFS-CSR, HOCFS-ELL and CFB over 1-8 streams and many chunk sizes; the
// timeline is causal; a tensor larger than the free device memory streams through while the
// one-shot kernel refuses it. Skips, saying why, where there is no GPU.
#include "test_support.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/pipeline/pipeline_sptv.hpp"

using namespace tscope;

namespace {

const FormatKind kKinds[] = {FormatKind::HOCFS_CSR, FormatKind::HOCFS_ELL, FormatKind::CFB};

std::vector<double> vector_for(const CooTensor& t, int mode) {
    const DenseMatrix vm = random_matrix(t.dim(mode), 1, 40 + std::uint64_t(mode));
    return {vm.data.begin(), vm.data.end()};
}

void check_runs(const PipelineReport& r, const char* what) {
    for (const PipelineRun& run : r.runs) {
        std::uint64_t fibers = 0, entries = 0;
        for (std::size_t i = 0; i < run.chunks.size(); ++i) {
            const PipelineChunk& c = run.chunks[i];
            fibers += c.fibers, entries += c.entries;
            // each chunk's stages follow one another, and each stage follows the chunk before's
            QVERIFY2(c.in_start <= c.in_end && c.in_end <= c.kernel_start && c.kernel_end <= c.out_start, what);
            if (i) QVERIFY2(run.chunks[i - 1].in_end <= c.in_start + 1e-6, what);
            QCOMPARE(c.stream, static_cast<int>(i % static_cast<std::size_t>(run.streams)));
        }
        QCOMPARE(fibers, r.fibers);
        QCOMPARE(entries, r.nnz);
        QVERIFY2(run.t_pipe > 0 && run.t_sync > 0 && run.t_model > 0, what);
        QVERIFY2(run.overlap >= 0 && run.overlap <= 1, what);
    }
}

void check_against_oracle(const CooTensor& t, std::uint64_t chunk_bytes) {
    for (int mode = 0; mode < t.order(); ++mode) {
        const std::vector<double> v = vector_for(t, mode);
        const CooTensor ref = sptv_reference(t, mode, v);
        for (FormatKind kind : kKinds) {
            std::unique_ptr<SparseFormat> f;
            try {
                f = build_format(kind, t, sptv_options(kind, t.order(), mode));
            } catch (const InputError&) {  // ELL refusing a padding blow-up
                continue;
            }
            for (int streams : {1, 3, 8}) {
                PipelineOptions o;
                o.streams = streams;
                o.chunk_bytes = chunk_bytes;
                const PipelineReport r = pipeline_sptv(*f, mode, v, o);
                const QString what = QString("%1 mode %2, %3 streams").arg(format_name(kind)).arg(mode + 1).arg(streams);
                const double err = sparse_max_relative_error(r.result, ref);
                QVERIFY2(err <= 1e-4, qPrintable(what + QString(": error %1").arg(err)));
                check_runs(r, qPrintable(what));
            }
        }
    }
}

}  // namespace

class TestPipelineCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    void randomTensors_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<qulonglong>("chunkBytes");
        for (int order : {3, 4, 5})
            for (qulonglong bytes : {qulonglong(1), qulonglong(4096), qulonglong(64) << 20})
                QTest::addRow("order %d, chunks of %llu B", order, bytes) << order << bytes;
    }
    void randomTensors() {
        QFETCH(int, order);
        QFETCH(qulonglong, chunkBytes);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 14);
        dims[0] = 60;
        check_against_oracle(tstest::random_tensor(dims, 3000, std::uint64_t(order), Distribution::PowerLaw), chunkBytes);
        check_against_oracle(tstest::random_tensor(dims, 1, 5, Distribution::Uniform), chunkBytes);  // one nonzero
    }

    // Long fibers, several in a warp (the kernel's warp sums them), in chunks of a slice or two
    // and in one.
    void longFibers() {
        for (qulonglong bytes : {qulonglong(1), qulonglong(64) << 20}) check_against_oracle(tstest::long_fibers_tensor(), bytes);
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent: skipped");
            check_against_oracle(load_tensor(path).tensor, 256 << 10);
        }
    }

    void autoSweepsAndKeepsTheFastest() {
        const CooTensor t = tstest::random_tensor({300, 200, 100}, 50000, 3, Distribution::PowerLaw);
        const auto f = build_format(FormatKind::HOCFS_CSR, t, sptv_options(FormatKind::HOCFS_CSR, 3, 2));
        PipelineOptions o;
        o.streams = 0, o.chunk_bytes = 0;
        const PipelineReport r = pipeline_sptv(*f, 2, vector_for(t, 2), o);
        QCOMPARE(r.runs.size(), pipeline_sweep_settings().size());
        for (const PipelineRun& run : r.runs) QVERIFY(r.runs[r.best].t_pipe <= run.t_pipe);
        QVERIFY(sparse_max_relative_error(r.result, sptv_reference(t, 2, vector_for(t, 2))) <= 1e-4);
    }

    // Issue 6: a tensor larger than the free device memory still runs, in chunks; the
    // one-shot kernel refuses it with a clear message. Other users of the GPU are played by a
    // reservation that leaves less free memory than the tensor needs.
    void largerThanFreeMemoryStreamsThrough() {
        const CooTensor t = tstest::random_tensor({2000, 1500, 1000}, 3'000'000, 8, Distribution::Uniform);
        const int mode = 2;
        const auto f = build_format(FormatKind::HOCFS_CSR, t, sptv_options(FormatKind::HOCFS_CSR, 3, mode));
        const std::vector<double> v = vector_for(t, mode);
        PipelineOptions probe_options;
        probe_options.streams = 2, probe_options.chunk_bytes = 1 << 20;
        const std::uint64_t needed = pipeline_sptv(*f, mode, v, probe_options).one_shot_bytes;
        const std::uint64_t free_now = gpu_free_memory();
        QVERIFY(free_now > needed);
        const std::uint64_t reserve = free_now - needed / 2;  // leaves about half of what one shot needs
        {
            GpuReservation others(reserve);
            try {
                sptv(Backend::Cuda, *f, mode, v);
                QFAIL("the one-shot SpTV ran in less free memory than it needs");
            } catch (const Error& e) {
                QVERIFY2(out_of_gpu_memory(e), e.what());
                QVERIFY2(std::string(e.what()).find("pipeline") != std::string::npos, e.what());
            }
            const PipelineReport r = pipeline_sptv(*f, mode, v, probe_options);
            QVERIFY2(r.gpu_free_bytes * 3 / 2 <= r.one_shot_bytes,  // at least 1.5x the free memory
                     qPrintable(QString("free %1, tensor %2").arg(r.gpu_free_bytes).arg(r.one_shot_bytes)));
            QVERIFY(sparse_max_relative_error(r.result, sptv(Backend::Omp, *f, mode, v)) <= 1e-4);
            check_runs(r, "larger than free memory");
        }
        QVERIFY(gpu_free_memory() > needed);  // the reservation went with its scope
    }

    void refusesOtherFormats() {
        const CooTensor t = tstest::random_tensor({10, 10, 10}, 100, 1);
        const auto f = build_format(FormatKind::CSF, t, sptv_options(FormatKind::CSF, 3, 0));
        QVERIFY_THROWS_EXCEPTION(InputError, pipeline_sptv(*f, 0, vector_for(t, 0), PipelineOptions{}));
    }
};

QTEST_APPLESS_MAIN(TestPipelineCuda)
#include "test_pipeline_cuda.moc"
