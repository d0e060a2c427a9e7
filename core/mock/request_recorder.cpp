#include "core/mock/request_recorder.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace plumbline::mock {

RequestRecorder::RequestRecorder(const std::string& path) : m_file(std::fopen(path.c_str(), "w")) {
  if (m_file == nullptr)
    throw std::runtime_error("--record-requests: cannot create '" + path + "': " + std::strerror(errno));
}

RequestRecorder::~RequestRecorder() { std::fclose(m_file); }

void RequestRecorder::record(int64_t arrivalNs, bool chat, std::string_view body) {
  nlohmann::json line = {{"arrival_ns", arrivalNs}, {"api", chat ? "chat" : "completions"}};
  auto parsed = nlohmann::json::parse(body, nullptr, false);
  line["body"] = parsed.is_discarded() ? nlohmann::json(std::string(body)) : std::move(parsed);
  const std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::lock_guard lock(m_mutex);
  std::fwrite(text.data(), 1, text.size(), m_file);
  std::fflush(m_file);
}

}  // namespace plumbline::mock
