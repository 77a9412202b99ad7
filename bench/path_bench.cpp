// kdop-path-bench: motion checks on the torus and swept flights (io/generated_scene.hpp), side by
// side in one run:
//   - continuous (certified) checking of every segment between waypoints, against discrete
//     checking at the time step a 1 mm obstacle would need (no point of the object moves more
//     than the obstacle's thickness between two samples), in segments per second;
//   - distance queries per second, kdop's (engine/proximity_query.hpp, k-DOP bounds) against
//     FCL's fcl::distance with RSS and OBBRSS models on the same poses, values compared.
// Scene units are taken as millimetres. Medians of --repeat runs; one thread (--threads).
//
//   kdop-path-bench [--scale 0.25] [--every 10] [--obstacle 1.0] [--repeat 3] [--threads 1]
//                   [--keep DIR]
// --keep writes each family's scene and trajectory (<family>_scene.json, <family>_trajectory.csv
// and the meshes) to DIR, for `kdop path --scene ... --trajectory ...` to reproduce a run.
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/narrowphase/distance.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "builders/dop_tree.hpp"
#include "engine/proximity_query.hpp"
#include "io/generated_scene.hpp"
#include "io/mesh_writer.hpp"
#include "verify/motion.hpp"
#include "verify/path_check.hpp"

namespace {

using namespace kdop;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// A unit quaternion (w, x, y, z) of a rotation matrix (Shepperd's method: the largest of the four
// squared components first, so no cancellation).
std::array<double, 4> quaternion_of(const Pose& p) {
  const auto& r = p.r;
  const double tr = r[0] + r[4] + r[8];
  std::array<double, 4> q;
  if (tr >= r[0] && tr >= r[4] && tr >= r[8]) {
    const double s = 2 * std::sqrt(1 + tr);
    q = {s / 4, (r[7] - r[5]) / s, (r[2] - r[6]) / s, (r[3] - r[1]) / s};
  } else if (r[0] >= r[4] && r[0] >= r[8]) {
    const double s = 2 * std::sqrt(1 + r[0] - r[4] - r[8]);
    q = {(r[7] - r[5]) / s, s / 4, (r[1] + r[3]) / s, (r[2] + r[6]) / s};
  } else if (r[4] >= r[8]) {
    const double s = 2 * std::sqrt(1 + r[4] - r[0] - r[8]);
    q = {(r[2] - r[6]) / s, (r[1] + r[3]) / s, s / 4, (r[5] + r[7]) / s};
  } else {
    const double s = 2 * std::sqrt(1 + r[8] - r[0] - r[4]);
    q = {(r[3] - r[1]) / s, (r[2] + r[6]) / s, (r[5] + r[7]) / s, s / 4};
  }
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double& v : q) v /= n;
  return q;
}

template <class BV>
fcl::BVHModel<BV> fcl_model(const Mesh& mesh) {
  fcl::BVHModel<BV> model;
  std::vector<fcl::Vector3d> points(mesh.vertex_count());
  for (std::size_t i = 0; i < points.size(); ++i) points[i] = {mesh.x[i], mesh.y[i], mesh.z[i]};
  std::vector<fcl::Triangle> triangles(mesh.triangle_count());
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    triangles[i] = fcl::Triangle(mesh.a[i], mesh.b[i], mesh.c[i]);
  }
  model.beginModel();
  model.addSubModel(points, triangles);
  model.endModel();
  return model;
}

fcl::Transform3d transform_of(const Pose& p) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) tf.linear()(i, j) = p.r[3 * i + j];
    tf.translation()(i) = p.t[i];
  }
  return tf;
}

// FCL's distance for every pose: the values and the median time per query over the repeats.
template <class BV>
std::pair<std::vector<double>, double> fcl_distances(const Mesh& env, const Mesh& object,
                                                     const std::vector<Pose>& poses, int repeat) {
  auto env_model = std::make_shared<fcl::BVHModel<BV>>(fcl_model<BV>(env));
  auto object_model = std::make_shared<fcl::BVHModel<BV>>(fcl_model<BV>(object));
  fcl::CollisionObjectd a(env_model, fcl::Transform3d::Identity());
  fcl::CollisionObjectd b(object_model, fcl::Transform3d::Identity());
  std::vector<double> values(poses.size());
  std::vector<double> times;
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < poses.size(); ++i) {
      b.setTransform(transform_of(poses[i]));
      fcl::DistanceRequestd request;
      fcl::DistanceResultd result;
      fcl::distance(&a, &b, request, result);
      values[i] = result.min_distance;
    }
    times.push_back(seconds_since(t0) / static_cast<double>(poses.size()));
  }
  return {values, median(times)};
}

struct Args {
  double scale = 0.25;
  std::size_t every = 10;
  double obstacle = 1.0;
  int repeat = 3;
  unsigned threads = 1;
  std::string keep;  // a folder to keep the scenes and trajectories in (empty: a temporary one)
};

// The scene and trajectory as `kdop path` reads them (io/scene_file.hpp, io/trajectory_file.hpp).
void write_path_inputs(const std::filesystem::path& dir, const std::string& family,
                       const Trajectory& trajectory) {
  const std::string scene = "{\"environment\": [{\"name\": \"environment\", \"mesh\": \"" + family +
                            "_env.stl\"}],\n \"objects\": [{\"name\": \"object\", " +
                            "\"mesh\": \"" + family + "_object.stl\"}]}\n";
  write_file_atomic((dir / (family + "_scene.json")).string(), scene);
  std::string csv = "t,object,tx,ty,tz,qw,qx,qy,qz\n";
  char line[512];
  for (const Waypoint& w : trajectory.paths[0]) {
    std::snprintf(line, sizeof line, "%.17g,object,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
                  w.t, w.translation[0], w.translation[1], w.translation[2], w.rotation[0],
                  w.rotation[1], w.rotation[2], w.rotation[3]);
    csv += line;
  }
  write_file_atomic((dir / (family + "_trajectory.csv")).string(), csv);
}

void run_family(const std::string& family, const Args& args, const std::filesystem::path& dir) {
  SceneOptions options;
  options.scale = args.scale;
  const GeneratedScene g = generate_scenes(family, options).front();
  // The scene and a trajectory: every `every`-th pose of the flight is a waypoint.
  const std::string env_path = (dir / (family + "_env.stl")).string();
  const std::string object_path = (dir / (family + "_object.stl")).string();
  write_file_atomic(env_path, format_stl_binary(g.environment));
  write_file_atomic(object_path, format_stl_binary(g.object));
  Scene scene;
  scene.file = family;
  scene.environment.push_back({"environment", env_path, false, Pose{}});
  scene.objects.push_back({"object", object_path, 0});
  Trajectory trajectory;
  trajectory.file = family;
  trajectory.objects = {"object"};
  trajectory.paths.resize(1);
  for (std::size_t i = 0; i < g.poses.size(); i += args.every) {
    const Pose& p = g.poses[i];
    trajectory.paths[0].push_back({static_cast<double>(trajectory.paths[0].size()),
                                   {p.t[0], p.t[1], p.t[2]},
                                   quaternion_of(p),
                                   0});
  }
  if (!args.keep.empty()) write_path_inputs(dir, family, trajectory);
  const std::vector<Waypoint>& path = trajectory.paths[0];
  const std::size_t segments = path.size() - 1;

  // The discrete step a 1 mm obstacle needs: the fastest segment moves no point farther than
  // the obstacle per step.
  double radius = 0;
  for (std::size_t v = 0; v < g.object.vertex_count(); ++v) {
    radius =
        std::max(radius, std::sqrt(g.object.x[v] * g.object.x[v] + g.object.y[v] * g.object.y[v] +
                                   g.object.z[v] * g.object.z[v]));
  }
  double fastest = 0;
  for (std::size_t s = 0; s < segments; ++s) {
    fastest = std::max(fastest, speed_bound(path[s], path[s + 1], radius));
  }
  const double step = args.obstacle / fastest;

  PathCheckOptions continuous;
  continuous.continuous = true;
  continuous.threads = args.threads;
  continuous.object.leaf_size = 8;
  PathCheckOptions discrete = continuous;
  discrete.continuous = false;
  discrete.step = step;
  std::vector<double> t_cont, t_disc;
  PathReport cont_report, disc_report;
  // The checks' own time (PathSummary::time_s: reading and building the hierarchies excluded).
  for (int r = 0; r < args.repeat; ++r) {
    cont_report = *check_path(scene, trajectory, continuous);
    t_cont.push_back(cont_report.summary.time_s);
    disc_report = *check_path(scene, trajectory, discrete);
    t_disc.push_back(disc_report.summary.time_s);
  }
  std::uint64_t cont_steps = 0;
  for (const SegmentReport& s : cont_report.segments) cont_steps += s.steps;
  std::printf("\n### %s (%zu / %zu triangles, %zu segments of %zu poses each)\n\n", family.c_str(),
              g.environment.triangle_count(), g.object.triangle_count(), segments, args.every);
  std::printf("| check | segments/s | queries per segment | colliding | undecided |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  std::printf("| continuous (certified) | %.1f | %.1f | %llu | %llu |\n",
              static_cast<double>(segments) / median(t_cont),
              static_cast<double>(cont_steps) / static_cast<double>(segments),
              static_cast<unsigned long long>(cont_report.summary.colliding),
              static_cast<unsigned long long>(cont_report.summary.undecided));
  std::printf("| discrete, step %.3g (%.3g mm obstacle) | %.1f | %.1f | %llu | - |\n", step,
              args.obstacle, static_cast<double>(segments) / median(t_disc),
              static_cast<double>(disc_report.waypoints.size()) / static_cast<double>(segments),
              static_cast<unsigned long long>(disc_report.summary.colliding));
  std::printf("\ncontinuous is %.2fx the discrete check's speed (hierarchy builds excluded)\n",
              median(t_disc) / median(t_cont));

  // Distance queries at the flight's poses.
  BuildConfig fly_config = BuildConfig::object_defaults();
  fly_config.leaf_size = 8;
  // Environment leaves of one triangle, as `kdop path` builds them (verify/path_check.hpp).
  const DopTree<18> env = build_dop_tree<18>(g.environment, BuildConfig{});
  const FlyingDopTree<18> fly = build_flying_dop_tree<18>(g.object, fly_config);
  ProximityScratch<18> scratch;
  ProximityResult result;
  std::vector<double> ours(g.poses.size()), times;
  for (int r = 0; r < args.repeat; ++r) {
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < g.poses.size(); ++i) {
      nearest_pair<18>(env, fly, g.poses[i], std::numeric_limits<double>::infinity(), scratch,
                       result);
      ours[i] = result.distance;
    }
    times.push_back(seconds_since(t0) / static_cast<double>(g.poses.size()));
  }
  const double kdop_time = median(times);
  const auto [rss, rss_time] =
      fcl_distances<fcl::RSSd>(g.environment, g.object, g.poses, args.repeat);
  const auto [obbrss, obbrss_time] =
      fcl_distances<fcl::OBBRSSd>(g.environment, g.object, g.poses, args.repeat);
  auto disagreements = [&](const std::vector<double>& theirs) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < ours.size(); ++i) {
      // FCL reports overlapping meshes as distance 0 or -1 depending on version; both are 0 here.
      const double t = std::max(theirs[i], 0.0);
      if (std::fabs(t - ours[i]) > 1e-9 * std::max(1.0, ours[i])) ++n;
    }
    return n;
  };
  std::printf("\nDistance queries on the %zu flight poses (median of %d runs, one thread):\n\n",
              g.poses.size(), args.repeat);
  std::printf("| engine | queries/s | us/query | vs kdop | values differing from kdop |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  std::printf("| kdop kdop18 | %.0f | %.1f | 1.00x | - |\n", 1 / kdop_time, 1e6 * kdop_time);
  std::printf("| FCL RSS | %.0f | %.1f | %.2fx slower | %zu |\n", 1 / rss_time, 1e6 * rss_time,
              rss_time / kdop_time, disagreements(rss));
  std::printf("| FCL OBBRSS | %.0f | %.1f | %.2fx slower | %zu |\n", 1 / obbrss_time,
              1e6 * obbrss_time, obbrss_time / kdop_time, disagreements(obbrss));
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  CLI::App app{
      "kdop-path-bench: continuous vs discrete motion checks (kdop path), and distance "
      "queries against FCL's RSS and OBBRSS."};
  app.add_option("--scale", args.scale, "Scene size factor")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--every", args.every, "A waypoint every this many poses")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30));
  app.add_option("--obstacle", args.obstacle, "Obstacle size, mm")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--repeat", args.repeat, "Runs (medians are reported)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  app.add_option("--threads", args.threads, "Worker threads (0: all cores)")
      ->capture_default_str()
      ->check(CLI::Range(0u, 1024u));
  app.add_option("--keep", args.keep,
                 "Keep the scenes and trajectories in this folder (default: a temporary one)");
  CLI11_PARSE(app, argc, argv);
  const auto dir = !args.keep.empty()
                       ? std::filesystem::path(args.keep)
                       : std::filesystem::temp_directory_path() /
                             ("kdop-path-bench-" + std::to_string(static_cast<long>(::getpid())));
  std::filesystem::create_directories(dir);
  std::printf(
      "kdop-path-bench: scale %g, a waypoint every %zu poses, %g mm obstacle, %d runs, "
      "%u thread(s)\n",
      args.scale, args.every, args.obstacle, args.repeat, args.threads);
  for (const char* family : {"torus", "swept"}) run_family(family, args, dir);
  if (args.keep.empty()) std::filesystem::remove_all(dir);
  return 0;
}
