// kdop-soak: random scenes, BV types, K, query modes, thread counts, tumbling and descent rules,
// hot starts and block sizes, and random poses, every answer compared with an oracle (issue 8):
// - small scenes (up to a few hundred triangles each side) with the exact brute-force oracle
//   (engine/brute_force.hpp) on every pose: the colliding flag, the contact count, the sorted
//   set of intersecting pairs, and a first_contact witness that really intersects;
// - every --fcl-every'th round a larger scene against FCL's OBBRSS (bench/fcl_peer.hpp), where
//   the exact predicate on the pairs in question decides any disagreement (bench/answer_check).
// A kdop error writes a reproducer (both meshes as OBJ, the pose as a `kdop batch` pose file and
// the command to rerun it) and makes the exit status 1.
//
//   kdop-soak [--poses 1000000] [--seed 1] [--fcl-every 25] [--reproducers DIR] [-q]
#include <tbb/global_control.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "bench/answer_check.hpp"
#include "bench/backend_run.hpp"
#include "engine/batch_query.hpp"
#include "engine/brute_force.hpp"
#include "geometry/shapes.hpp"
#include "io/json_document.hpp"
#include "io/mesh_writer.hpp"

namespace kdop::bench {
namespace {

using Clock = std::chrono::steady_clock;

// A uniform integer in [0, n).
std::uint32_t pick(std::uint64_t& state, std::uint32_t n) {
  return std::min(n - 1, static_cast<std::uint32_t>(next_uniform(state) * n));
}

double between(std::uint64_t& state, double lo, double hi) {
  return lo + (hi - lo) * next_uniform(state);
}

Vec3 random_point(std::uint64_t& state, double lo, double hi) {
  return {between(state, lo, hi), between(state, lo, hi), between(state, lo, hi)};
}

// A random closed or open mesh of about `size` triangles around the origin, radius about 1.
Mesh random_mesh(std::uint64_t& state, int size, std::string& what) {
  const int n = std::max(3, static_cast<int>(std::sqrt(static_cast<double>(size) / 2)));
  switch (pick(state, 6)) {
    case 0:
      what = "sphere";
      return make_sphere({0, 0, 0}, between(state, 0.5, 1.2), n, n);
    case 1:
      what = "torus";
      return make_torus({0, 0, 0}, 0.8, between(state, 0.1, 0.4), n, std::max(3, n / 2),
                        between(state, 0, 0.1));
    case 2:
      what = "ellipsoid";
      return make_ellipsoid({0, 0, 0}, random_point(state, 0.2, 1.2), n, n);
    case 3:
      what = "tetrahedra";
      return make_tetrahedra({-1, -1, -1}, {1, 1, 1}, std::max(1, size / 4),
                             between(state, 0.1, 0.5), static_cast<std::uint64_t>(state));
    case 4: {
      // Boxes on a grid: coplanar faces and shared edges, the exact predicates' hard cases.
      what = "boxes";
      Mesh m;
      const int boxes = std::max(1, size / 12);
      for (int b = 0; b < boxes; ++b) {
        const Vec3 lo{0.5 * pick(state, 4) - 1, 0.5 * pick(state, 4) - 1, 0.5 * pick(state, 4) - 1};
        append_mesh(m, make_box(lo, lo + Vec3{0.5, 0.5, 0.5}));
      }
      return m;
    }
    default:
      what = "axe";
      return scaled_mesh(make_axe(2), 0.1);
  }
}

// Poses: a random walk (coherent, as along a path: the hot start's case) or independent random
// poses, translations in [-r, r]^3 where the meshes often overlap. Some poses are exact copies
// of the identity or of axis-aligned quarter turns, so coplanar and touching cases come up.
std::vector<Pose> random_poses(std::uint64_t& state, std::size_t count, double r) {
  std::vector<Pose> poses;
  const bool walk = next_uniform(state) < 0.5;
  Pose p = random_pose(state, {-r, -r, -r}, {r, r, r});
  for (std::size_t i = 0; i < count; ++i) {
    if (next_uniform(state) < 0.05) {
      Pose aligned;
      const double s = 0.5 * pick(state, 5) - 1;
      aligned.t = {s, 0.5 * pick(state, 3) - 0.5, 0};
      if (pick(state, 2) == 1) aligned.r = {0, -1, 0, 1, 0, 0, 0, 0, 1};
      poses.push_back(aligned);
      continue;
    }
    if (walk) {
      // Small translation steps at one orientation (the hot start's favourite case).
      const Pose step =
          random_pose(state, {-0.02 * r, -0.02 * r, -0.02 * r}, {0.02 * r, 0.02 * r, 0.02 * r});
      Pose q = p;
      for (int k = 0; k < 3; ++k) q.t[k] = std::clamp(p.t[k] + step.t[k], -r, r);
      poses.push_back(q);
      p = q;
    } else {
      poses.push_back(random_pose(state, {-r, -r, -r}, {r, r, r}));
    }
  }
  return poses;
}

struct Tally {
  std::uint64_t poses = 0, colliding = 0, errors = 0;
};

struct Options {
  std::uint64_t poses = 1000000;
  std::uint64_t seed = 1;
  std::uint32_t fcl_every = 25;
  std::string reproducers;
  bool quiet = false;
  // Test of the soak itself: the first colliding pose's answer is flipped before the check, which
  // must then report one false negative, write its reproducer and fail.
  bool inject_error = false;
};

std::string pose_row(std::size_t id, const Pose& p) {
  // The rotation as a quaternion (the matrix is a proper rotation: random_pose and the aligned
  // ones are built from quaternions or exact turns).
  const auto& r = p.r;
  const double tr = r[0] + r[4] + r[8];
  double w, x, y, z;
  if (tr > 0) {
    const double s = std::sqrt(tr + 1) * 2;
    w = s / 4, x = (r[7] - r[5]) / s, y = (r[2] - r[6]) / s, z = (r[3] - r[1]) / s;
  } else if (r[0] > r[4] && r[0] > r[8]) {
    const double s = std::sqrt(1 + r[0] - r[4] - r[8]) * 2;
    w = (r[7] - r[5]) / s, x = s / 4, y = (r[1] + r[3]) / s, z = (r[2] + r[6]) / s;
  } else if (r[4] > r[8]) {
    const double s = std::sqrt(1 + r[4] - r[0] - r[8]) * 2;
    w = (r[2] - r[6]) / s, x = (r[1] + r[3]) / s, y = s / 4, z = (r[5] + r[7]) / s;
  } else {
    const double s = std::sqrt(1 + r[8] - r[0] - r[4]) * 2;
    w = (r[3] - r[1]) / s, x = (r[2] + r[6]) / s, y = (r[5] + r[7]) / s, z = s / 4;
  }
  return std::to_string(id) + "," + json::format_number(p.t[0]) + "," +
         json::format_number(p.t[1]) + "," + json::format_number(p.t[2]) + "," +
         json::format_number(w) + "," + json::format_number(x) + "," + json::format_number(y) +
         "," + json::format_number(z) + "\n";
}

// Writes the meshes and the pose, and prints the command that reruns the query. The matrix is
// also written exactly (pose.txt), since the quaternion round trip may move it by an ulp.
void write_reproducer(const Options& o, std::uint64_t round, const Mesh& env, const Mesh& object,
                      const Pose& pose, const BatchConfig& config, const std::string& why) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(o.reproducers) / ("round-" + std::to_string(round));
  fs::create_directories(dir);
  write_file_atomic((dir / "env.obj").string(), format_obj(env));
  write_file_atomic((dir / "object.obj").string(), format_obj(object));
  write_file_atomic((dir / "poses.csv").string(),
                    "pose_id,tx,ty,tz,qw,qx,qy,qz\n" + pose_row(0, pose));
  std::string exact;
  for (const double v : pose.r) exact += json::format_number(v) + " ";
  for (const double v : pose.t) exact += json::format_number(v) + " ";
  write_file_atomic((dir / "pose.txt").string(), exact + "\n" + why + "\n");
  std::fprintf(stderr,
               "KDOP ERROR (round %" PRIu64
               "): %s\n  reproduce: kdop batch --env %s --object %s "
               "--poses %s --bv %s --mode all\n",
               round, why.c_str(), (dir / "env.obj").c_str(), (dir / "object.obj").c_str(),
               (dir / "poses.csv").c_str(), to_string(config.bv));
}

const char* mode_name(QueryMode m) {
  return m == QueryMode::first_contact ? "first" : m == QueryMode::all_contacts ? "all" : "count";
}

// One small round: every pose against the brute-force oracle.
void small_round(const Options& o, std::uint64_t round, std::uint64_t& state, std::size_t count,
                 std::map<std::string, Tally>& tallies) {
  std::string env_kind, object_kind;
  const Mesh env = random_mesh(state, 20 + static_cast<int>(pick(state, 400)), env_kind);
  const Mesh object = random_mesh(state, 8 + static_cast<int>(pick(state, 200)), object_kind);
  BatchConfig config;
  const BvType bvs[] = {BvType::kdop6,  BvType::kdop14, BvType::kdop18, BvType::kdop26,
                        BvType::kdop32, BvType::dop8,   BvType::obb,    BvType::rss};
  config.bv = bvs[pick(state, 8)];
  const QueryMode modes[] = {QueryMode::first_contact, QueryMode::all_contacts,
                             QueryMode::count_contacts};
  config.mode = modes[pick(state, 3)];
  const unsigned threads[] = {1, 2, 3, 4, 8};
  config.threads = threads[pick(state, 5)];
  const std::uint32_t tumble = pick(state, 3);
  config.tumble = tumble == 0   ? TumbleMethod::vertices
                  : tumble == 1 ? TumbleMethod::affine
                                : TumbleMethod::automatic;
  config.descent = pick(state, 2) == 0 ? DescentRule::larger_first : DescentRule::environment_first;
  config.hot_start = pick(state, 2) == 0;
  const std::uint32_t blocks[] = {1, 7, 64};
  config.block_size = blocks[pick(state, 3)];
  config.split_threshold = pick(state, 2) == 0 ? 5000 : 16;  // also split small queries
  config.environment.rule = config.object.rule = default_split_rule(config.bv);
  config.environment.leaf_size = 1 + pick(state, 8);
  config.object.leaf_size = 1 + pick(state, 40);
  const RootMethod roots[] = {RootMethod::automatic, RootMethod::exact, RootMethod::vertices};
  config.root = roots[pick(state, 3)];

  const std::vector<Pose> poses = random_poses(state, count, 1.5);
  std::vector<PoseTask> tasks;
  for (const Pose& p : poses) tasks.push_back({0, p});
  BatchQuery batch(env, {&object}, config);
  BatchOutput out;
  batch.run(tasks, out);

  Tally& t = tallies[std::string(to_string(config.bv)) + " " + mode_name(config.mode)];
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const std::vector<ContactPair> oracle = brute_force_contacts(env, object, poses[i]);
    PoseResult& r = out.results[i];
    if (o.inject_error && r.collides && t.errors == 0 && round == 1) r.collides = false;
    ++t.poses;
    if (!oracle.empty()) ++t.colliding;
    std::string why;
    if (r.collides != !oracle.empty()) {
      why = std::string(r.collides ? "false positive" : "FALSE NEGATIVE") + " (colliding flag)";
    } else if (config.mode == QueryMode::count_contacts && r.contacts != oracle.size()) {
      why = "contact count " + std::to_string(r.contacts) + ", oracle " +
            std::to_string(oracle.size());
    } else if (config.mode == QueryMode::all_contacts) {
      const std::vector<ContactPair> pairs(
          out.pairs.begin() + static_cast<long>(r.pairs_begin),
          out.pairs.begin() + static_cast<long>(r.pairs_begin + r.pairs_count));
      if (pairs != oracle) {
        why = "pair set differs: " + std::to_string(pairs.size()) + " pairs, oracle " +
              std::to_string(oracle.size());
      }
    } else if (config.mode == QueryMode::first_contact && r.collides &&
               (!r.has_witness || !std::binary_search(oracle.begin(), oracle.end(), r.witness))) {
      why = "the witness pair does not intersect";
    }
    if (!why.empty()) {
      ++t.errors;
      write_reproducer(o, round, env, object, poses[i], config,
                       why + " [" + env_kind + " vs " + object_kind + ", " +
                           mode_name(config.mode) + ", " + std::to_string(config.threads) +
                           " threads]");
    }
  }
}

// One larger round: kdop against FCL's OBBRSS, the exact predicate deciding where they differ.
void fcl_round(const Options& o, std::uint64_t round, std::uint64_t& state,
               std::map<std::string, Tally>& tallies, std::uint64_t& done) {
  GeneratedScene scene;
  std::string env_kind, object_kind;
  scene.name = "soak-" + std::to_string(round);
  scene.environment = random_mesh(state, 8000 + static_cast<int>(pick(state, 12000)), env_kind);
  scene.object = random_mesh(state, 500 + static_cast<int>(pick(state, 2000)), object_kind);
  scene.poses = random_poses(state, 100, 1.5);
  const BvType bvs[] = {BvType::kdop6,  BvType::kdop14, BvType::kdop18, BvType::kdop26,
                        BvType::kdop32, BvType::dop8,   BvType::obb,    BvType::rss};
  const BvType bv = bvs[pick(state, 8)];
  const QueryMode mode = pick(state, 2) == 0 ? QueryMode::all_contacts : QueryMode::first_contact;
  BatchConfig base;
  base.mode = mode;
  const unsigned threads = 1 + pick(state, 4);
  auto kdop = make_kdop_backend(scene, bv, base, threads);
  auto fcl = make_fcl_backend(scene, FclBv::obbrss, 1);
  std::vector<PoseAnswer> mine, theirs;
  kdop->run(scene, scene.poses.size(), mode, threads, &mine, nullptr);
  fcl->run(scene, scene.poses.size(), mode, 1, &theirs, nullptr);
  std::uint64_t kdop_errors = 0;
  std::vector<std::string> reports;
  check_answers(scene, mode, mine, theirs, kdop_errors, reports);
  Tally& t = tallies[std::string(to_string(bv)) + " " + mode_name(mode) + " (vs FCL)"];
  t.poses += scene.poses.size();
  for (const PoseAnswer& a : mine) t.colliding += a.collides ? 1 : 0;
  t.errors += kdop_errors;
  done += scene.poses.size();
  if (kdop_errors > 0) {
    for (const std::string& r : reports) std::fprintf(stderr, "%s\n", r.c_str());
    BatchConfig config = base;
    config.bv = bv;
    // The first pose kdop got wrong is among the reports; the reproducer keeps the whole scene's
    // first pose and names the round (the reports give the pose index).
    write_reproducer(o, round, scene.environment, scene.object, scene.poses.front(), config,
                     "kdop disagrees with the exact predicate where it differs from FCL [" +
                         env_kind + " vs " + object_kind + "]");
  }
}

}  // namespace
}  // namespace kdop::bench

int main(int argc, char** argv) {
  using namespace kdop::bench;
  Options o;
  CLI::App app{"kdop-soak: random scenes and poses, every answer against an oracle"};
  app.add_option("--poses", o.poses, "Poses in total");
  app.add_option("--seed", o.seed, "Seed of the random scenes and poses");
  app.add_option("--fcl-every", o.fcl_every,
                 "Every n-th round is a larger scene against FCL (0: none)");
  app.add_option("--reproducers", o.reproducers,
                 "Folder for reproducers (default: a temporary one)");
  app.add_flag("--quiet,-q", o.quiet, "Only the summary");
  app.add_flag("--inject-error", o.inject_error,
               "Flip one answer of the first round (a test that the soak catches errors)");
  CLI11_PARSE(app, argc, argv);
  if (o.reproducers.empty()) {
    o.reproducers =
        (std::filesystem::temp_directory_path() / ("kdop-soak-" + std::to_string(o.seed))).string();
  }
  // Up to 8 threads whatever the machine has (TBB caps its workers at the core count otherwise):
  // thread counts above the cores still interleave tasks differently, which is the point here.
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  const auto start = Clock::now();
  std::uint64_t state = o.seed * 0x9E3779B97F4A7C15ull + 1;
  std::map<std::string, Tally> tallies;
  std::uint64_t done = 0, round = 0, next_report = 0;
  while (done < o.poses) {
    ++round;
    if (o.fcl_every > 0 && round % o.fcl_every == 0) {
      fcl_round(o, round, state, tallies, done);
    } else {
      const std::size_t count = std::min<std::uint64_t>(o.poses - done, 500 + pick(state, 1500));
      small_round(o, round, state, count, tallies);
      done += count;
    }
    if (!o.quiet && done >= next_report) {
      std::fprintf(stderr, "kdop-soak: %" PRIu64 " poses, %" PRIu64 " rounds, %.0f s\n", done,
                   round, std::chrono::duration<double>(Clock::now() - start).count());
      next_report = done + 50000;
    }
  }
  std::uint64_t errors = 0, poses = 0, colliding = 0;
  std::printf("| BV and mode | poses | colliding | kdop errors |\n|---|---:|---:|---:|\n");
  for (const auto& [name, t] : tallies) {
    std::printf("| %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " |\n", name.c_str(), t.poses,
                t.colliding, t.errors);
    errors += t.errors;
    poses += t.poses;
    colliding += t.colliding;
  }
  std::printf("\nkdop-soak: %" PRIu64 " poses in %" PRIu64 " rounds (seed %" PRIu64 "), %" PRIu64
              " colliding, %" PRIu64 " kdop errors, %.1f s\n",
              poses, round, o.seed, colliding, errors,
              std::chrono::duration<double>(Clock::now() - start).count());
  return errors == 0 ? 0 : 1;
}
