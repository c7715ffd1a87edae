/* A stand-in for ICU's data library (libicudata.so.72, 31 MB, 7.5 MB of a GPU bundle once
 * compressed) for the GPU machine's bundles: ICU's common-data header with no entries, as ICU's
 * own "stubdata" build gives, so that QtCore (which the CLI links) loads and any ICU lookup
 * reports its data missing. The CLI's device work (generate, convert, reorder, bench, the test
 * suites) reads and writes UTF-8 and ASCII, which Qt handles without ICU.
 * Built by make_bundle.sh --icu-stub; never for timings of ICU-dependent work (there is none). */
#include <stdint.h>

struct IcuDataInfo {
    uint16_t size, reserved_word;
    uint8_t is_big_endian, charset_family, sizeof_uchar, reserved_byte;
    uint8_t data_format[4], format_version[4], data_version[4];
};

struct IcuCommonData {
    uint16_t header_size;
    uint8_t magic1, magic2;
    struct IcuDataInfo info;
    char padding[8];
    uint32_t count, reserved;
    uint32_t toc[2]; /* one empty entry: name offset, data offset */
};

__attribute__((visibility("default"))) const struct IcuCommonData icudt72_dat = {
    32, 0xda, 0x27,
    {sizeof(struct IcuDataInfo), 0, 0, 0, 2, 0, {'C', 'm', 'n', 'D'}, {1, 0, 0, 0}, {0, 0, 0, 0}},
    {0}, 0, 0, {0, 0}};
