/* The one registry of every kind of plug-in (protocols, application kinds, storage models, failure
 * sources, timers): modules that register themselves by name before main, the shape SimGrid gives
 * its plugins: a static registration per module, a lookup by name, and an unknown name reported
 * with the list of valid ones. Entries are kept in rank order (then by name), not in registration
 * order, which static initialisation leaves unspecified: the rank fixes the order of listings and
 * of the names an input error quotes. Names starting with "test-" are registered by the tests:
 * found, never listed. */
#pragma once

#include "sim/config/input_error.hpp"
#include "sim/config/json_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace ckptsim {

/** @brief The registry of the modules described by @p Info (which has a name and a rank). */
template <class Info>
class Registry {
 public:
  static Registry& instance() {
    static Registry registry;
    return registry;
  }

  /** @brief Adds @p info, replacing an entry of the same name. */
  void add(Info info) {
    std::erase_if(entries_, [&](const Info& e) { return e.name == info.name; });
    auto after = [&](const Info& e) { return std::tie(info.rank, info.name) < std::tie(e.rank, e.name); };
    entries_.insert(std::find_if(entries_.begin(), entries_.end(), after), std::move(info));
  }

  /** @brief The entry named @p name, or nullptr. */
  const Info* find(const std::string& name) const {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Info& e) { return e.name == name; });
    return it == entries_.end() ? nullptr : &*it;
  }

  /** @brief The entry named @p name, a name the inputs were checked against (std::invalid_argument
   *  otherwise: a module naming a model that does not exist, a bug). */
  const Info& get(const std::string& name) const {
    if (const Info* info = find(name)) return *info;
    throw std::invalid_argument(fmt::format("no module named \"{}\" is registered", name));
  }

  /** @brief What an input naming @p name, registered nowhere, is told: in Info's own words if it
   *  has them (`static std::string unknown(name, valid names)`), else as_choice's. */
  std::string unknown(const std::string& name) const {
    if constexpr (requires { Info::unknown(name, std::vector<std::string>{}); })
      return Info::unknown(name, names());
    else
      return fmt::format("\"{}\" is not one of: {}", name, fmt::join(names(), ", "));
  }

  /** @brief The entry named @p name, which an input gives at @p at; an InputError there (unknown())
   *  otherwise. */
  const Info& lookup(const std::string& name, const Where& at) const {
    if (const Info* info = find(name)) return *info;
    at.fail(unknown(name));
  }

  /** @brief The entry named @p name, given on the command line by @p option (e.g. "--protocol");
   *  an InputError there (unknown()) otherwise. */
  const Info& get(const std::string& name, const std::string& option) const {
    return lookup(name, Where("command line", option));
  }

  /** @brief The entry a document names at @p at; an InputError listing the valid names otherwise. */
  const Info& choose(const json& j, const Where& at) const { return lookup(as_string(j, at), at); }

  /** @brief Every entry, test ones included, in rank order. */
  const std::vector<Info>& all() const { return entries_; }

  /** @brief Whether @p info is shown in listings and error messages (not a test registration). */
  static bool listed(const Info& info) { return info.name.rfind("test-", 0) != 0; }

  /** @brief The names of the listed entries, in rank order. */
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Info& e : entries_)
      if (listed(e)) out.push_back(e.name);
    return out;
  }

 private:
  std::vector<Info> entries_;
};

/** @brief A static registration: `const Registration<XInfo> x{{...}};` in the module's file. */
template <class Info>
struct Registration {
  explicit Registration(Info info) { Registry<Info>::instance().add(std::move(info)); }
};

} // namespace ckptsim
