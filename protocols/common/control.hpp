/* Typed control messages. A protocol names the kinds of its control messages in an enum class
 * (values from 1: 0 is a message made without a kind) and gives each a name with a constexpr
 * msg_name(kind) (usually kind_name over a table of the names), found by argument-dependent lookup: the name the engine
 * counts in the statistics (ctrl.<name>) and writes in traces. Messages are made with make_control and dispatched by a
 * switch on control_kind<Kind>(msg): names are never compared. */
#pragma once

#include "sim/protocol/messages.hpp"

#include <array>
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace ckptsim {

/** @brief An enum of a protocol's control message kinds, each with its msg_name. */
template <class Kind>
concept ControlKind = std::is_enum_v<Kind> && requires(Kind k) {
  { msg_name(k) } -> std::convertible_to<const char*>;
};

/** @brief The name of @p kind in @p names, the names of kinds 1, 2, ... in order ("?" outside). */
template <class Kind, std::size_t N>
constexpr const char* kind_name(Kind kind, const std::array<const char*, N>& names) {
  const auto i = static_cast<std::size_t>(kind);
  return i >= 1 && i <= N ? names[i - 1] : "?";
}

/** @brief A control message of kind @p kind, named msg_name(kind) in statistics and traces. */
template <ControlKind Kind>
ControlMessage make_control(Kind kind, PayloadPtr body, double bytes) {
  return ControlMessage{msg_name(kind), std::move(body), bytes, static_cast<int>(kind)};
}

/** @brief The kind of @p msg, a message of the protocol whose kinds are @p Kind. */
template <ControlKind Kind>
Kind control_kind(const ControlMessage& msg) {
  return static_cast<Kind>(msg.kind);
}

/** @brief Throws std::logic_error: @p protocol got a message of a kind its agent never receives
 *  (a protocol bug, as is a message without a kind). */
[[noreturn]] void unexpected_control(const char* protocol, const ControlMessage& msg);

} // namespace ckptsim
