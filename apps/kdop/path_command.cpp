// kdop path: a scene's objects along their trajectories, checked at the waypoints (and every
// --step) or certified continuously between them; a report (JSON or CSV) and a plot.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "apps/kdop/cli_common.hpp"
#include "apps/kdop/commands.hpp"
#include "apps/kdop/hierarchy_inputs.hpp"
#include "apps/kdop/pair_config.hpp"
#include "io/hierarchy_file.hpp"
#include "io/path_report.hpp"
#include "io/scene_file.hpp"
#include "io/trajectory_file.hpp"
#include "verify/path_check.hpp"

namespace kdop::cli {

CLI::App* add_path_command(CLI::App& app, PathArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "path",
      "Objects of a scene moving along trajectories: every waypoint checked, and with "
      "--continuous every segment proved free or its first contact found. Exit 0: all free, "
      "1: something collides or is undecided, 2: usage or input error, 130: interrupted.");
  cmd->add_option("--scene", args.scene,
                  "Scene JSON: environment meshes (name, mesh, optional pose), objects (name, "
                  "mesh, optional padding), allow (pairs never checked)")
      ->required()
      ->check(non_empty());
  cmd->add_option("--trajectory", args.trajectory,
                  "Waypoints: CSV with header t,object,tx,ty,tz,qw,qx,qy,qz, or JSON "
                  "{\"objects\": {\"name\": [{\"t\": .., \"pose\": [7 numbers]}]}}; between "
                  "waypoints translation is linear and rotation is slerp")
      ->required()
      ->check(non_empty());
  cmd->add_flag("--continuous", args.continuous,
                "Certify every segment: free (proved), collides (first contact time) or "
                "undecided");
  cmd->add_option("--step", args.step,
                  "Also check every STEP in time between waypoints (discrete samples; 0: none)")
      ->check(finite_non_negative());
  cmd->add_option("--clearance", args.clearance,
                  "Report what comes closer than this distance (added to each object's padding)")
      ->check(finite_non_negative());
  cmd->add_option("--time-tolerance", args.time_tolerance,
                  "Continuous: first contact times to within this (trajectory time units)")
      ->capture_default_str()
      ->check(finite_positive());
  cmd->add_option("--max-steps", args.max_steps,
                  "Continuous: a segment needing more distance queries is undecided (a contact a "
                  "sweep proved is still timed to the tolerance)")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  cmd->add_option("--threads", args.threads, "Worker threads (0: all cores)")
      ->capture_default_str()
      ->check(CLI::Range(0u, 1024u));
  CLI::Option* bv =
      cmd->add_option(
             "--bv", args.build.bv,
             "Bounding volume: kdop6, kdop14, kdop18, kdop26, kdop32, dop8 (default: kdop18, or "
             "the scene's hierarchy files')")
          ->check(non_empty());
  cmd->add_option("--k", args.build.k, "Shorthand for --bv kdopK (6, 14, 18, 26 or 32; 8 for dop8)")
      ->excludes(bv);
  cmd->add_option("--object-leaf", args.build.object_leaf,
                  "Object leaf size tau (default: 8; smaller leaves suit distance queries)")
      ->check(CLI::Range(1u, 1000000u));
  cmd->add_option("--max-memory", args.build.max_memory,
                  "Refuse scene meshes and --step samples that would need more memory than this "
                  "(bytes, or with K, M or G: 10^3, 10^6, 10^9; default: the memory available, "
                  "MemAvailable; under ulimit -v at most half the address space it leaves)");
  cmd->add_option("--out,-o", args.out,
                  "Report, .json (segments, waypoints, summary) or .csv (segments); written "
                  "atomically")
      ->check(non_empty());
  cmd->add_option("--plot", args.plot,
                  "Plot of query time and least distance along the path, .svg or .png")
      ->check(non_empty());
  cmd->add_flag("--quiet,-q", args.quiet, "No progress line and no summary on stderr");
  return cmd;
}

namespace {

std::string format_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string summary_text(const PathReport& report) {
  const PathSummary& s = report.summary;
  std::ostringstream out;
  out << "segments: " << s.segments << " (" << s.free << " free, " << s.colliding << " collide, "
      << s.undecided << " undecided)"
      << (s.continuous ? ", continuous" : ", discrete: free means clear at the samples only")
      << "\n";
  // With --step the samples between waypoints are in the same list: count both kinds.
  std::uint64_t steps = 0;
  for (const WaypointReport& w : report.waypoints) steps += w.kind == SampleKind::step;
  if (steps == 0) {
    out << "waypoints: " << s.waypoints << " checked, " << s.colliding_waypoints << " collide\n";
  } else {
    out << "samples: " << s.waypoints << " checked (" << s.waypoints - steps << " at waypoints, "
        << steps << " --step), " << s.colliding_waypoints << " collide\n";
  }
  if (s.first_collision_t) {
    // The first proved one; an undecided segment that stopped before it may hold an earlier one.
    std::uint64_t earlier = 0;
    for (const SegmentReport& r : report.segments) {
      earlier += r.status == SegmentStatus::undecided && r.t_hit < *s.first_collision_t;
    }
    out << "first collision: t=" << format_number(*s.first_collision_t) << " "
        << s.first_collision_object << " with " << s.first_collision_with;
    if (earlier > 0) {
      out << "; " << earlier << " undecided segment" << plural_s(earlier)
          << " may hold an earlier one";
    }
    out << "\n";
  } else if (s.undecided > 0) {
    // Not "none": an undecided segment may hold one.
    out << "first collision: none proved; " << s.undecided << " undecided segment"
        << plural_s(s.undecided) << " may hold one\n";
  } else {
    out << "first collision: none\n";
  }
  if (!std::isnan(s.worst_clearance)) {
    out << "least distance: " << format_number(s.worst_clearance)
        << " at t=" << format_number(s.worst_clearance_t) << " (" << s.worst_clearance_object
        << " to " << s.worst_clearance_with << ")";
    // A continuous check stops a segment at its first contact: what comes after is not measured.
    if (s.continuous && s.colliding + s.undecided > 0)
      out << ", up to each segment's first contact";
    out << "\n";
  }
  if (s.clearance > 0) out << "clearance: " << format_number(s.clearance) << "\n";
  out << "time: " << format_number(s.time_s) << " s on " << s.threads << " thread"
      << plural_s(s.threads) << "\n";
  return out.str();
}

}  // namespace

namespace {

// Before the work: the --step samples must fit in memory (each one's report is kept).
void check_step_samples(const Trajectory& t, double step, const MemoryBudget& budget) {
  constexpr std::uint64_t kBytesPerSample = 400;  // measured: 800,000 samples, 330 MB
  if (!(step > 0)) return;
  double samples = 0;
  for (const std::vector<Waypoint>& path : t.paths) {
    if (path.size() > 1) samples += (path.back().t - path.front().t) / step;
  }
  if (budget.bytes != 0 && samples * kBytesPerSample > static_cast<double>(budget.bytes)) {
    throw InputError(
        "--step: " + t.file + " would take " +
        (std::isfinite(samples) ? "about " + format_number(samples) : "more than 1e308") +
        " samples (about " + std::to_string(kBytesPerSample) + " bytes each), more than " +
        budget_text(budget) + "; use a larger --step");
  }
}

}  // namespace

int run_path(const PathArgs& args) {
  PathCheckOptions options;
  PairConfig pair = make_pair_config(args.build);
  if (!is_dop(pair.bv)) {
    throw InputError("--bv: kdop path takes kdop6, kdop14, kdop18, kdop26, kdop32 or dop8, got '" +
                     args.build.bv + "'");
  }
  options.bv = pair.bv;
  // The build options, but the path check's own environment leaf size (verify/path_check.hpp),
  // not the collision commands' default.
  const std::uint32_t env_leaf = options.environment.leaf_size;
  options.environment = pair.environment;
  options.environment.leaf_size = env_leaf;
  options.object = pair.object;
  options.object.leaf_size = args.build.object_leaf != 0 ? args.build.object_leaf : 8;
  options.continuous = args.continuous;
  options.step = args.step;
  options.clearance = args.clearance;
  options.time_tolerance = args.time_tolerance;
  options.max_steps = args.max_steps;
  options.threads = args.threads;
  options.cancel = &interrupt_flag();
  // The output names are checked before the work.
  check_output_names({{"--out", args.out}, {"--plot", args.plot}});
  if (!args.out.empty()) report_format_from_path(args.out);
  if (!args.plot.empty()) check_plot_option(args.plot);
  const Scene scene = read_scene(args.scene);
  const Trajectory trajectory = read_trajectory(args.trajectory);
  std::vector<NamedPath> inputs{{"--scene", args.scene}, {"--trajectory", args.trajectory}};
  for (const SceneEnvironmentMesh& m : scene.environment)
    inputs.push_back({"--scene mesh", m.mesh});
  for (const SceneObject& o : scene.objects) inputs.push_back({"--scene mesh", o.mesh});
  check_outputs(inputs, {{"--out", args.out}, {"--plot", args.plot}},
                args.out.empty() ? "the summary" : nullptr);
  const MemoryBudget budget = memory_budget(args.build.max_memory);
  check_step_samples(trajectory, args.step, budget);
  options.before_build = build_gate(budget);
  // Hierarchy files in the scene fix the type: all alike, and as --bv / --k asks if given.
  {
    BvAgreement agreement(args.build, options.bv);
    std::vector<std::string> meshes;
    for (const SceneEnvironmentMesh& m : scene.environment) meshes.push_back(m.mesh);
    for (const SceneObject& o : scene.objects) meshes.push_back(o.mesh);
    // Before anything is read: each file against what the files before it leave (their
    // hierarchies will hold at least as much); after each mesh is read, its build against what
    // the hierarchies before it hold (options.before_build).
    std::uint64_t files = 0;
    for (const std::string& m : meshes) {
      files += check_file_fits(m, budget, files, "the scene's files before it");
      const std::optional<BvType> bv = is_hierarchy_file(m) ? hierarchy_file_bv(m) : std::nullopt;
      if (!bv) continue;
      if (!is_dop(*bv)) {
        throw InputError(m + ": an " + std::string(to_string(*bv)) +
                         " hierarchy; kdop path needs k-DOP hierarchies");
      }
      agreement.add(*bv, m);
    }
    options.bv = agreement.bv();
  }

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  ProgressLine progress(!args.quiet);
  options.progress = [&](std::uint64_t done, std::uint64_t total) {
    progress.update(
        "kdop path: " + std::to_string(done) + "/" + std::to_string(total) + " segments",
        std::chrono::duration<double>(Clock::now() - start).count());
  };
  std::optional<PathReport> report;
  try {
    report = check_path(scene, trajectory, options);
  } catch (const std::invalid_argument& e) {
    progress.finish();
    throw InputError(e.what());
  }
  progress.finish();
  if (!report) {
    std::cerr << "kdop: interrupted\n";
    return kExitInterrupted;
  }
  // Both outputs together: one that cannot be created or written leaves neither.
  std::vector<PendingOutput> pending;
  if (!args.out.empty()) {
    pending.push_back({args.out, [&](AtomicFileWriter& f) { write_path_report(*report, f); }});
  }
  if (!args.plot.empty()) {
    pending.push_back({args.plot, [&](AtomicFileWriter& f) { write_path_plot(*report, f); }});
  }
  write_outputs(pending);
  if (interrupted()) return kExitInterrupted;
  const std::string text = summary_text(*report);
  if (args.out.empty()) {
    std::cout << text;  // the summary is the output
  } else if (!args.quiet) {
    std::cerr << text;
  }
  const PathSummary& s = report->summary;
  const bool finding = s.colliding > 0 || s.undecided > 0 || s.colliding_waypoints > 0;
  return finding ? kExitFinding : kExitClear;
}

}  // namespace kdop::cli
