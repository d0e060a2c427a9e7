// A target's base URL is checked before anything runs: what is wrong, never the credentials.
#include <gtest/gtest.h>

#include "core/net/base_url.h"

using plumbline::net::baseUrlProblem;

TEST(BaseUrl, UsableOnesPass) {
  for (const char* url : {"http://127.0.0.1:8000", "https://api.example.com", "http://localhost/v1",
                          "http://[::1]:8000/v1/", "http://host:1", "http://host:65535/openai/v1"})
    EXPECT_EQ(baseUrlProblem(url), "") << url;
}

TEST(BaseUrl, EachMistakeIsNamed) {
  const std::pair<const char*, const char*> cases[] = {
      {"ftp://host", "expected an http:// or https:// URL"},
      {"127.0.0.1:8000", "expected an http:// or https:// URL"},
      {"http://", "no host"},
      {"http://:8000", "no host"},
      {"http://127.0.0.1:", "empty port after ':'"},
      {"http://127.0.0.1:notaport", "port 'notaport' is not a number"},
      {"http://127.0.0.1:99999", "port 99999 is not between 1 and 65535"},
      {"http://127.0.0.1:0", "port 0 is not between 1 and 65535"},
      {"http://[::1", "an IPv6 address needs its closing ']'"},
      {"http://[::1]x", "expected ':port' after the IPv6 address"},
      {"http://host:8000?x=1", "a query (?) or fragment (#) cannot be part of the base URL"},
      {"http://host/v1#frag", "a query (?) or fragment (#) cannot be part of the base URL"},
      {"http://host /v1", "contains a space or a control character"},
      {"http://host/v1\r\nX: y", "contains a space or a control character"},
  };
  for (const auto& [url, problem] : cases)
    EXPECT_EQ(baseUrlProblem(url).rfind(problem, 0), 0u) << url << ": " << baseUrlProblem(url);
}

TEST(BaseUrl, CredentialsAreRefusedWithoutBeingRepeated) {
  const std::string problem = baseUrlProblem("http://user:s3cret@127.0.0.1:8000");
  EXPECT_EQ(problem.rfind("user:password@ in the URL is not supported", 0), 0u) << problem;
  EXPECT_EQ(problem.find("s3cret"), std::string::npos) << problem;
}
