// The dataset catalog: the checked-in FROSTT catalog reads and holds what FROSTT publishes;
// a broken catalog names the file, the entry and what was expected; names are found or the
// closest ones suggested; the cache states follow the files in the cache folder.
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/io/dataset_catalog.hpp"
#include "tscope/io/tensor_io.hpp"

using namespace tscope;

namespace {

std::string write_file(const QTemporaryDir& dir, const char* name, const std::string& text) {
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream(path) << text;
    return path;
}

QString refusal(const std::string& path) {
    try {
        read_catalog(path);
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestDatasetCatalog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theFrosttCatalog() {
        const DatasetCatalog c = read_catalog(TS_CATALOG_FILE);
        QVERIFY(c.entries.size() >= 15);
        const CatalogEntry& nell2 = find_entry(c, "nell-2");  // facts from frostt.io's nell-2 page
        QCOMPARE(nell2.order, 3);
        QCOMPARE(nell2.dims, (std::vector<std::uint64_t>{12092, 9184, 28818}));
        QCOMPARE(nell2.nnz, std::uint64_t{76879419});
        QVERIFY(QString::fromStdString(nell2.tensors.front().url).endsWith("nell-2.tns.gz"));
        const CatalogEntry& reddit = find_entry(c, "reddit-2015");
        QCOMPARE(reddit.nnz, std::uint64_t{4687474081});
        for (const CatalogEntry& e : c.entries) {
            QCOMPARE(std::size_t(e.order), e.dims.size());
            QVERIFY2(!e.tensors.empty() && e.nnz > 0, e.name.c_str());
        }
    }

    void namesAreFoundOrTheClosestSuggested() {
        const DatasetCatalog c = read_catalog(TS_CATALOG_FILE);
        try {
            find_entry(c, "nel-2");
            QFAIL("an unknown name was found");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("closest: nell-2"), e.what());
        }
    }

    void brokenCatalogsSayWhere() {
        QTemporaryDir dir;
        QVERIFY(refusal(write_file(dir, "a.json", "{\"tensors\": [")).contains("not valid JSON"));
        QVERIFY(refusal(write_file(dir, "b.json", "[]")).contains("\"tensors\" list"));
        const QString dims = refusal(write_file(
            dir, "c.json", R"({"tensors": [{"name": "x", "order": 3, "dims": [2, 3], "nnz": 4, "tensors": [{"url": "u"}]}]})"));
        QVERIFY2(dims.contains("entry 'x'") && dims.contains("order 3 but 2 dims"), qPrintable(dims));
        QVERIFY(refusal(write_file(dir, "d.json", R"({"tensors": [{"name": "x", "order": 1, "dims": [2], "nnz": 1}]})"))
                    .contains("no tensor file"));
        QVERIFY(refusal(write_file(dir, "e.json", R"({"tensors": [{"name": "x", "order": "three"}]})")).contains("as numbers"));
        QVERIFY(refusal(dir.filePath("missing.json").toStdString()).contains("cannot open"));
        // a name is the cache's file names: a path would write outside the cache (sweep 64)
        for (const char* name : {"../escaped", "", ".hidden", "a/b", "x y"}) {
            const std::string text = std::string("{\"tensors\": [{\"name\": \"") + name +
                                     "\", \"order\": 1, \"dims\": [2], \"nnz\": 1, \"tensors\": [{\"url\": \"u\"}]}]}";
            const QString why = refusal(write_file(dir, "f.json", text));
            QVERIFY2(why.contains("a name is letters, digits"), qPrintable(why));
        }
    }

    void cacheStatesFollowTheFiles() {
        QTemporaryDir dir;
        const DatasetCatalog c = read_catalog(TS_CATALOG_FILE);
        const CatalogEntry& e = find_entry(c, "nips");
        const std::string cache = dir.path().toStdString();
        QCOMPARE(cache_state(e, cache), CacheState::NotFetched);
        std::ofstream(partial_download_path(e, cache)) << "partial";
        QCOMPARE(cache_state(e, cache), CacheState::Partial);
        std::ofstream(cached_tensor_path(e, cache)) << "tsb";  // not a .tsb: a fetch replaces it (sweep 64)
        QCOMPARE(cache_state(e, cache), CacheState::Damaged);
        QCOMPARE(QString(cache_state_name(CacheState::NotFetched)), QString("not fetched"));
        QCOMPARE(QString(cache_state_name(CacheState::Damaged)), QString("damaged"));
    }

    // A cached .tsb is ready where its header reads and holds the catalog's nonzeros within its
    // dims: a file's lengths are its largest indices, which may fall short of the catalog's
    // (empty last slices), as the download's check accepts; such a .tsb had been called damaged
    // and downloaded again at every fetch (sweep 73a).
    void aCachedTensorIsReadyWhereItMatchesTheCatalog() {
        QTemporaryDir dir;
        const CooTensor t = tstest::random_tensor({5, 6, 7}, 20, 3);
        const DatasetCatalog c =
            read_catalog(write_file(dir, "c.json",
                                    "{\"tensors\": [{\"name\": \"tiny\", \"order\": 3, \"dims\": [5, 6, 7], \"nnz\": " +
                                        std::to_string(t.nnz()) +
                                        ", \"tensors\": [{\"url\": \"u\"}]}, {\"name\": \"other\", \"order\": 3, "
                                        "\"dims\": [5, 6, 6], \"nnz\": " +
                                        std::to_string(t.nnz()) +
                                        ", \"tensors\": [{\"url\": \"u\"}]}, {\"name\": \"longer\", \"order\": 3, "
                                        "\"dims\": [5, 6, 8], \"nnz\": " +
                                        std::to_string(t.nnz()) + ", \"tensors\": [{\"url\": \"u\"}]}]}"));
        const std::string cache = dir.path().toStdString();
        save_tensor(t, cached_tensor_path(find_entry(c, "tiny"), cache));
        save_tensor(t, cached_tensor_path(find_entry(c, "other"), cache));
        QCOMPARE(cache_state(find_entry(c, "tiny"), cache), CacheState::Ready);
        save_tensor(t, cached_tensor_path(find_entry(c, "longer"), cache));
        QCOMPARE(cache_state(find_entry(c, "other"), cache), CacheState::Damaged);  // past the catalog's mode 3
        QCOMPARE(cache_state(find_entry(c, "longer"), cache), CacheState::Ready);   // its last slices empty
    }
};

QTEST_APPLESS_MAIN(TestDatasetCatalog)
#include "test_dataset_catalog.moc"
