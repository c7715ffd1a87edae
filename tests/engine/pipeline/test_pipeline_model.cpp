// The pipeline's time model (hocfs-sptv-pipeline Sec. 6.2's T_s and T_p equations) and the
// overlap measure, on hand-made timelines: no GPU needed.
#include "test_support.hpp"
#include "tscope/pipeline/pipeline_sptv.hpp"

using namespace tscope;

namespace {

// A chunk whose stages last a, b and c seconds (placed back to back from `at`).
PipelineChunk stages(double a, double b, double c, double at = 0) {
    PipelineChunk s;
    s.in_start = at, s.in_end = at + a;
    s.kernel_start = s.in_end, s.kernel_end = s.kernel_start + b;
    s.out_start = s.kernel_end, s.out_end = s.out_start + c;
    return s;
}

}  // namespace

class TestPipelineModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void syncTimeIsTheSumOfEveryStage() {
        QCOMPARE(pipeline_sync_time({stages(1, 2, 3), stages(4, 5, 6)}), 21.0);
        QCOMPARE(pipeline_sync_time({}), 0.0);
    }

    void modelOfOneChunkHasNothingToOverlap() { QCOMPARE(pipeline_model_time({stages(1, 2, 3)}), 6.0); }

    void modelOfTwoChunks() {
        // dt1_1 + max{dt1_2, dt2_1} + max{dt3_1, dt2_2} + dt3_2 = 1 + max(4,2) + max(3,5) + 6
        QCOMPARE(pipeline_model_time({stages(1, 2, 3), stages(4, 5, 6)}), 16.0);
    }

    void modelOfEqualChunksIsFillPlusSteadyStatePlusDrain() {
        // k equal chunks (a, b, c), a the largest: a + a + (k-2) a + max(c, b) + c
        std::vector<PipelineChunk> c(10, stages(3, 1, 0.5));
        QCOMPARE(pipeline_model_time(c), 3 + 3 + 8 * 3 + 1 + 0.5);
        // transfer-bound: T_p approaches the copy-in time alone, far below T_s
        QVERIFY(pipeline_model_time(c) < pipeline_sync_time(c));
    }

    void modelTakesTheSlowestStageOfEachCycle() {
        // cycle i: max{dt1_{i+2}, dt2_{i+1}, dt3_i}; here the kernel of chunk 2 (9) dominates
        const std::vector<PipelineChunk> c = {stages(1, 1, 1), stages(1, 9, 1), stages(1, 1, 1)};
        QCOMPARE(pipeline_model_time(c), 1 + 1 + 9 + std::max(1.0, 1.0) + 1);
    }

    void overlapIsTheCopyTimeUnderKernels() {
        // chunk A's kernel runs [1, 3) while chunk B copies in over [1, 2): B's copy-in is hidden
        PipelineChunk a = stages(1, 2, 1, 0);  // in [0,1) kernel [1,3) out [3,4)
        PipelineChunk b;
        b.in_start = 1, b.in_end = 2, b.kernel_start = 3, b.kernel_end = 4, b.out_start = 4, b.out_end = 5;
        // copies: a.in 1 + a.out 1 + b.in 1 + b.out 1 = 4 s; hidden: b.in (1 s) and a.out under b's kernel [3,4) (1 s)
        QCOMPARE(pipeline_overlap({a, b}), 0.5);
        // the same chunks one after another hide nothing
        QCOMPARE(pipeline_overlap({stages(1, 2, 1, 0), stages(1, 1, 1, 4)}), 0.0);
        // kernels last 3 s, copies 4 s: at most 3 s could hide, 2 s did
        QCOMPARE(pipeline_overlap_of_possible({a, b}), 2.0 / 3.0);
    }

    void sweepCoversThePapersStreamCounts() {
        bool three = false, five = false;
        for (const auto& [s, bytes] : pipeline_sweep_settings()) {
            QVERIFY(s >= 1 && s <= 8 && bytes > 0);
            three |= s == 3, five |= s == 5;
        }
        QVERIFY(three && five);  // "3-5 streams" (Sec. 7)
    }
};

QTEST_APPLESS_MAIN(TestPipelineModel)
#include "test_pipeline_model.moc"
