#include "core/engine/harness_limit.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cerrno>

using namespace plumbline::engine;

TEST(HarnessLimit, ErrnosOfExhaustedMachineLimitsAreNamed) {
  EXPECT_EQ(harnessLimitOf(EMFILE), HarnessLimit::FileDescriptors);
  EXPECT_EQ(harnessLimitOf(ENFILE), HarnessLimit::SystemFiles);
  EXPECT_EQ(harnessLimitOf(EADDRNOTAVAIL), HarnessLimit::EphemeralPorts);
  // A refused or unreachable server is the server's, not the harness's.
  for (int err : {0, ECONNREFUSED, ETIMEDOUT, ENETUNREACH, ECONNRESET}) EXPECT_EQ(harnessLimitOf(err), HarnessLimit::None);
}

TEST(HarnessLimit, DescriptionsSayWhatWhereAndHowMuch) {
  rlimit rl{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
  EXPECT_EQ(describeHarnessLimit(HarnessLimit::FileDescriptors, 2),
            "file descriptors exhausted in worker 2 (limit " + std::to_string(rl.rlim_cur) + ")");
  const std::string ports = describeHarnessLimit(HarnessLimit::EphemeralPorts, 3);
  EXPECT_EQ(ports.rfind("ephemeral ports exhausted in worker 3 (net.ipv4.ip_local_port_range ", 0), 0u) << ports;
  const std::string systemFiles = describeHarnessLimit(HarnessLimit::SystemFiles, 1);
  EXPECT_EQ(systemFiles.rfind("the machine's file table full (fs.file-max ", 0), 0u) << systemFiles;
  EXPECT_NE(systemFiles.find(", shared by every process) when worker 1 opened a connection"),
            std::string::npos)
      << systemFiles;
  EXPECT_EQ(describeHarnessLimit(HarnessLimit::LoopHeld, 0),
            "requests not written before their timeout in worker 0: its event loop was held "
            "(stopped, or without a CPU) after their connections were ready, so the target never "
            "got them");
}

TEST(HarnessLimit, ConnectionsBeyondAWorkersDescriptorsAreForetold) {
  EXPECT_EQ(connectionShortfall(10'000, 20'000, 20'000), "");
  EXPECT_EQ(connectionShortfall(20'000, 20'000, 20'000),
            "max_in_flight 20000 allows 20000 connections per worker, more than its descriptor limit 20000 holds: "
            "beyond ~19936 open at once, requests fail as harness_limit (--workers 2 would hold them all)");
}

TEST(HarnessLimit, RaisingTheSoftLimitReachesTheHardOne) {
  rlimit rl{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
  const rlimit before = rl;
  rl.rlim_cur = std::min<rlim_t>(rl.rlim_max, 256);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &rl), 0);
  EXPECT_EQ(raiseFileDescriptorLimit(), before.rlim_max);
  setrlimit(RLIMIT_NOFILE, &before);
}
