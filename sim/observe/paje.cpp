#include "sim/observe/paje.hpp"

#include "sim/config/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace ckptsim {

namespace {
// The event definitions: Paje's generic format, each event with the fields it is written with.
constexpr const char* kHeader = R"(%EventDef PajeDefineContainerType 0
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineStateType 1
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineEventType 2
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineLinkType 3
%       Alias string
%       Type string
%       StartContainerType string
%       EndContainerType string
%       Name string
%EndEventDef
%EventDef PajeDefineEntityValue 4
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeCreateContainer 5
%       Time date
%       Alias string
%       Type string
%       Container string
%       Name string
%EndEventDef
%EventDef PajeDestroyContainer 6
%       Time date
%       Type string
%       Name string
%EndEventDef
%EventDef PajeSetState 7
%       Time date
%       Type string
%       Container string
%       Value string
%EndEventDef
%EventDef PajeNewEvent 8
%       Time date
%       Type string
%       Container string
%       Value string
%EndEventDef
%EventDef PajeStartLink 9
%       Time date
%       Type string
%       Container string
%       Value string
%       StartContainer string
%       Key string
%EndEventDef
%EventDef PajeEndLink 10
%       Time date
%       Type string
%       Container string
%       Value string
%       EndContainer string
%       Key string
%EndEventDef
0 G 0 Group
0 N G Node
1 S N State
2 F N Failure
2 C N Checkpoint
2 R N Rollback
2 L 0 LinkFault
3 M 0 N N Message
3 K 0 N N Control
)";

// The states, with ViTE's colours (red green blue, 0 to 1).
const std::map<std::string, std::string> kStates = {
    {"computing", "0.2 0.7 0.2"}, {"waiting", "0.85 0.85 0.85"}, {"blocked", "1 0.65 0"},
    {"recovering", "0.3 0.5 1"},  {"down", "0.9 0.1 0.1"},       {"finished", "0.5 0.5 0.5"},
};

const char* link_type(PajeWriter::LinkKind k) { return k == PajeWriter::LinkKind::App ? "M" : "K"; }
const char* link_value(PajeWriter::LinkKind k) { return k == PajeWriter::LinkKind::App ? "app" : "ctrl"; }
std::string date_text(double d) { return fmt::format("{:.9f}", d); }
} // namespace

void PajeWriter::open(const std::string& path, const std::vector<Group>& groups) {
  out_ = std::fopen(path.c_str(), "w");
  if (!out_) throw InputError(path, "", "cannot open the Paje file for writing");
  std::fputs(kHeader, out_);
  for (const auto& [name, colour] : kStates) line(fmt::format("4 {} S {} \"{}\"", name, name, colour));
  for (std::size_t g = 0; g < groups.size(); g++) {
    groups_.push_back(fmt::format("g{}", g));
    line(fmt::format("5 0 g{} G 0 \"{}\"", g, groups[g].name));
    for (const std::string& member : groups[g].members)
      line(fmt::format("5 0 n{} N g{} \"{}\"", endpoints_++, g, member));
  }
  last_state_.assign(static_cast<std::size_t>(endpoints_), "");
}

void PajeWriter::line(const std::string& s) {
  std::fputs(s.c_str(), out_);
  std::fputc('\n', out_);
}

void PajeWriter::state(double date, int e, const char* state) {
  if (!out_) return;
  auto& last = last_state_[static_cast<std::size_t>(e)];
  if (last == state) return;
  last = state;
  line(fmt::format("7 {} S n{} {}", date_text(date), e, state));
}

void PajeWriter::federation_event(double date, const std::string& value) {
  if (!out_) return;
  line(fmt::format("8 {} L 0 \"{}\"", date_text(date), value));
}

void PajeWriter::event(double date, int e, const char* type, const std::string& value) {
  if (!out_) return;
  line(fmt::format("8 {} {} n{} \"{}\"", date_text(date), type, e, value));
}

void PajeWriter::link_start(double date, LinkKind kind, int src, int dst, std::uint64_t key) {
  if (!out_) return;
  open_[key] = {kind, dst};
  line(fmt::format("9 {} {} 0 {} n{} {}", date_text(date), link_type(kind), link_value(kind), src, key));
}

void PajeWriter::link_end(double date, std::uint64_t key) {
  if (!out_) return;
  auto it = open_.find(key);
  if (it == open_.end()) return;
  const auto [kind, dst] = it->second;
  line(fmt::format("10 {} {} 0 {} n{} {}", date_text(date), link_type(kind), link_value(kind), dst, key));
  open_.erase(it);
}

void PajeWriter::close(double date) {
  if (!out_) return;
  // In key order, so that the file is the same from one run to the next.
  std::vector<std::uint64_t> keys;
  for (const auto& [key, link] : open_) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  for (std::uint64_t key : keys) link_end(date, key);
  for (int e = 0; e < endpoints_; e++) line(fmt::format("6 {} N n{}", date_text(date), e));
  for (const std::string& g : groups_) line(fmt::format("6 {} G {}", date_text(date), g));
  std::fclose(out_);
  out_ = nullptr;
}

PajeWriter::~PajeWriter() {
  if (out_) std::fclose(out_);
}

} // namespace ckptsim
