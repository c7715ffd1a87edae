// tensorscope-cli as a user runs it: exit statuses, JSON keys, errors on stderr.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QThread>
#include <csignal>

#include <sys/stat.h>
#include <zlib.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <thread>

#include "test_support.hpp"
#ifdef TS_FETCH_DOWNLOADS
#include <QNetworkProxy>

#include "local_http_server.hpp"
#include "tscope/tensor/generator.hpp"
#endif
#include "tscope/cuda/device.hpp"
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/mttkrp.hpp"

namespace {

struct Run {
    int status = -1;
    QByteArray out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    if (TS_UNDER_ASAN && args.contains("--distributed")) p.setProcessEnvironment(tstest::without_mpi_leak_checks());
    p.start(TS_BIN_DIR "/tensorscope-cli", args);
    if (!p.waitForFinished(300000)) {
        p.kill();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// Runs the CLI with `input` on its stdin.
Run cli_stdin(const QStringList& args, const QByteArray& input) {
    QProcess p;
    p.start(TS_BIN_DIR "/tensorscope-cli", args);
    if (!p.waitForStarted()) return {};
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(300000)) {
        p.kill();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QByteArray file_bytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QJsonObject json(const Run& r) {
    QJsonParseError e;
    const auto doc = QJsonDocument::fromJson(r.out, &e);
    if (e.error != QJsonParseError::NoError) qWarning() << "bad JSON:" << e.errorString() << r.out.left(200);
    return doc.object();
}

QList<qint64> dims(const QJsonObject& o) {
    QList<qint64> out;
    for (const auto& d : o["dims"].toArray()) out << d.toInteger();
    return out;
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Issue 15's options: GPU-only options elsewhere, and bad values, are bad options (exit 2),
    // refused before anything is loaded or run.
    void multiGpuAndStreamingOptionsAreChecked() {
        const QString sample = QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns");
        struct Case {
            QStringList args;
            const char* says;
        };
        const Case cases[] = {
            {{"decompose", sample, "--gpus", "2"}, "--gpus applies to --method cpd --backend cuda"},
            {{"decompose", sample, "--method", "tucker", "--stream"}, "--stream applies to --method cpd --backend cuda"},
            {{"decompose", sample, "--limit-gpu-memory", "1G"}, "--limit-gpu-memory applies to --method cpd --backend cuda"},
            {{"bench", sample, "--gpus", "2"}, "--gpus applies to --kernel mttkrp --backend cuda"},
            {{"decompose", sample, "--init", "hosvd"}, "--init for cpd must be random or nvecs"},
            {{"decompose", sample, "--restarts", "0"}, "--restarts"},
            {{"bench", sample, "--backend", "cuda", "--kernel", "sptv", "--gpus", "2"}, "--gpus applies to --kernel mttkrp --backend cuda"},
            // issue 26's streamed MTTKRP
            {{"bench", sample, "--stream"}, "--stream, --streams and --chunk-bytes apply to --kernel mttkrp --backend cuda"},
            {{"bench", sample, "--backend", "cuda", "--streams", "2"}, "--streams and --chunk-bytes need --stream"},
            {{"bench", sample, "--backend", "cuda", "--stream", "--gpus", "2"}, "--stream runs on one GPU"},
            {{"bench", sample, "--backend", "cuda", "--stream", "--streams", "40"}, "--streams"},
            {{"bench", sample, "--backend", "cuda", "--stream", "--chunk-bytes", "12X"}, "--chunk-bytes"},
        };
        for (const Case& c : cases) {
            const Run r = cli(c.args);
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.contains(c.says), r.err.constData());
        }
        if (!tscope::query_gpu().available) return;  // the rest needs a device to get past require_gpu
        const Run many = cli({"decompose", sample, "--backend", "cuda", "--gpus", QString::number(tscope::query_gpu().count + 1)});
        QCOMPARE(many.status, 2);
        QVERIFY2(many.err.contains("this machine has"), many.err.constData());
        const Run bad = cli({"decompose", sample, "--backend", "cuda", "--limit-gpu-memory", "12X"});
        QCOMPARE(bad.status, 2);
        const Run zero = cli({"decompose", sample, "--backend", "cuda", "--gpus", "0"});
        QCOMPARE(zero.status, 2);
    }

    // A --write folder that still holds a higher order's mode files from an earlier run says so
    // and leaves them (sweep 66a F9: they read as this run's); a folder of this run's alone says
    // nothing.
    void olderModeFilesInTheWriteFolderAreNamed() {
        QTemporaryDir dir;
        const Run four =
            cli({"decompose", TS_SAMPLES_DIR "/jf17k-4d.tns.gz", "--rank", "2", "--iters", "2", "--write", dir.path()});
        QVERIFY2(four.status == 0 && !four.err.contains("note:"), four.err.constData());
        for (const char* method : {"cpd", "tucker"}) {
            const Run three = cli({"decompose", TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns", "--method", method, "--rank",
                                   "2", "--iters", "2", "--write", dir.path()});
            QVERIFY2(three.status == 0 && three.err.contains("note:") && three.err.contains("mode4.mat") &&
                         !three.err.contains("mode3.mat"),
                     three.err.constData());
            QVERIFY(QFileInfo::exists(dir.filePath("mode4.mat")));
        }
        // the other decomposition's file is named too (sweep 68a D4): the cpd run above left
        // lambda.mat for the tucker run, which left core.tns for this cpd run
        const Run tucker_after_cpd = cli({"decompose", TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns", "--method", "tucker",
                                          "--rank", "2", "--iters", "2", "--write", dir.path()});
        QVERIFY2(tucker_after_cpd.err.contains("also holds lambda.mat from an earlier run of the other decomposition"),
                 tucker_after_cpd.err.constData());
        const Run cpd_after_tucker = cli({"decompose", TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns", "--rank", "2",
                                          "--iters", "2", "--write", dir.path()});
        QVERIFY2(cpd_after_tucker.err.contains("also holds core.tns from an earlier run of the other decomposition"),
                 cpd_after_tucker.err.constData());
        QVERIFY(QFileInfo::exists(dir.filePath("core.tns")));
    }

    // An option the chosen method or kernel does not read is refused (exit 2), not ignored: a
    // run that ignored it would look as if it had taken it. The same options where they apply run.
    void optionsNothingReadsAreRefused() {
        const QString sample = QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("r.tns"));
        struct Case {
            QStringList args;
            const char* says;
        };
        const Case cases[] = {
            {{"reorder", sample, out, "--method", "degree", "--iters", "9"}, "--iters applies to --method lexi"},
            {{"reorder", sample, out, "--method", "lexi", "--seed", "3"}, "--seed applies to --method random"},
            {{"bench", sample, "--reorder", "degree", "--reorder-iters", "3"},
             "--reorder-iters applies to --reorder lexi"},
            {{"decompose", sample, "--method", "tucker", "--restarts", "3"}, "--restarts applies to --method cpd"},
            {{"decompose", sample, "--method", "tucker", "--format", "COO"}, "--format applies to --method cpd"},
            {{"decompose", sample, "--method", "fastertucker", "--tol", "0"},
             "--tol applies to --method cpd and tucker"},
            {{"decompose", sample, "--method", "fastertucker", "--write", dir.path()},
             "--write applies to --method cpd and tucker"},
            {{"decompose", sample, "--method", "cpd", "--lr-a", "0.1"}, "--lr-a applies to --method fastertucker"},
            {{"decompose", sample, "--method", "tucker", "--schedule", "ordered"},
             "--schedule applies to --method fastertucker"},
            {{"bench", sample, "--kernel", "mttkrp", "--variant", "wb"},
             "--variant applies to --kernel spttm on --backend cuda"},
            {{"bench", sample, "--kernel", "spttm", "--backend", "omp", "--variant", "wb"},
             "--variant applies to --kernel spttm"},
            {{"bench", sample, "--format", "COO", "--hls-threshold", "3"},
             "--hls-threshold applies to HLS, and --format names none"},
            {{"formats", sample, "--format", "COO,CSF", "--fiber-threshold", "3"},
             "--fiber-threshold applies to B-CSF"},
            {{"formats", sample, "--format", "ALTO", "--mode-order", "1,2,3"}, "--mode-order applies to COO, HOCSR"},
            {{"formats", sample, "--format", "COO", "--hicoo-bits", "3"}, "--hicoo-bits applies to HiCOO"},
        };
        for (const Case& c : cases) {
            const Run r = cli(c.args);
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.contains(c.says), r.err.constData());
            QVERIFY(!QFile::exists(out));
        }
        const QStringList taken[] = {
            {"reorder", sample, out, "--method", "random", "--seed", "3"},
            {"reorder", sample, out, "--method", "lexi", "--iters", "2"},
            {"formats", sample, "--format", "COO,HLS", "--hls-threshold", "3"},
            {"formats", sample, "--hicoo-bits", "3"},
            {"decompose", sample, "--method", "tucker", "--rank", "2", "--iters", "2", "--tol", "0", "--init",
             "random"},
            {"decompose", TS_SAMPLES_DIR "/jf17k-4d.tns.gz", "--method", "fastertucker", "--rank", "2", "--iters", "2",
             "--reg-a", "0.02"},
        };
        for (const QStringList& args : taken) {
            const Run r = cli(args);
            QVERIFY2(r.status == 0, r.err.constData());
        }
    }

    // Sweep 64: an output folder the command made for --write or --perm-out goes again when the
    // command fails before writing into it; one the user made stays.
    void aFailedCommandLeavesNoFolderOfItsOwn() {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("nope.tns")), kept = dir.filePath(QStringLiteral("kept"));
        QVERIFY(QDir().mkpath(kept));
        const QStringList runs[] = {
            {"reorder", missing, dir.filePath("r.tns"), "--perm-out", dir.filePath("perms")},
            {"decompose", missing, "--write", dir.filePath("w/deeper")},
            {"bench", missing, "--write", dir.filePath("b")},
            {"decompose", missing, "--write", kept},
            {"decompose", missing, "--write", dir.filePath("n/sub/..")},  // makes n/sub as well as n
        };
        for (const QStringList& args : runs) QCOMPARE(cli(args).status, 2);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{"kept"});
    }

    // Sweep 64: work whose memory no machine here has is refused before it starts, in words:
    // generate at 20G nonzeros (it ran out of memory after a minute) and TTMc's outputs at a
    // rank whose mode-2 output cannot be held (it refused only after mode 1 had run).
    void workPastTheMachinesMemoryIsRefusedFirst() {
        QTemporaryDir dir;
        const Run big =
            cli({"generate", "--dims", "100000,100000,100000", "--nnz", "20G", "-o", dir.filePath("big.tsb")});
        QCOMPARE(big.status, 2);
        QVERIFY2(big.err.contains("generate: 20,000,000,000 nonzeros of 3 modes") && big.err.contains("would need") &&
                     big.err.contains("this machine has"),
                 big.err.constData());
        // as text, formatted whole beside the tensor: the CLI counts that too (sweep 64b)
        const Run text =
            cli({"generate", "--dims", "100000,100000,100000", "--nnz", "20G", "-o", dir.filePath("big.tns")});
        QCOMPARE(text.status, 2);
        QVERIFY2(text.err.contains("nonzeros written as text"), text.err.constData());
        QVERIFY(QDir(dir.path()).isEmpty());
        const Run ttmc = cli({"bench", TS_SAMPLES_DIR "/jf17k-4d.tns.gz", "--kernel", "ttmc", "--format", "COO",
                              "--rank", "4096", "--repeat", "1", "--jsonl"});
        QCOMPARE(ttmc.status, 2);
        QVERIFY2(ttmc.err.contains("TTMc's output for mode 1 at rank 4096") && ttmc.out.isEmpty(),
                 ttmc.err.constData());
    }

    // An allocation that fails mid-work says how much it asked for, as the window does (it
    // said only "error: out of memory"), and leaves no output behind. The address space is
    // cut to 600 MB so that a 30M-nonzero tensor (about 480 MB, with its draws more) cannot be
    // made, while the memory check, which reads physical memory, lets it start.
    void anAllocationThatFailsSaysItsSize() {
        TS_SKIP_UNDER_ASAN("AddressSanitizer's shadow memory does not start under a 600 MB address space");
        QTemporaryDir dir;
        QProcess p;
        p.start("/bin/sh", {"-c", "ulimit -v 600000 && exec \"$0\" generate --dims 1000,1000,1000 --nnz 30M -o \"$1\"",
                            TS_BIN_DIR "/tensorscope-cli", dir.filePath("big.tsb")});
        QVERIFY(p.waitForFinished(300000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.startsWith("error: out of memory in generate: it needed ") && err.contains(" more at once"),
                 err.constData());
        QVERIFY(QDir(dir.path()).isEmpty());
    }

    // Under an address-space limit the dense steps end in words or finish, never hang (sweep
    // 68a A2/A3). OpenBLAS's worker threads map a 128 MiB buffer as they start and retry for
    // ever where it does not fit: Tucker hung mid-run, or at exit joining such a worker, at every
    // limit here up to 240 MB (at 140-240 MB with OPENBLAS_NUM_THREADS=2 set, which keeps the
    // workers). Under a limit the CLI now runs with one OpenBLAS thread and checks that its buffer
    // fits before the first dense step.
    void denseStepsUnderAnAddressLimitEndInWords() {
        TS_SKIP_UNDER_ASAN("AddressSanitizer's shadow memory does not start under these address-space limits");
        bool buffer_said = false;
        for (int megabytes : {160, 200, 240, 300, 380, 800}) {
            QProcess p;
            p.start("/bin/sh", {"-c",
                                QString("unset OPENBLAS_NUM_THREADS; ulimit -v %1 && exec \"$0\" decompose \"$1\" "
                                        "--method tucker --iters 2")
                                    .arg(megabytes * 1024),
                                TS_BIN_DIR "/tensorscope-cli", TS_SAMPLES_DIR "/jf17k-4d.tns.gz"});
            const bool finished = p.waitForFinished(60000);
            if (!finished) p.kill(), p.waitForFinished();
            const QByteArray err = p.readAllStandardError();
            QVERIFY2(finished, qPrintable(QString("hung at %1 MB").arg(megabytes)));
            if (megabytes == 800)
                QVERIFY2(p.exitCode() == 0, err.constData());  // its peak is about 270 MB
            else
                QVERIFY2(p.exitCode() == 0 || err.startsWith("error: out of memory"), err.constData());
            buffer_said |= err.contains("OpenBLAS maps a work buffer of 134.2 MB");
        }
        QVERIFY(buffer_said);  // 220-380 MB on this VM
    }

    // The copy-bandwidth probe takes smaller buffers where 2 x 256 MiB cannot be had, and gives
    // back the blocks it leaves for reuse: under 800 MB every bench had failed on it alone, even
    // on MovieLens (sweep 68a A5); at 400 MB the blocks kept had starved the bench's own.
    void benchRunsUnderATightAddressLimit() {
        TS_SKIP_UNDER_ASAN("AddressSanitizer's shadow memory does not start under a 400 MB address space");
        QProcess p;
        p.start("/bin/sh", {"-c",
                            "ulimit -v 400000 && exec \"$0\" bench \"$1\" --kernel mttkrp --format COO,CSF "
                            "--backend omp --repeat 1 --json",
                            TS_BIN_DIR "/tensorscope-cli", TS_SAMPLES_DIR "/jf17k-4d.tns.gz"});
        QVERIFY(p.waitForFinished(120000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitCode() == 0, err.constData());
        const QJsonArray rows = QJsonDocument::fromJson(p.readAllStandardOutput()).object()["results"].toArray();
        QCOMPARE(rows.size(), 8);  // 2 formats x 4 modes
        for (const QJsonValue& row : rows) QVERIFY(row.toObject()["copy_gbps"].toDouble() > 0);
    }

    // One format out of memory is its own row, not the end of the survey (sweep 68a A1/A8: a
    // HOCSR of 1.2 GB had ended it with no format named). Mode 1 first, HOCSR's row pointers
    // cover 20,000 x 15,000 index pairs; the 600 MB address space cannot hold them.
    void aFormatOutOfMemoryIsItsOwnRow() {
        TS_SKIP_UNDER_ASAN("AddressSanitizer's shadow memory does not start under a 600 MB address space");
        QTemporaryDir dir;
        const QString file = dir.filePath("wide.tsb");
        tscope::save_tensor(tstest::random_tensor({20000, 15000, 3000}, 1000, 3), file.toStdString());
        QProcess p;
        p.start("/bin/sh",
                {"-c", "ulimit -v 600000 && exec \"$0\" formats \"$1\" --format COO,HOCSR,CSF --mode 1 --json",
                 TS_BIN_DIR "/tensorscope-cli", file});
        QVERIFY(p.waitForFinished(120000));
        const QByteArray err = p.readAllStandardError();
        // exit 1, as bench's run out of memory is: the survey asked for was not all done (it was 0)
        QVERIFY2(p.exitCode() == 1, err.constData());
        const QJsonArray rows = QJsonDocument::fromJson(p.readAllStandardOutput()).object()["formats"].toArray();
        QCOMPARE(rows.size(), 3);
        for (const QJsonValue& v : rows) {
            const QJsonObject row = v.toObject();
            const QString error = row["error"].toString();
            if (row["name"].toString() == "HOCSR")
                QVERIFY2(!row["built"].toBool() && error.startsWith("out of memory building HOCSR: it needed 1.2 GB"),
                         qPrintable(error));
            else
                QVERIFY2(row["built"].toBool(), qPrintable(error));
        }
    }

    // --version answers as the window's does (sweep 68a E7: it was an unknown command).
    // An unknown command is one line naming the commands (the whole usage had followed it).
    // --help after a command prints the help, exit 0 (it was "unknown option --help", exit 2);
    // after "--" it is a file name like any other
    void helpAfterACommandIsTheHelp() {
        const Run r = cli({"info", "--help"});
        QVERIFY2(r.status == 0 && r.out.contains("tensorscope-cli") && r.out.contains("Exit status"),
                 r.err.constData());
        QCOMPARE(cli({"bench", "x.tns", "--kernel", "mttkrp", "--help"}).status, 0);
        const Run file = cli({"info", "--", "--help"});
        QVERIFY2(file.status == 2 && file.err.contains("--help"), file.err.constData());
    }

    void anUnknownCommandIsOneLine() {
        const Run r = cli({"infos", "x.tns"});
        QCOMPARE(r.status, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains("unknown command 'infos'") && r.err.contains("reorder"), r.err.constData());
    }

    void versionIsSaid() {
        const Run r = cli({"--version"});
        QCOMPARE(r.status, 0);
        QVERIFY2(QRegularExpression("^tensorscope-cli \\d+\\.\\d+\\.\\d+ \\(CUDA kernels (not )?built\\)\n$")
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 r.out.constData());
    }

    // Sweep 70b B9: every option that does not need the tensor is read before it. The file here
    // fails to parse on its second line, so an option refused after the load would say that line.
    void optionsAreReadBeforeTheTensor() {
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.tns");
        QVERIFY(tstest::write_file(bad, "1 1 1 1.0\nx y z 2.0\n"));
        struct Case {
            QStringList args;
            const char* says;
        };
        const Case cases[] = {
            {{"decompose", bad, "--init", "foo"}, "--init"},
            {{"decompose", bad, "--restarts", "0"}, "--restarts"},
            {{"decompose", bad, "--format", "FOO"}, "unknown format 'FOO'"},
            {{"decompose", bad, "--reorder", "foo"}, "unknown reorder method 'foo'"},
            {{"decompose", bad, "--method", "tucker", "--init", "foo"}, "--init must be hosvd or random, not 'foo'"},
            {{"decompose", bad, "--method", "fastertucker", "--test-fraction", "1.5"}, "--test-fraction"},
            {{"formats", bad, "--fiber-threshold", "0"}, "--fiber-threshold"},
            {{"formats", bad, "--hicoo-bits", "99"}, "--hicoo-bits"},
            {{"formats", bad, "--mode", "0"}, "--mode"},
            {{"bench", bad, "--kernel", "foo"}, "unknown kernel 'foo'"},
            {{"bench", bad, "--format", "COO", "--factors", dir.filePath("none")}, "--factors"},
            {{"bench", bad, "--format", "COO", "--factors", ""}, "--factors: the folder's name is empty"},
            {{"bench", bad, "--rank", "0"}, "--rank"},
            {{"bench", bad, "--kernel", "sptv", "--rank", "4"}, "--rank applies to"},  // it was ignored (B14)
            {{"advise", bad, "--kernel", "sptv", "--rank", "4"}, "--rank applies to"},
        };
        for (const Case& c : cases) {
            const Run r = cli(c.args);
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.contains(c.says) && !r.err.contains("line 2"), (c.args.join(' ') + ": " + r.err).toUtf8());
            QVERIFY2(r.out.isEmpty(), r.out.constData());  // decompose's first line had gone out
        }
    }

    // Sweep 70b B12/B13/B5: an empty output name is bad input before the work (it was exit 1
    // after it, and --factors "" read from /); a missing folder is said before the tensor is
    // made; a name of 255 bytes is written (its temporary had passed the limit).
    void outputNamesAreCheckedBeforeTheWork() {
        QTemporaryDir dir;
        const QString sample = QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns");
        const Run empty_generate = cli({"generate", "--dims", "5,5,5", "--nnz", "10", "-o", ""});
        QCOMPARE(empty_generate.status, 2);
        QVERIFY2(empty_generate.err.contains("the output file's name is empty"), empty_generate.err.constData());
        QCOMPARE(cli({"convert", sample, ""}).status, 2);
        const Run empty_write = cli({"decompose", sample, "--rank", "2", "--write", ""});
        QCOMPARE(empty_write.status, 2);
        QVERIFY2(empty_write.err.contains("--write: the folder's name is empty"), empty_write.err.constData());
        QElapsedTimer clock;
        clock.start();
        const Run missing =
            cli({"generate", "--dims", "1000,1000,1000", "--nnz", "50000000", "-o", dir.filePath("no/x.tns")});
        QCOMPARE(missing.status, 2);
        QVERIFY2(missing.err.contains("its folder"), missing.err.constData());
        QVERIFY2(clock.elapsed() < 20000, "generate made the tensor before it looked at where it goes");
        // an output inside the --perm-out folder the run makes (review 70 R1: refused as a missing folder)
        const Run into = cli({"reorder", sample, dir.filePath("out/x.tns"), "--perm-out", dir.filePath("out")});
        QVERIFY2(into.status == 0 && QFileInfo::exists(dir.filePath("out/mode1.perm")), into.err.constData());
        const QString longest = dir.filePath(QString(251, 'h') + ".tns");
        const Run written = cli({"convert", sample, longest});
        QVERIFY2(written.status == 0, written.err.constData());
        QVERIFY(QFileInfo::exists(longest));
    }

    // Sweep 70b B1: what could not be written to stdout (a full disk, a closed stdout) is a
    // failure, said on stderr; it exited 0 with the document lost.
    void anUnwritableStandardOutputFails() {
        const QString sample = QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns");
        QProcess full;
        full.setStandardOutputFile("/dev/full");
        full.start(TS_BIN_DIR "/tensorscope-cli", {"info", sample, "--json"});
        QVERIFY(full.waitForFinished(60000));
        QCOMPARE(full.exitCode(), 1);
        QVERIFY2(full.readAllStandardError().contains("cannot write the standard output"), "no word on stderr");
        QProcess closed;  // >&- : fd 1 closed, so the first file opened would have taken its number
        closed.start("/bin/sh", {"-c", "exec \"$0\" info \"$1\" --json >&-", TS_BIN_DIR "/tensorscope-cli", sample});
        QVERIFY(closed.waitForFinished(60000));
        QCOMPARE(closed.exitCode(), 1);
        QVERIFY(closed.readAllStandardError().contains("cannot write the standard output"));
    }

    // Sweep 70b B2/B4: a file name that is not UTF-8 prints in the JSON as U+FFFD (the dump
    // threw after the whole run); "--" ends the options, so a name may start with '-'.
    void oddFileNames() {
        QTemporaryDir dir;
        const QByteArray sample = TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns";
        QVERIFY(std::filesystem::copy_file(sample.toStdString(), dir.path().toStdString() + "/t\xff.tns"));
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.start("/bin/sh", {"-c", "exec \"$0\" info \"$(printf 't\\377.tns')\" --json", TS_BIN_DIR "/tensorscope-cli"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const Run named{0, p.readAllStandardOutput(), {}};
        QCOMPARE(json(named)["file"].toString(), QString("t\uFFFD.tns"));
        QVERIFY(QFile::copy(QString::fromUtf8(sample), dir.filePath("-lead.tns")));
        // the name alone, as a script gives it: run from the folder
        QProcess q;
        q.setWorkingDirectory(dir.path());
        q.start(TS_BIN_DIR "/tensorscope-cli", {"info", "--", "-lead.tns"});
        QVERIFY(q.waitForFinished(60000));
        QCOMPARE(q.exitCode(), 0);
        QVERIFY(q.readAllStandardOutput().contains("-lead.tns"));
        // QTemporaryDir cannot name the non-UTF-8 file to remove it: it left the folder behind
        std::filesystem::remove(dir.path().toStdString() + "/t\xff.tns");
    }

    // Sweep 70b B15: a run ended by SIGPIPE (`| head -1`) removes the --write folder it made,
    // as SIGINT and SIGTERM do; a thousand iterations' lines overflow the pipe, so the signal
    // comes. Sweep 70b B16: restarts are numbered from 1 in the JSON, as in the text.
    void aBrokenPipeCleansUpAndStartsCountFromOne() {
        QTemporaryDir dir;
        const QString made = dir.filePath("made");
        QProcess p;
        // SIGPIPE at its default: this process may ignore it (Qt's sockets set that), and an
        // ignored one stays ignored in the CLI, which then writes on into EPIPE
        p.setChildProcessModifier([] { ::signal(SIGPIPE, SIG_DFL); });
        p.start("/bin/sh",
                {"-c", "\"$0\" decompose \"$1\" --rank 2 --iters 1000 --tol 0 --write \"$2\" | head -1 >/dev/null",
                 TS_BIN_DIR "/tensorscope-cli", TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns", made});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(!QFileInfo::exists(made), "the --write folder outlived the run");
        const QJsonObject restarts = json(cli({"decompose", TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns", "--rank", "2",
                                               "--iters", "3", "--restarts", "2", "--json"}));
        QCOMPARE(restarts["starts"].toArray().first().toObject()["start"].toInt(), 1);
        const int best = restarts["best_start"].toInt();
        QVERIFY(best == 1 || best == 2);
    }

    // Sweep 70b B17: a file name's newline or escape is written escaped, so the error stays one
    // line and sends the terminal nothing.
    void anErrorIsOneLineWhateverTheName() {
        const Run r = cli({"info", "no\nsuch\x1b[31m.tns"});
        QCOMPARE(r.status, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains("no\\nsuch\\x1b[31m.tns"), r.err.constData());
    }

    // A FIFO named as a .tsb to read in parts is refused at once, as no regular file; its
    // open() waited for a writer for ever (sweep 66a F13).
    void aFifoIsRefusedWhereAFileIsReadInParts() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("f.tsb");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        for (const char* command : {"info", "formats"}) {
            const Run r = cli({command, fifo, "--streamed"});
            QVERIFY2(r.status == 2 && r.err.contains("not a regular file"), r.err.constData());
        }
    }

    // A memory-mapped .tsb shortened by another program while it is read raises SIGBUS: the CLI
    // says so and exits 2, where it died with no word (sweep 66a F3). Sent here while the CLI
    // waits on its standard input, so that the test does not race a truncation.
    void aBusErrorIsSaidInWords() {
        QProcess p;
        p.start(TS_BIN_DIR "/tensorscope-cli", {"info", "-"});
        QVERIFY(p.waitForStarted());
        QTest::qWait(300);  // past main's first lines, where the handler is installed
        // a CLI already gone has pid 0, and kill(0) would signal this test's whole process group
        QVERIFY2(p.processId() > 0, p.readAllStandardError().constData());
        QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGBUS), 0);
        QVERIFY(p.waitForFinished(30000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 2, err.constData());
        QVERIFY2(err.startsWith("error: a file being read ended early"), err.constData());
    }

    // decompose checks its GPU options' values before it looks for a GPU, as bench and pipeline
    // do: a bad value is bad input (2) on any machine, where it had said "no CUDA device" (1)
    // without one (sweep 66a F8).
    void decomposeChecksGpuValuesBeforeTheGpu() {
        const QString file = QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns");
        for (const QStringList& bad :
             {QStringList{"--streams", "0"}, QStringList{"--limit-gpu-memory", "abc"}, QStringList{"--gpus", "0"},
              QStringList{"--rank", "0"}, QStringList{"--init", "bogus"}}) {  // the last two: sweep 66c
            const Run r = cli(QStringList{"decompose", file, "--backend", "cuda"} + bad);
            QVERIFY2(r.status == 2 && r.err.contains(bad.front().toUtf8()), qPrintable(bad.join(' ') + ": " + r.err));
        }
    }

    // Out of memory while a block of the text is formatted, on an OpenMP worker, says so as
    // anywhere else; it escaped the parallel region and ended the program (SIGABRT, sweep 66a
    // F4). 3M nonzeros as text take about 100 MB beyond the tensor's 42, which a 500 MB address
    // space does not leave. (OpenBLAS's idle worker, whose buffer retries had hung the exit under
    // so small a limit, is no longer started there: the CLI sets OPENBLAS_NUM_THREADS=1 itself.)
    void outOfMemoryWhileFormattingTextSaysSo() {
        TS_SKIP_UNDER_ASAN("AddressSanitizer's shadow memory does not start under a 500 MB address space");
        QTemporaryDir dir;
        const QString tsb = dir.filePath("big.tsb"), tns = dir.filePath("big.tns");
        QCOMPARE(cli({"generate", "--dims", "20000,15000,10000", "--nnz", "3M", "--seed", "9", "-o", tsb}).status, 0);
        QProcess p;
        p.start("/bin/sh", {"-c", "unset OPENBLAS_NUM_THREADS; ulimit -v 500000 && exec \"$0\" convert \"$1\" \"$2\"",
                            TS_BIN_DIR "/tensorscope-cli", tsb, tns});
        QVERIFY(p.waitForFinished(120000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 1, err.constData());
        QVERIFY2(err.startsWith("error: out of memory in convert"), err.constData());
        QVERIFY(!QFileInfo::exists(tns));
    }

    // Sweep 65: results that overflow fail their check and say why. SpTV's check had passed
    // them with an error of 0, and a failed check exited 1 with nothing on stderr; in JSON an
    // infinite error is null, as an unchecked one is, and check_passed tells them apart.
    void aCheckThatFailsSaysSo() {
        QTemporaryDir dir;
        QFile f(dir.filePath("huge.tns"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 1; i <= 3; ++i)
            for (int j = 1; j <= 3; ++j)
                for (int k = 1; k <= 3; ++k)
                    f.write(QStringLiteral("%1 %2 %3 1.7e308\n").arg(i).arg(j).arg(k).toUtf8());
        f.close();
        const QString path = dir.filePath("huge.tns");
        const Run r = cli({"bench", path, "--kernel", "sptv", "--format", "COO", "--backend", "cpu-ref,omp", "--mode",
                           "1", "--check", "--repeat", "1", "--jsonl"});
        QCOMPARE(r.status, 1);
        QVERIFY2(
            r.err.contains("error: check failed: sptv COO on omp, mode 1: max relative error inf against cpu-ref") &&
                r.err.contains("cpu-ref's own results hold inf or NaN"),
            r.err.constData());
        QVERIFY2(r.out.contains("\"max_rel_error\":null") && r.out.contains("\"check_passed\":false"),
                 r.out.constData());
        const Run fine = cli({"bench", TS_SAMPLES_DIR "/jf17k-4d.tns.gz", "--kernel", "sptv", "--format", "COO",
                              "--backend", "omp", "--mode", "1", "--check", "--repeat", "1", "--jsonl"});
        QCOMPARE(fine.status, 0);
        QVERIFY2(fine.out.contains("\"check_passed\":true") && fine.err.isEmpty(), fine.err.constData());
    }

    // Sweep 65: shapes past 64 bits are said in their own terms. advise printed "moves 0 B" (a
    // double past 2^64 cast to an integer) and ranked a run bench refuses without a word;
    // HOCSR's refusal printed a partial product of the dims; BLCO's was ALTO's message; HiCOO
    // on 13 modes was refused for a helper tensor of 26 modes; a second "# dims:" comment won
    // silently; bench on a tensor of zeros ran no row and exited 0.
    void extremeShapesAreSaidInTheirOwnTerms() {
        QTemporaryDir dir;
        auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(text);
            return dir.filePath(name);
        };
        const QString big = write("big.tns",
                                  "# dims: 1099511627776 1099511627776 1099511627776 1099511627776 "
                                  "1099511627776 1099511627776 1099511627776 1099511627776\n"
                                  "5 6 7 8 9 10 11 12 1.5\n1099511627775 1 2 3 4 5 6 7 2.5\n");
        const QString huge = write("huge.tns",
                                   "# dims: 9223372036854775808 9223372036854775808 9223372036854775808 "
                                   "9223372036854775808 9223372036854775808\n"
                                   "1 2 3 4 5 1.5\n9223372036854775807 1 2 3 4 2.5\n");
        const Run advise = cli({"advise", huge, "--kernel", "mttkrp"});
        QCOMPARE(advise.status, 0);
        QVERIFY2(advise.out.contains("this run cannot be held here, and bench would refuse it") &&
                     !advise.out.contains(" 0 B ") && advise.out.contains(" ZB "),
                 advise.out.constData());
        const Run formats = cli({"formats", big, "--format", "HOCSR,BLCO"});
        QVERIFY2(formats.out.contains("would need 1.94e+84 row pointers") &&
                     formats.out.contains("BLCO: the modes need 320 bits") && !formats.out.contains("ALTO:"),
                 formats.out.constData());
        QByteArray line13;  // 13 modes of 32: a HiCOO block key of 65 bits
        for (int m = 0; m < 13; ++m) line13 += QByteArray::number(m % 2 ? 32 : 1 + m) + " ";
        const QString wide = write("wide.tns", "# dims: 32 32 32 32 32 32 32 32 32 32 32 32 32\n" + line13 + "1.0\n" +
                                                   QByteArray("1 2 3 4 5 6 7 8 9 10 11 12 13 2.0\n"));
        const Run hicoo = cli({"formats", wide, "--format", "HiCOO", "--verify"});
        QVERIFY2(hicoo.status == 0 && hicoo.out.contains("exact"), hicoo.out.constData());
        const Run twice = cli({"info", write("twice.tns", "# dims: 2 2 2\n# dims: 3 3 3\n1 1 1 1.0\n")});
        QCOMPARE(twice.status, 2);
        QVERIFY2(twice.err.contains("twice.tns:2:1: a second '# dims:' comment gives other dims"),
                 twice.err.constData());
        QCOMPARE(cli({"info", write("same.tns", "# dims: 3 3 3\n# dims: 3 3 3\n1 1 1 1.0\n")}).status, 0);
        // SpTV makes only the vectors of the modes asked for (it made every mode's, and a rank-R
        // factor of each): a 1e12-long mode 3 is no obstacle to mode 1, and is named for mode 3
        const QString longMode = write("long.tns", "# dims: 2 3 1000000000000\n1 1 5 1.0\n2 3 9 2.0\n");
        QCOMPARE(cli({"bench", longMode, "--kernel", "sptv", "--mode", "1", "--format", "COO", "--repeat", "1"}).status, 0);
        const Run third = cli({"bench", longMode, "--kernel", "sptv", "--mode", "3", "--format", "COO", "--repeat", "1"});
        QCOMPARE(third.status, 2);
        QVERIFY2(third.err.contains("mode 3 has 1,000,000,000,000 indices; its vector and its copy would need"),
                 third.err.constData());
        const Run zeros = cli({"bench", write("zeros.tns", "1 1 1 0\n2 2 2 0\n"), "--check"});
        QCOMPARE(zeros.status, 2);
        QVERIFY2(zeros.err.contains("the tensor has no nonzeros (its 2 entries were all 0, duplicates summed, and left "
                                    "out): nothing to benchmark"),
                 zeros.err.constData());
        // formats says it once too (each of 29 rows had said "no nonzeros", exit 0: sweep 71b)
        const Run noFormats = cli({"formats", write("zeros2.tns", "1 1 1 0\n2 2 2 0\n")});
        QVERIFY2(
            noFormats.status == 2 && noFormats.err.contains("nothing to store in a format") && noFormats.out.isEmpty(),
            noFormats.err.constData());
    }

    // Sweep 64: pipeline, which needs a GPU, says a wrong file name first (exit 2), not "no
    // CUDA device" (exit 1).
    void aWrongNameIsSaidBeforeAMissingGpu() {
        const Run r = cli({"pipeline", "nope.tns"});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("cannot open 'nope.tns'"), r.err.constData());
    }

    // Rows refused for one reason share its note: without a GPU, 18 cuda rows had 18 notes of one
    // sentence
    void oneReasonIsOneNote() {
        if (tscope::query_gpu().available) QSKIP("this machine has a GPU: the cuda rows run");
        const Run r = cli({"bench", QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"), "--backend", "cuda", "--format",
                           "COO,CSF", "--repeat", "1"});
        QCOMPARE(r.out.count("not run [1]"), 8);  // 2 formats x 4 modes
        QVERIFY2(r.out.contains("\n[1] no CUDA device") && !r.out.contains("[2]"), r.out.constData());
    }

    // More threads than the machine runs at once are taken, and said (1000 on 2 cores made a
    // 0.1 s MTTKRP take 9 s, silently)
    void tooManyThreadsAreSaid() {
        const Run r = cli({"info", QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns"), "--threads", "4096"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.err.contains("warning: --threads 4096 is more than the "), r.err.constData());
        QVERIFY(!cli({"info", QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns"), "--threads", "1"})
                     .err.contains("warning"));
    }

    // One nonzero, one duplicate: said in the singular ("1 duplicates summed" had read wrong)
    void countsOfOneAreSingular() {
        QTemporaryDir dir;
        const QString tns = dir.filePath("one.tns"), tsb = dir.filePath("one.tsb");
        QVERIFY(tstest::write_file(tns, "1 1 1 1.0\n1 1 1 2.0\n"));
        const Run converted = cli({"convert", tns, tsb});
        QCOMPARE(converted.status, 0);
        QVERIFY2(converted.err.contains(": order 3, 1 nonzero, 1 duplicate summed"), converted.err.constData());
        const Run bench = cli({"bench", tsb, "--format", "COO", "--repeat", "1"});
        QCOMPARE(bench.status, 0);
        QVERIFY2(bench.out.contains(": 1 nonzero; "), bench.out.constData());
    }

    // Issue 20: a refusal's reason goes under the table, marked in its row, instead of widening
    // the last column for every row.
    void refusalsAreNotesUnderTheTable() {
        const QString jf17k = QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz");
        const Run r = cli({"bench", jf17k, "--kernel", "sptv", "--mode", "1", "--format", "HOCSR,CSF", "--repeat", "1"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.contains("not run [1]"), r.out.constData());
        QVERIFY2(r.out.contains("\n[1] HOCSR with its rows over modes 2,3,4 (mode 1 last)"), r.out.constData());
        QVERIFY2(r.out.contains("would need 1,536,800,252,460 row pointers"), r.out.constData());  // grouped, sweep 72b
        for (const QByteArray& line : r.out.split('\n'))
            if (line.startsWith("sptv")) QVERIFY2(line.size() < 120, line.constData());
    }

    // Issue 18: the catalog lists every FROSTT tensor with the cache's state; an unknown name
    // is a bad input that names the closest ones.
    void fetchListsTheCatalog() {
        QTemporaryDir cache;
        const Run list = cli({"fetch", "--list", "--json", "--cache", cache.path()});
        QCOMPARE(list.status, 0);
        const QJsonArray sets = json(list)["datasets"].toArray();
        QVERIFY(sets.size() >= 15);
        bool nell2 = false;
        for (const auto& v : sets) {
            const QJsonObject o = v.toObject();
            QCOMPARE(o["state"].toString(), QString("not fetched"));
            if (o["name"].toString() == "nell-2") nell2 = o["nnz"].toInteger() == 76879419 && dims(o) == QList<qint64>({12092, 9184, 28818});
        }
        QVERIFY(nell2);
        const Run unknown = cli({"fetch", "nel-2", "--cache", cache.path()});
        QCOMPARE(unknown.status, 2);
        QVERIFY2(unknown.err.contains("closest: nell-2"), unknown.err.constData());
        QCOMPARE(cli({"fetch", "--cache", cache.path()}).status, 2);  // neither a NAME nor --list
        const Run folder = cli({"fetch", "--list", "--catalog", cache.path(), "--cache", cache.path()});
        QCOMPARE(folder.status, 2);  // was exit 1 with libstdc++'s "basic_filebuf::underflow"
        QVERIFY2(folder.err.contains("a folder, not a catalog file"), folder.err.constData());
    }

    // Issue 18, item 3 (progress): convert draws its stage, share and time left on stderr where
    // that is a terminal (TS_PROGRESS=1 stands in for one here) and stays silent otherwise.
    void convertShowsProgressOnATerminal() {
        QTemporaryDir dir;
        const QString in = TS_SAMPLES_DIR "/jf17k-4d.tns.gz";
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("TS_PROGRESS", "1");
        p.setProcessEnvironment(env);
        p.start(TS_BIN_DIR "/tensorscope-cli", {"convert", in, dir.filePath("a.tsb")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("\r") && err.contains("100%"), err.constData());
        const Run quiet = cli({"convert", in, dir.filePath("b.tsb")});  // stderr is a pipe: no progress
        QCOMPARE(quiet.status, 0);
        QVERIFY2(!quiet.err.contains("\r") && quiet.err.startsWith("converted "), quiet.err.constData());
    }

    // Issue 18, item 2: info --streamed reads a .tsb in blocks and reports the loaded run's
    // slice figures, without fibers; it refuses what is not a .tsb, and --part-nnz alone.
    // info tells the values as the file stores them: a convert --float .tsb holds floats (it
    // said "double values", sweep 71b); --float still asks for floats from any file
    void infoTellsTheStoredValueType() {
        QTemporaryDir dir;
        const QString tsb = dir.filePath("f.tsb");
        QCOMPARE(cli({"convert", TS_SAMPLES_DIR "/jf17k-4d.tns.gz", tsb, "--float"}).status, 0);
        const Run f = cli({"info", tsb});
        QVERIFY2(f.status == 0 && f.out.contains("float values") && !f.out.contains("double values"),
                 f.out.constData());
        const Run d = cli({"info", TS_SAMPLES_DIR "/jf17k-4d.tns.gz"});
        QVERIFY2(d.out.contains("double values"), d.out.constData());
        QVERIFY(cli({"info", TS_SAMPLES_DIR "/jf17k-4d.tns.gz", "--float"}).out.contains("float values"));
    }

    void infoStreamedMatchesTheLoadedFigures() {
        QTemporaryDir dir;
        const QString tsb = dir.filePath("t.tsb");
        QCOMPARE(cli({"generate", "--dims", "300,200,100", "--nnz", "20000", "--dist", "powerlaw:1.1", "-o", tsb}).status, 0);
        const Run loaded = cli({"info", tsb, "--json"});
        const Run streamed = cli({"info", tsb, "--streamed", "--part-nnz", "777", "--json"});
        QCOMPARE(streamed.status, 0);
        const QJsonObject a = json(loaded), b = json(streamed);
        QCOMPARE(b["nnz"].toInteger(), a["nnz"].toInteger());
        QCOMPARE(b["parts"].toInteger(), qint64(26));
        QCOMPARE(b["fibers_computed"].toBool(true), false);
        for (int m = 0; m < 3; ++m) {
            const QJsonObject ma = a["modes"].toArray()[m].toObject(), mb = b["modes"].toArray()[m].toObject();
            QCOMPARE(mb["slices"].toInteger(), ma["slices"].toInteger());
            QCOMPARE(mb["slice_nnz"].toObject()["max"].toInteger(), ma["slice_nnz"].toObject()["max"].toInteger());
            QCOMPARE(mb["slice_nnz"].toObject()["log2_histogram"].toArray(), ma["slice_nnz"].toObject()["log2_histogram"].toArray());
        }
        QCOMPARE(cli({"info", TS_SAMPLES_DIR "/jf17k-4d.tns.gz", "--streamed"}).status, 2);  // not a .tsb
        QCOMPARE(cli({"info", tsb, "--part-nnz", "10"}).status, 2);
        const Run tiny =
            cli({"info", tsb, "--streamed", "--part-nnz", "1"});  // minutes of per-part work (sweep 66a F12)
        QVERIFY2(tiny.status == 2 && tiny.err.contains("at least 100"), tiny.err.constData());
        // --sketch-fibers: mode 1's fibers estimated, the others' counted exactly (the file is in slice order)
        const QJsonObject c = json(cli({"info", tsb, "--streamed", "--part-nnz", "777", "--sketch-fibers", "--json"}));
        QVERIFY(c["fibers_computed"].toBool(false));
        QVERIFY(!c["modes"].toArray()[0].toObject().contains("fibers"));
        QVERIFY(c["modes"].toArray()[0].toObject().contains("fibers_estimate"));
        for (int m = 1; m < 3; ++m) {
            const QJsonObject ma = a["modes"].toArray()[m].toObject(), mc = c["modes"].toArray()[m].toObject();
            QCOMPARE(mc["fibers"].toInteger(), ma["fibers"].toInteger());
            QCOMPARE(mc["fiber_nnz"].toObject()["max"].toInteger(), ma["fiber_nnz"].toObject()["max"].toInteger());
            QCOMPARE(mc["fiber_nnz"].toObject()["log2_histogram"].toArray(), ma["fiber_nnz"].toObject()["log2_histogram"].toArray());
        }
        // as text: mode 1's estimated figures marked ~, its longest fiber a lower bound (>=); the
        // counted modes' rows unmarked
        const Run text = cli({"info", tsb, "--streamed", "--part-nnz", "777", "--sketch-fibers"});
        QCOMPARE(text.status, 0);
        const QList<QByteArray> lines = text.out.split('\n');
        const auto row = [&](const char* mode) {
            for (const QByteArray& l : lines)
                if (l.startsWith(QByteArray(mode) + "     ")) return l;
            return QByteArray();
        };
        QVERIFY2(QRegularExpression(R"(~[0-9,]+ +~[0-9.]+ / ~[0-9.]+ / >=[0-9,]+$)")
                     .match(QString::fromUtf8(row("1")))
                     .hasMatch(),
                 row("1").constData());
        QVERIFY2(!row("2").isEmpty() && !row("2").contains('~') && !row("2").contains(">="), row("2").constData());
    }

    // Issue 18, item 2: formats --streamed predicts each format's bytes from counts over the
    // file: the built bytes where the prediction is exact (CSF rooted at mode 1, COO), MM-CSF
    // not determined and said why; --verify and --reorder need the tensor loaded (exit 2).
    void formatsStreamedPredictsTheStorage() {
        QTemporaryDir dir;
        const QString tsb = dir.filePath("t.tsb");
        QCOMPARE(cli({"generate", "--dims", "300,200,100", "--nnz", "20000", "--dist", "powerlaw:1.1", "-o", tsb}).status, 0);
        const QJsonObject built = json(cli({"formats", tsb, "--format", "CSF,COO", "--json"}));
        const Run run = cli({"formats", tsb, "--streamed", "--part-nnz", "5000", "--json"});
        QCOMPARE(run.status, 0);
        const QJsonObject streamed = json(run);
        QCOMPARE(streamed["streamed"].toBool(), true);
        bool mmcsf = false;
        for (const auto& p : streamed["formats"].toArray()) {
            const QJsonObject po = p.toObject();
            if (po["name"] == QStringLiteral("MM-CSF")) {
                mmcsf = true;
                QCOMPARE(po["prediction"].toString(), QStringLiteral("none"));
                QVERIFY(po["error"].toString().contains("MM-CSF places each nonzero"));
            }
            for (const auto& b : built["formats"].toArray()) {
                const QJsonObject bo = b.toObject();
                if (bo["name"] != po["name"] || bo["mode"] != po["mode"] || po["prediction"] != QStringLiteral("exact")) continue;
                QCOMPARE(po["bytes"].toInteger(), bo["bytes"].toInteger());
            }
        }
        QVERIFY(mmcsf);
        const Run text = cli({"formats", tsb, "--streamed", "--part-nnz", "5000", "--format", "CSF"});
        QVERIFY2(text.out.contains("exact") && text.out.contains("never whole"), text.out.constData());
        QCOMPARE(cli({"formats", tsb, "--streamed", "--verify"}).status, 2);
        QCOMPARE(cli({"formats", tsb, "--streamed", "--reorder", "lexi"}).status, 2);
        QCOMPARE(cli({"formats", tsb, "--part-nnz", "10"}).status, 2);
        const Run small =
            cli({"formats", tsb, "--streamed", "--part-nnz", "100"});  // powerlaw's first slices hold thousands
        QCOMPARE(small.status, 2);
        QVERIFY2(small.err.contains(" of mode 1 holds more than 400 nonzeros") &&
                     small.err.contains("read in larger parts (--part-nnz)"),
                 small.err.constData());
    }

    // Issue 18: `fetch NAME` downloads the catalog's file (from a server of this test's own on
    // 127.0.0.1, on a thread of its own while the CLI runs), converts it once to NAME.tsb and
    // removes the download; a second fetch finds it ready without a request; a server error is
    // exit 1 naming the URL, with nothing ready.
    void fetchDownloadsAndConverts() {
#ifndef TS_FETCH_DOWNLOADS
        QSKIP("this build has no Qt Network (the GUI is off), so fetch cannot download");
#else
        QTemporaryDir dir;
        tscope::GeneratorSpec spec;
        spec.dims = {30, 20, 10};
        spec.nnz = 1500;
        const tscope::CooTensor t = tscope::generate_tensor(spec);
        tscope::save_tensor(t, dir.filePath("sample.tns.gz").toStdString());
        const QByteArray gz = file_bytes(dir.filePath("sample.tns.gz"));

        QThread thread;
        QObject context;
        context.moveToThread(&thread);
        thread.start();
        tstest::LocalHttpServer* server = nullptr;
        QMetaObject::invokeMethod(&context, [&] {
            server = new tstest::LocalHttpServer;
            server->serve("/tiny.tns.gz", gz);
            server->serve("/login", "<html><body>Login</body></html>\n");
        }, Qt::BlockingQueuedConnection);
        auto entry = [&](const QString& name, const QString& path) {
            return QString(R"({"name": "%1", "order": 3, "dims": [30, 20, 10], "nnz": %2, "tensors": [{"url": "%3"}]})")
                .arg(name)
                .arg(t.nnz())
                .arg(server->url(path).toString());
        };
        const QString catalog = dir.filePath("catalog.json"), cache = dir.filePath("cache");
        QFile f(catalog);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QString(R"({"tensors": [%1, %2, %3]})")
                    .arg(entry("tiny", "/tiny.tns.gz"), entry("broken", "/broken"), entry("login", "/login"))
                    .toUtf8());
        f.close();

        const Run fetched = cli({"fetch", "tiny", "--catalog", catalog, "--cache", cache});
        QCOMPARE(fetched.status, 0);
        QVERIFY2(fetched.out.contains("tiny: ready at"), fetched.out.constData());
        QVERIFY2(fetched.err.contains("downloaded") || fetched.err.contains("fetching"), fetched.err.constData());
        QCOMPARE(tscope::load_tensor(QDir(cache).filePath("tiny.tsb").toStdString()).tensor.nnz(), t.nnz());
        QVERIFY(!QFile::exists(QDir(cache).filePath("tiny.tns.gz")));
        const Run again = cli({"fetch", "tiny", "--catalog", catalog, "--cache", cache, "--json"});
        QCOMPARE(again.status, 0);
        QCOMPARE(json(again)["state"].toString(), QString("ready"));

        const Run broken = cli({"fetch", "broken", "--catalog", catalog, "--cache", cache});
        QCOMPARE(broken.status, 1);
        QVERIFY2(broken.err.contains("/broken: HTTP 500"), broken.err.constData());
        QVERIFY(!QFile::exists(QDir(cache).filePath("broken.tsb")));
        // a download that is not the tensor (a login page) is removed, so each fetch asks again
        for (int attempt = 0; attempt < 2; ++attempt) {
            const Run login = cli({"fetch", "login", "--catalog", catalog, "--cache", cache});
            QCOMPARE(login.status, 2);
            QVERIFY2(login.err.contains("login.tns.gz:1:1") && login.err.contains("the download is removed"),
                     login.err.constData());
            QVERIFY(!QFile::exists(QDir(cache).filePath("login.tns.gz")));
        }
        // a server that stops sending is given up on, what arrived kept for a resume (it waited
        // until Ctrl-C, sweep 73a)
        QMetaObject::invokeMethod(
            &context, [&] { server->stallAfter = 100; }, Qt::BlockingQueuedConnection);
        qputenv("TENSORSCOPE_FETCH_STALL_S", "2");
        const QString stalledCache = dir.filePath("stalled");
        const Run stalled = cli({"fetch", "tiny", "--catalog", catalog, "--cache", stalledCache});
        qunsetenv("TENSORSCOPE_FETCH_STALL_S");
        QCOMPARE(stalled.status, 1);
        QVERIFY2(stalled.err.contains(
                     "nothing arrived for 2 s, so the download stopped; the 100 bytes fetched so far are kept"),
                 stalled.err.constData());
        QCOMPARE(QFileInfo(QDir(stalledCache).filePath("tiny.tns.gz.part")).size(), 100);
        int requests = 0;
        QMetaObject::invokeMethod(&context, [&] {
            requests = static_cast<int>(server->ranges.size());
            delete server;
        }, Qt::BlockingQueuedConnection);
        QCOMPARE(requests, 5);  // the ready tensor asked for nothing, the login page twice, the stalled once
        thread.quit();
        thread.wait();
#endif
    }

    // Issue 25: reorder writes the relabelled tensor and, per mode, the original id of every new
    // index; through those files every entry maps back onto the input's. Bad methods and an
    // output onto the input are refused before any work.
    void reorderWritesTensorAndPermutations() {
        QTemporaryDir dir;
        const QString in = TS_SAMPLES_DIR "/jf17k-4d.tns.gz", out = dir.filePath("r.tsb"), perms = dir.filePath("perms");
        const Run r = cli({"reorder", in, out, "--method", "degree", "--perm-out", perms, "--json"});
        QCOMPARE(r.status, 0);
        QCOMPARE(json(r)["method"].toString(), QString("degree"));
        const tscope::CooTensor before = tscope::load_tensor(in.toStdString()).tensor;
        const tscope::CooTensor after = tscope::load_tensor(out.toStdString()).tensor;
        std::vector<std::vector<std::uint64_t>> old_of_new(std::size_t(after.order()));
        for (int m = 0; m < after.order(); ++m) {
            std::ifstream f(QString("%1/mode%2.perm").arg(perms).arg(m + 1).toStdString());
            for (std::uint64_t id; f >> id;) old_of_new[std::size_t(m)].push_back(id - 1);
            QCOMPARE(old_of_new[std::size_t(m)].size(), std::size_t(after.dim(m)));
        }
        std::map<std::vector<std::uint64_t>, double> mapped;
        for (const auto& [coord, value] : tstest::as_map(after)) {
            std::vector<std::uint64_t> old = coord;
            for (std::size_t m = 0; m < old.size(); ++m) old[m] = old_of_new[m][coord[m]];
            mapped[old] = value;
        }
        QVERIFY(mapped == tstest::as_map(before));
        QCOMPARE(cli({"reorder", in, dir.filePath("x.tsb"), "--method", "sorted"}).status, 2);
        const Run lexi = cli({"reorder", in, dir.filePath("lexi.tsb"), "--method", "lexi", "--iters", "3", "--json"});
        QVERIFY2(lexi.status == 0, lexi.err.constData());
        QVERIFY(json(lexi)["iterations"].toInt() >= 1 && json(lexi)["iterations"].toInt() <= 3);
        // Lexi-Order ran from both starts and kept the one with fewer HiCOO blocks, which the
        // written tensor has
        const double from_file = json(lexi)["blocks_from_file"].toDouble(),
                     from_degree = json(lexi)["blocks_from_degree"].toDouble();
        QVERIFY(from_file > 0 && from_degree > 0);
        QCOMPARE(json(lexi)["start"].toString(), QString(from_degree < from_file ? "degree" : "file"));
        const Run blocks = cli({"formats", dir.filePath("lexi.tsb"), "--format", "HiCOO", "--json"});
        QVERIFY2(blocks.status == 0, blocks.err.constData());
        double written = -1;
        for (const QJsonValue a : json(blocks)["formats"].toArray()[0].toObject()["arrays"].toArray())
            if (a.toObject()["name"].toString() == QLatin1String("bptr"))
                written = a.toObject()["elements"].toDouble() - 1;
        QCOMPARE(written, std::min(from_file, from_degree));
        QCOMPARE(cli({"reorder", in, dir.filePath("x.tsb"), "--method", "lexi", "--iters", "0"}).status, 2);
        QCOMPARE(cli({"reorder", out, out}).status, 2);
        QVERIFY(!QFile::exists(dir.filePath("x.tsb")));
        // a folder where a permutation goes is refused before any work: it failed after the
        // tensor was written, and left it
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("pq/mode1.perm")));
        const Run folder = cli({"reorder", in, dir.filePath("y.tns"), "--perm-out", dir.filePath("pq")});
        QCOMPARE(folder.status, 2);
        QVERIFY2(folder.err.contains("is not a regular file"), folder.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("y.tns")));
    }

    // reorder keeps the values as the input stores them: a float .tsb stays float (session 79
    // relabelled a 140M-nonzero float .tsb into doubles, a file a fifth larger), text stays
    // double, and --float writes fp32 from either; the tensor is the same each way.
    void reorderKeepsTheStoredValueType() {
        QTemporaryDir dir;
        const QString gz = TS_SAMPLES_DIR "/jf17k-4d.tns.gz", f = dir.filePath("f.tsb");
        const QString from_float = dir.filePath("a.tsb"), from_text = dir.filePath("b.tsb"),
                      forced = dir.filePath("c.tsb");
        QCOMPARE(cli({"convert", gz, f, "--float"}).status, 0);
        QCOMPARE(cli({"reorder", f, from_float}).status, 0);
        QCOMPARE(cli({"reorder", gz, from_text}).status, 0);
        QCOMPARE(cli({"reorder", gz, forced, "--float"}).status, 0);
        QVERIFY(cli({"info", from_float}).out.contains("float values"));
        QVERIFY(cli({"info", from_text}).out.contains("double values"));
        QVERIFY(cli({"info", forced}).out.contains("float values"));
        QVERIFY(QFileInfo(from_float).size() < QFileInfo(from_text).size());
        const auto text_map = tstest::as_map(tscope::load_tensor(from_text.toStdString()).tensor);
        QVERIFY(tstest::as_map(tscope::load_tensor(from_float.toStdString()).tensor) == text_map);
        QVERIFY(tstest::as_map(tscope::load_tensor(forced.toStdString()).tensor) == text_map);
    }

    // --reorder on decompose, bench and formats (issue 25): the work runs on the relabelled
    // tensor, and what is written is in the original ids: decompose's factors give the reported
    // fit on the original tensor, bench reads --factors and writes its MTTKRP in original ids.
    void reorderOptionKeepsTheOriginalIds() {
        QTemporaryDir dir;
        const tscope::CooTensor t = tstest::random_tensor({14, 11, 9}, 400, 7, tscope::Distribution::PowerLaw);
        const QString file = dir.filePath("t.tns"), cp = dir.filePath("cpd");
        tscope::save_tensor(t, file.toStdString());
        const Run d = cli({"decompose", file, "--method", "cpd", "--rank", "3", "--iters", "8", "--tol", "0", "--reorder", "lexi",
                           "--write", cp, "--json"});
        QVERIFY2(d.status == 0, d.err.constData());
        QCOMPARE(json(d)["reorder"].toObject()["method"].toString(), QString("lexi"));
        std::vector<tscope::DenseMatrix> factors;
        for (int m = 0; m < 3; ++m)
            factors.push_back(tscope::read_matrix(QString("%1/mode%2.mat").arg(cp).arg(m + 1).toStdString(), t.dim(m), 3));
        const tscope::DenseMatrix lambda = tscope::read_matrix((cp + "/lambda.mat").toStdString(), 3, 1);
        const double fit = tscope::cpd_dense_fit(t, factors, {lambda.data[0], lambda.data[1], lambda.data[2]});
        QVERIFY2(std::fabs(fit - json(d)["fit"].toDouble()) < 1e-9,
                 qPrintable(QString("fit on the original %1, reported %2").arg(fit).arg(json(d)["fit"].toDouble())));
        // bench: --factors in original ids in, the MTTKRP of mode 2 in original ids out
        const QString out = dir.filePath("bench");
        const Run b = cli({"bench", file, "--kernel", "mttkrp", "--format", "CSF", "--backend", "omp", "--mode", "2", "--rank", "3",
                           "--repeat", "1", "--reorder", "bfs-mcs", "--factors", cp, "--write", out, "--json"});
        QVERIFY2(b.status == 0, b.err.constData());
        tscope::DenseMatrix expected(t.dim(1), 3);
        tscope::mttkrp_reference(t, 1, factors, expected);
        const tscope::DenseMatrix got = tscope::read_matrix((out + "/mttkrp_mode2.mat").toStdString(), t.dim(1), 3);
        QVERIFY2(tscope::max_relative_error(got, expected) < 1e-9, "bench --reorder wrote rows in relabelled ids");
        const Run f = cli({"formats", file, "--format", "HiCOO", "--reorder", "degree", "--json"});
        QCOMPARE(f.status, 0);
        QCOMPARE(json(f)["reorder"].toObject()["method"].toString(), QString("degree"));
        QCOMPARE(cli({"formats", file, "--reorder", "sorted"}).status, 2);
        QCOMPARE(cli({"formats", file, "--reorder-iters", "3"}).status, 2);
        // a seed starts where the file's does, relabelled or not: the same fits (random and nvecs
        // CPD, Tucker) and bench's own random factors give the file's results (each differed)
        auto fit_of = [&](QStringList args) {
            const Run r = cli(QStringList{"decompose", file, "--iters", "6", "--tol", "0", "--seed", "5", "--json"} + args);
            return r.status == 0 ? json(r)["fit"].toDouble() : -1.0;
        };
        for (const QStringList& method : {QStringList{"--method", "cpd", "--rank", "3"}, QStringList{"--method", "cpd", "--rank", "3", "--init", "nvecs"},
                                          QStringList{"--method", "tucker", "--rank", "2"}}) {
            const double plain = fit_of(method), relabelled = fit_of(method + QStringList{"--reorder", "random"});
            QVERIFY2(plain >= 0 && std::fabs(plain - relabelled) < 1e-9,
                     qPrintable(QString("%1: %2 against %3 relabelled").arg(method.join(' ')).arg(plain).arg(relabelled)));
        }
        const QString b1 = dir.filePath("b1"), b2 = dir.filePath("b2");
        QCOMPARE(cli({"bench", file, "--kernel", "mttkrp", "--format", "COO", "--mode", "2", "--rank", "3", "--repeat", "1", "--write", b1}).status, 0);
        QCOMPARE(cli({"bench", file, "--kernel", "mttkrp", "--format", "COO", "--mode", "2", "--rank", "3", "--repeat", "1", "--write", b2,
                      "--reorder", "lexi"}).status,
                 0);
        const tscope::DenseMatrix plain = tscope::read_matrix((b1 + "/mttkrp_mode2.mat").toStdString(), t.dim(1), 3);
        QVERIFY(tscope::max_relative_error(tscope::read_matrix((b2 + "/mttkrp_mode2.mat").toStdString(), t.dim(1), 3), plain) < 1e-12);
    }

    void usageAndUnknownThings() {
        QCOMPARE(cli({}).status, 2);
        const Run help = cli({"help"});
        QCOMPARE(help.status, 0);
        QVERIFY(help.out.contains("generate --dims"));
        QCOMPARE(cli({"frobnicate"}).status, 2);
        const Run typo = cli({"info", "x.tns", "--jsn"});
        QCOMPARE(typo.status, 2);
        QVERIFY(typo.err.contains("unknown option --jsn"));
    }

    void generateThenInfoJson() {
        QTemporaryDir dir;
        const QString file = dir.filePath("g.tns");
        const Run g = cli({"generate", "--dims", "30,20,10,5", "--nnz", "2000", "--dist", "powerlaw:1.1", "--seed", "3", "-o", file});
        QVERIFY2(g.status == 0, g.err.constData());
        const Run i = cli({"info", file, "--json"});
        QCOMPARE(i.status, 0);
        const QJsonObject o = json(i);
        QCOMPARE(o["order"].toInt(), 4);
        QCOMPARE(dims(o), (QList<qint64>{30, 20, 10, 5}));
        QCOMPARE(o["nnz"].toInteger(), 2000);
        QCOMPARE(o["density"].toDouble(), 2000.0 / 30000.0);
        // a .tsb stores its indices from 0, as the window says (sweep 70c C14); the text here is 1-based
        QCOMPARE(o["modes"].toArray().first().toObject()["zero_based"].toBool(), false);
        const QString tsb = dir.filePath("g.tsb");
        QCOMPARE(cli({"convert", file, tsb}).status, 0);
        QCOMPARE(json(cli({"info", tsb, "--json"}))["modes"].toArray().first().toObject()["zero_based"].toBool(), true);
        QVERIFY(o["load_seconds"].toDouble() > 0);
        const QJsonArray modes = o["modes"].toArray();
        QCOMPARE(modes.size(), 4);
        QCOMPARE(modes[0].toObject()["mode"].toInt(), 1);  // 1-based on every user-facing surface
        for (const auto& m : modes) {
            QVERIFY(m.toObject()["slices"].toInteger() >= 1);
            QVERIFY(m.toObject()["fibers"].toInteger() >= 1);
            QVERIFY(m.toObject()["fiber_nnz"].toObject().contains("log2_histogram"));
        }
        QVERIFY(o["machine"].toObject().contains("cpu"));
        // the text report too
        const Run text = cli({"info", file});
        QCOMPARE(text.status, 0);
        QVERIFY(text.out.contains("30 x 20 x 10 x 5"));
    }

    void badInputExitsTwoWithPosition() {
        const Run r = cli({"info", QString::fromStdString(tstest::test_data("bad/negative_index.tns"))});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("negative_index.tns:2:3: "), r.err.constData());
        QVERIFY(r.out.isEmpty());
        QCOMPARE(cli({"info", "/nonexistent.tns"}).status, 2);
        QCOMPARE(cli({"generate", "--dims", "4,4", "--nnz", "100", "-o", "/tmp/never.tns"}).status, 2);
        QCOMPARE(cli({"generate", "--dims", "4,x", "--nnz", "1", "-o", "/tmp/never.tns"}).status, 2);
        // found by fuzz_cli_options: was exit 1 with "error: stoull"
        const Run big = cli({"generate", "--dims", "5,5", "--nnz", "3", "--dist", "lowrank:23333333333333333333333", "-o", "/tmp/never.tns"});
        QCOMPARE(big.status, 2);
        QVERIFY2(big.err.contains("too large"), big.err.constData());
        // a name promising another format is refused before the work, and nothing is written
        QTemporaryDir dir;
        const QString csv = dir.filePath("t.csv");
        const Run named = cli({"generate", "--dims", "4,4", "--nnz", "3", "-o", csv});
        QCOMPARE(named.status, 2);
        QVERIFY2(named.err.contains("'.csv' is none of them"), named.err.constData());
        QVERIFY(!QFileInfo::exists(csv));
        const Run trailing = cli({"generate", "--dims", "5,5,", "--nnz", "3", "-o", dir.filePath("t.tns")});
        QCOMPARE(trailing.status, 2);
        QVERIFY2(trailing.err.contains("an entry is empty"), trailing.err.constData());
    }

    // Issue 24, item 9: `-` (stdin) and a FIFO are read in one pass, gzip recognised by its
    // magic bytes; a .tsb there is refused in words (exit 2).
    void stdinAndPipes() {
        QTemporaryDir dir;
        const QString tns = dir.filePath("a.tns"), gz = dir.filePath("a.tns.gz"), tsb = dir.filePath("a.tsb");
        QCOMPARE(cli({"generate", "--dims", "40,30,20", "--nnz", "3000", "--seed", "5", "-o", tns}).status, 0);
        QCOMPARE(cli({"convert", tns, gz}).status, 0);
        QCOMPARE(cli({"convert", tns, tsb}).status, 0);
        const QJsonObject ref = json(cli({"info", tns, "--json"}));

        const Run gz_in = cli_stdin({"info", "-", "--json"}, file_bytes(gz));
        QVERIFY2(gz_in.status == 0, gz_in.err.constData());
        QCOMPARE(json(gz_in)["format"].toString(), QString("tns.gz"));
        QCOMPARE(json(gz_in)["nnz"].toInteger(), 3000);
        QCOMPARE(json(gz_in)["modes"], ref["modes"]);
        QCOMPARE(json(gz_in)["file_bytes"].toInteger(), file_bytes(gz).size());  // it said 0 (sweep 70b B3)

        const QString out = dir.filePath("from-stdin.tns");
        const Run conv = cli_stdin({"convert", "-", out}, file_bytes(tns));
        QVERIFY2(conv.status == 0, conv.err.constData());
        QCOMPARE(json(cli({"info", out, "--json"}))["modes"], ref["modes"]);

        const Run bad = cli_stdin({"info", "-"}, "3 3 1.0\n1 2 x\n");
        QCOMPARE(bad.status, 2);
        QVERIFY2(bad.err.contains("-:2:5: expected a number value"), bad.err.constData());
        const Run tsb_in = cli_stdin({"info", "-"}, file_bytes(tsb));
        QCOMPARE(tsb_in.status, 2);
        QVERIFY2(tsb_in.err.contains("random access"), tsb_in.err.constData());

        const std::string fifo = dir.filePath("fifo").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const QByteArray bytes = file_bytes(gz);
        std::thread writer([&] {
            std::ofstream f(fifo, std::ios::binary);
            f.write(bytes.constData(), bytes.size());
        });
        const Run piped = cli({"info", QString::fromStdString(fifo), "--json"});
        writer.join();
        QVERIFY2(piped.status == 0, piped.err.constData());
        QCOMPARE(json(piped)["nnz"].toInteger(), 3000);
        QCOMPARE(json(piped)["modes"], ref["modes"]);
    }

    void convertRoundTripAndRefusesToOverwriteInput() {
        QTemporaryDir dir;
        const QString tns = dir.filePath("a.tns"), tsb = dir.filePath("a.tsb"), gz = dir.filePath("b.tns.gz");
        QCOMPARE(cli({"generate", "--dims", "50,40,30", "--nnz", "5k", "--dist", "blocks:3", "-o", tns}).status, 0);
        QCOMPARE(cli({"convert", tns, tsb}).status, 0);
        QCOMPARE(cli({"convert", tsb, gz}).status, 0);
        const QJsonObject a = json(cli({"info", tns, "--json"}));
        const QJsonObject b = json(cli({"info", gz, "--json"}));
        QCOMPARE(json(cli({"info", tsb, "--json"}))["format"].toString(), QString("tsb"));
        QCOMPARE(a["modes"], b["modes"]);
        QCOMPARE(a["nnz"], b["nnz"]);
        const QByteArray before = [&] { QFile f(tns); f.open(QIODevice::ReadOnly); return f.readAll(); }();
        const Run same = cli({"convert", tns, tns});
        QCOMPARE(same.status, 2);
        QVERIFY(same.err.contains("refusing to overwrite"));
        QFile f(tns);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
    }

    // No output is ever written over the input: --write's and --perm-out's files (checked for any
    // order, before the load), a reordered tensor named as a permutation's file, and a convert
    // whose standard input is its output. Before, each of these ran and replaced the input.
    void outputsNeverReplaceTheInput() {
        QTemporaryDir dir;
        const QString d = dir.filePath("d");
        QVERIFY(QDir().mkpath(d));
        const QByteArray tensor = "1 1 1 1.5\n2 3 1 2.0\n3 2 2 -1.0\n1 3 2 0.5\n";
        auto refused = [&](const QString& input, const QStringList& args, const char* says) {
            QFile f(input);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(tensor);
            f.close();
            const Run r = cli(args);
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.contains(says), r.err.constData());
            QCOMPARE(file_bytes(input), tensor);
        };
        refused(d + "/core.tns",
                {"decompose", d + "/core.tns", "--method", "tucker", "--rank", "1", "--iters", "1", "--write", d},
                "--write: '");
        refused(d + "/mode2.mat", {"decompose", d + "/mode2.mat", "--rank", "1", "--iters", "1", "--write", d},
                "is the input file");
        refused(d + "/lambda.mat", {"decompose", d + "/lambda.mat", "--rank", "1", "--iters", "1", "--write", d + "/."},
                "is the input file");
        refused(d + "/mttkrp_mode3.mat",
                {"bench", d + "/mttkrp_mode3.mat", "--rank", "2", "--repeat", "1", "--write", d}, "is the input file");
        refused(d + "/mode1.perm", {"reorder", d + "/mode1.perm", dir.filePath("r.tns"), "--perm-out", d},
                "is the input file");
        const QString in = dir.filePath("in.tns");
        // a tensor named as a permutation's file: refused by its extension before the collision
        refused(in, {"reorder", in, d + "/mode3.perm", "--perm-out", d}, "'.perm' is none of them");
        QProcess p;  // convert - in.tns < in.tns
        p.setStandardInputFile(in);
        p.start(TS_BIN_DIR "/tensorscope-cli", {"convert", "-", in});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("(on standard input)"));
        QCOMPARE(file_bytes(in), tensor);
        QCOMPARE(QDir(d).entryList(QDir::Files).size(), 5);  // the inputs alone: nothing written beside them
    }

    // An output that is not a regular file is refused, never renamed over: a FIFO, a folder, a
    // link to nothing (a device such as /dev/null likewise; tests cannot make one unprivileged).
    // A link to a file is written through and stays a link.
    void outputsThatAreNotFilesAreRefused() {
        QTemporaryDir dir;
        const QString tns = dir.filePath("a.tns"), fifo = dir.filePath("fifo"), folder = dir.filePath("folder");
        QCOMPARE(cli({"generate", "--dims", "9,8,7", "--nnz", "40", "-o", tns}).status, 0);
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0644), 0);
        QVERIFY(QDir().mkpath(folder));
        for (const QStringList& args :
             {QStringList{"convert", tns, fifo}, QStringList{"convert", tns, folder},
              QStringList{"generate", "--dims", "4,4", "--nnz", "3", "-o", fifo},
              QStringList{"decompose", tns, "--rank", "1", "--iters", "1", "--write", fifo}}) {
            const Run r = cli(args);
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.contains("a pipe (FIFO)") || r.err.contains("a folder") || r.err.contains("cannot"),
                     r.err.constData());
        }
        QVERIFY(QFileInfo(fifo).isFile() == false && QFileInfo::exists(fifo));
        for (const QStringList& args :
             {QStringList{"convert", tns, "-"}, QStringList{"generate", "--dims", "4,4", "--nnz", "3", "-o", "-"}}) {
            QProcess p;  // "-" is not standard output, nor a file named "-" in the working folder
            p.setWorkingDirectory(dir.path());
            p.start(TS_BIN_DIR "/tensorscope-cli", args);
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 2);
            QVERIFY(p.readAllStandardError().contains("not written to standard output"));
            QVERIFY(!QFileInfo::exists(dir.filePath("-")));
        }
        QVERIFY(QFileInfo(folder).isDir());
        const QString link = dir.filePath("link.tsb"), target = dir.filePath("target.tsb");
        QVERIFY(QFile::link(target, link));
        const Run dangling = cli({"convert", tns, link});
        QCOMPARE(dangling.status, 2);
        QVERIFY2(dangling.err.contains("a link to a file that does not exist"), dangling.err.constData());
        QFile(target).open(QIODevice::WriteOnly);
        QCOMPARE(cli({"convert", tns, link}).status, 0);
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(json(cli({"info", target, "--json"}))["nnz"].toInt(), 40);
    }

    // A convert killed by SIGTERM (or SIGINT) leaves neither its temporary nor a partial target
    // (issue 24, item 6): the engine lists its temporaries and the handler removes them.
    // Issue 24: a size with a unit that does not fit in 64 bits is refused (17179869184G wrapped
    // to 0, which reads as auto), before any device is looked for.
    void byteSizesThatOverflowAreRefused() {
        // and digits past 2^64 with no unit at all (sweep 68a E1: they read "expects a whole number")
        for (const char* size : {"17179869184G", "18014398509481984K", "99999999999999999M", "99999999999999999999999"}) {
            const Run r = cli({"pipeline", "nonexistent.tns", "--chunk-bytes", size});
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.contains("too large"), r.err.constData());
        }
        // decimal units as sizes are shown, binary ones spelled out: past the size, to the missing file
        for (const char* size : {"512MB", "64MiB", "2kB"}) {
            const Run r = cli({"pipeline", "nonexistent.tns", "--chunk-bytes", size});
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.contains("cannot open 'nonexistent.tns'"), r.err.constData());
        }
        // what the user typed is quoted whole: 1.5G had read "got '1.5'" (sweep 66a F14)
        for (const char* size : {"1.5G", "12X", "-4M"}) {
            const Run r = cli({"pipeline", "nonexistent.tns", "--chunk-bytes", size});
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.contains(QStringLiteral("got '%1'").arg(size).toUtf8()) && r.err.contains("64M"),
                     r.err.constData());
        }
    }

    // Issue 24: a .tsb header that contradicts itself (32-bit indices for a mode of 2^33) or
    // claims more nonzeros than the file holds is exit 2, saying so.
    void contradictoryTsbHeaderExitsTwo() {
        QTemporaryDir dir;
        const QString tsb = dir.filePath("t.tsb");
        QCOMPARE(cli({"generate", "--dims", "5,5,5", "--nnz", "10", "-o", tsb}).status, 0);
        QFile f(tsb);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray good = f.readAll();
        f.close();
        auto patched = [&good](int at, quint64 value) {
            QByteArray b = good;
            std::memcpy(b.data() + at, &value, 8);
            const int header = 32 + 3 * 8 + 4;
            const quint32 crc = static_cast<quint32>(crc32_z(0, reinterpret_cast<const Bytef*>(b.constData()), header - 4));
            std::memcpy(b.data() + header - 4, &crc, 4);
            return b;
        };
        for (const auto& [bytes, fragment] : {std::pair{patched(32, quint64{1} << 33), QByteArray("32-bit indices")},
                                              std::pair{patched(24, quint64{1} << 40), QByteArray("does not match its header")}}) {
            QFile out(tsb);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(bytes);
            out.close();
            const Run r = cli({"info", tsb});
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.contains(fragment) && r.err.contains("t.tsb"), r.err.constData());
        }
    }

    void killedConvertLeavesNothing() {
        QTemporaryDir dir;
        const QString in = dir.filePath("in.tsb"), out = dir.filePath("out.tns.gz");
        QCOMPARE(cli({"generate", "--dims", "2000,2000,2000", "--nnz", "6000000", "-o", in}).status, 0);
        QProcess p;
        p.start(TS_BIN_DIR "/tensorscope-cli", {"convert", in, out});
        QVERIFY(p.waitForStarted());
        bool seen = false;  // the gzip text takes seconds: wait for its (nameless) temporary to be open
        for (int i = 0; i < 400 && !seen && p.state() == QProcess::Running; ++i) {
            QTest::qWait(25);
            seen = tstest::nameless_files_open(p.processId(), dir.path()) > 0;
        }
        if (!seen) QSKIP("the convert finished before its temporary could be seen");
        p.terminate();  // SIGTERM
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        QVERIFY2(QDir(dir.path()).entryList({"out.tns.gz*"}).isEmpty(), "a temporary or a partial target was left");
        // and says so (it ended without a word, sweep 73a)
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("tensorscope-cli: stopped by SIGTERM; its temporary files are removed"), err.constData());
    }

    // A bounded convert killed by SIGKILL, which no handler sees (the OOM killer's signal), while it
    // holds many runs: its runs and output have no names until the output is renamed into place,
    // so nothing is left. Before, each run and the output's temporary stayed, together twice the
    // tensor's size.
    void killedConvertWithManyRunsLeavesNothing() {
        QTemporaryDir dir;
        const QString in = dir.filePath("in.tns"), out = dir.filePath("out.tsb");
        QCOMPARE(cli({"generate", "--dims", "2000,2000,2000", "--nnz", "6000000", "-o", in}).status, 0);
        QProcess p;
        p.start(TS_BIN_DIR "/tensorscope-cli", {"convert", in, out, "--memory", "1M"});
        QVERIFY(p.waitForStarted());
        int runs = 0;  // about 112 runs of 1 MiB, each an open nameless file: wait for 20
        for (int i = 0; i < 2000 && runs < 20 && p.state() == QProcess::Running; ++i) {
            QTest::qWait(10);
            runs = tstest::nameless_files_open(p.processId(), dir.path());
        }
        if (runs < 20) QSKIP("the convert finished its runs before 20 could be seen");
        QVERIFY(QDir(dir.path()).entryList({"out.tsb*"}).isEmpty());  // nameless while they are written
        p.kill();                                                     // SIGKILL
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        const QStringList left = QDir(dir.path()).entryList({"out.tsb*"});
        QVERIFY2(left.isEmpty(), qPrintable(QString("%1 left, e.g. %2").arg(left.size()).arg(left.value(0))));
    }

    void formatsJsonAndVerify() {
        QTemporaryDir dir;
        const QString file = dir.filePath("f.tns");
        QCOMPARE(cli({"generate", "--dims", "40,30,20", "--nnz", "3000", "--dist", "powerlaw:1.0", "-o", file}).status, 0);
        const Run r = cli({"formats", file, "--verify", "--json"});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject o = json(r);
        const QJsonArray rows = o["formats"].toArray();
        QCOMPARE(rows.size(), 8 * 3 + 5);  // every per-mode format x every mode; MM-CSF, HiCOO, HLS, ALTO and BLCO once
        int smallest = 0;
        for (const auto& v : rows) {
            const QJsonObject row = v.toObject();
            QVERIFY(row["mode"].toString() == "all" || (row["mode"].toInt() >= 1 && row["mode"].toInt() <= 3));
            QVERIFY2(row["built"].toBool(), qPrintable(row["error"].toString()));
            QCOMPARE(row["roundtrip_ok"].toBool(), true);
            QVERIFY(row["storage_units"].toInteger() > 0);
            qint64 bytes = 0;
            for (const auto& a : row["arrays"].toArray()) bytes += a.toObject()["bytes"].toInteger();
            QCOMPARE(row["bytes"].toInteger(), bytes);
            smallest += row["smallest"].toBool();
        }
        QVERIFY(smallest >= 3);  // at least one per mode
        // COO: 4 words per nonzero for order 3
        QCOMPARE(rows[0].toObject()["name"].toString(), QString("COO"));
        QCOMPARE(rows[0].toObject()["storage_units"].toInteger(), 4 * 3000);
        // one format, one mode, text output
        const Run text = cli({"formats", file, "--format", "hocfs-csr", "--mode", "2"});
        QCOMPARE(text.status, 0);
        QVERIFY(text.out.contains("HOCFS-CSR"));
        QVERIFY(!text.out.left(text.out.indexOf("* the smallest")).contains("CFB"));  // the table (the legend names it)
        // bad requests
        QCOMPARE(cli({"formats", file, "--mode", "4"}).status, 2);
        QCOMPARE(cli({"formats", file, "--format", "CSR5"}).status, 2);
        QCOMPARE(cli({"formats", file, "--csf-order", "1,1,2", "--format", "CSF"}).status, 2);
    }

    // advise: the ranking per kernel with its keys; bad options exit 2 before the tensor is read.
    void adviseJsonAndExitCodes() {
        QTemporaryDir dir;
        const QString file = dir.filePath("a.tns");
        QCOMPARE(cli({"generate", "--dims", "60,50,40", "--nnz", "5000", "--dist", "powerlaw:1.0", "-o", file}).status, 0);
        const Run r = cli({"advise", file, "--kernel", "mttkrp,sptv", "--json", "--threads", "1"});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject o = json(r);
        QCOMPARE(o["nnz"].toInteger(), 5000);
        const QJsonArray advice = o["advice"].toArray();
        QCOMPARE(advice.size(), 2);
        for (const auto& v : advice) {
            const QJsonObject a = v.toObject();
            for (const char* key : {"kernel", "backend", "rank", "modes", "device", "bandwidth_gbps", "summary", "ranking"})
                QVERIFY2(a.contains(key), key);
            QVERIFY(a["bandwidth_gbps"].toDouble() > 0);
            double last = 0;
            int place = 0;
            for (const auto& f : a["ranking"].toArray()) {
                const QJsonObject row = f.toObject();
                QVERIFY(row["supported"].toBool());  // every omp format runs on this order-3 tensor
                QCOMPARE(row["place"].toInt(), ++place);
                QVERIFY(row["predicted_s"].toDouble() >= last);
                last = row["predicted_s"].toDouble();
                QVERIFY(row["storage_bytes"].toInteger() > 0);
                QVERIFY(row["bytes_moved"].toDouble() > 0);
                QVERIFY(!row["reason"].toString().isEmpty());
                QCOMPARE(row["modes"].toArray().size(), 3);
            }
            // MTTKRP: COO CSF B-CSF MM-CSF HiCOO HLS ALTO; SpTV: COO HOCSR CFB HOCFS-CSR HOCFS-ELL CSF
            QCOMPARE(place, a["kernel"].toString() == QStringLiteral("mttkrp") ? 7 : 6);
        }
        // the text form names the kernel and the formats
        const Run text = cli({"advise", file, "--kernel", "sptv", "--threads", "1"});
        QCOMPARE(text.status, 0);
        QVERIFY(text.out.contains("SpTV on omp"));
        QVERIFY(text.out.contains("HOCFS-ELL"));
        // what it assumed, and times in their units (sweep 75a F6, F12)
        QVERIFY2(text.out.contains("SpTV on omp, modes 1,2,3 ("), text.out.constData());
        const Run m = cli({"advise", file, "--kernel", "mttkrp", "--mode", "2", "--rank", "8", "--threads", "1"});
        QVERIFY2(m.out.contains("MTTKRP on omp, rank 8, mode 2 ("), m.out.constData());
        QVERIFY2(m.out.contains(" us\n") || m.out.contains(" ms\n"), m.out.constData());
        QVERIFY2(!m.out.contains("e-0"), m.out.constData());
        // bad input: exit 2 with one line on stderr, before any work
        for (const QStringList& bad : {QStringList{"advise", file, "--kernel", "spmv"}, QStringList{"advise", file, "--backend", "cpu-ref"},
                                       QStringList{"advise", file, "--backend", "gpu"}, QStringList{"advise", file, "--mode", "4"},
                                       QStringList{"advise", file, "--rank", "0"}, QStringList{"advise", dir.filePath("missing.tns")},
                                       QStringList{"advise", file, "--format", "CSF"}, QStringList{"advise"}}) {
            const Run b = cli(bad);
            QVERIFY2(b.status == 2, qPrintable(bad.join(' ') + ": " + QString::number(b.status)));
            QVERIFY2(b.out.isEmpty(), qPrintable(bad.join(' ')));
            QVERIFY2(b.err.trimmed().count('\n') == 0 && !b.err.isEmpty(), b.err.constData());
        }
    }

    void benchEveryKernelChecksAgainstTheOracle_data() {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QStringList>("formats");
        QTest::addColumn<int>("rank");
        QTest::newRow("mttkrp") << "mttkrp" << QStringList{"COO", "CSF", "B-CSF", "MM-CSF", "HiCOO", "HLS", "ALTO"} << 8;
        QTest::newRow("sptv") << "sptv" << QStringList{"COO", "HOCSR", "CFB", "HOCFS-CSR", "HOCFS-ELL", "CSF"} << 1;
        QTest::newRow("spttm") << "spttm" << QStringList{"COO", "sCOO"} << 4;
        QTest::newRow("ttmc") << "ttmc" << QStringList{"COO", "CSF", "HLS"} << 3;
    }
    void benchEveryKernelChecksAgainstTheOracle() {
        QFETCH(QString, kernel);
        QFETCH(QStringList, formats);
        QFETCH(int, rank);
        QTemporaryDir dir;
        const QString file = dir.filePath("b.tns");
        QCOMPARE(cli({"generate", "--dims", "40,30,20", "--nnz", "3000", "--dist", "powerlaw:0.8", "-o", file}).status, 0);
        const Run r = cli({"bench", file, "--kernel", kernel, "--backend", "cpu-ref,omp", "--rank", QString::number(rank),
                           "--repeat", "2", "--check", "--json"});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject o = json(r);
        QSet<QString> seen;
        for (const auto& v : o["results"].toArray()) {
            const QJsonObject row = v.toObject();
            QCOMPARE(row["kernel"].toString(), kernel);
            QVERIFY2(row["ran"].toBool(), qPrintable(row["error"].toString()));
            QVERIFY(row["median_s"].toDouble() > 0);
            QVERIFY(row["gflops"].toDouble() > 0);
            QVERIFY(row["gbps"].toDouble() > 0);
            QVERIFY(row["max_rel_error"].toDouble() <= 1e-10);
            if (row["backend"].toString() == "omp") seen.insert(row["format"].toString());
        }
        QCOMPARE(seen, QSet<QString>(formats.begin(), formats.end()));  // "all" = the formats omp runs this kernel on
        QCOMPARE(o["sweeps"].toArray().size(), 2 * formats.size());
    }

    // --jsonl: one row a line, the same rows as --json, then a summary line; and a row is out
    // as soon as it is measured, so a run stopped midway (a device call's time limit) keeps
    // the rows it finished
    void benchJsonLines() {
        QTemporaryDir dir;
        const QString file = dir.filePath("b.tns");
        QCOMPARE(cli({"generate", "--dims", "40,30,20", "--nnz", "3000", "--dist", "powerlaw:0.8", "-o", file}).status, 0);
        const QStringList request{"bench", file, "--kernel", "mttkrp", "--format", "COO,CSF", "--backend", "cpu-ref,omp",
                                  "--rank", "4", "--repeat", "1", "--check"};
        const Run lines = cli(request + QStringList{"--jsonl"});
        QVERIFY2(lines.status == 0, lines.err.constData());
        const QList<QByteArray> text = lines.out.trimmed().split('\n');
        const QJsonArray whole = json(cli(request + QStringList{"--json"}))["results"].toArray();
        QCOMPARE(text.size(), whole.size() + 1);
        for (int i = 0; i < whole.size(); ++i) {
            QJsonParseError e;
            const QJsonObject row = QJsonDocument::fromJson(text[i], &e).object();
            QVERIFY2(e.error == QJsonParseError::NoError, text[i].constData());
            const QJsonObject same = whole[i].toObject();
            for (const char* key : {"kernel", "format", "backend", "mode", "ran"}) QCOMPARE(row[key], same[key]);
            QVERIFY(row["max_rel_error"].toDouble() <= 1e-10);
        }
        const QJsonObject last = QJsonDocument::fromJson(text.back()).object();
        QCOMPARE(last["rows"].toInt(), whole.size());
        QCOMPARE(last["sweeps"].toArray().size(), 4);
        QVERIFY(last.contains("machine"));
        QCOMPARE(cli(request + QStringList{"--jsonl", "--json"}).status, 2);

        // a long run (every format, the oracle, many repeats) killed after its first row
        const QString big = dir.filePath("big.tns");
        QCOMPARE(cli({"generate", "--dims", "400,300,200", "--nnz", "200000", "-o", big}).status, 0);
        QProcess p;
        p.start(TS_BIN_DIR "/tensorscope-cli", {"bench", big, "--kernel", "mttkrp", "--format", "all", "--backend", "cpu-ref,omp",
                                                "--rank", "16", "--repeat", "100", "--jsonl"});
        QVERIFY(p.waitForStarted());
        while (!p.canReadLine() && p.state() == QProcess::Running) p.waitForReadyRead(1000);
        const bool running = p.state() == QProcess::Running;
        const QByteArray first = p.readLine();
        p.kill();
        p.waitForFinished();
        QVERIFY2(running, "the first row came out only at the end");
        QCOMPARE(QJsonDocument::fromJson(first).object()["kernel"].toString(), QString("mttkrp"));
    }

    // A name or mode listed twice runs once: advise printed MTTKRP's section twice for
    // "--kernel mttkrp,mttkrp", bench timed "--mode 1,1 --format COO,COO" four times.
    void listedTwiceRunsOnce() {
        const QString file = TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns";
        const Run a = cli({"advise", file, "--kernel", "mttkrp,mttkrp"});
        QCOMPARE(a.status, 0);
        QCOMPARE(a.out.count("MTTKRP on omp"), 1);
        const Run b = cli({"bench", file, "--kernel", "mttkrp", "--format", "COO,COO", "--mode", "1,1", "--repeat", "1", "--json"});
        QVERIFY2(b.status == 0, b.err.constData());
        QCOMPARE(json(b)["results"].toArray().size(), 1);
        // a tolerance past a double's range says so ("expects a non-negative number" of 1e-400)
        const Run tiny = cli({"decompose", file, "--tol", "1e-400", "--iters", "1"});
        QCOMPARE(tiny.status, 2);
        QVERIFY2(tiny.err.contains("beyond what a double holds"), tiny.err.constData());
        // ... but a subnormal one is a double (sweep 65: std::stod called 1e-320 out of range)
        const Run subnormal = cli({"decompose", file, "--tol", "1e-320", "--iters", "1"});
        QVERIFY2(subnormal.status == 0, subnormal.err.constData());
    }

    void benchBadRequests() {
        QTemporaryDir dir;
        const QString file = dir.filePath("b.tns");
        QCOMPARE(cli({"generate", "--dims", "10,10,10", "--nnz", "100", "-o", file}).status, 0);
        QCOMPARE(cli({"bench", file, "--kernel", "spmv"}).status, 2);
        QCOMPARE(cli({"bench", file, "--backend", "tpu"}).status, 2);
        QCOMPARE(cli({"bench", file, "--mode", "4"}).status, 2);
        // what `formats` refuses, bench refuses too, before any work (issue 24, item 4)
        QCOMPARE(cli({"bench", file, "--mode-order", "1,1,1"}).status, 2);
        QCOMPARE(cli({"bench", file, "--fiber-threshold", "0"}).status, 2);
        const Run bits = cli({"formats", file, "--hicoo-bits", "4294967297"});
        QCOMPARE(bits.status, 2);  // was truncated to 1 silently
        QVERIFY(bits.err.contains("between 1 and 16"));
        // a destination that cannot be written is bad input at once, not after the run (item 5)
        const Run dest = cli({"bench", file, "--write", "/proc/no/such/dir"});
        QCOMPARE(dest.status, 2);
        QVERIFY(dest.out.isEmpty());
        QCOMPARE(cli({"decompose", file, "--method", "cpd", "--write", "/proc/no/such/dir"}).status, 2);
        // sptv's and spttm's results are sparse: --write is refused before any work, not left as
        // empty .mat files with exit 0
        for (const char* kernel : {"sptv", "spttm"}) {
            const Run sparse = cli({"bench", file, "--kernel", kernel, "--repeat", "1", "--write", dir.filePath("w")});
            QCOMPARE(sparse.status, 2);
            QVERIFY2(sparse.err.contains("result is sparse"), sparse.err.constData());
            QVERIFY(!QFileInfo::exists(dir.filePath("w")));
        }
        // a mode near 2^63: the factor's size in words, before any allocation (item 2)
        const QString huge = dir.filePath("huge.tns");
        {
            QFile f(huge);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("1 1 9223372036854775000 1.0\n");
        }
        const Run big = cli({"bench", huge, "--kernel", "mttkrp", "--rank", "8"});
        QCOMPARE(big.status, 2);
        QVERIFY2(big.err.contains("mode 3 has 9,223,372,036,854,775,000 indices") && big.err.contains("EB"),
                 big.err.constData());
        QCOMPARE(cli({"decompose", huge, "--method", "cpd", "--rank", "8"}).status, 2);
        // a vector (order 1): rows that need order 2 say so, nothing crashes (item 1)
        const QString vec = dir.filePath("vec.tns");
        {
            QFile f(vec);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("3 1.5\n1 2.0\n7 -1.0\n");
        }
        for (const char* k : {"mttkrp", "sptv", "ttmc", "spttm"})
            QCOMPARE(cli({"bench", vec, "--kernel", k, "--format", "all", "--backend", "cpu-ref,omp", "--check"}).status, 0);
        QCOMPARE(cli({"formats", vec, "--verify"}).status, 0);
        if (tscope::query_gpu().available) return;  // the rest is about a machine without one
        const Run cuda = cli({"bench", file, "--backend", "cuda", "--format", "COO", "--json"});
        QCOMPARE(cuda.status, 1);  // no device: exit 1, rows carry the reason, nothing crashes
        QVERIFY(json(cuda)["results"].toArray()[0].toObject()["error"].toString().contains("no CUDA device"));
        QVERIFY(cuda.err.contains("no CUDA device"));
    }

    // Pipelined SpTV: bad requests are bad input (2); without a GPU, "no CUDA device" (1); with
    // one, the JSON holds the keys README documents and the result matches cpu-ref.
    void pipeline() {
        QTemporaryDir dir;
        const QString file = dir.filePath("p.tns");
        QCOMPARE(cli({"generate", "--dims", "40,30,20", "--nnz", "3000", "--dist", "powerlaw:1.1", "-o", file}).status, 0);
        if (!tscope::query_gpu().available) {
            const Run none = cli({"pipeline", file, "--format", "hocfs"});
            QCOMPARE(none.status, 1);
            QVERIFY(none.err.contains("no CUDA device"));
            return;
        }
        QCOMPARE(cli({"pipeline", file, "--format", "csf"}).status, 2);
        QCOMPARE(cli({"pipeline", file, "--streams", "9"}).status, 2);
        QCOMPARE(cli({"pipeline", file, "--chunk-bytes", "0"}).status, 2);
        const Run run = cli({"pipeline", file, "--format", "cfb", "--streams", "3", "--chunk-bytes", "4K", "--check", "--json"});
        QCOMPARE(run.status, 0);
        const QJsonObject o = json(run);
        QVERIFY(o["max_rel_error"].toDouble() <= 1e-4);
        QCOMPARE(o["check_against"].toString(), QString("cpu-ref"));
        QCOMPARE(o["streams"].toInt(), 3);
        QVERIFY(o["chunks"].toArray().size() > 1);
        for (const char* key : {"t_sync", "t_pipe", "t_model", "overlap"}) QVERIFY2(o.contains(key), key);
        const QJsonObject c = o["chunks"].toArray()[0].toObject();
        for (const char* key : {"in_start", "in_end", "kernel_start", "kernel_end", "out_start", "out_end"})
            QVERIFY2(c.contains(key), key);
    }

    // decompose: one JSON document with iterations[]; bad requests are bad input.
    void decompose() {
        QTemporaryDir dir;
        const QString file = dir.filePath("lr.tns");
        QCOMPARE(cli({"generate", "--dims", "60,50,40", "--nnz", "3000", "--dist", "lowrank:3", "-o", file}).status, 0);
        const QJsonObject cpd = json(cli({"decompose", file, "--method", "cpd", "--rank", "3", "--iters", "100", "--json",
                                          "--write", dir.filePath("cpd")}));
        QVERIFY(cpd["fit"].toDouble() >= 0.99);
        const QJsonArray its = cpd["iterations"].toArray();
        QVERIFY(!its.isEmpty());
        for (const char* key : {"iter", "seconds", "fit"}) QVERIFY2(its[0].toObject().contains(key), key);
        QVERIFY(QFileInfo::exists(dir.filePath("cpd/lambda.mat")) && QFileInfo::exists(dir.filePath("cpd/mode3.mat")));
        const QJsonObject tucker = json(cli({"decompose", file, "--method", "tucker", "--rank", "3", "--json"}));
        QVERIFY(tucker["fit"].toDouble() >= 0.99);
        const QJsonObject ft = json(cli({"decompose", file, "--method", "fastertucker", "--rank", "4", "--iters", "3", "--json"}));
        const QJsonObject e = ft["iterations"].toArray()[2].toObject();
        for (const char* key : {"train_rmse", "test_rmse", "train_mae", "test_mae"}) QVERIFY2(e.contains(key), key);
        QCOMPARE(cli({"decompose", file, "--method", "parafac2"}).status, 2);
        QCOMPARE(cli({"decompose", file, "--method", "tucker", "--rank", "0"}).status, 2);
        QCOMPARE(cli({"decompose", file, "--method", "cpd", "--format", "HOCSR"}).status, 2);
        // the ordered schedule reports it in the JSON and repeats itself exactly
        const QStringList ordered{"decompose", file, "--method", "fastertucker", "--rank", "4", "--iters", "2", "--json", "--schedule", "ordered"};
        const QJsonObject o1 = json(cli(ordered)), o2 = json(cli(ordered));
        QCOMPARE(o1["schedule"].toString(), QStringLiteral("ordered"));
        QCOMPARE(ft["schedule"].toString(), QStringLiteral("hogwild"));
        QCOMPARE(o1["iterations"].toArray()[1].toObject()["train_rmse"].toDouble(),
                 o2["iterations"].toArray()[1].toObject()["train_rmse"].toDouble());
        QCOMPARE(cli({"decompose", file, "--method", "fastertucker", "--schedule", "sorted"}).status, 2);
        // one nonzero leaves the test set empty: said once in words, never printed as "nan"
        const QString one = dir.filePath("one.tns");
        QCOMPARE(cli({"generate", "--dims", "3,3,3", "--nnz", "1", "-o", one}).status, 0);
        const Run lone = cli({"decompose", one, "--method", "fastertucker", "--rank", "2", "--iters", "2"});
        QCOMPARE(lone.status, 0);
        QVERIFY2(lone.out.contains("test set: empty") && !lone.out.contains("nan"), lone.out.constData());
        // --distributed is refused before any work: nothing printed on stdout, one line saying why
        const Run dist = cli({"decompose", file, "--method", "cpd", "--distributed", "--json"});
        QCOMPARE(dist.status, 2);
        QVERIFY(dist.out.isEmpty());
        QVERIFY2(dist.err.contains("--distributed"), dist.err.constData());
        QCOMPARE(cli({"decompose", file, "--method", "tucker", "--distributed"}).status, 2);
        const Run grid = cli({"decompose", file, "--method", "cpd", "--grid", "2x1x1"});
        QCOMPARE(grid.status, 2);
        QVERIFY2(grid.err.contains("--grid applies to --distributed"), grid.err.constData());
    }

    // Tucker on JF17K (order 4) at rank 64 needs 2 x 24 GB for one TTM chain: refused in
    // words at once (issue 24, item 11; it used to try a 512 GiB Gram).
    void tuckerRefusesWhatCannotBeHeld() {
        TS_REQUIRE_SHARED(path, "jf17k-4d.tns");
        QElapsedTimer clock;
        clock.start();
        const Run r = cli({"decompose", QString::fromStdString(path), "--method", "tucker", "--rank", "64", "--iters", "1"});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("TTM chain for mode") && r.err.contains("GB"), r.err.constData());
        QVERIFY(clock.elapsed() < 20000);
    }

    void movieLensAcceptance() {
        TS_REQUIRE_SHARED(path, "movielens-100k.tns");
        const QJsonObject o = json(cli({"info", QString::fromStdString(path), "--json"}));
        QCOMPARE(o["order"].toInt(), 3);
        QCOMPARE(dims(o), (QList<qint64>{943, 1682, 215}));
        QCOMPARE(o["nnz"].toInteger(), 100000);
    }
};

QTEST_GUILESS_MAIN(TestCli)  // a QCoreApplication: the fetch test runs a server on a thread's event loop
#include "test_cli.moc"
