#include "tscope/io/dataset_catalog.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tscope/error.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/tensor/coo_tensor.hpp"
#include "tscope/text_words.hpp"

namespace tscope {

namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

std::string where(const std::string& path, const std::string& entry) {
    return "catalog '" + path + "'" + (entry.empty() ? "" : ", entry '" + entry + "'");
}

std::vector<CatalogFile> files_of(const Json& list, const std::string& context) {
    std::vector<CatalogFile> out;
    if (list.is_null()) return out;
    if (!list.is_array()) throw InputError(context + ": expected a list of files");
    for (const Json& f : list) {
        if (!f.is_object() || !f.contains("url") || !f["url"].is_string())
            throw InputError(context + ": every file needs a \"url\" string");
        out.push_back({f["url"].get<std::string>(), f.value("what", std::string())});
    }
    return out;
}

CatalogEntry entry_of(const Json& e, const std::string& path) {
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string())
        throw InputError(where(path, "") + ": every tensor needs a \"name\" string");
    CatalogEntry out;
    out.name = e["name"].get<std::string>();
    const std::string context = where(path, out.name);
    // the name becomes the cache's file names: a path ("../x") would write outside the cache
    const bool plain = !out.name.empty() && std::isalnum(static_cast<unsigned char>(out.name[0])) &&
                       std::all_of(out.name.begin(), out.name.end(), [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
                       });
    if (!plain)
        throw InputError(context +
                         ": a name is letters, digits, '.', '_' and '-', starting with a letter or digit "
                         "(it names the cache's files)");
    try {
        out.title = e.value("title", out.name);
        out.description = e.value("description", std::string());
        out.citation = e.value("citation", std::string());
        out.licence = e.value("licence", std::string());
        out.order = e.at("order").get<int>();
        out.dims = e.at("dims").get<std::vector<std::uint64_t>>();
        out.nnz = e.at("nnz").get<std::uint64_t>();
    } catch (const Json::exception& ex) {
        throw InputError(context + ": expected order, dims and nnz as numbers (" + ex.what() + ")");
    }
    if (out.order < 1 || static_cast<std::size_t>(out.order) != out.dims.size())
        throw InputError(context + ": order " + std::to_string(out.order) + " but " + std::to_string(out.dims.size()) + " dims");
    out.tensors = files_of(e.value("tensors", Json()), context);
    out.other_files = files_of(e.value("other_files", Json()), context);
    if (out.tensors.empty()) throw InputError(context + ": no tensor file");
    return out;
}

// Levenshtein distance, for "did you mean" in find_entry.
std::size_t distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

}  // namespace

DatasetCatalog read_catalog(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(where(path, "") + ": a folder, not a catalog file");
    std::ifstream in(path);
    if (!in) throw InputError("cannot open " + where(path, ""));
    Json doc;
    try {
        doc = Json::parse(in);
    } catch (const Json::parse_error& ex) {
        throw InputError(where(path, "") + ": not valid JSON (" + ex.what() + ")");
    }
    if (!doc.is_object() || !doc.contains("tensors") || !doc["tensors"].is_array())
        throw InputError(where(path, "") + ": expected an object with a \"tensors\" list");
    DatasetCatalog out;
    out.source = doc.value("source", std::string());
    out.note = doc.value("note", std::string());
    for (const Json& e : doc["tensors"]) {
        out.entries.push_back(entry_of(e, path));
        for (std::size_t k = 0; k + 1 < out.entries.size(); ++k)
            if (out.entries[k].name == out.entries.back().name)
                throw InputError(where(path, out.entries.back().name) + ": the name appears twice");
    }
    return out;
}

const CatalogEntry& find_entry(const DatasetCatalog& catalog, const std::string& name) {
    for (const CatalogEntry& e : catalog.entries)
        if (e.name == name) return e;
    std::vector<std::pair<std::size_t, std::string>> near;
    for (const CatalogEntry& e : catalog.entries) near.emplace_back(distance(name, e.name), e.name);
    std::sort(near.begin(), near.end());
    std::string list;
    for (std::size_t k = 0; k < near.size() && k < 3; ++k) {
        if (k) list += ", ";
        list += near[k].second;
    }
    throw InputError("no dataset '" + name + "' in the catalog" + (list.empty() ? "" : " (closest: " + list + ")"));
}

std::string cached_tensor_path(const CatalogEntry& entry, const std::string& cache_dir) {
    return (fs::path(cache_dir) / (entry.name + ".tsb")).string();
}

std::string partial_download_path(const CatalogEntry& entry, const std::string& cache_dir) {
    return (fs::path(cache_dir) / (entry.name + ".tns.gz.part")).string();
}

std::string downloaded_path(const CatalogEntry& entry, const std::string& cache_dir) {
    return (fs::path(cache_dir) / (entry.name + ".tns.gz")).string();
}

std::string install_download(const CatalogEntry& entry, const std::string& cache_dir, RunControl& control) {
    const std::string gz = downloaded_path(entry, cache_dir), tsb = cached_tensor_path(entry, cache_dir);
    std::error_code ec;
    LoadedTensor loaded;
    try {
        loaded = load_tensor(gz, {}, control);
        check_against_catalog(loaded.tensor, entry, gz);
    } catch (const InputError& e) {
        // A download that is not the tensor (a login page, another file, one cut short) would
        // otherwise be converted again at every fetch, never downloaded anew
        fs::remove(gz, ec);
        throw InputError(std::string(e.what()) + " (the download is removed: fetching again downloads it anew)");
    }
    save_tensor(loaded.tensor, tsb, control);
    fs::remove(gz, ec);  // the .tsb holds it all now
    return tsb;
}

// As check_against_catalog accepts a download: the order, and no mode past the catalog's length.
// A file's lengths are its largest indices, which may fall short of the catalog's (empty last
// slices): a .tsb so converted had been called damaged, and every fetch downloaded it again.
static bool within_catalog_dims(const std::vector<std::uint64_t>& dims, const CatalogEntry& entry) {
    if (dims.size() != entry.dims.size()) return false;
    for (std::size_t m = 0; m < dims.size(); ++m)
        if (dims[m] > entry.dims[m]) return false;
    return true;
}

CacheState cache_state(const CatalogEntry& entry, const std::string& cache_dir) {
    std::error_code ec;
    const std::string tsb = cached_tensor_path(entry, cache_dir);
    if (fs::is_regular_file(tsb, ec)) {
        try {  // a header that reads and matches: opening it would otherwise be the first to say
            const TsbHeader h = read_tsb_header(tsb);
            return within_catalog_dims(h.dims, entry) && h.nnz == entry.nnz ? CacheState::Ready : CacheState::Damaged;
        } catch (const Error&) {
            return CacheState::Damaged;
        }
    }
    if (fs::is_regular_file(partial_download_path(entry, cache_dir), ec)) return CacheState::Partial;
    return CacheState::NotFetched;
}

const char* cache_state_name(CacheState s) {
    switch (s) {
        case CacheState::Ready: return "ready";
        case CacheState::Partial: return "partial";
        case CacheState::Damaged: return "damaged";
        case CacheState::NotFetched: break;
    }
    return "not fetched";
}

std::string default_cache_dir() {
    if (const char* d = std::getenv("TENSORSCOPE_CACHE"); d && *d) return d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "tensorscope").string();
    if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "tensorscope").string();
    return (fs::temp_directory_path() / "tensorscope-cache").string();
}

std::string installed_catalog_path(const std::string& bin_dir) {
    return (fs::path(bin_dir) / ".." / "share" / "tensorscope" / "catalog" / "frostt.json").lexically_normal().string();
}

void check_against_catalog(const CooTensor& t, const CatalogEntry& e, const std::string& path) {
    auto mismatch = [&](const std::string& what) {
        throw InputError(path + " does not match the catalog's " + e.name + ": " + what);
    };
    if (t.order() != e.order) mismatch("order " + std::to_string(t.order()) + ", expected " + std::to_string(e.order));
    if (t.nnz() != e.nnz) mismatch(grouped(t.nnz()) + " nonzeros, expected " + grouped(e.nnz));
    for (int m = 0; m < t.order(); ++m)
        if (t.dim(m) > e.dims[static_cast<std::size_t>(m)])
            mismatch("mode " + std::to_string(m + 1) + " reaches " + grouped(t.dim(m)) + ", the catalog says " +
                     grouped(e.dims[static_cast<std::size_t>(m)]));
}

}  // namespace tscope
