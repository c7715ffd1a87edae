// The catalog of public datasets (resources/catalog/frostt.json: every FROSTT tensor with its
// order, dims, nonzeros, files, citation and licence note), and what a local cache folder holds
// of each. Qt-free: the CLI's `fetch` and the GUI's dataset dialog read it alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/run_control.hpp"

namespace tscope {

class CooTensor;

struct CatalogFile {
    std::string url;
    std::string what;  // as the catalog describes the file
};

struct CatalogEntry {
    std::string name, title, description, citation, licence;
    int order = 0;
    std::vector<std::uint64_t> dims;
    std::uint64_t nnz = 0;
    std::vector<CatalogFile> tensors;      // the .tns(.gz) files; the first has dims and nnz above
    std::vector<CatalogFile> other_files;  // index maps and dictionaries
};

struct DatasetCatalog {
    std::string source, note;
    std::vector<CatalogEntry> entries;
};

// Reads and checks a catalog file; InputError naming the file and the entry on anything missing
// or inconsistent (dims that do not match the order, an entry without a tensor file, ...).
DatasetCatalog read_catalog(const std::string& path);

// The entry called `name`; InputError listing the closest names when there is none.
const CatalogEntry& find_entry(const DatasetCatalog& catalog, const std::string& name);

// What a cache folder holds of an entry: its converted .tsb (ready), a download in progress or
// interrupted (NAME.tns.gz.part: partial), or nothing.
// Damaged: NAME.tsb is there, but its header does not read, or does not match the catalog's
// dims and nonzeros (a fetch downloads it again, and replaces it).
enum class CacheState { NotFetched, Partial, Ready, Damaged };
CacheState cache_state(const CatalogEntry& entry, const std::string& cache_dir);
const char* cache_state_name(CacheState s);
std::string cached_tensor_path(const CatalogEntry& entry, const std::string& cache_dir);   // NAME.tsb
std::string partial_download_path(const CatalogEntry& entry, const std::string& cache_dir);  // NAME.tns.gz.part
std::string downloaded_path(const CatalogEntry& entry, const std::string& cache_dir);  // NAME.tns.gz, whole

// A whole download made ready: read (fp64, the values as published), checked against the entry
// (check_against_catalog), written once as NAME.tsb, the download removed. Returns the .tsb's
// path. The CLI's `fetch` and the GUI's Open dataset share it.
std::string install_download(const CatalogEntry& entry, const std::string& cache_dir, RunControl& control = no_control());

// A downloaded tensor against its entry: InputError naming `path` where its order, nonzero
// count or a mode's length disagrees (a mode read from text may fall short of the catalog's
// length, never exceed it).
void check_against_catalog(const CooTensor& t, const CatalogEntry& entry, const std::string& path);

// The default cache folder: $TENSORSCOPE_CACHE, else $XDG_CACHE_HOME/tensorscope, else
// ~/.cache/tensorscope.
std::string default_cache_dir();

// The catalog installed beside an executable in `bin_dir` (../share/tensorscope/catalog/frostt.json).
std::string installed_catalog_path(const std::string& bin_dir);

}  // namespace tscope
