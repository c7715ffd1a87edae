// The GPU query: never throws; without a device it says why (and the suite skips).
#include "test_support.hpp"
#include "tscope/cuda/device.hpp"

class TestDeviceInfo : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void noDeviceIsANormalState() {
        const tscope::GpuInfo info = tscope::query_gpu();
        if (!info.available) {
            QVERIFY(info.reason.find("no CUDA device") != std::string::npos);
            QSKIP(("no GPU here: " + info.reason).c_str());
        }
        QVERIFY(!info.name.empty());
        QVERIFY(info.total_memory > 0);
        QVERIFY(info.cc_major >= 7);
    }
};

QTEST_APPLESS_MAIN(TestDeviceInfo)
#include "test_device_info.moc"
