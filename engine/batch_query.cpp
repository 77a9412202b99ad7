#include "engine/batch_query.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "engine/bv_traits.hpp"
#include "engine/parallel.hpp"
#include "engine/pose_clock.hpp"
#include "engine/proximity_query.hpp"

namespace kdop {
namespace {

// Distance queries (BatchConfig::clearance) run on k-DOP hierarchies only.
template <class Bv>
struct ProximityState {};
template <int K>
struct ProximityState<DopBv<K>> {
  std::vector<ProximityScratch<K>> scratch;  // one per object
  ProximityResult result;
};

template <class Bv>
struct Worker {
  std::vector<typename BvTraits<Bv>::Scratch> scratch;  // one per object
  QueryResult result;
  std::vector<ContactPair> pairs;  // all_contacts: this run's pairs found by this worker
  ProximityState<Bv> proximity;
};

// A pose's clearance answer: the least distance, and the pairs within the clearance as `mode`
// asks (the nearest as the witness in first_contact mode). Whether a pair is within is exact:
// when the least double distance is within its rounding bound of the clearance, pairs_within
// decides the pairs that close by their exact distances (geometry/exact_distance.hpp).
template <int K>
void clearance_pose(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose,
                    double clearance, QueryMode mode, ProximityState<DopBv<K>>& p,
                    std::uint32_t object, QueryResult& out, double& min_distance) {
  ProximityResult& r = p.result;
  nearest_pair<K>(env, fly, pose, std::numeric_limits<double>::infinity(), p.scratch[object], r);
  min_distance = r.distance;
  out.pairs.clear();
  out.stats = r.stats;
  const bool decided = clearance == 0 || std::fabs(r.distance - clearance) > r.error_bound;
  out.collides = clearance > 0 ? r.distance <= clearance : r.intersecting;
  out.contacts = out.collides ? 1 : 0;
  if (decided && !out.collides) return;
  if (decided && mode == QueryMode::first_contact) {
    out.pairs.push_back(r.nearest);
    return;
  }
  const double nearest = r.distance;
  pairs_within<K>(env, fly, pose, clearance, p.scratch[object], r);
  out.stats.n_v += r.stats.n_v;
  out.stats.n_p += r.stats.n_p;
  out.stats.n_u += r.stats.n_u;
  out.collides = !r.pairs.empty();
  if (!decided) {
    // The least distance agrees with the exact decision: the least of the pairs within (exact
    // where it mattered) when some pair is, else the least exact distance of the pairs
    // pairs_within decided beyond the clearance. The nearest pair is among those unless its true
    // distance is beyond the traversal's threshold (clearance plus the rounding bound), and then
    // its double distance is above the clearance too.
    min_distance = out.collides                    ? r.distance
                   : std::isfinite(r.least_beyond) ? r.least_beyond
                                                   : nearest;
  }
  if (mode == QueryMode::first_contact) {
    out.contacts = out.collides ? 1 : 0;
    if (out.collides) out.pairs.push_back(r.nearest);
    return;
  }
  out.contacts = r.pairs.size();
  if (mode == QueryMode::all_contacts) out.pairs = r.pairs;
}

template <class Bv>
struct Batch {
  typename BvTraits<Bv>::Environment env;
  std::vector<typename BvTraits<Bv>::Object> objects;
  typename BvTraits<Bv>::QueryFn query;
  std::vector<Worker<Bv>> workers;
};

template <class Environment>
Batch<typename Environment::Bv> make_batch(Environment&& environment,
                                           std::vector<ObjectHierarchy>& objects, simd::Isa isa,
                                           unsigned threads) {
  using Bv = typename Environment::Bv;
  using Traits = BvTraits<Bv>;
  Batch<Bv> b{std::move(environment), {}, Traits::query_for(isa), {}};
  for (ObjectHierarchy& o : objects) {
    b.objects.push_back(take_object<typename Traits::Object>(
        o, "object " + std::to_string(b.objects.size()) + "'s"));
  }
  // Every worker's scratch is sized here, once, whichever workers a run ends up using.
  b.workers.resize(threads);
  for (Worker<Bv>& w : b.workers) {
    if constexpr (is_dop_tag<Bv>) w.proximity.scratch.resize(objects.size());
    w.scratch.resize(objects.size());
    for (std::size_t o = 0; o < objects.size(); ++o) w.scratch[o].prepare(b.env, b.objects[o]);
    w.result.pairs.reserve(64);
  }
  return b;
}

void check_arguments(std::size_t objects, const BatchConfig& c) {
  if (objects == 0) throw std::invalid_argument("a batch needs at least one object");
  if (c.block_size == 0) throw std::invalid_argument("block size must be at least 1");
}

std::vector<ObjectHierarchy> build_objects(const std::vector<const Mesh*>& objects,
                                           const BatchConfig& c) {
  std::vector<ObjectHierarchy> out;
  for (const Mesh* m : objects) out.push_back(build_object_hierarchy(*m, c.bv, c.object));
  return out;
}

}  // namespace

struct BatchQuery::Impl {
  BatchConfig config;
  simd::Isa isa;
  ParallelRunner runner;
  std::variant<Batch<DopBv<6>>, Batch<DopBv<8>>, Batch<DopBv<14>>, Batch<DopBv<18>>,
               Batch<DopBv<26>>, Batch<DopBv<32>>, Batch<ObbBv>, Batch<RssBv>>
      batch;
  std::vector<std::uint32_t> pose_worker;  // all_contacts: which worker holds a pose's pairs
  std::mutex progress_mutex;

  Impl(EnvironmentHierarchy& environment, std::vector<ObjectHierarchy>& objects,
       const BatchConfig& c)
      : config(c),
        isa(simd::resolve_isa(c.isa)),
        runner(c.threads),
        batch(std::visit(
            [&](auto& env) -> decltype(batch) {
              return make_batch(std::move(env), objects, isa, runner.threads());
            },
            environment)) {
    config.bv = bv_type(environment);
    if (c.clearance &&
        (!is_dop(config.bv) || !(*c.clearance >= 0) || !std::isfinite(*c.clearance))) {
      throw std::invalid_argument(
          is_dop(config.bv) ? "clearance must be a finite number >= 0"
                            : std::string("clearance queries need a k-DOP hierarchy, not ") +
                                  to_string(config.bv));
    }
  }

  template <class Bv>
  bool run(Batch<Bv>& b, std::span<const PoseTask> poses, BatchOutput& out,
           const RunControl& control);
};

template <class Bv>
bool BatchQuery::Impl::run(Batch<Bv>& b, std::span<const PoseTask> poses, BatchOutput& out,
                           const RunControl& control) {
  const PoseClock clock = pose_clock();
  const QueryMode mode = config.mode;
  const QueryOptions options{config.mode,      config.tumble,          config.descent,
                             config.hot_start, config.split_threshold, runner.threads() > 1,
                             config.plates,    config.boxes,           config.root};
  const std::size_t n = poses.size();
  for (const PoseTask& p : poses) {
    if (p.object >= b.objects.size()) {
      throw std::out_of_range("pose refers to object " + std::to_string(p.object) +
                              " but the batch has " + std::to_string(b.objects.size()));
    }
  }
  out.results.resize(n);
  out.pairs.clear();
  if (mode == QueryMode::all_contacts) {
    pose_worker.resize(n);
    for (Worker<Bv>& w : b.workers) w.pairs.clear();
  }
  // At least 32 blocks where a block keeps 8 poses: a chain that short still lets the hot start
  // and the previous witness pay (a run of 60 poses: blocks of 8). Runs under 256 poses use fewer
  // cores; they take microseconds.
  const std::size_t block =
      std::min<std::size_t>(config.block_size, std::max<std::size_t>(8, n / 32));
  const std::size_t blocks = (n + block - 1) / block;
  std::uint64_t done = 0;  // poses finished, under progress_mutex (counted with a callback only)
  std::atomic<bool> stopped{false};

  auto run_block = [&](std::size_t index) {
    if (control.cancel != nullptr && control.cancel->load(std::memory_order_relaxed)) {
      stopped.store(true, std::memory_order_relaxed);
      return;
    }
    const unsigned w = runner.worker_id();
    Worker<Bv>& worker = b.workers[w];
    for (auto& s : worker.scratch) s.start_chain();  // a block is one chain
    const std::size_t end = std::min(n, (index + 1) * block);
    // One clock reading per pose (engine/pose_clock.hpp): a pose's time runs from the previous
    // reading to the one after its result is written.
    std::uint64_t t0 = clock.ticks();
    for (std::size_t i = index * block; i < end; ++i) {
      const PoseTask& task = poses[i];
      double min_distance = std::numeric_limits<double>::quiet_NaN();
      bool measured = false;
      if constexpr (is_dop_tag<Bv>) {
        if (config.clearance) {
          clearance_pose<Bv::k>(b.env, b.objects[task.object], task.pose, *config.clearance, mode,
                                worker.proximity, task.object, worker.result, min_distance);
          measured = true;
        }
      }
      if (!measured) {
        b.query(b.env, b.objects[task.object], task.pose, options, worker.scratch[task.object],
                worker.result);
      }
      if (mode == QueryMode::all_contacts) sort_contacts(worker.result.pairs);
      PoseResult& r = out.results[i];
      r.collides = worker.result.collides;
      r.contacts = worker.result.contacts;
      r.stats = worker.result.stats;
      r.min_distance = min_distance;
      r.has_witness = mode == QueryMode::first_contact && worker.result.collides;
      r.witness = r.has_witness ? worker.result.pairs[0] : ContactPair{};
      r.pairs_begin = 0;
      r.pairs_count = 0;
      if (mode == QueryMode::all_contacts) {
        r.pairs_begin = worker.pairs.size();
        r.pairs_count = worker.result.pairs.size();
        worker.pairs.insert(worker.pairs.end(), worker.result.pairs.begin(),
                            worker.result.pairs.end());
        pose_worker[i] = w;
      }
      const std::uint64_t t1 = clock.ticks();
      r.time_us = clock.us_between(t0, t1);
      t0 = t1;
    }
    // Counted under the lock, so the counts reported never go backwards. Without a callback
    // nothing is reported, and short runs (blocks of one pose) skip a lock per pose.
    if (!control.progress) return;
    std::lock_guard<std::mutex> lock(progress_mutex);
    done += end - index * block;
    control.progress(done);
  };
  runner.for_each_index(blocks, run_block);
  if (stopped.load()) return false;

  if (mode == QueryMode::all_contacts) {
    for (std::size_t i = 0; i < n; ++i) {
      PoseResult& r = out.results[i];
      const auto& from = b.workers[pose_worker[i]].pairs;
      const auto first = from.begin() + static_cast<std::ptrdiff_t>(r.pairs_begin);
      r.pairs_begin = out.pairs.size();
      out.pairs.insert(out.pairs.end(), first, first + static_cast<std::ptrdiff_t>(r.pairs_count));
    }
  }
  return true;
}

BatchQuery::BatchQuery(const Mesh& environment, const std::vector<const Mesh*>& objects,
                       const BatchConfig& config) {
  check_arguments(objects.size(), config);
  *this = BatchQuery(build_environment_hierarchy(environment, config.bv, config.environment),
                     build_objects(objects, config), config);
}

BatchQuery::BatchQuery(EnvironmentHierarchy environment, std::vector<ObjectHierarchy> objects,
                       const BatchConfig& config) {
  check_arguments(objects.size(), config);
  impl_ = std::make_unique<Impl>(environment, objects, config);
  pose_clock();  // its rate is measured once per process (about 2 ms): here, not in a run
}

BatchQuery::~BatchQuery() = default;
BatchQuery::BatchQuery(BatchQuery&&) noexcept = default;
BatchQuery& BatchQuery::operator=(BatchQuery&&) noexcept = default;

bool BatchQuery::run(std::span<const PoseTask> poses, BatchOutput& out, const RunControl& control) {
  return std::visit([&](auto& b) { return impl_->run(b, poses, out, control); }, impl_->batch);
}

simd::Isa BatchQuery::isa() const {
  return impl_->isa;
}
unsigned BatchQuery::threads() const {
  return impl_->runner.threads();
}
std::size_t BatchQuery::object_count() const {
  return std::visit([](const auto& b) { return b.objects.size(); }, impl_->batch);
}
const BatchConfig& BatchQuery::config() const {
  return impl_->config;
}
std::size_t BatchQuery::environment_bytes() const {
  return std::visit([](const auto& b) { return memory_bytes(b.env); }, impl_->batch);
}
std::size_t BatchQuery::object_bytes() const {
  return std::visit(
      [](const auto& b) {
        std::size_t bytes = 0;
        for (const auto& o : b.objects) bytes += memory_bytes(o);
        return bytes;
      },
      impl_->batch);
}

}  // namespace kdop
