/* What the one results-document field protocol none writes means, registered for docs/RESULTS.md. */
#include "sim/protocol/result_fields.hpp"

namespace ckptsim {
namespace {

const ResultFieldsRegistration none_fields{
    {"none",
     "Protocol none",
     {{"/stats/counters/none.stale_dropped", "messages",
       "Application messages dropped on arrival because the epoch they carry (the newest failure their sender had "
       "restarted for) is older than the receiver's: sent by an execution a global restart undid. Total over the "
       "run and the receivers."}},
     29}};

} // namespace
} // namespace ckptsim
