// MM-CSF's partitioning on the device (engine/cuda/gpu_mmcsf_partition.cu) against the host's:
// label for label the serial pass (the paper's loop, mmcsf_partition_serial) and the host's
// blocked pass, with the same blocks, sweeps and serial rest as the host counts them, on random
// tensors of orders 3-5 (uniform and power-law, whose long fibers take many sweeps), on blocks
// small enough that some settle too little and leave their rest to the serial loop, and on the
// real tensors; and where the device has no room. A white-box suite: it includes the engine's
// private headers (see tests/CMakeLists).
#include "test_support.hpp"

#include "cuda/gpu_mmcsf_partition.hpp"
#include "kernels/csf_flatten.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/balanced_formats.hpp"
#include "tscope/io/tensor_io.hpp"

using namespace tscope;

namespace {

void same_labels(const CooTensor& t, const MmcsfPartitionOptions& o, const QString& name) {
    const gpu::DeviceCoo coo(csf_flat::host_view(t));
    MmcsfPartitionStats host_stats, device_stats;
    const std::vector<std::uint8_t> serial = mmcsf_partition_serial(t, true);
    const std::vector<std::uint8_t> host = mmcsf_partition(t, true, o, &host_stats);
    const std::vector<std::uint8_t> device = gpu::mmcsf_partition(coo, o, &device_stats);
    QVERIFY2(host == serial, qPrintable(name + ": the host's blocked pass differs from the serial one"));
    QCOMPARE(device.size(), serial.size());
    std::uint64_t differ = 0, first = serial.size();
    for (std::size_t z = 0; z < serial.size(); ++z)
        if (device[z] != serial[z]) ++differ, first = std::min<std::uint64_t>(first, z);
    QVERIFY2(differ == 0, qPrintable(QString("%1: %2 labels differ from the serial pass's, the first at nonzero %3")
                                         .arg(name)
                                         .arg(differ)
                                         .arg(first)));
    QCOMPARE(device_stats.blocks, host_stats.blocks);
    QCOMPARE(device_stats.sweeps, host_stats.sweeps);
    QCOMPARE(device_stats.serial_nonzeros, host_stats.serial_nonzeros);
}

}  // namespace

class TestMmcsfPartitionCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    void randomTensors_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("dist");
        QTest::addColumn<qulonglong>("block");
        QTest::addColumn<int>("sweeps");
        for (int order : {3, 4, 5})
            for (auto [dist, name] :
                 {std::pair{Distribution::Uniform, "uniform"}, std::pair{Distribution::PowerLaw, "power-law"}}) {
                QTest::addRow("order %d %s, one block", order, name) << order << int(dist) << qulonglong(0) << 12;
                QTest::addRow("order %d %s, blocks of 2048", order, name)
                    << order << int(dist) << qulonglong(2048) << 12;
                // one sweep a block: most blocks settle a sliver and leave the rest to the serial loop
                QTest::addRow("order %d %s, one sweep", order, name) << order << int(dist) << qulonglong(4096) << 1;
            }
    }
    void randomTensors() {
        QFETCH(int, order);
        QFETCH(int, dist);
        QFETCH(qulonglong, block);
        QFETCH(int, sweeps);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 20);
        dims[0] = 400;
        const CooTensor t =
            tstest::random_tensor(dims, 30000, 90 + std::uint64_t(order), static_cast<Distribution>(dist));
        MmcsfPartitionOptions o;
        o.block = block ? block : t.nnz();
        o.max_sweeps = sweeps;
        same_labels(t, o, QString("order %1").arg(order));
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
            MmcsfPartitionOptions small;
            small.block = 8192;
            for (const MmcsfPartitionOptions& o : {MmcsfPartitionOptions{}, small}) {
                same_labels(load_tensor(path).tensor, o, name);
                if (QTest::currentTestFailed()) return;
            }
        }
    }

    void oneNonzero() { same_labels(tstest::one_nonzero_tensor(), {}, "one nonzero"); }

    // With all but 48 MiB of the device held (the driver itself wants a little: all but 1 MiB
    // could not be held on an H200), a partition that needs about 100 MiB says so in the words the
    // CPD's build looks for (mttkrp_slots.cpp partitions on the host then), and runs once the room
    // is back.
    void outOfMemory() {
        const CooTensor t = tstest::random_tensor({4000, 200, 200}, 1500000, 5, Distribution::PowerLaw);
        const gpu::DeviceCoo coo(csf_flat::host_view(t));
        const std::uint64_t left = 48ull << 20, free = gpu_free_memory();
        QVERIFY(free > left);
        {
            const GpuReservation held(free - left);
            try {
                gpu::mmcsf_partition(coo);
                QFAIL("the partition ran in 48 MiB");
            } catch (const Error& e) {
                QVERIFY2(out_of_gpu_memory(e), e.what());
            }
        }
        QCOMPARE(gpu::mmcsf_partition(coo), mmcsf_partition_serial(t, true));
    }
};

QTEST_GUILESS_MAIN(TestMmcsfPartitionCuda)
#include "test_mmcsf_partition_cuda.moc"
