// Sizes as users write them (parse_byte_size): binary K/M/G/T and KiB..TiB, decimal kB..TB as
// the program shows sizes, and everything else refused, 2^64 bytes and more said too large.
#include "test_support.hpp"
#include "tscope/text_words.hpp"

using namespace tscope;

class TestTextWords : public QObject {
    Q_OBJECT
private slots:
    void binaryAndDecimalUnits() {
        const std::pair<const char*, std::uint64_t> cases[] = {{"65536", 65536},
                                                               {"64M", 64ull << 20},
                                                               {"1g", 1ull << 30},
                                                               {"2T", 2ull << 40},
                                                               {"64MiB", 64ull << 20},
                                                               {"3kib", 3 << 10},
                                                               {"512MB", 512000000},
                                                               {"2GB", 2000000000},
                                                               {"1kB", 1000},
                                                               {"1TB", 1000000000000},
                                                               {"7B", 7},
                                                               {"0", 0},
                                                               {"18446744073709551615", UINT64_MAX}};
        for (const auto& [text, bytes] : cases) {
            const ByteSize s = parse_byte_size(text);
            QVERIFY2(s.valid && !s.too_large, text);
            QCOMPARE(s.bytes, bytes);
        }
    }
    void otherTextIsRefused() {
        for (const char* text : {"", "M", "1.5G", "-4M", "12X", "64 M", "64MBB", "64Mi", "64iB", "1P", "0x10"})
            QVERIFY2(!parse_byte_size(text).valid, text);
    }
    void sizesPast64BitsAreTooLarge() {
        for (const char* text :
             {"18446744073709551616", "17179869184G", "16777216T", "18446744073709552KB", "99999999999999999999999"}) {
            const ByteSize s = parse_byte_size(text);
            QVERIFY2(s.valid && s.too_large && s.bytes == 0, text);
        }
        QVERIFY(!parse_byte_size("16777215T").too_large);
    }
};

QTEST_APPLESS_MAIN(TestTextWords)
#include "test_text_words.moc"
