#include "tscope/formats/format_survey.hpp"

#include <algorithm>
#include <new>
#include <string>

#include "tscope/error.hpp"
#include "tscope/failed_allocation.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

std::vector<FormatRow> survey_formats(const CooTensor& t, const SurveyRequest& request, RunControl& control) {
    const std::vector<FormatKind> kinds = request.formats.empty() ? available_formats() : request.formats;
    const std::vector<int> modes = request.modes.empty() ? natural_modes(t.order()) : request.modes;
    for (int mode : modes) {  // a bad request fails as a whole, before any work
        FormatOptions o = request.options;
        o.mode = mode;
        validate_options(t, o);
    }
    std::vector<FormatRow> rows;
    std::uint64_t total = 0;
    for (FormatKind kind : kinds) total += format_is_per_mode(kind) ? modes.size() : 1;
    control.stage("building formats");
    for (FormatKind kind : kinds) {
        const std::vector<int> row_modes = format_is_per_mode(kind) ? modes : std::vector<int>{-1};
        for (int mode : row_modes) {
            control.check();
            FormatRow row;
            row.kind = kind;
            row.mode = mode;
            FormatOptions o = request.options;
            o.mode = std::max(mode, 0);
            try {
                const auto f = build_format(kind, t, o);
                row.built = true;
                row.storage = f->storage();
                row.parameters = f->parameters();
                row.build_seconds = f->build_seconds();
                if (request.verify) {
                    std::string why;
                    row.roundtrip_ok = same_entries(t, f->to_coo(), &why);
                    row.roundtrip_error = why;
                }
            } catch (const InputError& e) {  // a shape this format refuses
                row.error = e.what();
            } catch (
                const std::bad_alloc&) {  // this format's row, not the survey (sweep 68a A1: HOCSR's 1.2 GB ended it)
                row.error = out_of_memory_words(std::string("building ") + format_name(kind));
                row.out_of_memory = true;
            }
            rows.push_back(std::move(row));
            control.progress(rows.size(), total);
        }
    }
    return rows;
}

}  // namespace tscope
