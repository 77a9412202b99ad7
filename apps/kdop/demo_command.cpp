// kdop demo: the k-DOP paper's "Torus" flight (Klosowski et al. 1998, section 5.2): a deformed
// torus of 20,000 triangles flies a random billiard path among 100,000 triangles of
// stalagmites; on a collision the motion is reversed.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

#include "apps/kdop/cli_common.hpp"
#include "apps/kdop/commands.hpp"
#include "apps/kdop/pair_config.hpp"
#include "engine/collision_pair.hpp"
#include "geometry/shapes.hpp"
#include "io/file_extension.hpp"
#include "io/mesh_writer.hpp"

namespace kdop::cli {

CLI::App* add_demo_command(CLI::App& app, DemoArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "demo",
      "Built-in scene like the paper's Torus flight: a deformed torus (20,000 triangles) on a "
      "billiard path among stalagmites (100,000 triangles). Prints a table of the flight. Exit "
      "0 when the flight ran (contacts are expected), 2 for bad options, 130 if interrupted.");
  cmd->add_option("--steps", args.steps, "Number of steps")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000000));
  cmd->add_option("--seed", args.seed, "Seed of the scene and the path")
      ->capture_default_str()
      ->check(whole_number_u64());
  cmd->add_option("--mode", args.mode,
                  "Query mode per step: first (first contact) or all (every pair)")
      ->capture_default_str();
  add_build_options(*cmd, args.build, OptionSet::generated_pair);
  cmd->add_flag("--json", args.json, "Print the final table as one JSON object");
  cmd->add_option("--out,-o", args.out, "Write the final table to this file instead of stdout")
      ->check(non_empty());
  cmd->add_subcommand("nc",
                      "Built-in NC job: a part with a pocket, a clamp and a jaw, a 10 mm end mill "
                      "and a program with one rapid into the stock, one gouge and one holder "
                      "collision; prints the findings (kdop nc). Exit 1: findings (expected).")
      ->callback([&args] { args.nc = true; });
  return cmd;
}

namespace {

// The NC demo's files, written to a temporary folder: a 100 x 60 x 20 stock whose top is machine
// z = -200 (G54 puts program zero there), the finished part 5 below it with a 40 x 20 pocket
// 12 deep (walls with a 0.01 draft: a height field block), a clamp and a tall jaw behind it.
int run_demo_nc() {
  namespace fs = std::filesystem;
  // A new folder of our own (mkdtemp: a name nobody can have planted, mode 0700), not a
  // predictable one that may already exist as someone's link.
  // (A missing or unusable TMPDIR is the environment's problem, not an internal error: exit 2.)
  fs::path temp;
  try {
    temp = fs::temp_directory_path();
  } catch (const fs::filesystem_error& e) {
    const char* tmpdir = std::getenv("TMPDIR");
    throw InputError(std::string("demo nc: no folder for temporary files (TMPDIR=") +
                     (tmpdir != nullptr ? tmpdir : "") + "): " + e.code().message());
  }
  std::string pattern = (temp / "kdop-demo-nc-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw InputError("demo nc: cannot make a temporary folder like " + pattern + " (" +
                     std::strerror(errno) + ")");
  }
  const fs::path dir = pattern;
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } cleanup{dir};
  const std::vector<double> xs{5, 30, 30.01, 69.99, 70, 95}, ys{5, 20, 20.01, 39.99, 40, 55};
  std::vector<double> heights;
  for (const double y : ys) {
    for (const double x : xs) {
      const bool pocket = x > 30 && x < 70 && y > 20 && y < 40;
      heights.push_back(pocket ? -212.0 : -205.0);
    }
  }
  write_file_atomic((dir / "part.obj").string(),
                    format_obj(make_heightfield_block(xs, ys, -220, heights)));
  write_file_atomic((dir / "setup.json").string(), R"({
  "stock": {"box": [0, 0, -220, 100, 60, -200]},
  "part": {"mesh": "part.obj"},
  "fixtures": [{"name": "clamp", "box": [-10, 25, -200, 10, 35, -192]},
               {"name": "jaw", "box": [0, 62, -220, 100, 70, -135]}],
  "tolerance": 0.01, "tools": "tools.json", "work_offsets": {"G54": [0, 0, -200]}
})");
  write_file_atomic((dir / "tools.json").string(), R"({"units": "mm", "tools": {"1": {
  "name": "10 mm flat end mill", "shape": "flat", "diameter": 10, "cutting_length": 22,
  "shank_diameter": 10, "length": 60, "holder": [
    {"height": 15, "lower_diameter": 24, "upper_diameter": 24},
    {"height": 25, "lower_diameter": 32, "upper_diameter": 44}]}}})");
  write_file_atomic((dir / "demo.nc").string(), R"(%
(kdop demo nc: face the top to Z-2, rough the pocket to Z-12, with three mistakes)
N10 G21 G90 G17 G54
N20 T1 M6
N30 G43 H1
N40 G0 X15 Y15 Z30
N50 G0 Z2
N60 G1 Z-2 F300
N70 G1 X85 F800
N80 G1 Y45
N90 G1 X15
N100 G0 Z30
(mistake: a rapid down into the stock the facing pass did not reach)
N110 G0 X90 Y8
N120 G0 Z-1
N130 G0 Z30
(the pocket: plunge in its middle and clear it at Z-12, 0.5 from its walls)
N140 G0 X50 Y30
N150 G0 Z1
N160 G1 Z-12 F200
N170 G1 X35.5 Y25.5 F600
N180 G1 X64.5
N190 G1 Y34.5
N200 G1 X35.5
N210 G1 Y25.5
(mistake: a finishing plunge 0.5 below the pocket's floor)
N220 G1 X50 Y30 Z-12.5
N230 G0 Z30
(mistake: a pass along the back edge runs the holder into the jaw)
N240 G0 X20 Y52
N250 G1 Z-2 F300
N260 G1 X80 F800
N270 G0 Z30
N280 M30
%
)");
  std::cout << "kdop demo nc: the job is kdop nc --setup setup.json --program demo.nc (files in "
            << dir.string() << " while it runs)\n\n";
  NcArgs nc;
  nc.setup = (dir / "setup.json").string();
  nc.program = (dir / "demo.nc").string();
  return run_nc(nc);
}

struct Flight {
  Vec3 position, velocity;   // per step
  double angle[3], spin[3];  // Euler-like angles and their change per step
};

Pose flight_pose(const Flight& f) {
  // Compose rotations about x, y, z as a quaternion product.
  const double hx = f.angle[0] / 2, hy = f.angle[1] / 2, hz = f.angle[2] / 2;
  const double qx[4] = {std::cos(hx), std::sin(hx), 0, 0};
  const double qy[4] = {std::cos(hy), 0, std::sin(hy), 0};
  const double qz[4] = {std::cos(hz), 0, 0, std::sin(hz)};
  auto mul = [](const double* a, const double* b, double* o) {
    o[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    o[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    o[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    o[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  };
  double t[4], q[4];
  mul(qz, qy, t);
  mul(t, qx, q);
  return pose_from_quaternion(f.position.x, f.position.y, f.position.z, q[0], q[1], q[2], q[3]);
}

}  // namespace

int run_demo(const DemoArgs& args) {
  if (args.nc) return run_demo_nc();
  check_outputs({}, {{"--out", args.out}});
  const PairConfig config = make_pair_config(args.build);
  if (args.mode != "first" && args.mode != "all") {
    throw InputError("--mode: expected first or all, got '" + args.mode + "'");
  }
  const QueryMode mode = args.mode == "all" ? QueryMode::all_contacts : QueryMode::first_contact;
  using Clock = std::chrono::steady_clock;

  // The room: 100 x 100 x 30 with 1,250 cones of 40 sides (80 triangles each).
  const Vec3 room_lo{0, 0, 0}, room_hi{100, 100, 30};
  const Mesh env = make_stalagmites(room_lo, room_hi, 1250, 40, args.seed);
  const Mesh torus = make_torus({0, 0, 0}, 3.0, 1.0, 200, 50, 0.15);
  // The built-in scene is held to --max-memory like a mesh from a file.
  const MemoryBudget budget = memory_budget(args.build.max_memory);
  // (Counted at a moving object's need per triangle, the larger of the two.)
  check_build_fits("demo scene", std::uint64_t{env.triangle_count()} + torus.triangle_count(),
                   budget, kObjectBytesPerTriangle);
  std::cerr << "demo: environment " << env.triangle_count() << " triangles (stalagmites), object "
            << torus.triangle_count() << " triangles (deformed torus), " << to_string(config.bv)
            << "\n";
  const auto b0 = Clock::now();
  CollisionPair pair(env, torus, config);
  const double build_ms = std::chrono::duration<double, std::milli>(Clock::now() - b0).count();
  std::cerr << "demo: hierarchies built in " << build_ms << " ms\n";

  std::uint64_t rng = args.seed * 0x9E3779B97F4A7C15ull + 7;
  auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * next_uniform(rng); };
  Flight f{{50, 50, 15},
           {uniform(-1, 1), uniform(-1, 1), uniform(-0.3, 0.3)},
           {0, 0, 0},
           {uniform(-0.05, 0.05), uniform(-0.05, 0.05), uniform(-0.05, 0.05)}};
  const double speed = 0.4;
  const double n = std::sqrt(f.velocity.x * f.velocity.x + f.velocity.y * f.velocity.y +
                             f.velocity.z * f.velocity.z);
  f.velocity = (speed / n) * f.velocity;
  // Start from a free pose, so reversing on contact always has a free pose to return to.
  for (int attempt = 0;
       attempt < 1000 && pair.query(flight_pose(f), QueryMode::first_contact).collides; ++attempt) {
    f.position = Vec3{uniform(10, 90), uniform(10, 90), uniform(8, 22)};
  }

  std::uint64_t colliding = 0, contacts = 0, sum_v = 0, sum_p = 0, sum_u = 0;
  double sum_ms = 0, max_ms = 0;
  const int report_every = std::max(1, args.steps / 10);
  for (int step = 0; step < args.steps; ++step) {
    if (interrupted()) {
      std::cerr << "demo: interrupted at step " << step << "\n";
      return kExitInterrupted;
    }
    Flight next = f;
    next.position = f.position + f.velocity;
    for (int a = 0; a < 3; ++a) next.angle[a] += f.spin[a];
    // The walls of the room reflect the path, so the torus stays among the obstacles.
    const double margin = 4.5;
    if (next.position.x < room_lo.x + margin || next.position.x > room_hi.x - margin)
      f.velocity.x = -f.velocity.x;
    if (next.position.y < room_lo.y + margin || next.position.y > room_hi.y - margin)
      f.velocity.y = -f.velocity.y;
    if (next.position.z < room_lo.z + margin || next.position.z > room_hi.z - margin)
      f.velocity.z = -f.velocity.z;

    const auto q0 = Clock::now();
    const QueryResult r = pair.query(flight_pose(next), mode);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - q0).count();
    sum_ms += ms;
    max_ms = std::max(max_ms, ms);
    sum_v += r.stats.n_v;
    sum_p += r.stats.n_p;
    sum_u += r.stats.n_u;
    if (r.collides) {
      // Billiard path: reverse the motion and stay at the last free pose.
      ++colliding;
      contacts += r.pairs.size();
      f.velocity = -1.0 * f.velocity;
      for (double& s : f.spin) s = -s;
    } else {
      f.position = next.position;
      std::copy(next.angle, next.angle + 3, f.angle);
    }
    if ((step + 1) % report_every == 0) {
      std::fprintf(stderr, "demo: step %d/%d, colliding steps %llu, mean query %.3f ms\n", step + 1,
                   args.steps, static_cast<unsigned long long>(colliding), sum_ms / (step + 1));
    }
  }

  const double steps = args.steps;
  std::ostringstream out;
  if (wants_json(args.json, args.out)) {
    nlohmann::json j = {
        {"steps", args.steps},
        {"colliding_steps", colliding},
        {"contacts", contacts},
        {"mode", args.mode},
        {"bv", to_string(config.bv)},
        {"env_triangles", env.triangle_count()},
        {"object_triangles", torus.triangle_count()},
        {"build_ms", build_ms},
        {"query_ms", {{"mean", sum_ms / steps}, {"max", max_ms}}},
        {"mean_stats", {{"n_v", sum_v / steps}, {"n_p", sum_p / steps}, {"n_u", sum_u / steps}}}};
    out << j.dump() << "\n";
  } else {
    char line[256];
    out << "kdop demo: deformed torus (" << torus.triangle_count()
        << " triangles) among stalagmites (" << env.triangle_count() << " triangles), "
        << to_string(config.bv) << ", mode " << args.mode << "\n";
    auto row = [&](const char* name, const std::string& value) {
      std::snprintf(line, sizeof line, "  %-22s %s\n", name, value.c_str());
      out << line;
    };
    auto num = [](double v, int digits) {
      char b[64];
      std::snprintf(b, sizeof b, "%.*f", digits, v);
      return std::string(b);
    };
    row("steps", std::to_string(args.steps));
    row("colliding steps", std::to_string(colliding));
    row(mode == QueryMode::all_contacts ? "contacts (pairs)" : "contacts (witnesses)",
        std::to_string(contacts));
    row("build time (ms)", num(build_ms, 1));
    row("mean query time (ms)", num(sum_ms / steps, 4));
    row("max query time (ms)", num(max_ms, 4));
    row("mean N_v", num(sum_v / steps, 1));
    row("mean N_p", num(sum_p / steps, 1));
    row("mean N_u", num(sum_u / steps, 1));
  }
  emit(out.str(), args.out);
  return kExitClear;
}

}  // namespace kdop::cli
