#include "fetch_download.hpp"

#include "tscope/error.hpp"

namespace tscope::cli {

bool fetch_download_built() { return false; }

std::string fetch_and_convert(const CatalogEntry& entry, const std::string&, bool) {
    throw InputError("this build cannot download (it was built without Qt Network); " + entry.name + " is at " +
                     entry.tensors.front().url);
}

}  // namespace tscope::cli
