/* `ckptsim compare --plot OUT` and `ckptsim advise --plot OUT`: a table drawn by a script of plots/
 * (compare.py: bar charts from the CSV that --csv writes; advise.py: the --verify sweep), with
 * Debian's matplotlib run by /usr/bin/python3. */
#pragma once

#include <string>

namespace ckptsim::cli {

/** @brief Checks @p out before any run: an image file matplotlib writes (.png, .svg, .pdf) in a
 *  folder that exists (InputError otherwise). */
void check_plot_output(const std::string& out);

/** @brief Draws the table @p csv_text with the script @p script_name of plots/ into @p out, titled
 *  @p title, its footer naming @p source as the data; returns 0, or 1 after saying why on stderr.
 *  The script is that of the source tree the binary was built from, or of the folder the
 *  environment variable CKPTSIM_PLOTS names. */
int draw_csv(const std::string& script_name, const std::string& csv_text, const std::string& out,
             const std::string& title, const std::string& source);

} // namespace ckptsim::cli
