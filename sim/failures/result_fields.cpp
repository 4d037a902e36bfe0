/* The fields of results.failure_log: the account a failure source replaying a file gives of what
 * it read, used and skipped (FailureSource::account: LogFailures in log_source.cpp for the lanl and
 * fta sources, ReplayedFailures in replay.cpp for the trace source), described for
 * docs/RESULTS.md. */
#include "sim/config/result_fields.hpp"

namespace ckptsim {
namespace {

const ResultFieldsRegistration failure_logs{
    {"failure-logs",
     "Failure logs",
     {
         {"/results/failure_log/file", "",
          "the failure log replayed, as opened (relative to the topology file's folder); the object is present "
          "with the lanl, fta and trace sources (also merged with correlated failures or cascades), absent for "
          "synthetic ones"},
         {"/results/failure_log/records_read", "count",
          "lanl, fta: the data rows of the file, every one (selected or skipped); trace: its node failure lines "
          "(link outage lines not counted)"},
         {"/results/failure_log/used", "count",
          "failure records of the log the run took before it ended, one failure event each (a merged or cascading "
          "source counts only the log's events)"},
         {"/results/failure_log/link_outages", "count",
          "lanl, fta: records of log nodes the \"nodes\" mapping puts on a link, replayed as link outages (counted "
          "in /results/network); absent when none"},
         {"/results/failure_log/skipped", "",
          "the records read and not used, as {reason: count} (the field below); {} when the run used every record"},
         {"/results/failure_log/skipped/<WHY>", "count",
          "records not used for this reason: after the end of the run, unmapped node, outside the window, link "
          "outage of no duration; lanl: other system, other cause, fixed before it started; fta: other platform, "
          "not a failure (event_type 1: available), ends before it starts"},
         {"/results/failure_log/origin", "",
          "the log date of simulated time 0, as the log writes it: the window's \"from\" when given, else the first "
          "selected record's date (empty: none); \"0\" for the trace source, whose dates are simulated seconds"},
         {"/results/failure_log/first_at", "s",
          "the simulated date of the first record selected and mapped onto a node (its log date minus the origin); "
          "null when none was. Years mean the log's dates are probably absolute (epoch seconds)"},
         {"/results/failure_log/first_used", "",
          "the log's date of the first record the run took, as the log writes it (trace source: a number, in "
          "seconds); null when the run took none"},
         {"/results/failure_log/last_used", "",
          "the log's date of the last record the run took, as the log writes it (trace source: a number, in "
          "seconds); null when the run took none"},
         {"/results/failure_log/hint", "",
          "trace source only: advice when the file's records gave the run no failure (quoted in the run's warning); "
          "absent otherwise"},
     },
     15}};

} // namespace
} // namespace ckptsim
