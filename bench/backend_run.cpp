#include "bench/backend_run.hpp"

#include <algorithm>
#include <chrono>

#include "engine/parallel.hpp"
#include "engine/pose_clock.hpp"

namespace kdop::bench {
namespace {

using Clock = std::chrono::steady_clock;

RunTiming timing_of(std::vector<double>& times_us, double wall_s) {
  RunTiming t;
  if (times_us.empty()) return t;
  double sum = 0;
  for (double v : times_us) sum += v;
  t.mean_us = sum / static_cast<double>(times_us.size());
  t.max_us = *std::max_element(times_us.begin(), times_us.end());
  std::nth_element(times_us.begin(),
                   times_us.begin() + static_cast<std::ptrdiff_t>(times_us.size() / 2),
                   times_us.end());
  t.median_us = times_us[times_us.size() / 2];
  t.poses_per_s = static_cast<double>(times_us.size()) / std::max(wall_s, 1e-12);
  return t;
}

// kdop: the batch engine, one instance per thread count (hierarchies built per instance, which
// the build time of the single-thread one reports).
class KdopBackend : public Backend {
 public:
  KdopBackend(const GeneratedScene& scene, BvType bv, const BatchConfig& base, unsigned max_threads,
              std::string suffix)
      : bv_(bv), base_(base), max_threads_(max_threads), suffix_(std::move(suffix)) {
    const auto t0 = Clock::now();
    single_ = make(scene, 1, QueryMode::first_contact);
    build_ms_ = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }
  std::string name() const override { return std::string("kdop-") + to_string(bv_) + suffix_; }
  double build_ms() const override { return build_ms_; }
  std::size_t model_bytes() const override {
    return single_->environment_bytes() + single_->object_bytes();
  }

  RunTiming run(const GeneratedScene& scene, std::size_t count, QueryMode mode, unsigned threads,
                std::vector<PoseAnswer>* answers, RunCounters* counters) override {
    std::unique_ptr<BatchQuery>& batch = threads == 1 ? single_ : parallel_;
    if (!batch || batch->config().mode != mode || batch->threads() != threads) {
      batch = make(scene, threads, mode);
    }
    tasks_.resize(count);
    for (std::size_t i = 0; i < count; ++i) tasks_[i] = {0, scene.poses[i]};
    const auto t0 = Clock::now();
    batch->run(tasks_, out_);
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    std::vector<double> times(count);
    RunCounters c;
    for (std::size_t i = 0; i < count; ++i) {
      const PoseResult& r = out_.results[i];
      times[i] = r.time_us;
      c.n_v += static_cast<double>(r.stats.n_v);
      c.n_p += static_cast<double>(r.stats.n_p);
      c.n_u += static_cast<double>(r.stats.n_u);
    }
    if (counters != nullptr) {
      *counters = {c.n_v / static_cast<double>(count), c.n_p / static_cast<double>(count),
                   c.n_u / static_cast<double>(count)};
    }
    if (answers != nullptr) {
      answers->assign(count, {});
      for (std::size_t i = 0; i < count; ++i) {
        const PoseResult& r = out_.results[i];
        PoseAnswer& a = (*answers)[i];
        a.collides = r.collides;
        a.contacts = r.contacts;
        if (r.has_witness) a.pairs.push_back(r.witness);
        const auto first = out_.pairs.begin() + static_cast<std::ptrdiff_t>(r.pairs_begin);
        a.pairs.insert(a.pairs.end(), first, first + static_cast<std::ptrdiff_t>(r.pairs_count));
      }
    }
    RunTiming t = timing_of(times, wall);
    return t;
  }

 private:
  std::unique_ptr<BatchQuery> make(const GeneratedScene& scene, unsigned threads,
                                   QueryMode mode) const {
    BatchConfig c = base_;
    c.bv = bv_;
    c.mode = mode;
    c.threads = threads;
    return std::make_unique<BatchQuery>(scene.environment, std::vector<const Mesh*>{&scene.object},
                                        c);
  }

  BvType bv_;
  BatchConfig base_;
  unsigned max_threads_;
  std::string suffix_;  // "@exact" and the like: the entry's own root method (kdop-bench)
  double build_ms_ = 0;
  std::unique_ptr<BatchQuery> single_, parallel_;
  std::vector<PoseTask> tasks_;
  BatchOutput out_;
};

// FCL: one FclPeer per thread (FCL's rebuilding types are not thread-safe, and each thread
// owning its models is fair to all of them).
class FclBackend : public Backend {
 public:
  FclBackend(const GeneratedScene& scene, FclBv bv, unsigned max_threads) : bv_(bv) {
    for (unsigned t = 0; t < std::max(1u, max_threads); ++t)
      peers_.emplace_back(scene.environment, scene.object, bv);
  }
  std::string name() const override { return to_string(bv_); }
  double build_ms() const override { return peers_[0].build_ms(); }
  std::size_t model_bytes() const override { return peers_[0].model_bytes(); }

  RunTiming run(const GeneratedScene& scene, std::size_t count, QueryMode mode, unsigned threads,
                std::vector<PoseAnswer>* answers, RunCounters* counters) override {
    std::vector<double> times(count);
    std::vector<FclQueryResult> results(count);
    // Poses [first, last) on one peer, one reading of kdop's pose clock per pose, as kdop's
    // batch times its poses (engine/batch_query.cpp).
    const PoseClock& clock = pose_clock();
    auto query_poses = [&](FclPeer& peer, std::size_t first, std::size_t last) {
      std::uint64_t q0 = clock.ticks();
      for (std::size_t i = first; i < last; ++i) {
        results[i] = peer.query(scene.poses[i], mode);
        const std::uint64_t q1 = clock.ticks();
        times[i] = clock.us_between(q0, q1);
        q0 = q1;
      }
    };
    if (threads <= 1) {
      const auto t0 = Clock::now();
      query_poses(peers_[0], 0, count);
      const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
      fill(results, mode, answers, counters);
      return timing_of(times, wall);
    }
    ParallelRunner runner(std::min<unsigned>(threads, static_cast<unsigned>(peers_.size())));
    constexpr std::size_t block = 8;
    auto body = [&](std::size_t b) {
      query_poses(peers_[runner.worker_id()], b * block, std::min(count, (b + 1) * block));
    };
    const auto t0 = Clock::now();
    runner.for_each_index((count + block - 1) / block, body);
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    fill(results, mode, answers, counters);
    return timing_of(times, wall);
  }

 private:
  static void fill(const std::vector<FclQueryResult>& results, QueryMode mode,
                   std::vector<PoseAnswer>* answers, RunCounters* counters) {
    const std::size_t n = results.size();
    if (counters != nullptr) {
      RunCounters c;
      for (const FclQueryResult& r : results) {
        c.n_v += static_cast<double>(r.bv_tests);
        c.n_p += static_cast<double>(r.leaf_tests);
      }
      *counters = {c.n_v / static_cast<double>(n), c.n_p / static_cast<double>(n), 0};
    }
    if (answers == nullptr) return;
    answers->assign(n, {});
    for (std::size_t i = 0; i < n; ++i) {
      PoseAnswer& a = (*answers)[i];
      a.collides = results[i].collides;
      a.contacts = results[i].contacts;
      a.pairs = results[i].pairs;
      if (mode == QueryMode::all_contacts) std::sort(a.pairs.begin(), a.pairs.end());
    }
  }

  FclBv bv_;
  std::vector<FclPeer> peers_;
};

}  // namespace

std::unique_ptr<Backend> make_kdop_backend(const GeneratedScene& scene, BvType bv,
                                           const BatchConfig& base, unsigned max_threads,
                                           std::string suffix) {
  return std::make_unique<KdopBackend>(scene, bv, base, max_threads, std::move(suffix));
}

std::unique_ptr<Backend> make_fcl_backend(const GeneratedScene& scene, FclBv bv,
                                          unsigned max_threads) {
  return std::make_unique<FclBackend>(scene, bv, max_threads);
}

}  // namespace kdop::bench
