#include "core/workload/sharegpt_dataset.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/util/json_syntax_error.h"
#include "core/workload/json_fields.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

const nlohmann::json& requireField(const nlohmann::json& object, const char* key,
                                   const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end()) throw WorkloadError(where + "." + key, "missing required key");
  return *it;
}

std::string requireText(const nlohmann::json& object, const char* key, const std::string& where) {
  const auto& value = requireField(object, key, where);
  if (!value.is_string())
    throw WorkloadError(where + "." + key, "expected a string, got " + describeJsonType(value));
  return value.get<std::string>();
}

ShareGptTurn parseTurn(const nlohmann::json& value, const std::string& where) {
  if (!value.is_object())
    throw WorkloadError(where, "expected an object {\"from\", \"value\"}, got " + describeJsonType(value));
  return ShareGptTurn{requireText(value, "from", where), requireText(value, "value", where)};
}

ShareGptConversation parseEntry(const nlohmann::json& value, const std::string& where) {
  if (!value.is_object())
    throw WorkloadError(where, "expected an object {\"id\", \"conversations\"}, got " + describeJsonType(value));
  ShareGptConversation conversation;
  const auto& id = requireField(value, "id", where);
  if (id.is_string())
    conversation.id = id.get<std::string>();
  else if (id.is_number_integer())
    conversation.id = id.dump();
  else
    throw WorkloadError(where + ".id", "expected a string or an integer, got " + describeJsonType(id));
  const auto& turns = requireField(value, "conversations", where);
  if (!turns.is_array())
    throw WorkloadError(where + ".conversations", "expected an array, got " + describeJsonType(turns));
  conversation.turns.reserve(turns.size());
  for (size_t i = 0; i < turns.size(); ++i)
    conversation.turns.push_back(parseTurn(turns[i], where + ".conversations[" + std::to_string(i) + "]"));
  return conversation;
}

}  // namespace

bool isHumanRole(const std::string& from) { return from == "human" || from == "user"; }
bool isModelRole(const std::string& from) {
  return from == "gpt" || from == "assistant" || from == "chatgpt" || from == "bard";
}
bool isSystemRole(const std::string& from) { return from == "system"; }

ShareGptDataset ShareGptDataset::fromJson(const nlohmann::json& json, const std::string& file) {
  if (!json.is_array())
    throw WorkloadError(file, "expected an array of conversations, got " + describeJsonType(json));
  ShareGptDataset dataset;
  dataset.m_file = file;
  dataset.m_conversations.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i)
    dataset.m_conversations.push_back(parseEntry(json[i], file + ": [" + std::to_string(i) + "]"));
  return dataset;
}

ShareGptDataset ShareGptDataset::fromText(const std::string& text, const std::string& file) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range: a huge number
    throw WorkloadError(file, "invalid JSON: " + util::jsonSyntaxError(text, e).describe());
  }
  return fromJson(json, file);
}

ShareGptDataset ShareGptDataset::fromFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw WorkloadError(path, std::string("cannot read: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return fromText(text.str(), path);
}

}  // namespace plumbline::workload
