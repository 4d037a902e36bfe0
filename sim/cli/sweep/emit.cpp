#include "sim/cli/sweep/emit.hpp"

#include "sim/config/input_error.hpp"

#include <fmt/format.h>

#include <cmath>

namespace ckptsim::sweep {

std::vector<std::vector<std::size_t>> batches_of(const std::vector<std::size_t>& pending, std::size_t runs_per_task) {
  std::vector<std::vector<std::size_t>> out;
  for (std::size_t i = 0; i < pending.size(); i += runs_per_task)
    out.emplace_back(pending.begin() + static_cast<std::ptrdiff_t>(i),
                     pending.begin() + static_cast<std::ptrdiff_t>(std::min(pending.size(), i + runs_per_task)));
  return out;
}

std::size_t runs_per_task(std::size_t pending, const EmitOptions& options) {
  const std::size_t fewest = (pending + options.max_tasks - 1) / options.max_tasks;
  if (options.runs_per_task == 0) return options.kind == "slurm" ? std::max<std::size_t>(1, fewest) : 1;
  const std::size_t tasks = (pending + options.runs_per_task - 1) / options.runs_per_task;
  if (options.kind == "slurm" && tasks > options.max_tasks)
    throw InputError(
        "command line", "--runs-per-task",
        fmt::format("{} run(s) per task make {} array tasks for the {} pending runs, more than --max-tasks "
                    "{}: give at least {} runs per task, or a larger --max-tasks (below the cluster's "
                    "MaxArraySize: scontrol show config | grep MaxArraySize)",
                    options.runs_per_task, tasks, pending, options.max_tasks, fewest));
  return options.runs_per_task;
}

std::string index_ranges(const std::vector<std::size_t>& xs) {
  std::string s;
  for (std::size_t i = 0; i < xs.size();) {
    std::size_t j = i;
    while (j + 1 < xs.size() && xs[j + 1] == xs[j] + 1) j++;
    s += (s.empty() ? "" : ",") + (i == j ? std::to_string(xs[i]) : fmt::format("{}-{}", xs[i], xs[j]));
    i = j + 1;
  }
  return s;
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() &&
      s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,") == std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

namespace {

/** Slurm's "days-hours:minutes:seconds", rounded up to the minute (its granularity). */
std::string slurm_time(double seconds) {
  const auto minutes = static_cast<long long>(std::ceil(seconds / 60));
  return fmt::format("{}-{:02}:{:02}:00", minutes / 1440, minutes / 60 % 24, minutes % 60);
}

/** A bash array assignment, wrapped so that a thousand entries stay readable. */
std::string bash_array(const std::string& name, const std::vector<std::string>& words) {
  std::string out = name + "=(";
  std::size_t column = out.size();
  for (std::size_t i = 0; i < words.size(); i++) {
    if (i > 0 && column + words[i].size() + 1 > 100) {
      out += "\n  ";
      column = 2;
    } else if (i > 0) {
      out += ' ';
      column++;
    }
    out += words[i];
    column += words[i].size();
  }
  return out + ")\n";
}

} // namespace

std::string emit_text(const EmitContext& ctx, const std::vector<std::size_t>& pending, const EmitOptions& options) {
  const std::size_t per_task = runs_per_task(pending.size(), options);
  const auto batches = batches_of(pending, per_task);
  const std::string parts = ctx.prefix + ".parts";
  // A batch's sweep skips what its part records: a retried failure must be asked for again.
  const std::string limit =
      fmt::format("{}{}", ctx.time_limit > 0 ? fmt::format(" --time-limit {}s", ctx.time_limit) : "",
                  options.retry_failed ? " --retry-failed" : "");
  const std::string self = shell_quote(ctx.self);
  const std::string file = shell_quote(ctx.sweep_file);
  std::string out;
  if (options.kind == "jobs") {
    // A batch's part is named after its first run: batches of one submission never share a part,
    // and a line run twice finds its runs already recorded there.
    for (const auto& b : batches)
      out += fmt::format("{} sweep {} --only {} --out {} --jobs {} --progress false{}\n", self, file, index_ranges(b),
                         shell_quote(fmt::format("{}/{}", parts, b.front())), options.cpus_per_task, limit);
    return out;
  }
  std::vector<std::string> runs, first;
  for (const auto& b : batches) {
    runs.push_back(index_ranges(b));
    first.push_back(std::to_string(b.front()));
  }
  out += fmt::format("#!/bin/bash\n"
                     "# Slurm job array over the {} pending run(s) (of {}) of {},\n"
                     "# written by `ckptsim sweep --emit slurm` (ckptsim {}): {} task(s) of up to {} run(s); task K\n"
                     "# runs the runs runs[K] and records them in {}/first[K].jsonl.\n"
                     "# Submit: sbatch THIS_SCRIPT (each task's output goes to the same folder, slurm-JOB_TASK.out).\n"
                     "# When the array has ended, the results as one table:\n"
                     "#   {} merge --out {} {}/*.jsonl\n"
                     "# Runs a killed, cancelled or timed-out task left undone: emit again and submit the new script;\n"
                     "# it holds only the runs no part records (--retry-failed: the failed ones too).\n",
                     pending.size(), ctx.total_runs, ctx.sweep_file, ctx.version, batches.size(), per_task, parts, self,
                     shell_quote(ctx.prefix), shell_quote(parts));
  out += "#SBATCH --job-name=ckptsim-sweep\n";
  // Task ids 0..T-1, whatever the run indices: Slurm's MaxArraySize bounds the largest id.
  out += fmt::format("#SBATCH --array=0-{}\n", batches.size() - 1);
  out += "#SBATCH --ntasks=1\n";
  out += fmt::format("#SBATCH --cpus-per-task={}\n", options.cpus_per_task);
  if (ctx.time_limit > 0) {
    // Every run of the batch at its own limit, a wave of cpus_per_task at a time, plus a margin for
    // the task's start: the sweep's own limit (recorded as "timeout") always comes first.
    const auto waves = static_cast<double>((per_task + options.cpus_per_task - 1) / options.cpus_per_task);
    out += fmt::format("#SBATCH --time={}\n", slurm_time(waves * ctx.time_limit + 120));
  }
  out += fmt::format("#SBATCH --output={}/slurm-%A_%a.out\n", shell_quote(parts));
  out += bash_array("runs", runs);
  out += bash_array("first", first);
  out += ": \"${SLURM_ARRAY_TASK_ID:?submit this script with sbatch: each task of the job array runs one batch}\"\n";
  // A task id past the batches (an --array given to sbatch by hand) runs nothing.
  out += fmt::format(
      "[ -n \"${{runs[$SLURM_ARRAY_TASK_ID]:-}}\" ] || {{ echo \"this script has array tasks 0-{} only, not "
      "$SLURM_ARRAY_TASK_ID\" >&2; exit 2; }}\n",
      batches.size() - 1);
  out += fmt::format("exec {} sweep {} --only \"${{runs[$SLURM_ARRAY_TASK_ID]}}\" --out {}/\"${{first[$SLURM_ARRAY_"
                     "TASK_ID]}}\" --jobs \"${{SLURM_CPUS_PER_TASK:-{}}}\" --progress false{}\n",
                     self, file, shell_quote(parts), options.cpus_per_task, limit);
  return out;
}

} // namespace ckptsim::sweep
