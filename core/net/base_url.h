#pragma once
// A target's base URL (http[s]://host[:port][/path]) as a person writes it in a workload or on
// the command line: what is wrong with it, said before anything runs, instead of every request
// failing as "connect" or going to a mangled path.
#include <string>

namespace plumbline::net {

/// Empty when `url` is a usable base URL; otherwise the reason, which never repeats the URL's
/// user:password part. Rejected: another scheme, an empty host, a port that is not 1–65535,
/// user:password@ (it would be stored and shown; keys go in api_key_env), a query or fragment
/// (the API path is appended to the URL), and spaces or control characters.
std::string baseUrlProblem(const std::string& url);

}  // namespace plumbline::net
