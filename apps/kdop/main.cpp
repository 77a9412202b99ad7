// kdop: batch collision queries on rigid triangle meshes with k-DOP BV-trees.
// Thin: parse, call, print. Exit codes are in cli_common.hpp.
#include <fcntl.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <iostream>
#include <new>
#include <string>
#include <string_view>

#include "apps/kdop/cli_common.hpp"
#include "apps/kdop/commands.hpp"
#include "io/io_error.hpp"
#include "io/text_scanner.hpp"
#include "simd/isa.hpp"

namespace {

// Commands print their reports through std::cout, whose write errors (a full disk, /dev/full)
// show only when standard output is flushed: checked once, after the command, so a report that
// did not arrive is an error (exit 2), as it is for kdop batch.
int with_stdout_checked(int code) {
  errno = 0;
  kdop::cli::check_stdout();
  return code;
}

// A closed standard descriptor would be taken by the next file opened, and output meant for it
// would land in that file. Each closed one is held by /dev/null, read-only, so writes to a closed
// standard output fail (EBADF) and say so.
void hold_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int held = ::open("/dev/null", O_RDONLY);  // the lowest free descriptor: fd
    if (held >= 0 && held != fd) ::close(held);
  }
}

}  // namespace

int main(int argc, char** argv) {
  hold_standard_descriptors();
  using namespace kdop::cli;
  CLI::App app{
      "kdop: exact collision queries between rigid triangle meshes with k-DOP BV-trees.\n"
      "Try: kdop demo (the paper's torus flight), kdop demo nc (an NC job with three mistakes).\n"
      "Exit codes: 0 nothing found, 1 contact or finding (an undecided path segment, an NC "
      "finding), 2 usage or input error, 3 internal error, "
      "130 interrupted."};
  app.require_subcommand(1);
  app.set_version_flag("--version", [] {
    std::string supported;
    for (kdop::simd::Isa isa : kdop::simd::supported_isas()) {
      supported += std::string(supported.empty() ? "" : " ") + kdop::simd::to_string(isa);
    }
    std::string in_use;
    try {
      in_use = kdop::simd::to_string(kdop::simd::select_isa());
    } catch (const std::invalid_argument& e) {
      in_use = std::string("none (") + e.what() + ")";
    }
    return "kdop 0.1.0\nISA in use: " + in_use + " (this CPU supports: " + supported +
           "; KDOP_ISA=scalar|sse4|avx2|avx512 forces one)";
  });
  BatchArgs batch;
  BuildArgs build;
  CheckArgs check;
  DemoArgs demo;
  PathArgs path;
  NcArgs nc;
  CLI::App* check_cmd = add_check_command(app, check);
  CLI::App* batch_cmd = add_batch_command(app, batch);
  CLI::App* demo_cmd = add_demo_command(app, demo);
  CLI::App* build_cmd = add_build_command(app, build);
  CLI::App* path_cmd = add_path_command(app, path);
  CLI::App* nc_cmd = add_nc_command(app, nc);
  // Bare `kdop`: the overview of the commands, not only "A subcommand is required".
  if (argc == 1) {
    app.name("kdop");
    std::cerr << app.help();
    return kExitInputError;
  }
  // CLI11 would say only "A subcommand is required" for a misspelt one.
  if (argc > 1 && argv[1][0] != '-') {
    std::string known;
    bool found = false;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      found = found || sub->get_name() == argv[1];
      known += (known.empty() ? "" : ", ") + sub->get_name();
    }
    if (!found) {
      std::cerr << "kdop: unknown command '" << kdop::text::one_line(argv[1])
                << "'; expected one of " << known << " (see kdop --help)\n";
      return kExitInputError;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    const int code = app.exit(e);
    // A bad KDOP_ISA (the text says why) is the user's error here too.
    try {
      kdop::simd::select_isa();
    } catch (const std::invalid_argument&) {
      return kExitInputError;
    }
    return code;
  } catch (const CLI::ParseError& e) {
    // The command's own help; and a hint for numbers given apart (--pose 1 0 0 1 0 0 0).
    const bool command = argc > 1 && argv[1][0] != '-';
    bool numbers_option = false;
    for (int i = 1; i < argc; ++i) {
      const std::string_view a = argv[i];
      numbers_option = numbers_option || a == "--pose" || a == "--matrix";
    }
    std::cerr << "kdop: " << kdop::text::one_line(e.what())
              << (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && numbers_option
                      ? "; --pose and --matrix take their numbers as one comma-separated argument"
                      : "")
              << " (see kdop " << (command ? kdop::text::one_line(argv[1]) + " " : std::string())
              << "--help)\n";
    return kExitInputError;
  }
  install_interrupt_handler();
  try {
    try {
      kdop::simd::select_isa();  // a bad KDOP_ISA is the user's error, said before any work
    } catch (const std::invalid_argument& e) {
      throw InputError(e.what());
    }
    if (check_cmd->parsed()) return with_stdout_checked(run_check(check));
    if (batch_cmd->parsed()) return with_stdout_checked(run_batch(batch));
    if (demo_cmd->parsed()) return with_stdout_checked(run_demo(demo));
    if (build_cmd->parsed()) return with_stdout_checked(run_build(build));
    if (path_cmd->parsed()) return with_stdout_checked(run_path(path));
    if (nc_cmd->parsed()) return with_stdout_checked(run_nc(nc));
  } catch (const InputError& e) {
    std::cerr << "kdop: " << kdop::text::one_line(e.what()) << "\n";
    return kExitInputError;
  } catch (const kdop::IoError& e) {
    std::cerr << "kdop: " << kdop::text::one_line(e.what()) << "\n";
    return kExitInputError;
  } catch (const std::bad_alloc&) {
    std::cerr << "kdop: out of memory\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "kdop: internal error: " << kdop::text::one_line(e.what()) << "\n";
    return kExitInternal;
  }
  return kExitInputError;
}
