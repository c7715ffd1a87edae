// Files of one name are told apart by the part of their folders that differs.
#include <QtTest>

#include "views/FolderNames.hpp"

using namespace tsui;

class TestFolderNames : public QObject {
    Q_OBJECT

private slots:
    void sharedEndsAreCut() {
        // a clone of the project beside the project: they differ at the front
        QCOMPARE(distinguishingFolders({QStringLiteral("/work/main/resources/samples"),
                                        QStringLiteral("/tmp/ci/main/resources/samples")}),
                 QStringList({QStringLiteral("/work/…"), QStringLiteral("/tmp/ci/…")}));
        // two subfolders of one folder: they differ at the end
        QCOMPARE(distinguishingFolders({QStringLiteral("/tmp/x/a"), QStringLiteral("/tmp/x/b")}),
                 QStringList({QStringLiteral("…/a"), QStringLiteral("…/b")}));
        // in the middle: both ends cut
        QCOMPARE(distinguishingFolders({QStringLiteral("/home/u/run1/data"), QStringLiteral("/home/u/run2/data"),
                                        QStringLiteral("/home/u/old/run3/data")}),
                 QStringList({QStringLiteral("…/run1/…"), QStringLiteral("…/run2/…"), QStringLiteral("…/old/run3/…")}));
    }

    void oneFolderInsideTheOther() {
        // the shorter keeps its last component: never an empty name
        QCOMPARE(distinguishingFolders({QStringLiteral("/data"), QStringLiteral("/data/x")}),
                 QStringList({QStringLiteral("/data"), QStringLiteral("/data/x")}));
        QCOMPARE(distinguishingFolders({QStringLiteral("/srv/data"), QStringLiteral("/srv/data/x")}),
                 QStringList({QStringLiteral("…/data"), QStringLiteral("…/data/x")}));
    }

    void aloneOrAtTheRootItIsKept() {
        QCOMPARE(distinguishingFolders({QStringLiteral("/a/b")}), QStringList({QStringLiteral("/a/b")}));
        QCOMPARE(distinguishingFolders({QStringLiteral("/"), QStringLiteral("/a")}),
                 QStringList({QStringLiteral("/"), QStringLiteral("/a")}));
    }

    // A newline in a name showed as a second line, so one recent file looked like two.
    void controlCharactersShowAsTheirPictures() {
        QCOMPARE(printableName(QStringLiteral("a\nb\tc\x7f.tns")), QString::fromUtf8("a\u240Ab\u2409c\u2421.tns"));
        QCOMPARE(printableName(QString::fromUtf8("nell-2 ü.tns")), QString::fromUtf8("nell-2 ü.tns"));
    }
};

QTEST_MAIN(TestFolderNames)
#include "test_folder_names.moc"
