#include "protocols/msglog/messages.hpp"

namespace ckptsim::msglog {

nlohmann::ordered_json det_json(const Det& d) {
  return {{"owner", d.owner}, {"src", d.src}, {"idx", d.idx}, {"rsn", d.rsn}};
}

nlohmann::ordered_json Piggyback::to_json() const {
  nlohmann::ordered_json j{{"idx", idx}, {"epoch", epoch}, {"rsn", rsn}};
  if (causal) {
    j["stable"] = stable;
    nlohmann::ordered_json l = nlohmann::ordered_json::array();
    for (const Det& d : dets) l.push_back(det_json(d));
    j["dets"] = l;
  }
  return j;
}

nlohmann::ordered_json Body::to_json() const {
  nlohmann::ordered_json j{{"inc", inc}};
  for (const auto& [k, v] : ints) j[k] = v;
  if (!dets.empty()) {
    nlohmann::ordered_json l = nlohmann::ordered_json::array();
    for (const Det& d : dets) l.push_back(det_json(d));
    j["dets"] = l;
  }
  if (!above.empty()) j["above"] = above;
  return j;
}

} // namespace ckptsim::msglog
