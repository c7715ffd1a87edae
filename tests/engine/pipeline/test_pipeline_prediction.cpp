// The predicted pipeline (hocfs-sptv-pipeline Sec. 6.2 without a GPU): device figures from a
// measured run, the loaded tensor cut as pipeline_sptv cuts it, and the layout over s streams.
#include "kernels/sptv_flatten.hpp"
#include "test_support.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/pipeline/pipeline_prediction.hpp"

using namespace tscope;

namespace {

// A copy-bound device, as the H100 recordings are: 50 GB/s in, 40 GB/s out, 27 ps per entry
// (a kernel takes about a sixth of its chunk's copy-in, 8 bytes per entry).
DeviceFigures copyBound() { return {50e9, 40e9, 27e-12}; }

std::unique_ptr<SparseFormat> hocfs(const CooTensor& t, FormatKind kind = FormatKind::HOCFS_CSR) {
    const int mode = t.order() - 1;
    return build_format(kind, t, sptv_options(kind, t.order(), mode));
}

std::uint64_t sum(const std::vector<PipelineChunk>& plan, std::uint64_t PipelineChunk::*field) {
    std::uint64_t s = 0;
    for (const PipelineChunk& c : plan) s += c.*field;
    return s;
}

}  // namespace

class TestPipelinePrediction : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void figuresAreTotalsOverTheOneStreamChunks() {
        PipelineRun run;
        PipelineChunk c;
        c.bytes_in = 1000, c.bytes_out = 100, c.entries = 50;
        c.in_start = 0, c.in_end = 1e-6, c.kernel_start = 1e-6, c.kernel_end = 1.5e-6, c.out_start = 1.5e-6, c.out_end = 1.7e-6;
        run.sync_chunks = {c, c};
        run.chunks = {};  // the figures come from sync_chunks, never from an overlapped timeline
        const DeviceFigures d = device_figures(run);
        QCOMPARE(d.h2d_bytes_per_s, 1e9);
        QCOMPARE(d.d2h_bytes_per_s, 100 / 0.2e-6);
        QCOMPARE(d.kernel_s_per_entry, 0.5e-6 / 50);
        run.sync_chunks[0].bytes_in = run.sync_chunks[1].bytes_in = 0;
        QVERIFY_THROWS_EXCEPTION(InputError, device_figures(run));
    }

    // Every unit in exactly one chunk, in order; each chunk within the budget unless it holds one
    // unit alone; and no chunk could have taken its successor's first unit: that is the greedy
    // cut pipeline_sptv makes, whatever code computes it.
    void theChunksAreTheEnginesCut() {
        const CooTensor t = tstest::random_tensor({300, 80, 60}, 40000, 7);
        for (FormatKind kind : {FormatKind::HOCFS_CSR, FormatKind::HOCFS_ELL, FormatKind::CFB}) {
            const auto f = hocfs(t, kind);
            const detail::SptvUnits u = detail::sptv_units(*f);
            const std::uint64_t budget = 16 << 10;
            const std::vector<PipelineChunk> plan = pipeline_chunk_plan(*f, budget);
            QVERIFY(plan.size() > 4);
            QCOMPARE(sum(plan, &PipelineChunk::slices), std::uint64_t(u.units.size()));
            QCOMPARE(sum(plan, &PipelineChunk::entries), u.entries);
            QCOMPARE(sum(plan, &PipelineChunk::fibers), u.rows);
            std::uint64_t first = 0;  // the chunk's first unit
            for (std::size_t i = 0; i < plan.size(); ++i) {
                const PipelineChunk& c = plan[i];
                QVERIFY2(c.bytes_in <= budget || c.slices == 1, qPrintable(QString::number(i)));
                QCOMPARE(c.bytes_out, c.fibers * 4);
                first += c.slices;
                if (i + 1 < plan.size()) {  // one more unit would have passed the budget
                    const detail::Unit& next = u.units[first];
                    const std::uint64_t rows0 = first == c.slices ? 0 : u.units[first - c.slices - 1].row_end;
                    const std::uint64_t e0 = first == c.slices ? 0 : u.units[first - c.slices - 1].entry_end;
                    const bool ell = u.ell;
                    const std::uint64_t grown = (next.entry_end - e0) * 8 + (ell ? (next.row_end - rows0) * 4 + 16 * (c.slices + 2)
                                                                                 : 8 * (next.row_end - rows0 + 1));
                    QVERIFY2(grown > budget, qPrintable(QString::number(i)));
                }
            }
        }
    }

    // On a GPU the prediction's chunks are the measured run's chunks, size for size.
    void theChunksMatchALiveRun() {
        if (!query_gpu().available) QSKIP("no CUDA device: the cut is checked against its definition above");
        const CooTensor t = tstest::random_tensor({300, 80, 60}, 40000, 7);
        const auto f = hocfs(t);
        const int mode = t.order() - 1;
        const std::vector<double> v(t.dim(mode), 1.0);
        PipelineOptions o;
        o.streams = 2, o.chunk_bytes = 16 << 10;
        const PipelineReport live = pipeline_sptv(*f, mode, v, o);
        const std::vector<PipelineChunk> plan = pipeline_chunk_plan(*f, o.chunk_bytes);
        QCOMPARE(plan.size(), live.runs[0].chunks.size());
        for (std::size_t i = 0; i < plan.size(); ++i) QCOMPARE(plan[i].bytes_in, live.runs[0].chunks[i].bytes_in);
    }

    void pipeliningNeverLosesAndOneStreamIsSerial() {
        const CooTensor t = tstest::random_tensor({300, 80, 60}, 40000, 3);
        const std::vector<PipelineChunk> plan = pipeline_chunk_plan(*hocfs(t), 16 << 10);
        const PipelineRun one = predict_pipeline(plan, copyBound(), 1, 16 << 10);
        QCOMPARE(one.t_pipe, one.t_sync);
        QCOMPARE(one.t_sync, pipeline_sync_time(one.sync_chunks));  // T_s: every stage in a row
        QCOMPARE(one.chunks.size(), plan.size());
        for (int s = 2; s <= 8; ++s) {
            const PipelineRun run = predict_pipeline(plan, copyBound(), s, 16 << 10);
            QVERIFY2(run.t_pipe <= run.t_sync, qPrintable(QString::number(s)));
            QVERIFY(run.t_pipe < 0.95 * run.t_sync);  // kernels and copy-outs hide under copy-ins
            QVERIFY(run.overlap > 0);
            for (std::size_t i = 0; i < run.chunks.size(); ++i) {
                const PipelineChunk& c = run.chunks[i];
                QCOMPARE(c.stream, int(i % std::size_t(s)));
                QVERIFY(c.in_end <= c.kernel_start && c.kernel_end <= c.out_start);
                if (i >= std::size_t(s)) QVERIFY(run.chunks[i - std::size_t(s)].out_end <= c.in_start);  // its stream is free
                if (i > 0) QVERIFY(run.chunks[i - 1].kernel_end <= c.kernel_start);  // one kernel at a time
            }
        }
        // with a stream per chunk only the stage order binds; Sec. 6.2's T_p sums, per cycle, the
        // longest stage, which no in-order schedule exceeds
        const PipelineRun unlimited = predict_pipeline(plan, copyBound(), int(plan.size()), 16 << 10);
        QVERIFY(unlimited.t_pipe <= unlimited.t_model * (1 + 1e-12));
        QVERIFY_THROWS_EXCEPTION(InputError, predict_pipeline(plan, copyBound(), 0, 16 << 10));
    }

    // Stage times are linear in the chunk's bytes and entries: twice the nonzeros per chunk,
    // twice every stage, twice T_s and T_p.
    void durationsScaleWithNnz() {
        const CooTensor t = tstest::random_tensor({300, 80, 60}, 40000, 5);
        const std::vector<PipelineChunk> plan = pipeline_chunk_plan(*hocfs(t), 16 << 10);
        std::vector<PipelineChunk> twice = plan;
        for (PipelineChunk& c : twice) c.entries *= 2, c.bytes_in *= 2, c.bytes_out *= 2;
        const PipelineRun a = predict_pipeline(plan, copyBound(), 4, 16 << 10);
        const PipelineRun b = predict_pipeline(twice, copyBound(), 4, 16 << 10);
        QCOMPARE(b.t_sync, 2 * a.t_sync);
        QCOMPARE(b.t_pipe, 2 * a.t_pipe);
        for (std::size_t i = 0; i < plan.size(); ++i) {
            const PipelineChunk& c = a.chunks[i];
            QCOMPARE(c.kernel_end - c.kernel_start, double(c.entries) * copyBound().kernel_s_per_entry);
            QCOMPARE(c.in_end - c.in_start, double(c.bytes_in) / copyBound().h2d_bytes_per_s);
        }
        // and a tensor of ten times the nonzeros (same dims) takes about ten times as long
        const CooTensor big = tstest::random_tensor({300, 80, 60}, 400000, 5);
        const PipelineRun c = predict_pipeline(pipeline_chunk_plan(*hocfs(big), 16 << 10), copyBound(), 4, 16 << 10);
        QVERIFY2(c.t_sync > 5 * a.t_sync && c.t_sync < 12 * a.t_sync, qPrintable(QString::number(c.t_sync / a.t_sync)));
    }
};

QTEST_MAIN(TestPipelinePrediction)
#include "test_pipeline_prediction.moc"
