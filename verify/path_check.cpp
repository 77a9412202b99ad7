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
#include "geometry/tri_tri.hpp"
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

// A mesh's hierarchy built by `build` (after `before_build`, if set, has seen the mesh), or a
// hierarchy file's (of the BV type asked for). `held` counts the bytes of the trees so far.
template <class Tree, class ReadFile, class Build>
Tree tree_from(const std::string& path, BvType bv, ReadFile read_file, Build build,
               const BeforeBuild& before_build, bool moving, std::uint64_t& held) {
  if (!is_hierarchy_file(path)) {
    const Mesh mesh = read_mesh(path, kOrHierarchyFile);
    if (before_build) before_build(path, mesh.triangle_count(), moving, held);
    Tree tree = build(mesh);
    held += memory_bytes(tree);
    return tree;
  }
  auto file = read_file(path);
  Tree* tree = std::get_if<Tree>(&file.hierarchy);
  if (tree == nullptr) {
    throw IoError::in_file(path, std::string("hierarchy is ") + to_string(bv_type(file.hierarchy)) +
                                     ", expected " + to_string(bv));
  }
  held += memory_bytes(*tree);
  return std::move(*tree);
}

template <int K>
SceneTrees<K> load_trees(const Scene& scene, const PathCheckOptions& options) {
  SceneTrees<K> trees;
  std::uint64_t held = 0;
  for (const SceneEnvironmentMesh& m : scene.environment) {
    trees.environment.push_back(tree_from<DopTree<K>>(
        m.mesh, options.bv, read_environment_file,
        [&](const Mesh& mesh) { return build_dop_tree<K>(mesh, options.environment); },
        options.before_build, false, held));
    trees.environment_extent.push_back(dop_extent<K>(trees.environment.back().node_bounds(0)));
  }
  for (const SceneObject& o : scene.objects) {
    trees.objects.push_back(tree_from<FlyingDopTree<K>>(
        o.mesh, options.bv, read_object_file,
        [&](const Mesh& mesh) { return build_flying_dop_tree<K>(mesh, options.object); },
        options.before_build, true, held));
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

// The least distance seen in a segment, when and to which other (index into the others).
struct Least {
  double distance = kInf;
  double t = kNotComputed;
  int with = -1;
  void offer(double d, double at, int k) {
    if (d < distance) *this = {d, at, k};
  }
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
    for (std::size_t k = 0; k < trajectory.objects.size(); ++k) {
      const std::string& name = trajectory.objects[k];
      bool known = false;
      for (const SceneObject& o : scene.objects) known = known || o.name == name;
      if (!known) {
        const std::uint64_t line = trajectory.paths[k].front().line;  // 0: a JSON file
        throw std::invalid_argument(
            trajectory.file + (line != 0 ? ": line " + std::to_string(line) : "") +
            ": moves object '" + name + "', which scene " + scene.file + " does not have");
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
    if (!options_.continuous) discrete_segments(report, nearest);
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
  Sample sample(std::uint32_t i, double t, const std::vector<double>& caps, Worker<K>& worker,
                const std::vector<char>* only = nullptr) {
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
      if (only != nullptr && !(*only)[k]) continue;
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
      bool collides = x.clearance > 0 ? result.distance <= x.clearance : result.intersecting;
      ContactPair pair = result.nearest;
      double pair_distance = result.distance;
      if (x.clearance > 0 && std::fabs(result.distance - x.clearance) <= result.error_bound) {
        // Within rounding of the clearance: pairs_within decides such pairs by their exact
        // distances (geometry/exact_distance.hpp).
        pairs_within<K>(tree, fly, relative, x.clearance, scratch, result);
        collides = !result.pairs.empty();
        pair = result.nearest;
        pair_distance = result.distance;
      }
      if (collides && (out.hit < 0 || pair_distance < distances[out.hit])) {
        out.hit = static_cast<int>(k);
        out.hit_pair = pair;
      }
    }
    out.time_us = micros_since(start);
    return out;
  }

  // The least distance of sample `s` (object i at time t) over all its others, not only those
  // queried under caps: a cap can drop a near item while a farther one with a larger cap is kept,
  // and pairs decided by sweeps are not sampled at all. The items left out are queried again
  // capped by the least found, so the work is small unless the sample found nothing.
  Least least_distance(std::uint32_t i, double t, const Sample& s, Worker<K>& worker) {
    const std::vector<Other>& others = others_[i];
    Least least;
    if (s.nearest >= 0) least = {s.distance, t, s.nearest};
    for (std::size_t k = 0; k < others.size(); ++k) {
      if (!std::isfinite(worker.distances[k])) nearest_to(i, k, t, least, worker);
    }
    return least;
  }

  // Offers object i's distance to other k at time t (below the least so far) to `least`.
  void nearest_to(std::uint32_t i, std::size_t k, double t, Least& least, Worker<K>& worker) {
    const Other& x = others_[i][k];
    const DopTree<K>& tree =
        x.is_object ? trees_.objects[x.index].tree : trees_.environment[x.index];
    nearest_pair<K>(tree, trees_.objects[i], relative_at(i, x, t), least.distance,
                    worker.scratch[i], worker.result);
    least.offer(worker.result.distance, t, static_cast<int>(k));
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

  // How a stretch of a segment ended: free to its end, or a contact (or undecidable) at t.
  struct Outcome {
    SegmentStatus status = SegmentStatus::free;
    double t = kNotComputed;
    int with = -1;  // index into the others
    ContactPair pair{};
    // At a contact: the end of the interval (t, proved] of at most the time tolerance that holds
    // the first contact (the colliding sample's time, or the bisection's hi). There the least
    // distance 0 is reported: at t itself the objects are still apart.
    double proved = kNotComputed;
  };

  // The relative pose of object i in other x's frame at time t.
  Pose relative_at(std::uint32_t i, const Other& x, double t) const {
    const Pose at = x.is_object ? object_pose(x.index, t) : scene_.environment[x.index].pose;
    return relative_pose(at, object_pose(i, t));
  }

  // True if object i keeps one rotation over [a, b] (at rest, or translating on its segment).
  bool translates(std::uint32_t i, double a, double b) const {
    const std::vector<Waypoint>& path = *paths_[i];
    if (path.size() < 2 || b <= path.front().t || a >= path.back().t) return true;
    const std::size_t s = segment_at(path, 0.5 * (a + b));
    return same_rotation(path[s].rotation, path[s + 1].rotation);
  }

  // When over [a, b] (a pure translation of object i relative to x) triangle pair `pair` is
  // nearest: their distance is a convex function of time (the distance of two convex sets, one
  // translating along a line), so golden-section search finds its least to the time tolerance.
  double closest_time(std::uint32_t i, const Other& x, const ContactPair& pair, double a,
                      double b) const {
    auto slot_of = [](const LeafTriangles& t, std::uint32_t original) {
      const std::uint32_t* o = t.original.data();
      return static_cast<std::uint32_t>(std::find(o, o + t.size(), original) - o);
    };
    const LeafTriangles& theirs = x.is_object ? trees_.objects[x.index].tree.triangles
                                              : trees_.environment[x.index].triangles;
    const LeafTriangles& ours = trees_.objects[i].tree.triangles;
    const Triangle fixed = theirs.triangle(slot_of(theirs, pair.env_triangle));
    const Triangle moving = ours.triangle(slot_of(ours, pair.object_triangle));
    auto distance = [&](double t) {
      const Pose p = relative_at(i, x, t);
      const Triangle m{apply_pose(p, moving.p0), apply_pose(p, moving.p1),
                       apply_pose(p, moving.p2)};
      return triangles_intersect(fixed, m) ? 0.0 : triangle_distance(fixed, m).distance;
    };
    const double ratio = (std::sqrt(5.0) - 1) / 2;
    double lo = a, hi = b;
    double m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo);
    double f1 = distance(m1), f2 = distance(m2);
    for (int n = 0; n < 200 && hi - lo > options_.time_tolerance; ++n) {
      if (f1 <= f2) {
        hi = m2, m2 = m1, f2 = f1;
        m1 = hi - ratio * (hi - lo), f1 = distance(m1);
      } else {
        lo = m1, m1 = m2, f1 = f2;
        m2 = lo + ratio * (hi - lo), f2 = distance(m2);
      }
    }
    // The ends are candidates too, preferred on ties (the least is often at one, or on a
    // plateau that starts there: a motion parallel to a face).
    const double inner = f1 <= f2 ? m1 : m2, inner_value = std::min(f1, f2);
    const double fa = distance(a), fb = distance(b);
    if (fa <= inner_value && fa <= fb) return a;
    if (fb <= inner_value) return b;
    return inner;
  }

  // Pure translation against other k over [a, b]: exact sweeps (engine/proximity_query.hpp,
  // sweep_within), then bisection to the first contact: [a, lo) is proved free and [lo, hi]
  // holds a contact, until hi - lo is within the time tolerance. The first sweep counts in
  // `steps`; the bisection's in `bisection_steps`, outside max_steps' budget (which advancement
  // spends): the contact is proved, so the segment collides, and halving ends at the tolerance or
  // at double's resolution (a few dozen sweeps; about 1,075 from a width of 1 down to the
  // smallest subnormal, with an absurdly small tolerance).
  Outcome first_sweep_contact(std::uint32_t i, std::size_t k, double a, double b, double error,
                              Worker<K>& worker, std::uint64_t& steps,
                              std::uint64_t& bisection_steps, Least& least) {
    const Other& x = others_[i][k];
    const DopTree<K>& tree =
        x.is_object ? trees_.objects[x.index].tree : trees_.environment[x.index];
    const FlyingDopTree<K>& fly = trees_.objects[i];
    // A clearance is decided on rounded distances: widened by their error bound. Touching is
    // decided by exact predicates.
    const double limit = x.clearance > 0 ? x.clearance + error : 0.0;
    auto contact = [&](double from, double to) {
      ++bisection_steps;
      return sweep_within<K>(tree, fly, relative_at(i, x, from), relative_at(i, x, to), limit,
                             worker.scratch[i], worker.result);
    };
    Outcome out;
    // The least distance over the whole stretch first (exact: the prisms are the motion), which
    // also decides whether there is a contact at all.
    ++steps;
    sweep_nearest<K>(tree, fly, relative_at(i, x, a), relative_at(i, x, b), kInf, worker.scratch[i],
                     worker.result);
    if (worker.result.distance < least.distance) {
      least = {worker.result.distance, closest_time(i, x, worker.result.nearest, a, b),
               static_cast<int>(k)};
    }
    if (limit > 0 ? !(worker.result.distance <= limit) : !worker.result.intersecting) return out;
    double lo = a, hi = b;
    ContactPair pair = worker.result.nearest;
    while (hi - lo > options_.time_tolerance && !cancelled()) {
      const double mid = lo + 0.5 * (hi - lo);
      if (!(mid > lo && mid < hi)) break;  // the resolution of double
      if (contact(lo, mid)) {
        hi = mid;
        pair = worker.result.nearest;
      } else {
        lo = mid;
      }
    }
    // Only a cancelled check (whose report is dropped) stops short of the tolerance or of
    // double's resolution.
    out.status = cancelled() ? SegmentStatus::undecided : SegmentStatus::collides;
    out.t = lo;
    out.with = static_cast<int>(k);
    out.pair = pair;
    out.proved = hi;
    return out;
  }

  // Conservative advancement of object i against the others in `mask` over [a, b] (see
  // path_check.hpp).
  Outcome advance(std::uint32_t i, const std::vector<char>& mask, double a, double b,
                  const std::vector<double>& speeds, const std::vector<double>& errors,
                  Worker<K>& worker, std::vector<PathSample>& samples, std::uint64_t& steps,
                  Least& least) {
    const std::vector<Other>& others = others_[i];
    std::vector<double> caps(others.size());
    const std::vector<double>& distances = worker.distances;
    auto hit = [](const Sample& s, double t, double proved) {
      return Outcome{SegmentStatus::collides, t, s.hit, s.hit_pair, proved};
    };
    auto undecided = [](double t) { return Outcome{SegmentStatus::undecided, t, -1, {}}; };
    // The sample's least distance over everything, for the segment's minimum and the plot; it
    // leaves `distances` (the step is taken from them) as they are.
    auto record = [&](double t, const Sample& s) {
      const auto start = Clock::now();
      const Least here = least_distance(i, t, s, worker);
      least.offer(here.distance, here.t, here.with);
      const double d = std::isfinite(here.distance) ? here.distance : kNotComputed;
      samples.push_back({i, t, d, s.time_us + micros_since(start), s.hit >= 0});
    };
    double s = a;
    for (;;) {
      if (cancelled() || steps >= options_.max_steps) return undecided(s);
      ++steps;
      // Beyond the cap an item cannot come within its clearance before the stretch ends.
      for (std::size_t k = 0; k < others.size(); ++k) {
        caps[k] = others[k].clearance + errors[k] + speeds[k] * (b - s) * (1 + 1e-12);
      }
      const Sample here = sample(i, s, caps, worker, &mask);
      record(s, here);
      if (here.hit >= 0) return hit(here, s, s);
      double step = kInf;
      for (std::size_t k = 0; k < others.size(); ++k) {
        if (!mask[k] || !std::isfinite(distances[k]) || speeds[k] == 0) continue;
        const double room = distances[k] - others[k].clearance - errors[k];
        step = std::min(step, room > 0 ? room / speeds[k] : 0.0);
      }
      if (step >= b - s) return {};  // [s, b] proved free
      // The end of the proved step, rounded down so that no rounding goes past the proof (at
      // large times an ulp of s can exceed a short step's last digits).
      double next = s + step;
      if (next - s > step) next = std::nextafter(next, s);
      if (step < options_.time_tolerance) {
        // Near contact the steps shrink geometrically (the bound's speed exceeds the rate the
        // distance falls). A sample a tolerance ahead that collides puts the first contact in
        // (s, s + tolerance]: t_hit = s is within the tolerance of it and never later.
        const double probe_t = std::min(s + options_.time_tolerance, b);
        ++steps;
        const Sample ahead = sample(i, probe_t, {}, worker, &mask);
        record(probe_t, ahead);
        if (ahead.hit >= 0) return hit(ahead, s, probe_t);
        // Steps at the resolution of the distance's rounding bound: the objects are within it.
        if (step < options_.time_tolerance * 1e-6 || next == s) {
          return within_rounding(i, mask, s, b, speeds, errors, worker, record, steps);
        }
      }
      s = next;
    }
  }

  // Object i is within the distance's rounding bound e of its clearance to something at time s
  // (or within what it moves in an ulp of the time, at large times; e below includes that), so
  // advancement cannot step, and the sample at s + tolerance did not touch. A slow approach
  // (the distance falling far slower than the speed bound) spends longer than the tolerance within
  // e before touching: samples at s + 2, 4, 8, ... tolerances follow the items that stay within e
  // at every one of them, and a contact with one of those gives t_hit = s: never later than the
  // first contact, and the time between spent within e (2^-38 of the pair's size and offset).
  // Anything else is undecided, for no proof covers it: every item farther than e at a sample
  // (the objects grazed and parted), a contact with an item that was not within e all along (it
  // may have been touched anywhere since s: a part resting 1e-12 above a table while its arm
  // swings into a post), running out of the stretch or of steps.
  template <typename Record>
  Outcome within_rounding(std::uint32_t i, const std::vector<char>& mask, double s, double b,
                          const std::vector<double>& speeds, const std::vector<double>& errors,
                          Worker<K>& worker, Record& record, std::uint64_t& steps) {
    const std::vector<Other>& others = others_[i];
    const Outcome undecided{SegmentStatus::undecided, s, -1, {}};
    // Within what advancement can resolve at the last sample: e, and what the pair moves in two
    // ulps of the time (at large times steps below an ulp do not advance).
    auto near = [&](std::size_t k, double at) {
      const double two_ulps = 2 * (std::nextafter(at, kInf) - at);
      return mask[k] &&
             worker.distances[k] - others[k].clearance <= errors[k] + speeds[k] * two_ulps;
    };
    // The items within e at every sample so far, from the one at s + tolerance on.
    std::vector<char> followed(others.size());
    const double first = std::min(s + options_.time_tolerance, b);
    for (std::size_t k = 0; k < others.size(); ++k) followed[k] = near(k, first);
    for (double h = 2 * options_.time_tolerance;; h *= 2) {
      if (cancelled() || steps >= options_.max_steps) return undecided;
      const double at = std::min(s + h, b);
      ++steps;
      const Sample probe = sample(i, at, {}, worker, &mask);
      record(at, probe);
      if (probe.hit >= 0) {
        if (!followed[static_cast<std::size_t>(probe.hit)]) return undecided;
        return Outcome{SegmentStatus::collides, s, probe.hit, probe.hit_pair, at};
      }
      bool within = false;
      for (std::size_t k = 0; k < others.size(); ++k) {
        followed[k] = followed[k] && near(k, at);
        within = within || followed[k];
      }
      if (!within || at >= b) return undecided;
    }
  }

  // The continuous check of segment [t0, t1] of object i (see path_check.hpp): piece by piece
  // (cut where another checked object changes segment), pure translations by sweeps, the rest by
  // conservative advancement; the earliest finding ends the segment.
  SegmentReport continuous_segment(std::uint32_t i, std::uint32_t segment, Worker<K>& worker,
                                   std::vector<PathSample>& samples) {
    const auto start = Clock::now();
    const std::vector<Waypoint>& path = *paths_[i];
    const std::vector<Other>& others = others_[i];
    SegmentReport r;
    r.object = scene_.objects[i].name;
    r.t0 = path[segment].t;
    r.t1 = path[segment + 1].t;
    std::vector<double> cuts{r.t0, r.t1};
    for (const Other& x : others) {
      if (!x.is_object) continue;
      for (const Waypoint& w : *paths_[x.index]) {
        if (w.t > r.t0 && w.t < r.t1) cuts.push_back(w.t);
      }
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());

    Least least;
    std::uint64_t bisection_steps = 0;  // reported in r.steps, not spent from max_steps
    std::vector<double> speeds(others.size()), errors(others.size());
    std::vector<char> by_advancement(others.size());
    auto finish = [&](const Outcome& o) {
      r.status = o.status;
      r.t_hit = o.t;
      if (o.status == SegmentStatus::collides && o.with >= 0) {
        r.with = name_of(others[static_cast<std::size_t>(o.with)]);
        r.pair = TrianglePair{o.pair.object_triangle, o.pair.env_triangle};
        if (others[static_cast<std::size_t>(o.with)].clearance == 0) least = {0, o.proved, o.with};
      }
      if (std::isfinite(least.distance)) {
        r.min_distance = least.distance;
        r.min_distance_t = least.t;
        r.min_distance_with = name_of(others[static_cast<std::size_t>(least.with)]);
      }
      r.time_us = micros_since(start);
      r.steps += bisection_steps;
      return r;
    };
    for (std::size_t p = 0; p + 1 < cuts.size(); ++p) {
      const double p0 = cuts[p], p1 = cuts[p + 1];
      const double own = speed_at(i, p0, p1);
      const bool own_translates = translates(i, p0, p1);
      Outcome swept;  // the earliest contact of the translating pairs
      bool any_advancement = false;
      for (std::size_t k = 0; k < others.size(); ++k) {
        const Other& x = others[k];
        speeds[k] = own + (x.is_object ? speed_at(x.index, p0, p1) : 0.0);
        // Rounding bounds at the piece's ends are within a factor of its middle's; the larger.
        errors[k] = 2 * std::max(distance_error(i, x, p0), distance_error(i, x, p1));
        const bool translation =
            own_translates && (!x.is_object || translates(x.index, p0, p1)) && speeds[k] > 0;
        by_advancement[k] = !translation;
        any_advancement = any_advancement || !translation;
        if (!translation) continue;
        const double until = swept.status == SegmentStatus::free ? p1 : swept.t;
        if (!(until > p0)) {
          // Another pair already meets at p0, where the segment stops; this one's distance
          // there still counts towards its least (a part within the clearance of a table at p0
          // may be nearer a wall).
          nearest_to(i, k, p0, least, worker);
          continue;
        }
        const Outcome o = first_sweep_contact(i, k, p0, until, errors[k], worker, r.steps,
                                              bisection_steps, least);
        if (o.status != SegmentStatus::free &&
            (swept.status == SegmentStatus::free || o.t < swept.t)) {
          swept = o;
        }
      }
      // Advancement needs to go only as far as the translating pairs' first contact.
      Outcome advanced;
      if (any_advancement) {
        const double until = swept.status == SegmentStatus::free ? p1 : swept.t;
        advanced = advance(i, by_advancement, p0, std::max(until, p0), speeds, errors, worker,
                           samples, r.steps, least);
      }
      if (advanced.status != SegmentStatus::free &&
          (swept.status == SegmentStatus::free || advanced.t <= swept.t)) {
        return finish(advanced);
      }
      if (swept.status != SegmentStatus::free) return finish(swept);
    }
    return finish(Outcome{});
  }

  // Discrete mode: a segment collides at its first sample (ends included) that collides.
  void discrete_segments(PathReport& report, const std::vector<std::string>& nearest) const {
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
        for (std::size_t k = first; k < w; ++k) {
          const WaypointReport& x = report.waypoints[k];
          if (x.t < r.t0 || x.t > r.t1) continue;
          ++r.steps;
          r.time_us += x.time_us;
          if (!std::isnan(x.min_distance) &&
              (std::isnan(r.min_distance) || x.min_distance < r.min_distance)) {
            r.min_distance = x.min_distance;
            r.min_distance_t = x.t;
            r.min_distance_with = nearest[k];
          }
          if (x.collides && r.status != SegmentStatus::collides) {
            r.status = SegmentStatus::collides;
            r.t_hit = x.t;
            r.with = x.with;
            r.pair = x.pair;
          }
        }
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
    // Least over the segments (continuous: between the waypoints too) and the waypoints; the
    // earliest of equal distances.
    auto note_distance = [&](double d, double t, const std::string& object,
                             const std::string& with) {
      if (std::isnan(d)) return;
      if (!std::isnan(s.worst_clearance) &&
          (d > s.worst_clearance || (d == s.worst_clearance && !(t < s.worst_clearance_t)))) {
        return;
      }
      s.worst_clearance = d;
      s.worst_clearance_t = t;
      s.worst_clearance_object = object;
      s.worst_clearance_with = with;
    };
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
      note_distance(r.min_distance, r.min_distance_t, r.object, r.min_distance_with);
    }
    s.waypoints = report.waypoints.size();
    for (std::size_t k = 0; k < report.waypoints.size(); ++k) {
      const WaypointReport& w = report.waypoints[k];
      if (w.collides) {
        ++s.colliding_waypoints;
        note_collision(w.t, w.object, w.with);
      }
      note_distance(w.min_distance, w.t, w.object, nearest[k]);
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
                                            "(kdop6, dop8, kdop14, kdop18, kdop26, kdop32), not ") +
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
