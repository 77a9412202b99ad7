// kdop batch: one environment, one or more objects, many poses from a file or standard input;
// results per pose to CSV or JSON, streamed in pose order.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <system_error>
#include <utility>

#include "apps/kdop/cli_common.hpp"
#include "apps/kdop/commands.hpp"
#include "apps/kdop/hierarchy_inputs.hpp"
#include "apps/kdop/pair_config.hpp"
#include "engine/batch_query.hpp"
#include "io/atomic_file.hpp"
#include "io/csv_text.hpp"
#include "io/file_extension.hpp"
#include "io/io_error.hpp"
#include "io/pose_file.hpp"
#include "io/result_file.hpp"

namespace kdop::cli {

CLI::App* add_batch_command(CLI::App& app, BatchArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "batch",
      "Many poses of one or more objects against one environment. Results per pose (CSV or "
      "JSON) in pose order; a summary on stderr. Exit 0: no pose collides, 1: some pose "
      "collides, 2: usage or input error, 3: internal error, 130: interrupted (no output file).");
  cmd->add_option("--env", args.env,
                  "Environment mesh (STL, OBJ, PLY, OFF) or hierarchy file (kdop build --role "
                  "env); stays at identity")
      ->required()
      ->check(non_empty());
  cmd->add_option("--object", args.objects,
                  "Moving object mesh or hierarchy file (kdop build --role object), or "
                  "NAME=FILE; repeat for several objects (the pose file then needs an `object` "
                  "column naming them)")
      ->required()
      ->check(non_empty());
  cmd->add_option(
         "--poses", args.poses,
         "Pose file: CSV with header pose_id,tx,ty,tz,qw,qx,qy,qz[,object] (Hamilton "
         "quaternion, scalar first, normalized) or NumPy .npy (N x 7 float64 in that "
         "order, or N x 4 x 4 matrices); - reads standard input (NumPy by its magic, else CSV)")
      ->required()
      ->check(non_empty());
  cmd->add_option("--threads", args.threads, "Worker threads (0: all cores)")
      ->capture_default_str()
      ->check(CLI::Range(0u, 1024u));
  cmd->add_option("--mode", args.mode,
                  "first: stop at the first contact of each pose (report it as the witness); "
                  "all: every intersecting pair; count: count every pair, store none")
      ->capture_default_str();
  add_build_options(*cmd, args.build);
  cmd->add_option("--out,-o", args.out,
                  "Results file, .csv or .json (written atomically); default: CSV on stdout")
      ->check(non_empty());
  cmd->add_option("--pairs", args.pairs,
                  "With --mode all: also write every intersecting pair to this CSV "
                  "(pose_id,[object,]env_triangle,object_triangle)")
      ->check(non_empty());
  cmd->add_option("--chunk", args.chunk, "Poses read, queried and written per step")
      ->capture_default_str()
      ->check(CLI::Range(1u, 10000000u));
  cmd->add_option("--clearance", args.clearance,
                  "Distance queries (k-DOP types): a pose collides when a triangle pair is at "
                  "most this far apart; adds a min_distance column (the least distance)")
      ->check(finite_non_negative());
  cmd->add_flag("--quiet,-q", args.quiet, "No progress and no summary on stderr");
  return cmd;
}

namespace {

struct NamedObject {
  std::string name, file;
};

// "NAME=FILE", or a plain file named after its stem (also a file whose name holds a '=', when
// it exists as given; when FILE exists too, which one was meant is not guessed).
NamedObject parse_object(const std::string& text) {
  const std::size_t eq = text.find('=');
  std::error_code ec;
  if (eq != std::string::npos && eq > 0 && eq + 1 < text.size() &&
      text.find('/') > eq) {  // a '=' inside a directory name is part of the path
    const std::string file = text.substr(eq + 1);
    if (!std::filesystem::is_regular_file(text, ec)) return {text.substr(0, eq), file};
    if (std::filesystem::is_regular_file(file, ec)) {
      throw InputError("--object " + text + ": both the file '" + text + "' and NAME=FILE ('" +
                       text.substr(0, eq) + "' = '" + file + "') exist; give ./" + text +
                       " for the file");
    }
  }
  std::string stem = text.substr(text.find_last_of('/') + 1);
  stem = stem.substr(0, stem.find_last_of('.'));
  return {stem.empty() ? text : stem, text};
}

QueryMode parse_mode(const std::string& mode) {
  if (mode == "first") return QueryMode::first_contact;
  if (mode == "all") return QueryMode::all_contacts;
  if (mode == "count") return QueryMode::count_contacts;
  throw InputError("--mode: expected first, all or count, got '" + mode + "'");
}

// The progress line: a bar, a percentage and the time left where the input's size is known (an
// NPY header's row count, or a file's bytes scaled by the poses done of those read).
std::string progress_text(std::uint64_t poses, const PoseReader& reader, double seconds) {
  const std::optional<std::uint64_t> total = reader.record_count();
  const std::optional<double> bytes = reader.fraction_read();
  std::optional<double> share;
  if (total && *total > 0) {
    share = static_cast<double>(poses) / static_cast<double>(*total);
  } else if (bytes && reader.records_read() > 0) {
    share = *bytes * static_cast<double>(poses) / static_cast<double>(reader.records_read());
  }
  std::string text = "kdop batch: ";
  if (share) {
    constexpr int kBar = 20;
    const double done = std::clamp(*share, 0.0, 1.0);
    const int filled = static_cast<int>(done * kBar);
    text += "[" + std::string(filled, '=') + std::string(kBar - filled, ' ') + "] " +
            std::to_string(static_cast<int>(done * 100)) + "% ";
  }
  text += std::to_string(poses);
  if (total) text += " of " + std::to_string(*total);
  text +=
      " poses, " +
      std::to_string(static_cast<long long>(static_cast<double>(poses) / std::max(seconds, 1e-9))) +
      " poses/s";
  if (share && *share > 0 && *share < 1) {
    text +=
        ", " + std::to_string(static_cast<long long>(seconds * (1 - *share) / *share)) + " s left";
  }
  return text;
}

}  // namespace

int run_batch(const BatchArgs& args) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  PairConfig pair_config = make_pair_config(args.build);
  BatchConfig config;
  config.bv = pair_config.bv;
  config.environment = pair_config.environment;
  config.object = pair_config.object;
  config.tumble = pair_config.tumble;
  config.descent = pair_config.descent;
  config.root = pair_config.root;
  config.mode = parse_mode(args.mode);
  config.threads = args.threads;
  if (args.clearance >= 0) config.clearance = args.clearance;
  if (!args.pairs.empty() && config.mode != QueryMode::all_contacts) {
    throw InputError("--pairs needs --mode all");
  }

  std::vector<NamedObject> named;
  for (const std::string& o : args.objects) named.push_back(parse_object(o));
  std::vector<std::string> names;
  for (const NamedObject& o : named) {
    for (const std::string& n : names) {
      if (n == o.name) throw InputError("--object: two objects are named '" + o.name + "'");
    }
    names.push_back(o.name);
  }
  std::vector<NamedPath> inputs{{"--env", args.env}, {"--poses", args.poses}};
  for (const NamedObject& o : named) inputs.push_back({"--object", o.file});
  check_outputs(inputs, {{"--out", args.out}, {"--pairs", args.pairs}},
                args.out.empty() ? "the results" : nullptr);
  // The pairs file is CSV only: a .json name would hold CSV. A device or an open descriptor
  // without an extension (/dev/stdout) has no name to mislead.
  if (!args.pairs.empty() && lowercase_extension(args.pairs) != ".csv" &&
      !is_stream_without_extension(args.pairs)) {
    throw InputError("--pairs: " + args.pairs + ": expected a .csv file (the pairs file is CSV)");
  }
  // Open the inputs (and check the pose file's header) before any work.
  PoseReader reader(args.poses, names);
  const ResultFormat format =
      args.out.empty() ? ResultFormat::csv : result_format_from_path(args.out);
  std::vector<std::string> files;
  for (const NamedObject& o : named) files.push_back(o.file);
  Inputs in = load_inputs(args.env, files, args.build, pair_config);

  const auto b0 = Clock::now();
  if (config.clearance && !is_dop(bv_type(in.environment))) {
    throw InputError(std::string("--clearance: distance queries need a k-DOP hierarchy, not ") +
                     to_string(bv_type(in.environment)));
  }
  BatchQuery batch(std::move(in.environment), std::move(in.objects), config);
  const double build_ms =
      in.build_ms + std::chrono::duration<double, std::milli>(Clock::now() - b0).count();

  // The results name each pose's object when there are several, or when the input named them.
  const bool several = names.size() > 1 || reader.has_object_column();
  if (!args.out.empty()) register_output_file(args.out);
  if (!args.pairs.empty()) register_output_file(args.pairs);
  ResultWriter writer(args.out, format, several, config.mode == QueryMode::first_contact,
                      config.clearance.has_value());
  std::unique_ptr<AtomicFileWriter> pairs_file;
  if (!args.pairs.empty()) {
    pairs_file = std::make_unique<AtomicFileWriter>(args.pairs);
    pairs_file->write(several ? "pose_id,object,env_triangle,object_triangle\n"
                              : "pose_id,env_triangle,object_triangle\n");
  }

  std::vector<PoseRecord> records;
  std::vector<PoseTask> tasks;
  BatchOutput out;
  ProgressLine progress(!args.quiet);
  std::uint64_t poses = 0, colliding = 0, contacts = 0;
  double sum_v = 0, sum_p = 0, sum_u = 0, query_seconds = 0;
  RunControl control;
  control.cancel = &interrupt_flag();
  const auto q0 = Clock::now();
  std::uint64_t before_chunk = 0;
  control.progress = [&](std::uint64_t done) {
    const double seconds = std::chrono::duration<double>(Clock::now() - q0).count();
    progress.update(progress_text(before_chunk + done, reader, seconds), seconds);
  };
  // What an interrupt leaves: files are replaced only at the end, while standard output, a
  // device or a FIFO has had every finished chunk's rows.
  const bool streamed = args.out.empty() || resolve_output(args.out).in_place ||
                        (!args.pairs.empty() && resolve_output(args.pairs).in_place);
  const char* unfinished_output =
      streamed ? "the rows written so far are incomplete\n" : "no output written\n";
  std::string line;
  while (reader.next_chunk(records, args.chunk)) {
    tasks.resize(records.size());
    for (std::size_t i = 0; i < records.size(); ++i)
      tasks[i] = {records[i].object, records[i].pose};
    before_chunk = poses;
    if (!batch.run(tasks, out, control) || interrupted()) {
      progress.finish();
      std::cerr << "kdop batch: interrupted after " << poses << " poses; " << unfinished_output;
      return kExitInterrupted;
    }
    for (std::size_t i = 0; i < records.size(); ++i) {
      const PoseResult& r = out.results[i];
      ResultRow row;
      row.pose_id = records[i].pose_id;
      row.object = names[records[i].object];
      row.collides = r.collides;
      row.contacts = r.contacts;
      row.n_v = r.stats.n_v;
      row.n_p = r.stats.n_p;
      row.n_u = r.stats.n_u;
      row.time_us = r.time_us;
      row.has_witness = r.has_witness;
      row.witness_env = r.witness.env_triangle;
      row.witness_object = r.witness.object_triangle;
      row.min_distance = r.min_distance;
      writer.write(row);
      if (pairs_file) {
        for (std::uint64_t k = 0; k < r.pairs_count; ++k) {
          const ContactPair& p = out.pairs[r.pairs_begin + k];
          // Quoted as the results file quotes them (RFC 4180): ids and names may hold commas.
          line.clear();
          csv::put_field(line, records[i].pose_id);
          if (several) {
            line += ',';
            csv::put_field(line, names[records[i].object]);
          }
          line += ',';
          csv::put_uint(line, p.env_triangle);
          line += ',';
          csv::put_uint(line, p.object_triangle);
          line += '\n';
          pairs_file->write(line);
        }
      }
      colliding += r.collides;
      contacts += r.contacts;
      sum_v += static_cast<double>(r.stats.n_v);
      sum_p += static_cast<double>(r.stats.n_p);
      sum_u += static_cast<double>(r.stats.n_u);
      query_seconds += r.time_us * 1e-6;
    }
    poses += records.size();
  }
  const double wall = std::chrono::duration<double>(Clock::now() - q0).count();
  if (interrupted()) {  // an interrupted read may have looked like the end of the input
    progress.finish();
    std::cerr << "kdop batch: interrupted after " << poses << " poses; " << unfinished_output;
    return kExitInterrupted;
  }
  // Both outputs written and synced before either is renamed: a pairs file that cannot be
  // finished leaves no results file either.
  writer.finish();
  if (pairs_file) pairs_file->finish();
  writer.commit();
  if (pairs_file) pairs_file->commit();
  progress.finish();
  if (!args.quiet) {
    const double n = poses > 0 ? static_cast<double>(poses) : 1.0;
    char summary[512];
    std::snprintf(summary, sizeof summary,
                  "kdop batch: %llu pose%s, %llu colliding, %llu contact%s (mode %s), %.0f poses/s "
                  "on %u thread%s (%s, %s); build %.1f ms; mean query %.2f us; mean N_v %.1f, "
                  "N_p %.1f, N_u %.1f; total %.2f s\n",
                  static_cast<unsigned long long>(poses), plural_s(poses),
                  static_cast<unsigned long long>(colliding),
                  static_cast<unsigned long long>(contacts), plural_s(contacts), args.mode.c_str(),
                  poses / std::max(wall, 1e-9), batch.threads(), plural_s(batch.threads()),
                  to_string(batch.config().bv), simd::to_string(batch.isa()), build_ms,
                  1e6 * query_seconds / n, sum_v / n, sum_p / n, sum_u / n,
                  std::chrono::duration<double>(Clock::now() - start).count());
    std::cerr << summary;
  }
  return colliding > 0 ? kExitFinding : kExitClear;
}

}  // namespace kdop::cli
