#include "verify/path_check.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "builders/dop_tree.hpp"
#include "engine/parallel.hpp"
#include "engine/proximity_query.hpp"
#include "geometry/triangle_distance.hpp"
#include "io/hierarchy_file.hpp"
#include "io/io_error.hpp"
#include "io/mesh_reader.hpp"
#include "verify/motion.hpp"

namespace kdop {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// The hierarchies of a scene, in the frames of their files.
template <int K>
struct SceneTrees {
  std::vector<DopTree<K>> environment;
  std::vector<FlyingDopTree<K>> objects;
  std::vector<double> environment_extent;  // largest |coordinate| of each environment mesh
};

// Largest |n_j . p| over a DOP's slabs: a bound of every coordinate of a point inside (for the
// 8-DOP too, each coordinate being half a sum of two diagonal projections).
template <int K>
double dop_extent(const float* bounds) {
  using Shape = DopShape<K>;
  double e = 0;
  for (int j = 0; j < Shape::slabs; ++j) {
    e = std::max({e, std::fabs(double{bounds[j]}), std::fabs(double{bounds[Shape::lanes + j]})});
  }
  return e;
}

// A mesh's hierarchy built by `build`, or a hierarchy file's (of the BV type asked for).
template <class Tree, class ReadFile, class Build>
Tree tree_from(const std::string& path, BvType bv, ReadFile read_file, Build build) {
  if (!is_hierarchy_file(path)) return build(read_mesh(path));
  auto file = read_file(path);
  Tree* tree = std::get_if<Tree>(&file.hierarchy);
  if (tree == nullptr) {
    throw IoError::in_file(path, std::string("hierarchy is ") + to_string(bv_type(file.hierarchy)) +
                                     ", expected " + to_string(bv));
  }
  return std::move(*tree);
}

template <int K>
SceneTrees<K> load_trees(const Scene& scene, const PathCheckOptions& options) {
  SceneTrees<K> trees;
  for (const SceneEnvironmentMesh& m : scene.environment) {
    trees.environment.push_back(tree_from<DopTree<K>>(
        m.mesh, options.bv, read_environment_file,
        [&](const Mesh& mesh) { return build_dop_tree<K>(mesh, options.environment); }));
    trees.environment_extent.push_back(dop_extent<K>(trees.environment.back().node_bounds(0)));
  }
  for (const SceneObject& o : scene.objects) {
    trees.objects.push_back(tree_from<FlyingDopTree<K>>(
        o.mesh, options.bv, read_object_file,
        [&](const Mesh& mesh) { return build_flying_dop_tree<K>(mesh, options.object); }));
  }
  return trees;
}

// Something an object is checked against: an environment mesh at its fixed pose, or another
// object along its path.
struct Other {
  bool is_object = false;
  std::uint32_t index = 0;  // into the scene's environment or objects
  double clearance = 0;     // the pair's: --clearance plus both paddings
};

// What one sample (an object at one time, against everything it is checked against) found.
struct Sample {
  double distance = kInf;    // least distance to anything checked (inf: none below caps)
  int nearest = -1;          // index into the others of the least distance
  int hit = -1;              // index into the others of the first that collides
  ContactPair hit_pair{};    // the triangles of `hit` (X's, the object's)
  double least_step = kInf;  // the longest step proved free (continuous)
  double time_us = 0;
};

// Per worker thread: a distance query's state per object, and its result.
template <int K>
struct Worker {
  std::vector<ProximityScratch<K>> scratch;  // per object (sized for its hierarchy)
  ProximityResult result;
  std::vector<double> distances;
};

template <int K>
class PathChecker {
 public:
  PathChecker(const Scene& scene, const Trajectory& trajectory, const PathCheckOptions& options,
              SceneTrees<K> trees)
      : scene_(scene), options_(options), trees_(std::move(trees)) {
    // Each scene object's path, and what it is checked against.
    const std::size_t n = scene.objects.size();
    paths_.resize(n);
    others_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const int at = trajectory.find(scene.objects[i].name);
      if (at < 0) {
        throw std::invalid_argument("object '" + scene.objects[i].name + "' of scene " +
                                    scene.file + " has no waypoints in " + trajectory.file);
      }
      paths_[i] = &trajectory.paths[static_cast<std::size_t>(at)];
      for (std::size_t e = 0; e < scene.environment.size(); ++e) {
        if (!scene.checks(scene.objects[i].name, scene.environment[e].name)) continue;
        others_[i].push_back(
            {false, static_cast<std::uint32_t>(e), options.clearance + scene.objects[i].padding});
      }
      for (std::size_t j = 0; j < n; ++j) {
        if (j == i || !scene.checks(scene.objects[i].name, scene.objects[j].name)) continue;
        others_[i].push_back(
            {true, static_cast<std::uint32_t>(j),
             options.clearance + scene.objects[i].padding + scene.objects[j].padding});
      }
    }
    for (const std::string& name : trajectory.objects) {
      bool known = false;
      for (const SceneObject& o : scene.objects) known = known || o.name == name;
      if (!known) {
        throw std::invalid_argument("trajectory " + trajectory.file + " moves object '" + name +
                                    "', which scene " + scene.file + " does not have");
      }
    }
  }

  std::optional<PathReport> run() {
    const auto start = Clock::now();
    // One task per segment; an object with a single waypoint is one task of one sample.
    struct Task {
      std::uint32_t object, segment;
    };
    std::vector<Task> tasks;
    for (std::uint32_t i = 0; i < paths_.size(); ++i) {
      const std::size_t segments = paths_[i]->size() > 1 ? paths_[i]->size() - 1 : 1;
      for (std::uint32_t s = 0; s < segments; ++s) tasks.push_back({i, s});
    }
    std::vector<TaskOut> out(tasks.size());
    ParallelRunner runner(options_.threads);
    std::vector<Worker<K>> workers(runner.threads());
    for (Worker<K>& w : workers) w.scratch.resize(paths_.size());
    std::atomic<std::uint64_t> done{0};
    std::mutex progress_mutex;
    auto last_progress = Clock::now();
    auto body = [&](std::size_t t) {
      if (cancelled()) return;
      run_task(tasks[t].object, tasks[t].segment, workers[runner.worker_id()], out[t]);
      const std::uint64_t now_done = ++done;
      if (options_.progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        if (Clock::now() - last_progress > std::chrono::milliseconds(100) ||
            now_done == tasks.size()) {
          last_progress = Clock::now();
          options_.progress(now_done, tasks.size());
        }
      }
    };
    runner.for_each_index(tasks.size(), body);
    if (cancelled()) return std::nullopt;

    PathReport report;
    for (const SceneObject& o : scene_.objects) report.objects.push_back(o.name);
    std::vector<std::string> nearest;  // per waypoint: the nearest item's name
    for (TaskOut& o : out) {
      for (WaypointReport& w : o.waypoints) report.waypoints.push_back(std::move(w));
      for (std::string& n : o.nearest) nearest.push_back(std::move(n));
      for (PathSample& s : o.samples) report.samples.push_back(s);
      if (o.segment) report.segments.push_back(std::move(*o.segment));
    }
    if (!options_.continuous) discrete_segments(report);
    summarize(report, nearest, runner.threads());
    report.summary.time_s = std::chrono::duration<double>(Clock::now() - start).count();
    return report;
  }

 private:
  bool cancelled() const {
    return options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed);
  }

  Pose object_pose(std::uint32_t i, double t) const { return to_pose(state_at(*paths_[i], t)); }

  const std::string& name_of(const Other& x) const {
    return x.is_object ? scene_.objects[x.index].name : scene_.environment[x.index].name;
  }

  struct TaskOut {
    std::vector<WaypointReport> waypoints;
    std::vector<std::string> nearest;  // per waypoint: the nearest item checked
    std::vector<PathSample> samples;
    std::optional<SegmentReport> segment;
  };

  // The speed bound of object i on its segment holding [a, b] (0 at rest or past its ends).
  double speed_at(std::uint32_t i, double a, double b) const {
    const std::vector<Waypoint>& path = *paths_[i];
    if (path.size() < 2 || b <= path.front().t || a >= path.back().t) return 0;
    const std::size_t s = segment_at(path, 0.5 * (a + b));
    return speed_bound(path[s], path[s + 1], trees_.objects[i].corner_radius);
  }

  // Object i at time t against its others; `caps[k]` (or inf) prunes what is farther. Fills
  // distances[k] (inf: farther than the cap) and the sample's summary.
  Sample sample(std::uint32_t i, double t, const std::vector<double>& caps, Worker<K>& worker) {
    const auto start = Clock::now();
    ProximityScratch<K>& scratch = worker.scratch[i];
    ProximityResult& result = worker.result;
    std::vector<double>& distances = worker.distances;
    Sample out;
    const Pose pose = object_pose(i, t);
    const FlyingDopTree<K>& fly = trees_.objects[i];
    const std::vector<Other>& others = others_[i];
    distances.assign(others.size(), kInf);
    for (std::size_t k = 0; k < others.size(); ++k) {
      const Other& x = others[k];
      const Pose at = x.is_object ? object_pose(x.index, t) : scene_.environment[x.index].pose;
      const DopTree<K>& tree =
          x.is_object ? trees_.objects[x.index].tree : trees_.environment[x.index];
      const Pose relative = relative_pose(at, pose);
      nearest_pair<K>(tree, fly, relative, caps.empty() ? kInf : caps[k], scratch, result);
      distances[k] = result.distance;
      if (result.distance < out.distance) {
        out.distance = result.distance;
        out.nearest = static_cast<int>(k);
      }
      const bool collides = x.clearance > 0 ? result.distance <= x.clearance : result.intersecting;
      if (collides && (out.hit < 0 || result.distance < distances[out.hit])) {
        out.hit = static_cast<int>(k);
        out.hit_pair = result.nearest;
      }
    }
    out.time_us = micros_since(start);
    return out;
  }

  // The rounding bound of a distance between object i (at relative translation t) and x.
  double distance_error(std::uint32_t i, const Other& x, double t) const {
    const double other_extent =
        x.is_object ? trees_.objects[x.index].corner_radius : trees_.environment_extent[x.index];
    const Pose at = x.is_object ? object_pose(x.index, t) : scene_.environment[x.index].pose;
    const Pose relative = relative_pose(at, object_pose(i, t));
    const double shift =
        std::fabs(relative.t[0]) + std::fabs(relative.t[1]) + std::fabs(relative.t[2]);
    const double magnitude = other_extent + trees_.objects[i].corner_radius + shift;
    // The distance's own rounding, and the poses' (a few ulps of every coordinate).
    return triangle_distance_error(magnitude) + 0x1p-40 * magnitude;
  }

  WaypointReport waypoint_report(std::uint32_t i, double t, SampleKind kind, const Sample& s) {
    WaypointReport w;
    w.object = scene_.objects[i].name;
    w.t = t;
    w.kind = kind;
    w.collides = s.hit >= 0;
    if (s.hit >= 0) {
      w.with = name_of(others_[i][static_cast<std::size_t>(s.hit)]);
      w.pair = TrianglePair{s.hit_pair.object_triangle, s.hit_pair.env_triangle};
    }
    w.min_distance = s.nearest >= 0 ? s.distance : kNotComputed;
    w.time_us = s.time_us;
    return w;
  }

  void run_task(std::uint32_t i, std::uint32_t segment, Worker<K>& worker, TaskOut& out) {
    const std::vector<Waypoint>& path = *paths_[i];
    const std::vector<double> no_caps;
    auto record = [&](double t, SampleKind kind) {
      const Sample s = sample(i, t, no_caps, worker);
      out.waypoints.push_back(waypoint_report(i, t, kind, s));
      out.nearest.push_back(
          s.nearest >= 0 ? name_of(others_[i][static_cast<std::size_t>(s.nearest)]) : "");
      out.samples.push_back(
          {i, t, s.nearest >= 0 ? s.distance : kNotComputed, s.time_us, s.hit >= 0});
    };
    const double t0 = path[segment].t;
    record(t0, SampleKind::waypoint);
    if (path.size() < 2) return;
    const double t1 = path[segment + 1].t;
    if (options_.step > 0) {
      for (std::uint64_t k = 1;; ++k) {
        const double t = t0 + static_cast<double>(k) * options_.step;
        if (!(t < t1 - 1e-12 * std::fabs(t1 - t0))) break;
        record(t, SampleKind::step);
      }
    }
    if (segment + 2 == path.size()) record(t1, SampleKind::waypoint);
    if (options_.continuous) out.segment = continuous_segment(i, segment, worker, out.samples);
  }

  // Conservative advancement over segment [t0, t1] of object i (see path_check.hpp).
  SegmentReport continuous_segment(std::uint32_t i, std::uint32_t segment, Worker<K>& worker,
                                   std::vector<PathSample>& samples) {
    const auto start = Clock::now();
    const std::vector<Waypoint>& path = *paths_[i];
    const std::vector<Other>& others = others_[i];
    SegmentReport r;
    r.object = scene_.objects[i].name;
    r.t0 = path[segment].t;
    r.t1 = path[segment + 1].t;
    // Pieces: the segment cut where another checked object changes segment.
    std::vector<double> cuts{r.t0, r.t1};
    for (const Other& x : others) {
      if (!x.is_object) continue;
      for (const Waypoint& w : *paths_[x.index]) {
        if (w.t > r.t0 && w.t < r.t1) cuts.push_back(w.t);
      }
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());

    double least = kInf;
    std::vector<double> caps(others.size()), speeds(others.size()), errors(others.size());
    const std::vector<double>& distances = worker.distances;
    auto finish = [&](SegmentStatus status, double t_hit, const Sample* s) {
      r.status = status;
      r.t_hit = t_hit;
      if (s != nullptr && s->hit >= 0) {
        r.with = name_of(others[static_cast<std::size_t>(s->hit)]);
        r.pair = TrianglePair{s->hit_pair.object_triangle, s->hit_pair.env_triangle};
      }
      r.min_distance = std::isfinite(least) ? least : kNotComputed;
      r.time_us = micros_since(start);
      return r;
    };
    for (std::size_t p = 0; p + 1 < cuts.size(); ++p) {
      const double p0 = cuts[p], p1 = cuts[p + 1];
      const double own = speed_at(i, p0, p1);
      for (std::size_t k = 0; k < others.size(); ++k) {
        speeds[k] = own + (others[k].is_object ? speed_at(others[k].index, p0, p1) : 0.0);
        // Rounding bounds at the piece's ends are within a factor of its middle's; the larger.
        errors[k] =
            2 * std::max(distance_error(i, others[k], p0), distance_error(i, others[k], p1));
      }
      double s = p0;
      for (;;) {
        if (cancelled()) return finish(SegmentStatus::undecided, s, nullptr);
        if (r.steps >= options_.max_steps) return finish(SegmentStatus::undecided, s, nullptr);
        ++r.steps;
        // Beyond the cap an item cannot come within its clearance before the piece ends.
        for (std::size_t k = 0; k < others.size(); ++k) {
          caps[k] = others[k].clearance + errors[k] + speeds[k] * (p1 - s) * (1 + 1e-12);
        }
        Sample here = sample(i, s, caps, worker);
        if (here.nearest >= 0) least = std::min(least, here.distance);
        samples.push_back(
            {i, s, here.nearest >= 0 ? here.distance : kNotComputed, here.time_us, here.hit >= 0});
        if (here.hit >= 0) return finish(SegmentStatus::collides, s, &here);
        double step = p1 - s;
        for (std::size_t k = 0; k < others.size(); ++k) {
          if (!std::isfinite(distances[k]) || speeds[k] == 0) continue;  // free to the piece's end
          const double room = distances[k] - others[k].clearance - errors[k];
          step = std::min(step, room > 0 ? room / speeds[k] : 0.0);
        }
        if (s + step >= p1) break;  // [s, p1] proved free
        if (step < options_.time_tolerance) {
          // Near contact the steps shrink geometrically (the bound's speed exceeds the rate the
          // distance falls). A sample a tolerance ahead that collides puts the first contact in
          // (s, next]: t_hit = s is within the tolerance of it and never later.
          const double next = std::min(s + options_.time_tolerance, p1);
          ++r.steps;
          Sample ahead = sample(i, next, {}, worker);
          if (ahead.nearest >= 0) least = std::min(least, ahead.distance);
          samples.push_back({i, next, ahead.nearest >= 0 ? ahead.distance : kNotComputed,
                             ahead.time_us, ahead.hit >= 0});
          if (ahead.hit >= 0) return finish(SegmentStatus::collides, s, &ahead);
          // Steps at the resolution of the distance's rounding bound: grazing, not decidable.
          if (step < options_.time_tolerance * 1e-6 || s + step == s) {
            return finish(SegmentStatus::undecided, s, nullptr);
          }
        }
        s += step;
      }
    }
    return finish(SegmentStatus::free, kNotComputed, nullptr);
  }

  // Discrete mode: a segment collides at its first sample (ends included) that collides.
  void discrete_segments(PathReport& report) const {
    std::size_t w = 0;
    for (std::uint32_t i = 0; i < paths_.size(); ++i) {
      const std::vector<Waypoint>& path = *paths_[i];
      const std::size_t first = w;
      while (w < report.waypoints.size() && report.waypoints[w].object == scene_.objects[i].name) {
        ++w;
      }
      for (std::size_t s = 0; s + 1 < path.size(); ++s) {
        SegmentReport r;
        r.object = scene_.objects[i].name;
        r.t0 = path[s].t;
        r.t1 = path[s + 1].t;
        double least = kInf;
        for (std::size_t k = first; k < w; ++k) {
          const WaypointReport& x = report.waypoints[k];
          if (x.t < r.t0 || x.t > r.t1) continue;
          ++r.steps;
          r.time_us += x.time_us;
          if (!std::isnan(x.min_distance)) least = std::min(least, x.min_distance);
          if (x.collides && r.status != SegmentStatus::collides) {
            r.status = SegmentStatus::collides;
            r.t_hit = x.t;
            r.with = x.with;
            r.pair = x.pair;
          }
        }
        r.min_distance = std::isfinite(least) ? least : kNotComputed;
        report.segments.push_back(std::move(r));
      }
    }
  }

  void summarize(PathReport& report, const std::vector<std::string>& nearest,
                 unsigned threads) const {
    PathSummary& s = report.summary;
    s.continuous = options_.continuous;
    s.clearance = options_.clearance;
    s.time_tolerance = options_.time_tolerance;
    s.threads = threads;
    s.segments = report.segments.size();
    auto note_collision = [&](double t, const std::string& object, const std::string& with) {
      if (s.first_collision_t && *s.first_collision_t <= t) return;
      s.first_collision_t = t;
      s.first_collision_object = object;
      s.first_collision_with = with;
    };
    for (const SegmentReport& r : report.segments) {
      if (r.status == SegmentStatus::free) ++s.free;
      if (r.status == SegmentStatus::collides) {
        ++s.colliding;
        note_collision(r.t_hit, r.object, r.with);
      }
      if (r.status == SegmentStatus::undecided) ++s.undecided;
    }
    s.waypoints = report.waypoints.size();
    for (std::size_t k = 0; k < report.waypoints.size(); ++k) {
      const WaypointReport& w = report.waypoints[k];
      if (w.collides) {
        ++s.colliding_waypoints;
        note_collision(w.t, w.object, w.with);
      }
      if (!std::isnan(w.min_distance) &&
          (std::isnan(s.worst_clearance) || w.min_distance < s.worst_clearance)) {
        s.worst_clearance = w.min_distance;
        s.worst_clearance_t = w.t;
        s.worst_clearance_object = w.object;
        s.worst_clearance_with = nearest[k];
      }
    }
  }

  const Scene& scene_;
  const PathCheckOptions& options_;
  SceneTrees<K> trees_;
  std::vector<const std::vector<Waypoint>*> paths_;
  std::vector<std::vector<Other>> others_;
};

}  // namespace

std::optional<PathReport> check_path(const Scene& scene, const Trajectory& trajectory,
                                     const PathCheckOptions& options) {
  if (!is_dop(options.bv)) {
    throw std::invalid_argument(std::string("kdop path checks with k-DOP hierarchies "
                                            "(kdop6, dop8, kdop14, kdop18, kdop26), not ") +
                                to_string(options.bv));
  }
  if (!(options.clearance >= 0) || !std::isfinite(options.clearance)) {
    throw std::invalid_argument("clearance must be a finite number >= 0");
  }
  if (!(options.time_tolerance > 0) || !std::isfinite(options.time_tolerance)) {
    throw std::invalid_argument("time tolerance must be a finite number > 0");
  }
  if (!(options.step >= 0) || !std::isfinite(options.step)) {
    throw std::invalid_argument("step must be a finite number >= 0");
  }
  if (options.max_steps == 0) throw std::invalid_argument("max steps must be at least 1");
  return with_dop_k(options.bv, [&]<int K>() {
    PathChecker<K> checker(scene, trajectory, options, load_trees<K>(scene, options));
    return checker.run();
  });
}

}  // namespace kdop
