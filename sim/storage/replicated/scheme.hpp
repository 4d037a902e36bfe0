/* The Bondarenko-Iakobovski replicated in-memory storage scheme (paper 004, section 3.2-3.3), as
 * plain logic over one group of N nodes numbered 0..N-1 (in ckptsim: one cluster, the index of a
 * node within it; docs/MODEL.md says why). Save k of node i keeps a local copy and DF copies on
 * receiver(i, j, k) = (i + j*DF^(k mod SD) + k mod SD) mod N, j = 1..DF; the last SD saves are
 * kept. After the nodes of a failure set F lost their memory, save k of a failed node survives if
 * one of its receivers is outside F (a node outside F still has its local copy); RLFFN is the
 * newest kept save that survives for every node at once (a consistent global checkpoint, the
 * paper's notion: one common save number k for all nodes). The paper proves that RLFFN exists
 * whenever |F| <= MNF = (DF-1)*SD+1 and N >= DF^SD + SD. */
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ckptsim::replicated {

/** @brief DF (copies besides the local one) and SD (saves kept). */
struct Scheme {
  int copies = 1; // DF
  int depth = 1;  // SD
};

/** @brief The paper's formula (1), computed exactly modulo @p n (no overflow of DF^(k mod SD)). */
int receiver(int i, int j, std::uint64_t k, const Scheme& s, int n);

/** @brief The DF receivers of save @p k of node @p i, j = 1..DF in order. */
std::vector<int> receivers(int i, std::uint64_t k, const Scheme& s, int n);

/** @brief MNF = (DF-1)*SD+1, the paper's formula (2). */
int mnf(const Scheme& s);

/** @brief DF^SD + SD, saturated (the node count from which MNF is guaranteed). */
std::uint64_t guarantee_nodes(const Scheme& s);

/** @brief Whether N >= DF^SD + SD. */
bool guarantee_holds(const Scheme& s, int n);

/** @brief Why the scheme cannot be used on @p n nodes (a receiver that is the node itself or a
 *  receiver repeated for one save), or nullopt when it can. Depends on k mod SD only. */
std::optional<std::string> placement_problem(const Scheme& s, int n);

/** @brief Whether save @p k of node @p i can still be read after the nodes of @p failed lost their
 *  memory: its local copy (i not failed) or one of its DF remote copies. */
bool save_survives(int i, std::uint64_t k, const std::set<int>& failed, const Scheme& s, int n);

/** @brief Whether save @p k survives for every node (checking the failed ones is enough). */
bool line_survives(std::uint64_t k, const std::set<int>& failed, const Scheme& s, int n);

/** @brief The paper's RLFFN: the newest k among the kept saves k_end, k_end-1, ..., k_end-SD+1
 *  (not below @p first, the first save) that survives for every node, or nullopt. */
std::optional<std::uint64_t> rlffn(std::uint64_t k_end, const std::set<int>& failed, const Scheme& s, int n,
                                   std::uint64_t first = 0);

/** @brief For a failed node @p i: the first of its receivers of save @p k outside @p failed (the
 *  paper's accessibility(), the node that sends the copy back), or -1. */
int recovery_holder(int i, std::uint64_t k, const std::set<int>& failed, const Scheme& s, int n);

/** @brief Whether some save among SD consecutive ones survives @p failed: the SD saves kept cover
 *  every residue k mod SD once, so this does not depend on k_end. */
bool recoverable(const std::set<int>& failed, const Scheme& s, int n);

} // namespace ckptsim::replicated
