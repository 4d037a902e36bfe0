#include "sim/cli/compare_plot.hpp"

#include "sim/cli/output.hpp"
#include "sim/config/input_error.hpp"

#include <ckptsim_paths.hpp> // generated: CKPTSIM_PLOTS_DIR

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace ckptsim::cli {

namespace fs = std::filesystem;

namespace {
std::string plots_dir() {
  const char* env = std::getenv("CKPTSIM_PLOTS");
  return env && *env ? env : CKPTSIM_PLOTS_DIR;
}

} // namespace

void check_plot_output(const std::string& out) {
  const std::string ext = fs::path(out).extension().string();
  if (ext != ".png" && ext != ".svg" && ext != ".pdf")
    throw InputError("command line", "--plot", fmt::format("\"{}\": expected a .png, .svg or .pdf file", out));
  const fs::path parent = fs::path(out).parent_path();
  if (!parent.empty() && !fs::is_directory(parent))
    throw InputError("command line", "--plot", fmt::format("\"{}\": no folder {}", out, parent.string()));
}

int draw_csv(const std::string& script_name, const std::string& csv_text, const std::string& out,
             const std::string& title, const std::string& source) {
  const std::string script = (fs::path(plots_dir()) / script_name).string();
  if (!fs::exists(script)) {
    std::fprintf(stderr, "--plot: %s not found (set CKPTSIM_PLOTS to the folder of %s)\n", script.c_str(),
                 script_name.c_str());
    return 1;
  }
  const fs::path csv = fs::temp_directory_path() / fmt::format("ckptsim-plot-{}.csv", getpid());
  write_file_atomically(csv.string(), csv_text);
  const int status =
      std::system(fmt::format("/usr/bin/python3 {} {} -o {} --title {} --source {}", shell_word(script),
                              shell_word(csv.string()), shell_word(out), shell_word(title), shell_word(source))
                      .c_str());
  fs::remove(csv);
  if (status == 0) return 0;
  // Exit status 1 whatever the script's: the runs are done and their table printed (2 would say
  // the user's input was wrong and nothing was written).
  std::fprintf(stderr, "--plot: drawing %s failed (plots/%s, /usr/bin/python3 with matplotlib)\n", out.c_str(),
               script_name.c_str());
  return 1;
}

} // namespace ckptsim::cli
