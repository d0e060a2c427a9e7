#pragma once
#include <string>

#include "core/workload/workload_spec.h"

namespace plumbline::engine {

/// The completion endpoint for a target base URL: "http://h:p", "http://h:p/" and
/// "http://h:p/v1" all become "http://h:p/v1/chat/completions" (or /v1/completions); a URL
/// that already names an endpoint path is kept. Throws std::invalid_argument for a URL that
/// is not http(s).
std::string completionEndpoint(const std::string& baseUrl, workload::Api api);

/// The URL with any user:password@ part removed: what may be stored and printed.
std::string redactUrl(const std::string& url);

}  // namespace plumbline::engine
