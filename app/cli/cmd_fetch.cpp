// tensorscope-cli fetch --list [--json] [--cache DIR] [--catalog FILE]
// tensorscope-cli fetch NAME [--json] [--cache DIR] [--catalog FILE]
// The dataset catalog (every FROSTT tensor) and what the cache folder holds of each; `fetch NAME`
// downloads a tensor not yet ready (resuming a partial download) and converts it once to .tsb.
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "fetch_download.hpp"
#include "json_report.hpp"
#include "text_table.hpp"
#include "tscope/error.hpp"
#include "tscope/io/dataset_catalog.hpp"
#include "tscope/text_words.hpp"

namespace tscope::cli {

namespace {

std::string executable_dir() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(".") : exe.parent_path().string();
}

std::string dims_text(const CatalogEntry& e) {
    std::string s;
    for (std::size_t m = 0; m < e.dims.size(); ++m) {
        if (m) s += " x ";
        s += grouped(e.dims[m]);  // "4,821,207 x 1,774,269", as everywhere else
    }
    return s;
}

Json entry_json(const CatalogEntry& e, const std::string& cache) {
    Json files = Json::array();
    for (const CatalogFile& f : e.tensors) files.push_back(Json{{"url", f.url}, {"what", f.what}});
    return Json{{"name", e.name},     {"title", e.title}, {"order", e.order},
                {"dims", e.dims},     {"nnz", e.nnz},     {"tensors", files},
                {"licence", e.licence}, {"state", cache_state_name(cache_state(e, cache))},
                {"path", cached_tensor_path(e, cache)}};
}

}  // namespace

int run_fetch(int argc, char** argv) {
    Args args(argc, argv, 2, "fetch", {"--cache", "--catalog"}, {"--list", "--json"});
    const std::string catalog_path = args.value_or("--catalog", installed_catalog_path(executable_dir()));
    const std::string cache = args.value_or("--cache", default_cache_dir());
    if (args.flag("--list") == !args.positionals().empty())
        throw InputError("fetch: give a dataset NAME or --list (tensorscope-cli fetch --list shows the names)");
    args.expect_positionals(args.flag("--list") ? 0 : 1);
    const DatasetCatalog catalog = read_catalog(catalog_path);
    if (args.flag("--list")) {
        if (args.flag("--json")) {
            Json list = Json::array();
            for (const CatalogEntry& e : catalog.entries) list.push_back(entry_json(e, cache));
            std::cout << Json{{"catalog", catalog_path},
                              {"source", catalog.source},
                              {"cache", cache},
                              {"datasets", list}}
                             .dump(2, ' ', false, kBadUtf8)
                      << "\n";
            return 0;
        }
        TextTable table({"name", "order", "dims", "nonzeros", "state"});
        for (const CatalogEntry& e : catalog.entries)
            table.add({e.name, std::to_string(e.order), dims_text(e), grouped(e.nnz),
                       cache_state_name(cache_state(e, cache))});
        std::cout << table.render() << "cache: " << cache << "\nsource: " << catalog.source << "\n";
        return 0;
    }
    const CatalogEntry& e = find_entry(catalog, args.positional(0, "the dataset NAME"));
    if (cache_state(e, cache) == CacheState::Ready) {
        if (args.flag("--json"))
            std::cout << entry_json(e, cache).dump(2, ' ', false, kBadUtf8) << "\n";
        else std::cout << e.name << ": ready at " << cached_tensor_path(e, cache) << "\n";
        return 0;
    }
    if (cache_state(e, cache) == CacheState::Damaged)
        std::cerr << "the cached " << cached_tensor_path(e, cache)
                  << " does not read as the catalog's tensor: fetching it again, to replace it\n";
    if (!fetch_download_built()) {
        std::cerr << "tensorscope-cli fetch: this build cannot download (no Qt Network). " << e.name << " (" << dims_text(e) << ", "
                  << e.nnz << " nonzeros) is at " << e.tensors.front().url << "; download it, then run: tensorscope-cli convert "
                  << "FILE.tns.gz " << cached_tensor_path(e, cache) << "\n";
        return 2;
    }
    const std::string tsb = fetch_and_convert(e, cache, args.flag("--json"));
    if (args.flag("--json"))
        std::cout << entry_json(e, cache).dump(2, ' ', false, kBadUtf8) << "\n";
    else std::cout << e.name << ": ready at " << tsb << "\n";
    return 0;
}

}  // namespace tscope::cli
