#include "models/SampleCatalog.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace tsui {

QString samplesDirectory() {
    const QDir installed(QCoreApplication::applicationDirPath() + QStringLiteral("/../share/tensorscope/samples"));
    if (installed.exists()) return installed.absolutePath();
    return QStringLiteral(TS_SOURCE_SAMPLES_DIR);
}

namespace {

Sample generated(const QString& title, const QString& description, std::vector<std::uint64_t> dims, std::uint64_t nnz,
                 const char* dist) {
    tscope::GeneratorSpec spec;
    spec.dims = std::move(dims);
    spec.nnz = nnz;
    spec.seed = 1;
    tscope::parse_distribution(dist, spec);
    return {title, description, DatasetRequest::generate(spec, title)};
}

}  // namespace

QList<Sample> bundledSamples() {
    QList<Sample> out;
    const QString jf17k = QDir(samplesDirectory()).filePath(QStringLiteral("jf17k-4d.tns.gz"));
    if (QFileInfo::exists(jf17k))
        out << Sample{QStringLiteral("JF17K facts (4-D, real)"),
                      QStringLiteral("relation × entity × entity × entity, 34,544 facts; Freebase data, CC-BY "
                                     "(JF17K test split)"),
                      DatasetRequest::file(jf17k)};
    const QString example = QDir(samplesDirectory()).filePath(QStringLiteral("hocfs-example-4x5x4.tns"));
    if (QFileInfo::exists(example))
        out << Sample{QStringLiteral("4×5×4 example (hocfs Sec. 5)"),
                      QStringLiteral("the papers' teaching tensor, 21 nonzeros: open the Teaching tab"), DatasetRequest::file(example)};
    out << generated(QStringLiteral("Power-law 3-D (generated)"),
                     QStringLiteral("20,000 × 15,000 × 10,000, 300k nonzeros, Zipf exponent 1.1 in every mode"),
                     {20000, 15000, 10000}, 300000, "powerlaw:1.1");
    out << generated(QStringLiteral("Uniform 3-D (generated)"),
                     QStringLiteral("5,000 × 5,000 × 5,000, 200k nonzeros spread uniformly"), {5000, 5000, 5000}, 200000,
                     "uniform");
    out << generated(QStringLiteral("Dense 16³ blocks (generated)"),
                     QStringLiteral("512³, 150k nonzeros in 64 blocks of 16³ cells (the tiles HLS looks for)"),
                     {512, 512, 512}, 150000, "blocks:64:16");
    out << generated(QStringLiteral("Low-rank 3-D (generated)"),
                     QStringLiteral("1,000 × 800 × 600, about 50k nonzeros: a sum of 8 rank-one tensors with sparse factors "
                                    "(CPD at rank 8 fits it exactly)"),
                     {1000, 800, 600}, 50000, "lowrank:8");
    out << generated(QStringLiteral("Power-law 5-D (generated)"),
                     QStringLiteral("2,000⁵, 100k nonzeros, Zipf exponent 1.0"), {2000, 2000, 2000, 2000, 2000}, 100000,
                     "powerlaw:1.0");
    return out;
}

}  // namespace tsui
