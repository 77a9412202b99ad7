// kdop-bench-rules: what each splitting rule costs to build and what it buys at query time,
// like the k-DOP paper's Tables 3-5 (Klosowski et al. 1998, section 5), on the scenes of
// kdop-bench; then the build targets of the builders issue: min-sum on 170,000 triangles on one
// thread, splatter on 1,000,000 triangles on two (with peak memory), and build time against
// FCL's BVHModel<OBB> and <RSS> on the same meshes. See bench/README.md.
#include <sys/resource.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/fcl_peer.hpp"
#include "builders/dop_tree.hpp"
#include "engine/collision_pair.hpp"
#include "geometry/shapes.hpp"
#include "io/generated_scene.hpp"

namespace kdop {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

template <class F>
double timed_ms(unsigned threads, F&& f) {
  double ms = 0;
  tbb::task_arena(static_cast<int>(threads)).execute([&] {
    const auto t0 = Clock::now();
    f();
    ms = ms_since(t0);
  });
  return ms;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct RuleCase {
  std::string name;
  BuildConfig config;  // leaf sizes are set per role
};

std::vector<RuleCase> rule_cases(std::uint32_t bins) {
  auto c = [&](SplitRule r, SplitPoint p, bool all = false) {
    BuildConfig b{r, p, 1, bins, all};
    std::string name = std::string(to_string(r)) + " / " + to_string(p);
    if (p == SplitPoint::binned) name += " " + std::to_string(bins);
    if (all) name += " / all directions";
    return RuleCase{name, b};
  };
  return {
      c(SplitRule::splatter, SplitPoint::mean),       c(SplitRule::splatter, SplitPoint::median),
      c(SplitRule::longest_side, SplitPoint::mean),   c(SplitRule::min_sum, SplitPoint::mean),
      c(SplitRule::min_sum, SplitPoint::median),      c(SplitRule::min_max, SplitPoint::mean),
      c(SplitRule::min_sum, SplitPoint::binned),      c(SplitRule::min_sum, SplitPoint::mean, true),
      c(SplitRule::surface_area, SplitPoint::binned), c(SplitRule::zachmann, SplitPoint::mean)};
}

// Peak resident memory of this process so far, in bytes (Linux reports kilobytes).
double peak_rss_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return 1024.0 * static_cast<double>(u.ru_maxrss);
}

void rules_table(std::ostream& out, const GeneratedScene& scene, std::uint32_t bins, int repeat,
                 unsigned threads) {
  out << "\n### " << scene.name << " (" << scene.environment.triangle_count() << " + "
      << scene.object.triangle_count() << " triangles, " << scene.poses.size()
      << " poses, 18-DOP, first contact)\n\n"
      << "| rule | build ms, 1 thread | build ms, " << threads
      << " threads | mean query us | median query us | N_v | N_p | N_u |\n"
      << "|---|--:|--:|--:|--:|--:|--:|--:|\n";
  for (const RuleCase& rc : rule_cases(bins)) {
    std::cerr << "kdop-bench-rules: " << scene.name << ", " << rc.name << "\n";
    PairConfig config;
    config.bv = BvType::kdop18;
    config.environment = rc.config;
    config.object = rc.config;
    config.object.leaf_size = 40;
    std::optional<CollisionPair> pair;
    const double build_1 =
        timed_ms(1, [&] { pair.emplace(scene.environment, scene.object, config); });
    const double build_n =
        timed_ms(threads, [&] { CollisionPair other(scene.environment, scene.object, config); });
    std::vector<std::vector<double>> per_pose(scene.poses.size());
    QueryStats total;
    for (int r = 0; r < repeat; ++r) {
      for (std::size_t i = 0; i < scene.poses.size(); ++i) {
        const auto t0 = Clock::now();
        const QueryResult q = pair->query(scene.poses[i], QueryMode::first_contact);
        per_pose[i].push_back(1000 * ms_since(t0));
        if (r == 0) {
          total.n_v += q.stats.n_v;
          total.n_p += q.stats.n_p;
          total.n_u += q.stats.n_u;
        }
      }
    }
    std::vector<double> medians;
    double sum = 0;
    for (const auto& p : per_pose) medians.push_back(median(p)), sum += medians.back();
    const double n = static_cast<double>(scene.poses.size());
    char line[512];
    std::snprintf(line, sizeof line, "| %s | %.0f | %.0f | %.2f | %.2f | %.0f | %.0f | %.1f |\n",
                  rc.name.c_str(), build_1, build_n, sum / n, median(medians), total.n_v / n,
                  total.n_p / n, total.n_u / n);
    out << line;
  }
}

// One row of the build-target table: `mesh`, `builder`, `threads`, time and, if given, memory.
void target_row(std::ostream& out, const Mesh& mesh, const std::string& builder, unsigned threads,
                double ms, double bytes_per_triangle = -1) {
  char line[512];
  std::snprintf(line, sizeof line, "| torus %zu | %s | %u | %.0f | ", mesh.triangle_count(),
                builder.c_str(), threads, ms);
  out << line;
  if (bytes_per_triangle >= 0) out << static_cast<long>(bytes_per_triangle + 0.5) << " ";
  out << "|\n";
}

double build_ms(const Mesh& mesh, const BuildConfig& config, unsigned threads) {
  return timed_ms(threads, [&] { const DopTree<18> t = build_dop_tree<18>(mesh, config); });
}

// FCL's BVHModel<OBB> and <RSS> of the same mesh (its builder is single-threaded).
void fcl_rows(std::ostream& out, const Mesh& mesh) {
  const Mesh one = make_torus({0, 0, 0}, 3, 1, 3, 3, 0);  // FCL's object: negligible
  for (bench::FclBv bv : {bench::FclBv::obb, bench::FclBv::rss}) {
    const double ms = timed_ms(1, [&] { bench::FclPeer peer(mesh, one, bv); });
    target_row(out, mesh, std::string(bench::to_string(bv)) + " (FCL)", 1, ms);
  }
}

void build_targets(std::ostream& out, unsigned threads, bool fcl) {
  out << "\n### Build targets (environment role, leaf size 1, 18-DOP)\n\n"
      << "| mesh | builder | threads | build ms | peak RSS growth, B/tri |\n"
      << "|---|---|--:|--:|--:|\n";
  const BuildConfig splatter{};  // leaf size 1, as the heading says (the default is 3)
  {
    // 1,000,000 triangles first, while the process is small, so its peak RSS is the build's.
    const Mesh big = make_torus({0, 0, 0}, 3, 1, 2000, 250, 0.15);
    const double base = peak_rss_bytes();
    const double ms = build_ms(big, splatter, threads);
    target_row(out, big, "splatter / mean", threads, ms,
               (peak_rss_bytes() - base) / big.triangle_count());
    target_row(out, big, "splatter / mean", 1, build_ms(big, splatter, 1));
    if (fcl) fcl_rows(out, big);
  }
  const Mesh mid = make_torus({0, 0, 0}, 3, 1, 425, 200, 0.15);
  BuildConfig min_sum = splatter;
  min_sum.rule = SplitRule::min_sum;
  for (unsigned t : {1u, threads})
    target_row(out, mid, "min-sum / mean", t, build_ms(mid, min_sum, t));
  target_row(out, mid, "splatter / mean", 1, build_ms(mid, splatter, 1));
  if (fcl) fcl_rows(out, mid);
}

}  // namespace
}  // namespace kdop

int main(int argc, char** argv) {
  using namespace kdop;
  std::vector<std::string> scenes{"torus", "swept", "obstacles", "tori-d1.0", "spheres-2000-a0.01"};
  std::size_t max_poses = 60;
  std::uint32_t bins = 8;
  int repeat = 3;
  unsigned threads = 2;
  double scale = 1;
  bool targets = true, fcl = true;
  std::string out_path;
  CLI::App app{"kdop-bench-rules: build cost and query time per splitting rule"};
  app.add_option("--scenes", scenes, "Scenes by name (families of kdop-bench)")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--max-poses", max_poses, "Poses per scene")->capture_default_str();
  app.add_option("--bins", bins, "Candidates for binned splits")->capture_default_str();
  app.add_option("--repeat", repeat, "Query repetitions (per-pose medians)")->capture_default_str();
  app.add_option("--threads", threads, "Threads of the parallel builds")->capture_default_str();
  app.add_option("--scale", scale, "Scene size factor")->capture_default_str();
  app.add_flag("!--no-targets", targets, "Skip the large build targets");
  app.add_flag("!--no-fcl", fcl, "Skip FCL's builds");
  app.add_option("--out,-o", out_path, "Also write the report (markdown) here");
  CLI11_PARSE(app, argc, argv);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);

  std::ostringstream report;
  report << "# kdop-bench-rules\n\nBuild time per splitting rule (environment and object "
            "trees, 1 and "
         << threads << " threads) and the query time it buys; scale " << scale << ".\n";
  if (targets) build_targets(report, threads, fcl);
  for (const char* family : {"torus", "swept", "obstacles", "tori", "spheres"}) {
    for (GeneratedScene& scene : generate_scenes(family, {1, scale})) {
      if (std::find(scenes.begin(), scenes.end(), scene.name) == scenes.end()) continue;
      if (scene.poses.size() > max_poses) scene.poses.resize(max_poses);
      rules_table(report, scene, bins, repeat, threads);
    }
  }
  std::cout << report.str();
  if (!out_path.empty()) std::ofstream(out_path) << report.str();
  return 0;
}
