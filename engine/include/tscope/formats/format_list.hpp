// The one list of storage formats. Everything that enumerates formats expands it: the FormatKind
// enum, the registry's rows (names, builders, parameters), and visit_format's switch. Adding a
// format is one line here plus its own files (docs/ARCHITECTURE.md, "Adding a format").
//
// Columns: enum name, display name (as the CLI, JSON and GUI spell it), class template (on index type I, value type
// V), built once per mode (false: one copy serves every mode), builder in tscope::detail
// (format_builders.hpp), the FormatOptions it reads (CLI option names), whether the teaching
// view can show its arrays (format_anatomy), the lowest order it is defined for (a tree needs a
// mode above its leaves; HLS checks its own order 3).
#pragma once

#define TSCOPE_FORMATS(X)                                                                                  \
    X(COO, "COO", CooFormat, true, build_coo, "mode-order", true, 1)                                          \
    X(HOCSR, "HOCSR", HocsrFormat, true, build_hocsr, "mode-order", true, 2)                                  \
    X(CFB, "CFB", CfbFormat, true, build_cfb, "", true, 2)                                                    \
    X(HOCFS_CSR, "HOCFS-CSR", HocfsFormat, true, build_hocfs_csr, "mode-order", true, 2)                      \
    X(HOCFS_ELL, "HOCFS-ELL", HocfsFormat, true, build_hocfs_ell, "mode-order", true, 2)                      \
    X(CSF, "CSF", CsfFormat, true, build_csf_tree, "mode-order", true, 2)                                     \
    X(BCSF, "B-CSF", BcsfFormat, true, build_bcsf, "mode-order,fiber-threshold", true, 2)                     \
    X(MMCSF, "MM-CSF", MmcsfFormat, false, build_mmcsf, "", true, 2)                                          \
    X(HiCOO, "HiCOO", HicooFormat, false, build_hicoo, "hicoo-bits", true, 1)                                 \
    X(HLS, "HLS", HlsFormat, false, build_hls, "hls-threshold", false, 1)                                     \
    X(ALTO, "ALTO", AltoFormat, false, build_alto, "", true, 1)                                               \
    X(BLCO, "BLCO", BlcoFormat, false, build_blco, "", false, 1)                                              \
    X(sCOO, "sCOO", ScooFormat, true, build_scoo, "", false, 2)
