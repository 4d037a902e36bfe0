/* The Paje export (`ckptsim run --paje FILE`, docs/TRACE.md "Paje"): the run as a Paje trace that
 * ViTE opens and pajeng's pj_dump reads. Containers: the federation, a container per cluster (and
 * one for the protocol's services) holding a container per node; a state per node (what its
 * process does: computing, waiting for a message, blocked by its protocol, recovering, down,
 * finished); a link per message on the wire (application and control messages, keyed by their
 * wire id: from the sender when it is posted to the receiver when it arrives, or when it is lost);
 * events for failures, checkpoints saved and rollbacks, and on the federation for links that fail
 * and come back. Written as the run goes (every call comes
 * at the current simulated date, so the file is in date order, as Paje requires); links still on
 * the wire when the run ends are closed then. Plain file writing, no SimGrid. */
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

namespace ckptsim {

class PajeWriter {
 public:
  enum class LinkKind { App, Control };
  struct Group {
    std::string name;                 // a cluster's name, or "services"
    std::vector<std::string> members; // host names, in endpoint order
  };
  /** @brief Opens @p path and writes the header and the containers: @p groups in order, their
   *  members numbered as endpoints 0, 1, ... (InputError when the file cannot be written). */
  void open(const std::string& path, const std::vector<Group>& groups);
  bool is_open() const { return out_ != nullptr; }
  /** @brief Endpoint @p e's state from @p date ("computing", "waiting", "blocked", "recovering",
   *  "down", "finished"); a repeated state writes nothing. */
  void state(double date, int e, const char* state);
  /** @brief A point event on endpoint @p e: "failure", "checkpoint", "rollback". */
  void event(double date, int e, const char* type, const std::string& value);
  /** @brief A point event of the whole federation: a link fails or comes back ("wan_0_1 down"). */
  void federation_event(double date, const std::string& value);
  /** @brief Message @p key leaves @p src for @p dst. */
  void link_start(double date, LinkKind kind, int src, int dst, std::uint64_t key);
  /** @brief Message @p key reached its receiver, or was lost on its way (it ends at the receiver
   *  too, at the date it was lost); nothing if it was not started or already ended. */
  void link_end(double date, std::uint64_t key);
  /** @brief Ends the links still open and the containers at @p date, and closes the file. */
  void close(double date);
  ~PajeWriter();

 private:
  void line(const std::string& s);
  std::FILE* out_ = nullptr;
  std::vector<std::string> last_state_; // per endpoint
  struct OpenLink {
    LinkKind kind;
    int dst;
  };
  std::unordered_map<std::uint64_t, OpenLink> open_; // started and not ended, by key
  std::vector<std::string> groups_;
  int endpoints_ = 0;
};

} // namespace ckptsim
