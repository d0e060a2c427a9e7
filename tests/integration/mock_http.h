#pragma once
// A small blocking libcurl client for the mock's integration tests: bounded in time,
// 127.0.0.1 only, records when each piece of the body arrived.
#include <curl/curl.h>

#include <chrono>
#include <string>
#include <vector>

namespace plumbline::test {

struct HttpResult {
  long status = 0;
  CURLcode code = CURLE_OK;
  std::string body;
  std::vector<double> arrivalsMs;  ///< ms after the request started, one per body write
};

struct HttpRequest {
  std::string url;
  std::string postBody;  ///< empty = GET
  std::string method;    ///< overrides the method when set
  long timeoutMs = 5000;
  size_t abortAfterBytes = 0;  ///< > 0: drop the connection once this much body arrived
};

namespace detail {
struct WriteState {
  HttpResult* result;
  std::chrono::steady_clock::time_point start;
  size_t abortAfter;
};

inline size_t onWrite(char* data, size_t size, size_t count, void* user) {
  auto* state = static_cast<WriteState*>(user);
  const auto elapsed = std::chrono::steady_clock::now() - state->start;
  state->result->arrivalsMs.push_back(std::chrono::duration<double, std::milli>(elapsed).count());
  state->result->body.append(data, size * count);
  if (state->abortAfter > 0 && state->result->body.size() >= state->abortAfter) return 0;
  return size * count;
}
}  // namespace detail

inline HttpResult httpCall(const HttpRequest& request) {
  HttpResult result;
  CURL* curl = curl_easy_init();
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  detail::WriteState state{&result, std::chrono::steady_clock::now(), request.abortAfterBytes};
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request.timeoutMs);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &detail::onWrite);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &state);
  if (!request.postBody.empty()) curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.postBody.c_str());
  if (!request.method.empty()) curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  result.code = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return result;
}

inline HttpResult httpGet(const std::string& url) { return httpCall({url, "", "", 5000, 0}); }
inline HttpResult httpPost(const std::string& url, const std::string& body) { return httpCall({url, body, "", 5000, 0}); }

/// The JSON payloads of an SSE body's `data:` lines, in order ("[DONE]" included).
inline std::vector<std::string> sseData(const std::string& body) {
  std::vector<std::string> out;
  size_t pos = 0;
  while ((pos = body.find("data: ", pos)) != std::string::npos) {
    const size_t end = body.find("\n\n", pos);
    out.push_back(body.substr(pos + 6, end == std::string::npos ? std::string::npos : end - pos - 6));
    if (end == std::string::npos) break;
    pos = end + 2;
  }
  return out;
}

}  // namespace plumbline::test
