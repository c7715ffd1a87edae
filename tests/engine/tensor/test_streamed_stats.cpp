// Statistics of a .tsb read in parts: the slice figures equal those of the loaded tensor for
// any part size (parts of 7 and 997 nonzeros that split slices, one part), orders 3-5, fp32 and
// fp64; fibers are said to be left out; a damaged payload is refused by its checksum. The
// Density view's streamed counts (slices of a mode, the two-mode map, HLS's tile map) equal the
// loaded ones.
#include <QTemporaryDir>

#include "saved_tensors.hpp"
#include "test_support.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/generator.hpp"
#include "tscope/io/tsb_sample.hpp"
#include "tscope/tensor/fiber_sketch.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/nnz_split.hpp"
#include "tscope/tensor/streamed_density.hpp"
#include "tscope/tensor/streamed_stats.hpp"

using namespace tscope;

using tstest::save_backwards;
using tstest::saved_power_law;

class TestStreamedStats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Duplicate coordinates, which loading sums into fewer nonzeros: in a file in coordinate
    // order they are neighbours, and the pass refuses the file in words, also across a part's
    // edge (before, it counted both and called its figures exact); out of order they cannot
    // be ruled out, and the result says so.
    void duplicatesAreRefusedOrNotRuledOut() {
        QTemporaryDir dir;
        const std::string sorted = dir.filePath("sorted.tsb").toStdString(),
                          shuffled = dir.filePath("shuffled.tsb").toStdString();
        // (1,1,1) twice, summing to zero, then (2,2,2): loading holds one nonzero
        QVERIFY(tstest::write_file(QString::fromStdString(sorted),
                                   QByteArray::fromStdString(tstest::tsb_bytes(
                                       4, 3, {3, 3, 3}, {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}}, {1.0, -1.0, 2.0}))));
        QCOMPARE(load_tensor(sorted).tensor.nnz(), std::uint64_t{1});
        for (std::uint64_t part : {0, 1}) {
            try {
                stream_tsb_stats(sorted, part);
                QFAIL("counted");
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find("entries 0 and 1 share their coordinates") != std::string::npos,
                         e.what());
            }
        }
        QVERIFY(tstest::write_file(QString::fromStdString(shuffled),
                                   QByteArray::fromStdString(tstest::tsb_bytes(
                                       4, 3, {3, 3, 3}, {{0, 1, 0}, {0, 1, 0}, {0, 1, 0}}, {1.0, 2.0, -1.0}))));
        const StreamedStats s = stream_tsb_stats(shuffled, 2);
        QVERIFY(!s.in_order);
        const std::string ours = dir.filePath("ours.tsb").toStdString();  // every .tsb written here is in order
        save_tensor(load_tensor(shuffled).tensor, ours);
        QVERIFY(stream_tsb_stats(ours, 1).in_order);
    }

    void slicesEqualTheLoadedTensors_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<bool>("floats");
        QTest::addColumn<int>("part");
        for (int order : {3, 4, 5})
            for (int part : {7, 997, 0}) {
                QTest::newRow(qPrintable(QString("order %1, part %2, fp64").arg(order).arg(part))) << order << false << part;
                QTest::newRow(qPrintable(QString("order %1, part %2, fp32").arg(order).arg(part))) << order << true << part;
            }
    }
    void slicesEqualTheLoadedTensors() {
        QFETCH(int, order);
        QFETCH(bool, floats);
        QFETCH(int, part);
        GeneratorSpec spec;
        spec.dims.assign(static_cast<std::size_t>(order), 40);
        spec.dims[0] = 300;
        spec.nnz = part == 7 ? 3000 : 20000;
        parse_distribution("powerlaw:1.2", spec);
        if (floats) spec.values = ValueType::F32;
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.tsb").toStdString();
        save_tensor(generate_tensor(spec), path);

        const TensorStats loaded = compute_stats(load_tensor(path).tensor);
        const StreamedStats streamed = stream_tsb_stats(path, static_cast<std::uint64_t>(part));
        QCOMPARE(streamed.stats.modes.front().fibers, std::uint64_t{0});  // the slice pass counts no fibers
        QCOMPARE(streamed.nnz, spec.nnz);
        QCOMPARE(streamed.parts, part == 0 ? std::uint64_t{1} : (spec.nnz + static_cast<std::uint64_t>(part) - 1) / static_cast<std::uint64_t>(part));
        QCOMPARE(streamed.stats.density, loaded.density);
        QCOMPARE(streamed.stats.modes.size(), loaded.modes.size());
        for (std::size_t m = 0; m < loaded.modes.size(); ++m) {
            const ModeStats& a = loaded.modes[m];
            const ModeStats& b = streamed.stats.modes[m];
            QCOMPARE(b.dim, a.dim);
            QCOMPARE(b.slices, a.slices);
            QCOMPARE(b.slice_nnz.count, a.slice_nnz.count);
            QCOMPARE(b.slice_nnz.min, a.slice_nnz.min);
            QCOMPARE(b.slice_nnz.max, a.slice_nnz.max);
            QCOMPARE(b.slice_nnz.log2_histogram, a.slice_nnz.log2_histogram);
            QVERIFY(std::abs(b.slice_nnz.mean - a.slice_nnz.mean) <= 1e-12 * a.slice_nnz.mean);
            QVERIFY(std::abs(b.slice_nnz.std - a.slice_nnz.std) <= 1e-9 * (1 + a.slice_nnz.std));
            QCOMPARE(b.fibers, std::uint64_t{0});
        }
    }

    void densityEqualsTheLoadedTensors_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("part");
        for (int order : {2, 3, 4})
            for (int part : {7, 997, 0}) QTest::newRow(qPrintable(QString("order %1, part %2").arg(order).arg(part))) << order << part;
    }
    void densityEqualsTheLoadedTensors() {
        QFETCH(int, order);
        QFETCH(int, part);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 700);  // more indices than bins: several per pixel
        dims[1] = 90;
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.tsb").toStdString();
        const CooTensor t = saved_power_law(dims, 20000, "1.1", path);
        for (int mode = 0; mode < order; ++mode) {
            const int x = mode, y = (mode + 1) % order;
            const StreamedDensity s = stream_tsb_density(path, mode, x, y, 256, static_cast<std::uint64_t>(part));
            QCOMPARE(s.slice_counts, slice_counts(t, mode));
            const DensityMap want = density_map(t, x, y, 256);
            QCOMPARE(s.map.bins_x, want.bins_x);
            QCOMPARE(s.map.bins_y, want.bins_y);
            QCOMPARE(s.map.cells_x, want.cells_x);
            QCOMPARE(s.map.values, want.values);
            QCOMPARE(s.map.max_value, want.max_value);
            if (order != 3) {
                QVERIFY(!s.tiles);
                QVERIFY(s.tiles_unavailable.find("order") != std::string::npos);
            }
        }
    }

    // HLS's tile map of a .tsb read in parts, counted a block of 16 first-mode slices at a time:
    // equal to the loaded tensor's for every mode pair and part size, with parts that cut the
    // blocks; left out, saying why, where a block outgrows its bound (4 parts) or the file is not
    // in slice order.
    void tileMapEqualsTheLoadedTensors() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.tsb").toStdString();
        const CooTensor t = saved_power_law({700, 90, 500}, 20000, "1.1", path);
        for (std::uint64_t part : {997, 5000, 0})
            for (auto [x, y] : {std::pair{0, 1}, std::pair{1, 2}, std::pair{2, 0}}) {
                const StreamedDensity s = stream_tsb_density(path, 0, x, y, 256, part);
                QVERIFY2(s.tiles, s.tiles_unavailable.c_str());
                const TileMap want = hls_tile_map(t, x, y, 78, 256);
                QCOMPARE(s.tiles->tiles, want.tiles);
                QCOMPARE(s.tiles->dense_tiles, want.dense_tiles);
                QCOMPARE(s.tiles->dense_nnz, want.dense_nnz);
                QCOMPARE(s.tiles->map.bins_x, want.map.bins_x);
                QCOMPARE(s.tiles->map.values, want.map.values);
                QCOMPARE(s.tiles->map.max_value, want.map.max_value);
            }
        // parts of 7: a block of 16 slices holds hundreds of nonzeros, over the bound of 28
        const StreamedDensity small = stream_tsb_density(path, 0, 0, 1, 256, 7);
        QVERIFY(!small.tiles);
        QVERIFY(small.tiles_unavailable.find("16 slices") != std::string::npos);
        const std::string rpath = dir.filePath("r.tsb").toStdString();
        save_backwards(t, rpath);
        const StreamedDensity unordered = stream_tsb_density(rpath, 0, 0, 1, 256, 997);
        QVERIFY(!unordered.tiles);
        QVERIFY(unordered.tiles_unavailable.find("slice order") != std::string::npos);
        QCOMPARE(unordered.map.values, density_map(t, 0, 1, 256).values);  // the rest is still exact
    }

    // The fiber counts' sketch: within 4 standard errors (3.2%) of the exact counts on a tensor
    // with 10^4 - 10^5 fibers a mode, whatever the part size; a few fibers are counted exactly.
    void fiberSketchNearTheExactCounts() {
        for (int order : {3, 4}) {
            std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 300);
            dims[0] = 5000;
            QTemporaryDir dir;
            const std::string path = dir.filePath("t.tsb").toStdString();
            const CooTensor t = saved_power_law(dims, 150000, "1.0", path);
            const TensorStats exact = compute_stats(t);
            for (std::uint64_t part : {std::uint64_t{997}, std::uint64_t{0}}) {
                const FiberSketch s = sketch_tsb_fibers(path, part);
                QCOMPARE(s.fibers.size(), static_cast<std::size_t>(order));
                for (int m = 0; m < order; ++m) {
                    const double want = static_cast<double>(exact.modes[static_cast<std::size_t>(m)].fibers);
                    const double got = s.fibers[static_cast<std::size_t>(m)];
                    QVERIFY2(std::abs(got - want) <= 4 * s.relative_error * want,
                             qPrintable(QString("order %1 mode %2: %3 estimated, %4 exact").arg(order).arg(m + 1).arg(got).arg(want)));
                }
            }
        }
        GeneratorSpec small;  // 40 nonzeros: linear counting, all but exact
        small.dims = {50, 50, 50};
        small.nnz = 40;
        QTemporaryDir dir;
        const std::string path = dir.filePath("s.tsb").toStdString();
        const CooTensor t = generate_tensor(small);
        save_tensor(t, path);
        const TensorStats exact = compute_stats(t);
        const FiberSketch s = sketch_tsb_fibers(path);
        for (int m = 0; m < 3; ++m) QVERIFY(std::abs(s.fibers[static_cast<std::size_t>(m)] - static_cast<double>(exact.modes[static_cast<std::size_t>(m)].fibers)) < 0.5);
    }

    // Sketched figures stay possible: never more fibers than nonzeros nor a mean under 1 (300
    // fibers of one nonzero read "~302 fibers" of mean 0.994 on this 8-order tensor), and no
    // spread where every fiber holds one nonzero.
    void sketchedFibersStayPossible() {
        GeneratorSpec spec;
        spec.dims = {3, 1, 4, 1, 5, 9, 2, 6};
        spec.nnz = 300;
        QTemporaryDir dir;
        const std::string path = dir.filePath("o8.tsb").toStdString();
        save_tensor(generate_tensor(spec), path);
        const FiberSketch s = sketch_tsb_fibers(path, 1);
        for (std::size_t m = 0; m < s.fibers.size(); ++m) {
            if (s.exact[m]) continue;
            const QString what = QString("mode %1: %2 fibers, mean %3, std %4")
                                     .arg(m + 1)
                                     .arg(s.fibers[m])
                                     .arg(s.sampled_nnz[m].mean)
                                     .arg(s.sampled_nnz[m].std);
            QVERIFY2(s.fibers[m] >= 1 && s.fibers[m] <= 300 && s.sampled_nnz[m].mean >= 1, qPrintable(what));
            if (s.fibers[m] == 300) QVERIFY2(s.sampled_nnz[m].std == 0, qPrintable(what));
        }
    }

    // The same pass counts every mode's fibers but the first's exactly, a slice of mode 1 at a
    // time, where the file is in that slice order: counts and lengths equal the loaded tensor's,
    // orders 3-5, parts that cut slices. Not in slice order, or a slice over the bound (4 parts):
    // only the sketch, and why.
    void fibersCountedASliceAtATime() {
        for (int order : {3, 4, 5}) {
            std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 40);
            dims[0] = 3000;
            QTemporaryDir dir;
            const std::string path = dir.filePath("t.tsb").toStdString();
            const CooTensor t = saved_power_law(dims, 60000, "1.0", path);
            const TensorStats want = compute_stats(t);
            for (std::uint64_t part : {std::uint64_t{5003}, std::uint64_t{0}}) {  // 4 parts bound a slice at 20,012
                const FiberSketch s = sketch_tsb_fibers(path, part);
                QVERIFY(!s.exact[0]);
                QVERIFY2(s.not_exact_why.empty(), s.not_exact_why.c_str());
                for (int m = 1; m < order; ++m) {
                    const auto k = static_cast<std::size_t>(m);
                    QVERIFY(s.exact[k]);
                    const CountDistribution& got = s.fiber_nnz[k];
                    const CountDistribution& w = want.modes[k].fiber_nnz;
                    QCOMPARE(got.count, want.modes[k].fibers);
                    QCOMPARE(got.min, w.min);
                    QCOMPARE(got.max, w.max);
                    QCOMPARE(got.log2_histogram, w.log2_histogram);
                    QVERIFY(std::abs(got.mean - w.mean) <= 1e-12 * w.mean);
                    QVERIFY(std::abs(got.std - w.std) <= 1e-9 * (1 + w.std));
                }
            }
            // a slice of mode 1 holds ~20 nonzeros on average and up to thousands: parts of 3 bound it at 12
            const FiberSketch bounded = sketch_tsb_fibers(path, 3);
            QVERIFY(!bounded.exact[1]);
            QVERIFY(bounded.not_exact_why.find("slice of mode 1 holds more than") != std::string::npos);
            const std::string rpath = dir.filePath("r.tsb").toStdString();
            save_backwards(t, rpath);
            const FiberSketch unordered = sketch_tsb_fibers(rpath, 997);
            QVERIFY(!unordered.exact[1]);
            QVERIFY(unordered.not_exact_why.find("slice order") != std::string::npos);
        }
    }

    // Mode 1's fibers cross every slice: their lengths come from a sample of the fibers (those
    // whose hash starts with `level` zero bits, each followed over the whole pass). Against the
    // loaded tensor: the mean (nonzeros over the sketch's count) within 5%, the spread (from the
    // sketched sum of squared lengths) within 10%, the sample's longest fiber never longer than
    // the longest, the histogram adding up to the count, and B-CSF's pieces within 5% of the
    // exact sum.
    // With 400,000 fibers a thread's sample (8,192) overflows, so the level rises.
    void modeOneFiberLengthsFromASample() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.tsb").toStdString();
        const CooTensor t = saved_power_law({200, 2000, 3000}, 400000, "0.8", path);
        const TensorStats want = compute_stats(t);
        const CountDistribution& w = want.modes[0].fiber_nnz;
        const FiberSketch s = sketch_tsb_fibers(path, 50000, no_control(), 4);
        QVERIFY(!s.exact[0]);
        QVERIFY(s.sample_level[0] > 0);
        const CountDistribution& got = s.sampled_nnz[0];
        const double fibers = static_cast<double>(want.modes[0].fibers);
        QVERIFY2(std::abs(got.mean - w.mean) <= 0.05 * w.mean, qPrintable(QString("mean %1 vs %2").arg(got.mean).arg(w.mean)));
        QVERIFY2(std::abs(got.std - w.std) <= 0.1 * w.std, qPrintable(QString("std %1 vs %2").arg(got.std).arg(w.std)));
        QVERIFY(got.max <= w.max && got.min >= w.min);
        QVERIFY2(std::abs(static_cast<double>(got.count) - fibers) <= 0.05 * fibers, qPrintable(QString::number(got.count)));
        std::uint64_t binned = 0;
        for (std::uint64_t b : got.log2_histogram) binned += b;
        QVERIFY(std::abs(static_cast<double>(binned) - static_cast<double>(got.count)) <= 0.01 * static_cast<double>(got.count));
        double pieces = 0;  // B-CSF's cut at 4 nonzeros, exactly
        {
            std::vector<std::uint64_t> keys(t.nnz());
            for (std::uint64_t z = 0; z < t.nnz(); ++z) keys[z] = t.index(1, z) * 3000 + t.index(2, z);
            std::sort(keys.begin(), keys.end());
            for (std::size_t z = 0; z < keys.size();) {
                std::size_t e = z;
                while (e < keys.size() && keys[e] == keys[z]) ++e;
                pieces += static_cast<double>((e - z + 3) / 4);
                z = e;
            }
        }
        QVERIFY2(std::abs(s.split_fibers[0] - pieces) <= 0.05 * pieces, qPrintable(QString("%1 vs %2").arg(s.split_fibers[0]).arg(pieces)));
        for (int m = 1; m < 3; ++m) QCOMPARE(s.split_fibers[static_cast<std::size_t>(m)], 0.0);  // counted exactly instead
    }

    // A sample that fits: the longest prefix of slices within the budget, exactly the entries
    // of the loaded tensor in those slices.
    void sliceSampleHoldsThePrefix() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.tsb").toStdString();
        const CooTensor t = saved_power_law({500, 300, 200}, 30000, "1.0", path);
        for (int mode : {0, 2}) {
            const std::vector<std::uint64_t> counts = slice_counts(t, mode);
            const TsbSample s = read_tsb_slice_sample(path, mode, 7000);
            std::uint64_t want = 0, slices = 0;
            while (slices < counts.size() && want + counts[slices] <= 7000) want += counts[slices++];
            QCOMPARE(s.slices, slices);
            QCOMPARE(s.tensor.nnz(), want);
            QCOMPARE(s.file_nnz, t.nnz());
            QCOMPARE(s.tensor.dim(mode), slices);
            // the same entries as cutting the loaded tensor
            CooTensor cut(s.tensor.dims(), t.index_width(), t.value_type());
            cut.resize(want);
            std::uint64_t k = 0;
            for (std::uint64_t z = 0; z < t.nnz(); ++z) {
                if (t.index(mode, z) >= slices) continue;
                std::vector<std::uint64_t> c;
                for (int m = 0; m < 3; ++m) c.push_back(t.index(m, z));
                cut.set(k++, c, t.value(z));
            }
            std::string why;
            QVERIFY2(same_entries(s.tensor, cut, &why), why.c_str());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, read_tsb_slice_sample(path, 0, 1));  // the first slice alone is more
    }

    void aDamagedPayloadIsRefused() {
        GeneratorSpec spec;
        spec.dims = {50, 40, 30};
        spec.nnz = 5000;
        QTemporaryDir dir;
        const QString path = dir.filePath("t.tsb");
        save_tensor(generate_tensor(spec), path.toStdString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 at = f.size() - 100;  // inside the values
        f.seek(at);
        char c = 0;
        f.getChar(&c);
        f.seek(at);
        f.putChar(static_cast<char>(c ^ 0x10));
        f.close();
        try {
            stream_tsb_stats(path.toStdString(), 1000);
            QFAIL("a damaged file was read");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("checksum") != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestStreamedStats)
#include "test_streamed_stats.moc"
