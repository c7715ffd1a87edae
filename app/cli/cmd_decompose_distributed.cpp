// tensorscope-cli decompose FILE.tsb --method cpd --distributed [--grid AxBxC] [--backend omp|cuda]
//                 [--rank R] [--iters N] [--tol T] [--seed S] [--format F] [--threads T] [--write DIR] [--json]
// Under `mpirun -np P`: the medium-grained CPD-ALS of tscope/decomp/cpd_distributed.hpp. Rank 0
// prints (the iterations as they complete, or one JSON document); the other ranks stay quiet.
// Any error ends every rank with the same exit status and one message, from rank 0.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "args.hpp"
#include "decompose_report.hpp"
#include "text_table.hpp"
#include "threads.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/decomp/cpd_distributed.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/tensor/rank_grid.hpp"
#include "tscope/text_parse.hpp"
#include "tscope/text_words.hpp"

namespace tscope::cli {

namespace {

struct Spread {
    double max = 0, avg = 0;
};

template <class F> Spread spread(const std::vector<RankReport>& ranks, F field) {
    Spread s;
    for (const RankReport& r : ranks) {
        const double v = static_cast<double>(field(r));
        s.max = std::max(s.max, v), s.avg += v / static_cast<double>(ranks.size());
    }
    return s;
}

Json spread_json(const Spread& s) { return Json{{"max", s.max}, {"avg", s.avg}}; }

// More OpenMP threads than the cores a rank is bound to share those cores: mpirun binds each
// rank to one core by default (a 2-rank run with 8 threads each measured 6.6x slower per
// iteration than one process on an H100 host's 16 cores).
// Unbound ranks (--oversubscribe, --bind-to none) escape that check: 3 ranks of 2 threads on a
// 2-core host took 0.6-4 s an iteration against 0.14 s with --threads 1, and said nothing (sweep
// 66a F11).
// The warning, or "" where the binding is fine.
std::string binding_warning(const DistributedCpdResult& r) {
    std::ostringstream w;
    for (std::size_t q = 0; q < r.per_rank.size(); ++q) {
        const RankReport& x = r.per_rank[q];
        if (x.cores <= 0 || x.threads <= x.cores) continue;
        w << "warning: rank " << q << " ran "
          << counted(static_cast<std::uint64_t>(x.threads), "OpenMP thread", "OpenMP threads") << " on the "
          << counted(static_cast<std::uint64_t>(x.cores), "core", "cores")
          << " it is bound to; run mpirun with --bind-to none, or --map-by slot:PE=" << x.threads
          << ", or set --threads to match\n";
        return w.str();
    }
    for (const RankReport& x : r.per_rank) {
        if (x.host_cores <= 0 || static_cast<long>(x.host_ranks) * x.threads <= x.host_cores) continue;
        w << "warning: " << x.host_ranks << " ranks on a host of "
          << counted(static_cast<std::uint64_t>(x.host_cores), "core", "cores") << " ran "
          << counted(static_cast<std::uint64_t>(x.threads), "OpenMP thread", "OpenMP threads")
          << " each, and shared its cores; ";
        if (x.host_ranks > x.host_cores)  // --threads cannot go below 1 (sweep 68a D1)
            w << "run at most " << x.host_cores << " ranks a host\n";
        else
            w << "set --threads " << x.host_cores / x.host_ranks << ", or run fewer ranks a host\n";
        return w.str();
    }
    return {};
}

// One write a line: mpirun forwards a rank's stderr as the pieces arrive, so a line written in
// pieces could take another stream's line between them (sweep 68a D2).
void say_line(const std::string& line) {
    if (line.empty()) return;
    std::cerr << one_line(line.back() == '\n' ? line.substr(0, line.size() - 1) : line) + "\n" << std::flush;
}

DistributedCpdOptions read_options(const Args& args) {
    const std::string method = args.value_or("--method", "cpd");
    if (method != "cpd") throw InputError("--distributed applies to --method cpd");
    for (const char* gpu_only : {"--gpus", "--limit-gpu-memory", "--streams", "--chunk-bytes", "--stream", "--restarts", "--reorder"})
        if (args.value(gpu_only) || args.flag(gpu_only))
            throw InputError(std::string(gpu_only) + " does not apply to --distributed");
    DistributedCpdOptions d;
    CpdOptions& o = d.cpd;
    o.rank = args.integer("--rank", 16, 1, 4096);
    o.max_iters = static_cast<int>(args.integer("--iters", 50, 1, 100000));
    if (auto tol = args.value("--tol")) {  // read as the single process reads it (parse_double: subnormals, hex)
        if (parse_double(*tol, o.tolerance) != std::errc() || !std::isfinite(o.tolerance) || o.tolerance < 0)
            throw InputError("--tol expects a non-negative number, not '" + *tol + "'");
    }
    o.seed = args.integer("--seed", 1);
    o.backend = parse_backend(args.value_or("--backend", "omp"));
    if (o.backend == Backend::CpuRef) throw InputError("decompose runs on omp or cuda");
    o.format = parse_format(args.value_or("--format", "CSF"));
    o.init = parse_cpd_init(args.value_or("--init", "random"));
    d.grid_text = args.value_or("--grid", "");
    if (args.value("--grid") && d.grid_text.empty())  // an empty one meant "choose" without a word (sweep 66a F10)
        throw InputError("--grid needs a grid, such as 2x1x1; leave it out to have one chosen");
    d.gather_factors = args.value("--write").has_value();
    return d;
}

void print_summary(const std::string& path, const DistributedCpdResult& r) {
    const auto nnz = spread(r.per_rank, [](const RankReport& x) { return x.nnz; });
    const auto rows = spread(r.per_rank, [](const RankReport& x) { return x.rows_sent + x.rows_received; });
    const auto comm = spread(r.per_rank, [](const RankReport& x) { return x.comm_s; });
    const auto compute = spread(r.per_rank, [](const RankReport& x) { return x.compute_s; });
    std::cout << "fit " << number(r.cpd.fit, 6) << (r.cpd.converged ? " (converged)" : "") << "; " << path << " over " << r.ranks
              << " ranks, grid " << grid_name(r.grid) << "\n";
    // an average under 1000 keeps its fraction: 0.75 read "avg 0" beside an imbalance of 1.33 (sweep 66a F10)
    const std::string average =
        nnz.avg < 1000 ? number(nnz.avg) : grouped(static_cast<std::uint64_t>(std::llround(nnz.avg)));
    std::cout << "nonzeros per rank: max " << grouped(static_cast<std::uint64_t>(nnz.max)) << ", avg " << average
              << " (imbalance " << number(nnz.avg > 0 ? nnz.max / nnz.avg : 1) << ")\n";
    std::cout << "communication volume (factor rows sent and received per iteration): max " << grouped(static_cast<std::uint64_t>(rows.max))
              << ", avg " << grouped(static_cast<std::uint64_t>(rows.avg)) << "\n";
    std::cout << "time in MPI calls over the iterations " << number(comm.max) << " s max, " << number(comm.avg) << " s avg; computation "
              << number(compute.max) << " s max, " << number(compute.avg) << " s avg; setup " << number(r.setup_seconds) << " s"
              << std::endl;
}

Json report_json(const std::string& path, const DistributedCpdOptions& d, const DistributedCpdResult& r) {
    const CpdResult& c = r.cpd;
    Json doc{{"file", path}, {"method", "cpd"}, {"backend", backend_name(d.cpd.backend)}, {"dims", r.dims}, {"nnz", r.nnz},
             {"duplicates_summed", r.duplicates_summed}, {"distributed", true}, {"ranks", r.ranks}, {"grid", grid_name(r.grid)},
             {"rank", d.cpd.rank}, {"format", format_name(d.cpd.format)}, {"fit", c.fit}, {"converged", c.converged},
             {"lambda", c.lambda}, {"pseudo_inverse_solves", c.pseudo_inverse_solves}, {"setup_seconds", r.setup_seconds},
             {"init", cpd_init_name(d.cpd.init)}, {"seed", d.cpd.seed}};
    doc["nnz_per_rank"] = spread_json(spread(r.per_rank, [](const RankReport& x) { return x.nnz; }));
    doc["rows_sent_per_iteration"] = spread_json(spread(r.per_rank, [](const RankReport& x) { return x.rows_sent; }));
    doc["rows_received_per_iteration"] = spread_json(spread(r.per_rank, [](const RankReport& x) { return x.rows_received; }));
    // SPLATT's "communication volume": rows sent and received per iteration
    doc["comm_volume_rows"] = spread_json(spread(r.per_rank, [](const RankReport& x) { return x.rows_sent + x.rows_received; }));
    doc["comm_s"] = spread_json(spread(r.per_rank, [](const RankReport& x) { return x.comm_s; }));
    doc["compute_s"] = spread_json(spread(r.per_rank, [](const RankReport& x) { return x.compute_s; }));
    Json ranks = Json::array();
    for (std::size_t q = 0; q < r.per_rank.size(); ++q) {
        const RankReport& x = r.per_rank[q];
        Json j{{"rank", q}, {"nnz", x.nnz}, {"rows_sent", x.rows_sent}, {"rows_received", x.rows_received},
               {"rows_touched", x.rows_touched}, {"rows_owned", x.rows_owned}, {"comm_s", x.comm_s}, {"compute_s", x.compute_s},
               {"read_s", x.read_s}, {"distribute_s", x.distribute_s}, {"build_s", x.build_s}};
        if (x.gpu >= 0) j["gpu"] = x.gpu;
        j["cores"] = x.cores, j["threads"] = x.threads, j["host_ranks"] = x.host_ranks, j["host_cores"] = x.host_cores;
        ranks.push_back(j);
    }
    doc["per_rank"] = ranks;
    Json its = Json::array();
    for (const IterationReport& it : c.iterations) its.push_back(iteration_json(it));
    doc["iterations"] = its;
    doc["machine"] = to_json(describe_machine());
    return doc;
}

int run(MpiSession& mpi, int argc, char** argv) {
    std::optional<Args> args;
    DistributedCpdOptions d;
    std::string path;
    agreed_on_all_ranks([&] {
        args.emplace(argc, argv, 2, "decompose",
                     std::set<std::string>{"--method", "--rank", "--iters", "--backend", "--threads", "--seed", "--tol", "--format",
                                           "--init", "--write", "--grid", "--restarts", "--gpus", "--limit-gpu-memory", "--streams",
                                           "--chunk-bytes", "--reorder"},
                     std::set<std::string>{"--json", "--distributed", "--stream"});
        path = args->positional(0, "the tensor FILE");
        args->expect_positionals(1);
        if (path == "-")  // it said "cannot open '-'" (sweep 66a F10)
            throw InputError("--distributed reads a .tsb in parts by its path: standard input cannot be; give the file's path");
        apply_threads(*args);
        d = read_options(*args);
    });
    if (auto dir = args->value("--write"))
        agreed_on_rank_zero([&] {  // rank 0 writes the factors: its folder alone is checked
            check_output_dir(*dir);
            check_not_input(path, cpd_file_paths(*dir, kMaxOrder), "--write");  // the files of any order
        });
    const bool json = args->flag("--json");
    const bool talk = mpi.rank() == 0;
    if (mpi.started_alone())  // it ran as one rank without a word (sweep 66a F10)
        say_line(
            "note: --distributed runs over the ranks mpirun starts (mpirun -np P tensorscope-cli ...); "
            "started alone, it runs as one rank\n");
    if (talk && !json)
        std::cout << path << ": cpd on " << backend_name(d.cpd.backend) << " over "
                  << counted(static_cast<std::uint64_t>(mpi.size()), "MPI rank", "MPI ranks") << std::endl;
    const DistributedCpdResult r = cpd_als_distributed(path, d, json ? IterationCallback{} : IterationCallback(print_iteration));
    if (auto dir = args->value("--write"))
        agreed_on_rank_zero([&] {
            write_cpd(r.cpd, *dir);
            note_older_mode_files(*dir, static_cast<int>(r.dims.size()), "core.tns");
        });
    if (!talk) return 0;
    say_line(binding_warning(r));
    if (json)
        std::cout << report_json(path, d, r).dump(1, ' ', false, kBadUtf8) << "\n";
    else
        print_summary(path, r);
    return 0;
}

}  // namespace

int run_decompose_distributed(int argc, char** argv) {
    MpiSession mpi(argc, argv);  // without MPI in the build: an InputError (exit 2) from every process
    try {
        return run(mpi, argc, argv);
    } catch (const InputError& e) {  // every rank holds the same error: rank 0 says it
        if (mpi.rank() == 0) say_line("error: " + std::string(e.what()) + "\n");
        return 2;
    } catch (const AgreedError& e) {
        if (mpi.rank() == 0) say_line("error: " + std::string(e.what()) + "\n");
        return 1;
    } catch (const std::bad_alloc&) {  // this rank's alone: the others would wait for it in a collective
        say_line("error: rank " + std::to_string(mpi.rank()) + " of " + std::to_string(mpi.size()) +
                 ": out of host memory; the job is stopped\n");
        mpi.abort_job(1);
    } catch (const std::exception& e) {
        say_line("error: rank " + std::to_string(mpi.rank()) + " of " + std::to_string(mpi.size()) + ": " + e.what() +
                 "; the job is stopped\n");
        mpi.abort_job(1);
    }
}

}  // namespace tscope::cli
