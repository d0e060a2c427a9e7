#pragma once
#include <string>

namespace plumbline::util {

/// An errno as a person and a search engine both read it: "Connection refused (ECONNREFUSED)".
/// Thread-safe (strerror is not guaranteed to be).
std::string errnoText(int err);

}  // namespace plumbline::util
