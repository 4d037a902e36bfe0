/* The application file's reader (SPEC 2.2): "kind" and "deterministic", then the registered
 * application kind's own parser (sim/app/kind.hpp). Above sim/app, so that sim/config does not
 * depend on the application kinds that build on it. */
#include "sim/scenario/readers.hpp"

#include "sim/app/kind.hpp"

namespace ckptsim {

Application parse_application(const json& doc, const std::string& file, const Topology& topology) {
  ObjectReader r(doc, Where(file));
  Application app;
  app.source = file;
  const ApplicationKindInfo& kind = ApplicationKindRegistry::instance().choose(r.required("kind"), r.where("kind"));
  app.kind = kind.name;
  if (auto* v = r.optional("deterministic")) app.deterministic = as_bool(*v, r.where("deterministic"));
  kind.parse(r, app, topology);
  r.finish();
  return app;
}

std::string default_network_model(const json& doc) {
  if (doc.is_object() && doc.contains("kind") && doc["kind"].is_string())
    if (const auto* kind = ApplicationKindRegistry::instance().find(doc["kind"].get<std::string>()))
      return kind->network_model;
  return "CM02";
}

} // namespace ckptsim
