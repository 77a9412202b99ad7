// kdop-bench: the scenario benchmark. Runs deterministic generated scenes (io/generated_scene.hpp)
// through kdop (every K) and FCL's BV types side by side, in interleaved repetitions, checks
// every pose's answer against kdop's (the exact test decides disagreements), and prints tables:
// per scene and mode the timings and counters of every backend, the ratio kdop (best K) / FCL
// (best type), their geometric means, thread scaling and memory per triangle.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "bench/answer_check.hpp"
#include "bench/backend_run.hpp"
#include "engine/parallel.hpp"
#include "engine/pose_clock.hpp"
#include "io/atomic_file.hpp"

namespace kdop::bench {
namespace {

struct Options {
  std::vector<std::string> scenes = {"torus", "swept", "obstacles", "spheres", "tori"};
  std::vector<std::string> modes = {"first", "all"};
  std::vector<std::string> kdops = {"kdop6", "kdop14", "kdop18", "kdop26", "kdop32"};
  std::vector<std::string> peers = {"fcl-obb", "fcl-obbrss", "fcl-kios", "fcl-rss", "fcl-kdop18"};
  double scale = 1.0;
  std::uint64_t seed = 1;
  int repeat = 5;
  int warmup = 2;
  std::size_t peer_poses = 0;      // 0: all poses
  std::size_t rebuild_poses = 20;  // FCL types that rebuild per query: this many poses, once
  std::size_t max_poses = 0;       // every backend: at most this many poses per scene (0: all)
  std::vector<std::string> only;   // scene names to run (empty: every scene of the families)
  unsigned threads = 0;
  std::string tumble = "auto", descent = "larger", root = "auto";
  std::uint32_t object_leaf = 0;  // 0: the BV type's default (40 k-DOPs, 8 obb and rss)
  std::uint32_t env_leaf = 0;     // environment leaf size tau (0: 3 k-DOPs, 1 obb and rss)
  bool no_plates = false;
  bool no_boxes = false;
  bool no_hot_start = false;
  std::string out;
};

struct Measured {
  std::string backend;
  bool is_kdop = false;
  std::size_t poses = 0;
  double build_ms = 0, bytes_per_triangle = 0;
  RunTiming single;         // medians over repetitions
  double parallel_pps = 0;  // poses/s on all threads, median
  RunCounters counters;
  std::size_t colliding_poses = 0;  // from the answers of the first repetition
  double contacts = 0;              // mean per pose (first contact: the witness, 0 or 1)
  CheckTally tally;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

QueryMode mode_of(const std::string& m) {
  if (m == "first") return QueryMode::first_contact;
  if (m == "all") return QueryMode::all_contacts;
  throw std::invalid_argument("--modes: expected first or all, got '" + m + "'");
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

struct SceneResult {
  std::string scene, family, mode;
  std::vector<Measured> rows;
};

// Runs one scene in one mode: every backend, `repeat` interleaved repetitions.
// A --kdop entry: "kdop26", or "kdop26@exact" / "kdop26@no-boxes", a BV type with its own root
// method or without the box tests, to compare them in one run.
struct KdopEntry {
  std::string bv, root;
  bool no_boxes = false;
  std::string suffix;  // "@..." as written, for the backend's name
};

KdopEntry parse_kdop_entry(const std::string& entry, const Options& o) {
  const std::size_t at = entry.find('@');
  const std::string word = at == std::string::npos ? "" : entry.substr(at + 1);
  const bool boxes_word = word == "no-boxes";
  return {entry.substr(0, at), word.empty() || boxes_word ? o.root : word, o.no_boxes || boxes_word,
          at == std::string::npos ? "" : entry.substr(at)};
}

SceneResult run_scene(const GeneratedScene& scene, const std::string& mode_name, const Options& o,
                      unsigned threads, std::uint64_t& kdop_errors,
                      std::vector<std::string>& reports) {
  const QueryMode mode = mode_of(mode_name);
  const double triangles =
      static_cast<double>(scene.environment.triangle_count() + scene.object.triangle_count());
  struct Entry {
    std::unique_ptr<Backend> backend;
    bool is_kdop, rebuilds;
    std::size_t poses;
    std::vector<double> mean, med, max, pps, par_pps;
    RunCounters counters;
    std::vector<PoseAnswer> answers;
  };
  std::vector<Entry> entries;
  const std::size_t n = scene.poses.size();
  for (const std::string& entry : o.kdops) {
    const KdopEntry e = parse_kdop_entry(entry, o);
    const auto bv = parse_bv_type(e.bv);
    if (!bv) throw std::invalid_argument("--kdop: unknown " + e.bv);
    const auto root_method = parse_root_method(e.root);
    if (!root_method) throw std::invalid_argument("--root: unknown " + e.root);
    BatchConfig base;
    base.root = *root_method;
    base.tumble = o.tumble == "affine"     ? TumbleMethod::affine
                  : o.tumble == "vertices" ? TumbleMethod::vertices
                                           : TumbleMethod::automatic;
    base.descent =
        o.descent == "larger" ? DescentRule::larger_first : DescentRule::environment_first;
    // The BV type's own defaults: split rule (Gottschalk's for obb and rss) and flying leaf size.
    base.environment.rule = base.object.rule = default_split_rule(*bv);
    base.object.leaf_size = o.object_leaf != 0 ? o.object_leaf : default_object_leaf(*bv);
    base.environment.leaf_size = o.env_leaf != 0 ? o.env_leaf : default_env_leaf(*bv);
    base.plates = !o.no_plates;
    base.boxes = !e.no_boxes;
    base.hot_start = !o.no_hot_start;
    entries.push_back({make_kdop_backend(scene, *bv, base, threads, e.suffix),
                       true,
                       false,
                       n,
                       {},
                       {},
                       {},
                       {},
                       {},
                       {},
                       {}});
  }
  for (const std::string& p : o.peers) {
    const auto bv = parse_fcl_bv(p);
    if (!bv) throw std::invalid_argument("--peers: unknown " + p);
    const bool rebuilds = fcl_rebuilds_per_query(*bv);
    std::size_t count =
        rebuilds ? std::min(n, o.rebuild_poses) : (o.peer_poses ? std::min(n, o.peer_poses) : n);
    entries.push_back({make_fcl_backend(scene, *bv, rebuilds ? 1 : threads),
                       false,
                       rebuilds,
                       count,
                       {},
                       {},
                       {},
                       {},
                       {},
                       {},
                       {}});
  }
  // Untimed warm-up passes first, every backend alike: on a fresh process the first passes over
  // its memory run several times slower (this VM backs pages lazily), which would time the
  // machine, not the query.
  for (int r = 0; r < o.warmup; ++r) {
    for (Entry& e : entries) {
      if (e.rebuilds) continue;
      e.backend->run(scene, e.poses, mode, 1, nullptr, nullptr);
      if (threads > 1) e.backend->run(scene, e.poses, mode, threads, nullptr, nullptr);
    }
  }
  for (int r = 0; r < o.repeat; ++r) {
    for (Entry& e : entries) {
      if (e.rebuilds && r > 0) continue;  // one repetition: each query costs a full rebuild
      const bool first_rep = r == 0;
      const RunTiming t = e.backend->run(scene, e.poses, mode, 1, first_rep ? &e.answers : nullptr,
                                         first_rep ? &e.counters : nullptr);
      e.mean.push_back(t.mean_us);
      e.med.push_back(t.median_us);
      e.max.push_back(t.max_us);
      e.pps.push_back(t.poses_per_s);
      if (threads > 1 && !e.rebuilds) {
        e.par_pps.push_back(
            e.backend->run(scene, e.poses, mode, threads, nullptr, nullptr).poses_per_s);
      }
    }
  }
  SceneResult out{scene.name, scene.family, mode_name, {}};
  const std::vector<PoseAnswer>& reference = entries.front().answers;
  for (Entry& e : entries) {
    Measured m;
    m.backend = e.backend->name();
    m.is_kdop = e.is_kdop;
    m.poses = e.poses;
    m.build_ms = e.backend->build_ms();
    m.bytes_per_triangle = static_cast<double>(e.backend->model_bytes()) / triangles;
    m.single = {median(e.mean), median(e.med), median(e.max), median(e.pps)};
    m.parallel_pps = e.par_pps.empty() ? 0 : median(e.par_pps);
    m.counters = e.counters;
    for (const PoseAnswer& a : e.answers) {
      m.colliding_poses += a.collides ? 1 : 0;
      m.contacts += static_cast<double>(a.contacts);
    }
    if (!e.answers.empty()) m.contacts /= static_cast<double>(e.answers.size());
    const std::vector<PoseAnswer> prefix(reference.begin(),
                                         reference.begin() + static_cast<std::ptrdiff_t>(e.poses));
    m.tally = check_answers(scene, mode, prefix, e.answers, kdop_errors, reports);
    out.rows.push_back(m);
  }
  return out;
}

void print_scene(std::ostream& os, const SceneResult& s, unsigned threads) {
  os << "\n### " << s.scene << ", " << s.mode << " contact" << (s.mode == "all" ? "s" : "")
     << "\n\n";
  // With one thread there is no parallel run (its column shows "-").
  os << "| backend | poses | build ms | mean us | median us | max us | poses/s 1 thr | "
     << (threads > 1 ? "poses/s " + std::to_string(threads) + " thr" : "no parallel run")
     << " | N_v (FCL: BV tests) | N_p (FCL: leaf tests) | N_u | B/tri | "
        "colliding poses | contacts per pose | disagree | FCL false +/- |\n";
  os << "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
  for (const Measured& m : s.rows) {
    os << "| " << m.backend << " | " << m.poses << " | " << fmt("%.1f", m.build_ms) << " | "
       << fmt("%.2f", m.single.mean_us) << " | " << fmt("%.2f", m.single.median_us) << " | "
       << fmt("%.1f", m.single.max_us) << " | " << fmt("%.0f", m.single.poses_per_s) << " | "
       << (m.parallel_pps > 0 ? fmt("%.0f", m.parallel_pps) : "-") << " | "
       << fmt("%.0f", m.counters.n_v) << " | " << fmt("%.0f", m.counters.n_p) << " | "
       << (m.is_kdop ? fmt("%.1f", m.counters.n_u) : "-") << " | "
       << fmt("%.0f", m.bytes_per_triangle) << " | " << m.colliding_poses << " | "
       << fmt("%.1f", m.contacts) << " | " << m.tally.disagreeing_poses << " | "
       << (m.is_kdop ? "-"
                     : std::to_string(m.tally.false_positives) + "/" +
                           std::to_string(m.tally.false_negatives))
       << " |\n";
  }
}

// Best kdop K and best FCL type (on the same poses: FCL's fastest full-length type).
struct Ratio {
  std::string scene, family, mode, kdop, fcl;
  double kdop_us, fcl_us, ratio, kdop_par_pps, fcl_par_pps, ratio_par, kdop_nv, fcl_nv;
};

Ratio ratio_of(const SceneResult& s) {
  const Measured* k = nullptr;
  const Measured* f = nullptr;
  for (const Measured& m : s.rows) {
    if (m.is_kdop && (!k || m.single.mean_us < k->single.mean_us)) k = &m;
    // Only peers that ran the same poses as kdop compete for "best".
    if (!m.is_kdop && m.poses == s.rows.front().poses &&
        (!f || m.single.mean_us < f->single.mean_us))
      f = &m;
  }
  Ratio r{s.scene, s.family, s.mode, k ? k->backend : "-", f ? f->backend : "-", 0, 0, 0, 0, 0,
          0,       0,        0};
  if (!k || !f) return r;
  r.kdop_us = k->single.mean_us;
  r.fcl_us = f->single.mean_us;
  r.ratio = f->single.mean_us / std::max(k->single.mean_us, 1e-9);
  r.kdop_par_pps = k->parallel_pps;
  r.fcl_par_pps = f->parallel_pps;
  r.ratio_par = f->parallel_pps > 0 ? k->parallel_pps / f->parallel_pps : 0;
  r.kdop_nv = k->counters.n_v;
  r.fcl_nv = f->counters.n_v;
  return r;
}

void print_ratios(std::ostream& os, const std::vector<Ratio>& ratios, unsigned threads) {
  os << "\n## kdop (best K) vs FCL (best BV type), per pose, mean query time\n\n";
  // The second ratio compares poses/s in the parallel runs, which --threads 1 skips.
  const std::string parallel_column =
      threads > 1 ? "speed-up " + std::to_string(threads) + " thr" : "no parallel run";
  os << "| scene | mode | kdop | us | FCL | us | speed-up 1 thr | " << parallel_column
     << " | N_v kdop | BV tests FCL |\n|---|---|---|--:|---|--:|--:|--:|--:|--:|\n";
  std::map<std::string, std::pair<double, int>> geo;  // key: group/mode
  for (const Ratio& r : ratios) {
    os << "| " << r.scene << " | " << r.mode << " | " << r.kdop << " | " << fmt("%.2f", r.kdop_us)
       << " | " << r.fcl << " | " << fmt("%.2f", r.fcl_us) << " | " << fmt("%.1fx", r.ratio)
       << " | " << (r.ratio_par > 0 ? fmt("%.1fx", r.ratio_par) : "-") << " | "
       << fmt("%.0f", r.kdop_nv) << " | " << fmt("%.0f", r.fcl_nv) << " |\n";
    if (r.ratio <= 0) continue;
    const bool flight = r.family == "torus" || r.family == "swept" || r.family == "obstacles";
    std::string keys[3] = {"all scenes, ", flight ? "flights, " : "proximity, ",
                           "all scenes, both modes"};
    keys[0].append(r.mode);
    keys[1].append(r.mode);
    for (const std::string& key : keys) {
      geo[key].first += std::log(r.ratio);
      geo[key].second += 1;
    }
  }
  os << "\n| geometric mean of the speed-up (1 thread) | scenes | value |\n|---|--:|--:|\n";
  for (const auto& [key, v] : geo) {
    os << "| " << key << " | " << v.second << " | " << fmt("%.1fx", std::exp(v.first / v.second))
       << " |\n";
  }
}

}  // namespace
}  // namespace kdop::bench

int main(int argc, char** argv) {
  using namespace kdop;
  using namespace kdop::bench;
  Options o;
  CLI::App app{"kdop-bench: kdop and FCL side by side on deterministic generated scenes."};
  app.add_option("--scenes", o.scenes, "Scene families: torus swept obstacles spheres tori")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--modes", o.modes, "first, all")->delimiter(',')->capture_default_str();
  app.add_option(
         "--kdop", o.kdops,
         "kdop BV types to run (the best counts): kdop6 kdop14 kdop18 kdop26 kdop32 dop8 obb rss; "
         "TYPE@ROOT (exact, vertices, auto) or TYPE@no-boxes for a variant")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--peers", o.peers, "FCL types: fcl-obb fcl-obbrss fcl-kios fcl-rss fcl-kdop18")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--scale", o.scale, "Scene size factor (1 = the papers' sizes)")
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Scene seed")->capture_default_str();
  app.add_option("--repeat", o.repeat, "Interleaved repetitions (medians are reported)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  app.add_option("--warmup", o.warmup,
                 "Untimed passes of every backend before the repetitions (FCL types that rebuild "
                 "per query: none)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  app.add_option("--peer-poses", o.peer_poses, "Poses per scene for FCL (0: all)")
      ->capture_default_str();
  app.add_option("--rebuild-poses", o.rebuild_poses,
                 "Poses per scene for FCL types that rebuild per query")
      ->capture_default_str();
  app.add_option("--max-poses", o.max_poses,
                 "Every backend: at most this many poses per scene (0: all)")
      ->capture_default_str();
  app.add_option("--only", o.only,
                 "Run only these scenes of the families, by name (e.g. spheres-20000-a0.03)");
  app.add_option("--threads", o.threads, "Threads of the parallel runs (0: all cores)")
      ->capture_default_str();
  app.add_option("--tumble", o.tumble,
                 "kdop: auto (inner nodes affine, leaves by vertices), vertices or affine")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "vertices", "affine"}));
  app.add_option("--descent", o.descent, "kdop: environment or larger")
      ->capture_default_str()
      ->check(CLI::IsMember({"environment", "larger"}));
  app.add_option("--root", o.root,
                 "kdop: the flying root's DOP, exact, vertices or auto (a --kdop entry such as "
                 "kdop26@exact sets its own)")
      ->capture_default_str();
  app.add_option("--object-leaf", o.object_leaf,
                 "kdop: flying leaf size tau (0: 40 for k-DOPs, 8 for obb and rss)")
      ->capture_default_str();
  app.add_option("--env-leaf", o.env_leaf,
                 "kdop: environment leaf size tau (0: 3 for k-DOPs, 1 for obb and rss)")
      ->capture_default_str()
      ->check(CLI::Range(0u, 1024u));
  app.add_flag("--no-plates", o.no_plates,
               "kdop: no tests against the flying nodes' mean-normal plates (for comparison)");
  app.add_flag("--no-boxes", o.no_boxes,
               "kdop: no tests of environment boxes against the flying DOPs in the object's frame "
               "(for comparison; a --kdop entry such as kdop26@no-boxes sets its own)");
  app.add_flag("--no-hot-start", o.no_hot_start,
               "kdop: every pose starts from the root pair, not the previous pose's cut "
               "(for comparison)");
  app.add_option("--out,-o", o.out, "Also write the report (markdown) to this file");
  CLI11_PARSE(app, argc, argv);
  // Names checked before the scenes are generated, and the report's folder before the run.
  for (const std::string& entry : o.kdops) {
    const KdopEntry e = parse_kdop_entry(entry, o);
    if (!parse_bv_type(e.bv)) {
      std::cerr << "kdop-bench: --kdop: unknown BV type in " << entry << "\n";
      return 2;
    }
    if (!parse_root_method(e.root)) {
      std::cerr << "kdop-bench: --kdop " << entry << ": unknown root method " << e.root
                << " (expected exact, vertices, auto or no-boxes)\n";
      return 2;
    }
  }
  for (const std::string& peer : o.peers) {
    if (!parse_fcl_bv(peer)) {
      std::cerr << "kdop-bench: --peers: unknown " << peer << "\n";
      return 2;
    }
  }
  const std::filesystem::path out_folder = std::filesystem::path(o.out).parent_path();
  std::error_code folder_error;
  if (!o.out.empty() && !out_folder.empty() &&
      !std::filesystem::is_directory(out_folder, folder_error)) {
    std::cerr << "kdop-bench: --out: folder " << out_folder.string() << " does not exist\n";
    return 2;
  }

  const unsigned threads = ParallelRunner(o.threads).threads();
  std::ostringstream report;
  report << "# kdop-bench\n\nkdop: --tumble " << o.tumble << " --descent " << o.descent
         << " --root " << o.root << " --object-leaf " << o.object_leaf << " --env-leaf "
         << o.env_leaf << (o.no_plates ? " --no-plates" : "") << (o.no_boxes ? " --no-boxes" : "")
         << (o.no_hot_start ? " --no-hot-start" : "") << "; scale " << o.scale << ", seed "
         << o.seed << ", " << o.warmup << " untimed warm-up pass(es), " << o.repeat
         << " interleaved repetitions (medians), " << threads
         << " threads for the parallel runs, ISA " << simd::to_string(simd::select_isa())
         << ", poses timed by " << pose_clock_name(pose_clock()) << ".\n";
  std::uint64_t kdop_errors = 0;
  std::vector<std::string> reports;
  std::vector<Ratio> ratios;
  try {
    for (const std::string& family : o.scenes) {
      for (GeneratedScene& scene : generate_scenes(family, {o.seed, o.scale})) {
        if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), scene.name) == o.only.end())
          continue;
        if (o.max_poses > 0 && scene.poses.size() > o.max_poses) scene.poses.resize(o.max_poses);
        std::cerr << "kdop-bench: " << scene.name << " (" << scene.environment.triangle_count()
                  << " + " << scene.object.triangle_count() << " triangles, " << scene.poses.size()
                  << " poses)\n";
        for (const std::string& mode : o.modes) {
          const SceneResult s = run_scene(scene, mode, o, threads, kdop_errors, reports);
          print_scene(report, s, threads);
          ratios.push_back(ratio_of(s));
        }
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "kdop-bench: " << e.what() << "\n";
    return 2;
  }
  print_ratios(report, ratios, threads);
  report << "\nkdop answer errors (against the exact test): " << kdop_errors << "\n";
  std::cout << report.str();
  for (const std::string& r : reports) std::cerr << "KDOP ERROR: " << r << "\n";
  if (!o.out.empty()) {
    try {
      write_file_atomic(o.out, report.str());
    } catch (const std::exception& e) {
      std::cerr << "kdop-bench: " << e.what() << "\n";
      return 2;
    }
  }
  return kdop_errors == 0 ? 0 : 1;
}
