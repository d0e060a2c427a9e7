#include "core/workload/session_preview.h"

#include "core/workload/session_estimate.h"
#include "core/workload/session_parser.h"

namespace plumbline::workload {

SessionPreview previewSession(const WorkloadSpec& spec) {
  const SessionAverages a = averageSessions(spec);
  SessionPreview p;
  p.shape = spec.session.shape;
  p.requests = a.requests;
  p.inputTokens = a.inputTokens;
  p.outputTokens = a.outputTokens;
  switch (spec.session.kind) {
    case SessionShape::Single: p.typicalCount = 1; break;
    case SessionShape::MultiTurn:
    case SessionShape::Agentic: p.typicalCount = static_cast<int>(a.medianRequests); break;
    case SessionShape::Summarize: p.typicalCount = static_cast<int>(a.medianRequests) - 1; break;
    case SessionShape::Tree:
      p.typicalCount = static_cast<int>(spec.session.depth);
      p.branching = static_cast<int>(spec.session.branching);
      break;
  }
  return p;
}

SessionPreview previewSession(const nlohmann::json& session, const LengthDist& input,
                              const LengthDist& output, const std::string& path) {
  WorkloadSpec spec;
  spec.session = parseSession(session, path);
  spec.requests.inputTokens = input;
  spec.requests.outputTokens = output;
  return previewSession(spec);
}

}  // namespace plumbline::workload
