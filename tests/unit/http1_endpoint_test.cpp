// Which URLs the native HTTP/1.1 client serves, and the request head it writes for them.
#include <gtest/gtest.h>

#include "core/net/http1_endpoint.h"

using plumbline::net::Http1Endpoint;

TEST(Http1Endpoint, PlainHttpUrlsAreParsed) {
  auto e = Http1Endpoint::parse("http://127.0.0.1:8000/v1/chat/completions");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->host, "127.0.0.1");
  EXPECT_EQ(e->port, 8000);
  EXPECT_EQ(e->hostHeader, "127.0.0.1:8000");
  EXPECT_EQ(e->target, "/v1/chat/completions");

  e = Http1Endpoint::parse("HTTP://Example.com");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->port, 80);
  EXPECT_EQ(e->hostHeader, "Example.com");
  EXPECT_EQ(e->target, "/");

  e = Http1Endpoint::parse("http://[::1]:9000/v1/completions?x=1#frag");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->host, "::1");
  EXPECT_EQ(e->port, 9000);
  EXPECT_EQ(e->hostHeader, "[::1]:9000");
  EXPECT_EQ(e->target, "/v1/completions?x=1");

  e = Http1Endpoint::parse("http://h:/p?q");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->hostHeader, "h");
  EXPECT_EQ(Http1Endpoint::parse("http://h?q=1")->target, "/?q=1");
}

TEST(Http1Endpoint, EverythingElseIsLeftToLibcurl) {
  for (const char* url : {"https://h/v1", "ftp://h/", "http://", "http:///x", "http://user:pw@h/", "http://h:0/",
                          "http://h:65536/", "http://h:80a/", "http://[::1/", "http://[::1]x/", "http://h/a b",
                          "http://:80/", "127.0.0.1:8000/v1"}) {
    EXPECT_FALSE(Http1Endpoint::parse(url)) << url;
  }
}

TEST(Http1Endpoint, RequestHeadCarriesTheKeyOnlyInAuthorization) {
  const auto e = Http1Endpoint::parse("http://127.0.0.1:8000/v1/chat/completions");
  ASSERT_TRUE(e);
  EXPECT_EQ(plumbline::net::requestHeadPrefix(*e, true, "k3y"),
            "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nContent-Type: application/json\r\n"
            "Accept: text/event-stream\r\nAuthorization: Bearer k3y\r\nContent-Length: ");
  EXPECT_EQ(plumbline::net::requestHeadPrefix(*e, false, ""),
            "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nContent-Type: application/json\r\n"
            "Accept: */*\r\nContent-Length: ");
}

TEST(Http1Endpoint, LocalhostResolvesIpv4First) {
  std::string error;
  const auto addresses = plumbline::net::resolveEndpoint(*Http1Endpoint::parse("http://localhost:8000/"), error);
  ASSERT_FALSE(addresses.empty()) << error;
  EXPECT_EQ(addresses.front().family(), AF_INET);
  const auto none = plumbline::net::resolveEndpoint(*Http1Endpoint::parse("http://no-such-host.invalid/"), error);
  EXPECT_TRUE(none.empty());
  EXPECT_NE(error.find("no-such-host.invalid"), std::string::npos);
}
