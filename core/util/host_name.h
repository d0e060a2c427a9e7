#pragma once
#include <string>

namespace plumbline::util {

/// This machine's host name, or "" when it cannot be read.
std::string hostName();

}  // namespace plumbline::util
