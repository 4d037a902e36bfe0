/* The one error type of bad input: "file: json/path: what is wrong". The CLI prints it on stderr
 * and exits with status 2. */
#pragma once

#include <stdexcept>
#include <string>

namespace ckptsim {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string path, std::string problem)
      : std::runtime_error(file + ": " + (path.empty() ? std::string("/") : path) + ": " + problem)
      , file_(std::move(file))
      , path_(std::move(path))
      , problem_(std::move(problem)) {}
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_;
  std::string path_;
  std::string problem_;
};

} // namespace ckptsim
