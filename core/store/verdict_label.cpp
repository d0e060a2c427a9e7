#include "core/store/verdict_label.h"

namespace plumbline::store {

std::string verdictLabel(const RunRow& run) {
  if (!run.verdict) return run.status == "complete" ? "none" : run.status;
  if (run.status == "complete") return *run.verdict;
  // A green "kept_up" beside a stopped run read as a whole run held: it held until the stop.
  return run.status + " · " + *run.verdict + (*run.verdict == "kept_up" ? " until stopped" : "");
}

}  // namespace plumbline::store
