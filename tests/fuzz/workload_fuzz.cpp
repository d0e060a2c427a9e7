// Fuzzes the workload loader: any text is either a valid workload or a WorkloadError (or a
// JSON parse error before it, placed by line and column within the text); a valid one is planned
// for its first sessions. The duplicate-key scan the file loader runs first sees the same text:
// it names a key of the text when it finds one, and finds none in a document with one value per
// key (the document's own dump).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/util/json_duplicate_key.h"
#include "core/util/json_syntax_error.h"
#include "core/workload/planner.h"
#include "core/workload/workload_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& error) {
    const auto where = plumbline::util::jsonSyntaxError(text, error);
    if (where.line < 1 || where.column < 1 || where.line > size + 1 || where.column > size + 1)
      __builtin_trap();
    return 0;
  }
  if (const auto duplicate = plumbline::util::firstDuplicateKey(text)) {
    if (duplicate->path.size() < duplicate->key.size()) __builtin_trap();
  }
  if (plumbline::util::firstDuplicateKey(doc.dump())) __builtin_trap();
  try {
    const auto spec = plumbline::workload::parseWorkload(doc);
    plumbline::workload::Planner planner(spec);
    plumbline::workload::SessionPlan s;
    for (int i = 0; i < 1000 && planner.next(s); ++i) {
    }
  } catch (const plumbline::workload::WorkloadError&) {
  }
  return 0;
}
