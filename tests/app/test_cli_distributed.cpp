// decompose --distributed under mpirun (issue 16): the distributed fit and the gathered factors
// equal the single-process CPD's (same seed, 10 iterations) on MovieLens, JF17K (order 4) and a
// generated order-5 tensor for P = 2, 3 and 4 ranks (4 oversubscribed on a 2-core machine), the
// report carries ranks, grid, nonzeros and rows exchanged per rank, and errors end every rank
// with one message and exit 2, never a hang.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <cmath>
#include <fstream>

#include "test_support.hpp"
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/decomp/cpd_distributed.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tsb_format.hpp"

using namespace tscope;

namespace {

struct Run {
    int status = -1;
    QByteArray out, err;
};

// Each run keeps its Open MPI session directory in a temporary folder of its own: under the
// shared /tmp/ompi.HOST.UID one run's teardown can remove the folder while the next creates its
// own inside it ("A call to mkdir was unable to create the desired directory", seen once in a
// fresh-clone CI run in session 30).
// `message_bytes`, where given, is every rank's TENSORSCOPE_MPI_MESSAGE_BYTES.
Run mpirun(int ranks, const QStringList& args, const QString& message_bytes = {}) {
    QTemporaryDir session;
    QProcess p;
    QProcessEnvironment env =
        TS_UNDER_ASAN ? tstest::without_mpi_leak_checks() : QProcessEnvironment::systemEnvironment();
    if (session.isValid()) env.insert("OMPI_MCA_orte_tmpdir_base", session.path());
    if (!message_bytes.isNull()) env.insert("TENSORSCOPE_MPI_MESSAGE_BYTES", message_bytes);
    p.setProcessEnvironment(env);
    QStringList all{"-np", QString::number(ranks), "--oversubscribe", TS_BIN_DIR "/tensorscope-cli"};
    all += args;
    p.start(TS_MPIEXEC, all);
    if (!p.waitForFinished(240000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

int error_lines(const QByteArray& err) { return static_cast<int>(err.count("error:")); }

// The single process's CPD of the same file, as decompose runs it.
CpdResult single(const std::string& tsb) {
    const CooTensor t = load_tensor(tsb).tensor;
    CpdOptions o;
    o.rank = 8, o.max_iters = 10, o.tolerance = 0, o.seed = 3;
    return cpd_als(t, o);
}

}  // namespace

class TestCliDistributed : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!mpi_built()) QSKIP("this build has no MPI (TS_WITH_MPI off): the distributed CPD is not built");
        QVERIFY(dir_.isValid());
    }

    void equalsTheSingleProcess_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<QString>("message_bytes");
        for (const char* name : {"movielens-100k", "jf17k-4d", "order5"})
            for (int p : {2, 3, 4})
                QTest::newRow(qPrintable(QString("%1 P=%2").arg(name).arg(p))) << QString(name) << p << QString();
        // Messages of 1000 bytes (a nonzero is 20 or 28 here, a factor row 64): every exchange
        // goes in many pieces that cut records apart, as a 2^31-nonzero part does at 1 GiB.
        QTest::newRow("movielens-100k P=3 in 1000-byte messages") << QString("movielens-100k") << 3 << QString("1000");
        QTest::newRow("jf17k-4d P=2 in 1000-byte messages") << QString("jf17k-4d") << 2 << QString("1000");
    }

    void equalsTheSingleProcess() {
        QFETCH(QString, name);
        QFETCH(int, ranks);
        QFETCH(QString, message_bytes);
        const std::string tsb = tensor_file(name);
        if (tsb.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
        const CpdResult reference = single(tsb);
        const QString out = dir_.filePath(QString("%1-%2-%3").arg(name).arg(ranks).arg(message_bytes));
        const Run r = mpirun(ranks,
                             {"decompose", QString::fromStdString(tsb), "--distributed", "--rank", "8", "--iters", "10",
                              "--tol", "0", "--seed", "3", "--write", out, "--json"},
                             message_bytes);
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(!doc.isEmpty(), r.out.constData());  // one document: rank 0 alone prints
        QVERIFY2(std::fabs(doc["fit"].toDouble() - reference.fit) < 1e-6,
                 qPrintable(QString("fit %1 vs %2").arg(doc["fit"].toDouble()).arg(reference.fit)));
        QCOMPARE(doc["iterations"].toArray().size(), 10);
        QCOMPARE(doc["ranks"].toInt(), ranks);
        const QJsonArray per = doc["per_rank"].toArray();
        QCOMPARE(per.size(), ranks);
        double nnz = 0, max_nnz = 0;
        for (const auto& x : per) nnz += x.toObject()["nnz"].toDouble(), max_nnz = std::max(max_nnz, x.toObject()["nnz"].toDouble());
        QCOMPARE(nnz, doc["nnz"].toDouble());
        QCOMPARE(doc["nnz_per_rank"].toObject()["max"].toDouble(), max_nnz);
        QVERIFY(doc["rows_sent_per_iteration"].toObject()["max"].toDouble() > 0);  // P > 1: rows do travel
        double volume = 0;
        for (const auto& x : per) {  // every row out comes back: the two directions match per rank
            QCOMPARE(x.toObject()["rows_sent"].toDouble(), x.toObject()["rows_received"].toDouble());
            volume = std::max(volume, 2 * x.toObject()["rows_sent"].toDouble());
        }
        QCOMPARE(doc["comm_volume_rows"].toObject()["max"].toDouble(), volume);
        QVERIFY(doc["grid"].toString().split('x').size() == static_cast<int>(reference.factors.size()));
        for (std::size_t m = 0; m < reference.factors.size(); ++m) {
            const DenseMatrix& a = reference.factors[m];
            const DenseMatrix b = read_matrix(QString("%1/mode%2.mat").arg(out).arg(m + 1).toStdString(), a.rows, a.cols);
            double diff = 0;
            for (std::uint64_t i = 0; i < a.rows * a.cols; ++i) diff = std::max(diff, std::fabs(a.data[i] - b.data[i]));
            QVERIFY2(diff < 1e-6, qPrintable(QString("mode %1 differs by %2").arg(m + 1).arg(diff)));
        }
        const DenseMatrix lambda = read_matrix(QString("%1/lambda.mat").arg(out).toStdString(), 8, 1);
        for (std::size_t r = 0; r < 8; ++r)
            QVERIFY(std::fabs(lambda.data[r] - reference.lambda[r]) <= 1e-6 * std::max(1.0, std::fabs(reference.lambda[r])));
    }

    void aGivenGridIsUsed() {
        const std::string tsb = tensor_file("order5");
        const Run r = mpirun(2, {"decompose", QString::fromStdString(tsb), "--distributed", "--grid", "1x1x2x1x1", "--rank", "4",
                                 "--iters", "3", "--json"});
        QVERIFY2(r.status == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object()["grid"].toString(), QStringLiteral("1x1x2x1x1"));
        // text: rank 0's lines only (one summary)
        const Run text = mpirun(2, {"decompose", QString::fromStdString(tsb), "--distributed", "--rank", "4", "--iters", "3", "--tol", "0"});
        QVERIFY2(text.status == 0, text.err.constData());
        QCOMPARE(static_cast<int>(text.out.count("nonzeros per rank")), 1);
        QCOMPARE(static_cast<int>(text.out.count("iter 3")), 1);
    }

    void errorsEndEveryRankWithOneMessage() {
        const std::string tsb = tensor_file("order5");
        struct Case {
            QStringList args;
            const char* words;
        };
        const std::string corrupt = dir_.filePath("corrupt.tsb").toStdString();
        std::filesystem::copy_file(tsb, corrupt, std::filesystem::copy_options::overwrite_existing);
        {
            const TsbHeader h = read_tsb_header(corrupt);
            std::fstream f(corrupt, std::ios::in | std::ios::out | std::ios::binary);
            const auto at = static_cast<std::streamoff>(h.header_bytes + 5 * h.nnz * 4 + 8 * 100);  // a value's low byte
            f.seekg(at);
            char c = 0;
            f.read(&c, 1);
            c = static_cast<char>(c ^ 1);
            f.seekp(at);
            f.write(&c, 1);
        }
        const QString file = QString::fromStdString(tsb);
        const std::vector<Case> cases{
            {{"decompose", dir_.filePath("missing.tsb"), "--distributed"}, "missing.tsb"},
            {{"decompose", TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns", "--distributed"}, "convert it first"},
            {{"decompose", QString::fromStdString(corrupt), "--distributed"}, "checksum does not match"},
            {{"decompose", file, "--distributed", "--grid", "3x1x1x1x1"}, "--grid '3x1x1x1x1'"},
            {{"decompose", file, "--distributed", "--init", "nvecs"}, "random factors"},
            {{"decompose", file, "--distributed", "--method", "tucker"}, "--method cpd"},
            {{"decompose", file, "--distributed", "--rank", "0"}, "--rank"},
            {{"decompose", file, "--distributed", "--bogus"}, "--bogus"},
            {{"decompose", file, "--distributed", "--grid", ""}, "--grid needs a grid"},        // sweep 66a F10: it meant "choose"
            {{"decompose", "-", "--distributed"}, "standard input cannot be"},                  // it said "cannot open '-'"
        };
        for (const Case& c : cases) {
            const Run r = mpirun(2, c.args);
            QVERIFY2(r.status == 2, qPrintable(c.args.join(' ') + " -> " + QString::number(r.status) + ": " + r.err));
            QVERIFY2(r.err.contains(c.words), qPrintable(c.args.join(' ') + ": " + r.err));
            QVERIFY2(error_lines(r.err) == 1, qPrintable(c.args.join(' ') + ": " + r.err));
            QVERIFY(r.out.isEmpty() || !r.out.contains("fit"));
            if (QString(c.words) == "checksum does not match")  // the whole file's, not rank 0's (sweep 68a D5)
                QVERIFY2(!r.err.contains("rank 0"), r.err.constData());
        }
        for (const char* bytes :
             {"0", "2147483648", "1k", "-5"}) {  // refused before the first exchange, on every rank alike
            const Run r = mpirun(2, {"decompose", file, "--distributed", "--iters", "1"}, bytes);
            QVERIFY2(r.status == 2 && r.err.contains("TENSORSCOPE_MPI_MESSAGE_BYTES") && error_lines(r.err) == 1,
                     qPrintable(QString(bytes) + " -> " + QString::number(r.status) + ": " + r.err));
        }
        // what rank 0 alone checks is told without "rank 0 of 2", which read as a disagreement
        // between ranks (sweep 66a F10)
        const QString plain = dir_.filePath("a-file");
        std::ofstream(plain.toStdString()) << "x\n";
        const Run write = mpirun(2, {"decompose", file, "--distributed", "--write", plain + "/sub"});
        QVERIFY2(write.status == 2 && write.err.contains("cannot create") && !write.err.contains("rank 0"),
                 qPrintable(QString::number(write.status) + ": " + write.err));
        // the grid is read from the header before any rank reads its part: a file whose first
        // index is out of range (found as rank 0 reads its part) is named for the grid
        const std::string bad_index = dir_.filePath("bad-index.tsb").toStdString();
        std::filesystem::copy_file(tsb, bad_index, std::filesystem::copy_options::overwrite_existing);
        {
            const TsbHeader h = read_tsb_header(bad_index);
            std::fstream f(bad_index, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(static_cast<std::streamoff>(h.header_bytes));
            const char ones[4] = {'\xff', '\xff', '\xff', '\x7f'};
            f.write(ones, 4);
        }
        const Run index = mpirun(2, {"decompose", QString::fromStdString(bad_index), "--distributed"});
        QVERIFY2(index.status == 2 && index.err.contains("has index"),
                 qPrintable(QString::number(index.status) + ": " + index.err));
        const Run grid =
            mpirun(2, {"decompose", QString::fromStdString(bad_index), "--distributed", "--grid", "3x1x1x1x1"});
        QVERIFY2(grid.status == 2 && grid.err.contains("--grid '3x1x1x1x1'") && error_lines(grid.err) == 1,
                 qPrintable(QString::number(grid.status) + ": " + grid.err));
    }

    // Started without mpirun, --distributed runs as one rank and says how ranks are started;
    // under mpirun, even of one rank, it does not (sweep 66a F10: it said nothing).
    void startedAloneSaysHowToStartRanks() {
        const QString file = QString::fromStdString(tensor_file("order5"));
        QProcess alone;
        if (TS_UNDER_ASAN) alone.setProcessEnvironment(tstest::without_mpi_leak_checks());
        alone.start(TS_BIN_DIR "/tensorscope-cli", {"decompose", file, "--distributed", "--rank", "2", "--iters", "1"});
        QVERIFY(alone.waitForFinished(120000));
        const QByteArray err = alone.readAllStandardError();
        QVERIFY2(alone.exitCode() == 0 && err.contains("mpirun -np P"), err.constData());
        const Run one = mpirun(1, {"decompose", file, "--distributed", "--rank", "2", "--iters", "1"});
        QVERIFY2(one.status == 0 && !one.err.contains("mpirun -np P"), one.err.constData());
        QVERIFY2(one.out.contains(" over 1 MPI rank\n"), one.out.constData());  // not "1 MPI ranks" (sweep 68a D3)
    }

    // Ranks that together run more OpenMP threads than their host has cores are warned, bound
    // or not (--oversubscribe leaves them unbound: sweep 66a F11), and the report gives each
    // rank's host.
    void oversubscribedRanksAreWarned() {
        const std::string tsb = tensor_file("order5");
        const int cores = QThread::idealThreadCount();
        const Run r = mpirun(2, {"decompose", QString::fromStdString(tsb), "--distributed", "--rank", "2", "--iters",
                                 "2", "--threads", QString::number(cores), "--json"});
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY2(r.err.contains("warning:") && r.err.contains("--threads"), r.err.constData());
        const QJsonArray per = QJsonDocument::fromJson(r.out).object()["per_rank"].toArray();
        QCOMPARE(per.size(), 2);
        QCOMPARE(per[0].toObject()["host_ranks"].toInt(), 2);
        QVERIFY(per[0].toObject()["host_cores"].toInt() >= 1);
        if (cores >= 2) {  // one thread a rank fits
            const Run fits = mpirun(2, {"decompose", QString::fromStdString(tsb), "--distributed", "--rank", "2",
                                        "--iters", "2", "--threads", "1"});
            QVERIFY2(fits.status == 0 && !fits.err.contains("warning:"), fits.err.constData());
        }
        if (cores <= 4) {  // more ranks than cores at one thread each: --threads cannot help (sweep 68a D1)
            const Run many = mpirun(cores + 1, {"decompose", QString::fromStdString(tsb), "--distributed", "--rank",
                                                "2", "--iters", "1", "--threads", "1"});
            QVERIFY2(many.status == 0, many.err.constData());
            QVERIFY2(many.err.contains(QString("run at most %1 ranks a host").arg(cores).toUtf8()) &&
                         !many.err.contains("set --threads") && many.err.contains("1 OpenMP thread each"),
                     many.err.constData());
        }
    }

    // A tensor of no nonzeros is refused as the single process refuses it (it reported "fit 1
    // (converged)" with exit 0), and a mode too long for its factor in words before any rank
    // reads its part (it said "std::bad_alloc"), sweep 66a F5, F6.
    void emptyAndHugeTensorsAreRefusedInWords() {
        const std::string empty = dir_.filePath("zeros.tsb").toStdString();
        const std::string zeros = dir_.filePath("zeros.tns").toStdString();
        std::ofstream(zeros) << "1 1 1 0\n2 2 2 0\n";
        save_tensor(load_tensor(zeros).tensor, empty);
        const std::string huge = dir_.filePath("huge.tsb").toStdString();
        save_tensor(tstest::random_tensor({1000000000000ull, 3, 3}, 3, 2), huge);
        const std::vector<std::pair<std::string, const char*>> cases{{empty, "no nonzeros"}, {huge, "would need"}};
        for (const auto& [file, words] : cases) {
            const Run r = mpirun(2, {"decompose", QString::fromStdString(file), "--distributed", "--rank", "2"});
            QVERIFY2(r.status == 2 && r.err.contains(words) && error_lines(r.err) == 1,
                     qPrintable(QString::number(r.status) + ": " + r.err));
            QVERIFY(!r.out.contains("fit"));
        }
    }

    // One rank out of memory outside an agreed step stops the whole job with its words (the
    // others waited for it in a collective for ever, sweep 66a F1): here rank 0 under a 1 GB
    // address space, where a rank-64 factor of a 300,000-long mode and its exchanges do not fit.
    void oneRanksFailureStopsTheJob() {
#if defined(__SANITIZE_ADDRESS__) || (defined(__has_feature) && __has_feature(address_sanitizer))
        QSKIP("AddressSanitizer's shadow memory does not start under a 1 GB address space (ulimit -v)");
#endif
        const std::string wide = dir_.filePath("wide.tsb").toStdString();
        save_tensor(tstest::random_tensor({300000, 300000, 300000}, 200000, 4), wide);
        QTemporaryDir session;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (session.isValid()) env.insert("OMPI_MCA_orte_tmpdir_base", session.path());
        p.setProcessEnvironment(env);
        const QString command =
            QStringLiteral(
                "ulimit -v 1000000; exec %1/tensorscope-cli decompose %2 --distributed --rank 64 --iters 2 --threads 1")
                .arg(QStringLiteral(TS_BIN_DIR), QString::fromStdString(wide));
        p.start(TS_MPIEXEC, {"-np", "2", "--oversubscribe", "bash", "-c", command});
        const bool ended = p.waitForFinished(120000);
        if (!ended) p.kill(), p.waitForFinished();
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(ended, "the job hung");
        QVERIFY2(p.exitCode() != 0 && err.contains("out of host memory"),
                 qPrintable(QString::number(p.exitCode()) + ": " + err));
    }

private:
    // The named tensor as a .tsb in the test's folder (made once): a shared tensor converted, or
    // the order-5 one generated.
    std::string tensor_file(const QString& name) {
        const std::string path = dir_.filePath(name + ".tsb").toStdString();
        if (std::filesystem::exists(path)) return path;
        if (name == "order5") {
            save_tensor(tstest::random_tensor({30, 40, 20, 25, 35}, 20000, 5), path);
            return path;
        }
        const std::string tns = tstest::shared_tensor(qPrintable(name + ".tns"));
        if (tns.empty()) return {};
        save_tensor(load_tensor(tns).tensor, path);
        return path;
    }

    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestCliDistributed)
#include "test_cli_distributed.moc"
