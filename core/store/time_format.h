#pragma once
#include <string>

namespace plumbline::store {

/// Now as ISO-8601 UTC with milliseconds: "2024-05-01T12:34:56.789Z".
std::string isoUtcNow();

}  // namespace plumbline::store
