#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace plumbline::workload {

/// One message of a conversation, as in the file: `from` is "human", "gpt", "system"...
struct ShareGptTurn {
  std::string from;
  std::string value;
};

struct ShareGptConversation {
  std::string id;
  std::vector<ShareGptTurn> turns;
};

/// A ShareGPT-style file: `[{"id", "conversations": [{"from", "value"}, ...]}, ...]`, kept
/// whole and in file order. Other keys of an entry or turn are ignored. This is the API for
/// anything that wants real conversations (multi-turn sessions, prompt sampling).
class ShareGptDataset {
 public:
  /// Throws WorkloadError naming the file, the entry index and the field
  /// ("chat.json: [3].conversations[1].from: expected a string, got a number").
  static ShareGptDataset fromFile(const std::string& path);
  /// `file` names the source in errors.
  static ShareGptDataset fromJson(const nlohmann::json& json, const std::string& file);
  /// Parses text; syntax errors name the file and byte offset.
  static ShareGptDataset fromText(const std::string& text, const std::string& file);

  const std::vector<ShareGptConversation>& conversations() const { return m_conversations; }
  const std::string& file() const { return m_file; }

 private:
  std::string m_file;
  std::vector<ShareGptConversation> m_conversations;
};

/// Roles that are the user's and the model's side of a ShareGPT exchange.
bool isHumanRole(const std::string& from);
bool isModelRole(const std::string& from);
/// The role of instructions to the model ("system"), sent as a system message.
bool isSystemRole(const std::string& from);

}  // namespace plumbline::workload
