/* Contract (see protocol.hpp): the federation as a protocol sees it, clusters and the nodes of
 * each (FederationLayout, NodeContext::layout, ProtocolSetup::layout), for a protocol header that
 * needs nothing else of the contract. The platform defines it (sim/platform/layout.hpp);
 * protocols name it through this header only. */
#pragma once

#include "sim/platform/layout.hpp"
