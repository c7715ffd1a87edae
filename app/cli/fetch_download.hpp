// `fetch NAME`'s download: the catalog entry's tensor file into the cache (resumed from a
// partial one), checked, converted once to NAME.tsb, the download then removed. Progress on
// stderr unless quiet. Returns the .tsb's path; Error on a failed transfer, InputError on a
// file that is not the catalog's dataset. Built with Qt Network where the GUI is built
// (fetch_download.cpp); without it, fetch_download_none.cpp says so.
#pragma once

#include <string>

#include "tscope/io/dataset_catalog.hpp"

namespace tscope::cli {

bool fetch_download_built();
std::string fetch_and_convert(const CatalogEntry& entry, const std::string& cache_dir, bool quiet);

}  // namespace tscope::cli
