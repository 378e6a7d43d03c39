#include "drivers/snmp/session_config.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace opticsd::snmp {
namespace {

std::optional<SessionConfig> read(const std::string& yaml, std::vector<ConfigIssue>& issues) {
  OptionReader reader(YAML::Load(yaml), "t.yaml", "targets[0]", issues);
  return readSessionConfig(reader);
}

std::string allIssues(const std::vector<ConfigIssue>& issues) {
  std::string out;
  for (const auto& i : issues) out += i.format() + "\n";
  return out;
}

TEST(SessionConfig, V2cDefaults) {
  std::vector<ConfigIssue> issues;
  auto c = read("address: 10.0.0.1\ncommunity: s3cret\nmax_repetitions: 50\ntimeout: 500ms\nretries: 2\n", issues);
  ASSERT_TRUE(c) << allIssues(issues);
  EXPECT_EQ(c->community, "s3cret");
  EXPECT_EQ(c->max_repetitions, 50);
  EXPECT_EQ(c->timeout.count(), 166);  // the 500 ms poll deadline shared by 3 tries
  EXPECT_EQ(c->describe().find("s3cret"), std::string::npos);
}

// `timeout: 1s, retries: 3` used to make every try 1 s long, so the poll's
// 1 s deadline came before the first retry.
TEST(SessionConfig, RetriesFitInsideThePollDeadline) {
  std::vector<ConfigIssue> issues;
  auto c = read("address: 10.0.0.1\ntimeout: 1s\nretries: 3\n", issues);
  ASSERT_TRUE(c) << allIssues(issues);
  EXPECT_EQ(c->timeout.count(), 250);
  EXPECT_LE(c->timeout * (c->retries + 1), std::chrono::milliseconds(1000));

  auto explicit_request = read("address: 10.0.0.1\ntimeout: 5s\nrequest_timeout: 300ms\nretries: 3\n", issues);
  ASSERT_TRUE(explicit_request) << allIssues(issues);
  EXPECT_EQ(explicit_request->timeout.count(), 300);

  auto without_deadline = read("address: 10.0.0.1\nrequest_timeout: 700ms\n", issues);
  ASSERT_TRUE(without_deadline) << allIssues(issues);
  EXPECT_EQ(without_deadline->timeout.count(), 700);
}

TEST(SessionConfig, RequestTimeoutThatLeavesNoRoomForRetriesIsRefused) {
  std::vector<ConfigIssue> issues;
  auto c = read("address: 10.0.0.1\ntimeout: 1s\nrequest_timeout: 1s\nretries: 3\n", issues);
  EXPECT_FALSE(c);
  EXPECT_NE(allIssues(issues).find("retries could never happen"), std::string::npos) << allIssues(issues);
}

TEST(SessionConfig, AddressWithPort) {
  struct Case {
    const char* yaml;
    const char* host;
    int port;
  };
  const Case cases[] = {
      {"address: 127.0.0.1:1161", "127.0.0.1", 1161},
      {"address: '[::1]:1161'", "::1", 1161},
      {"address: '[2001:db8::7]'", "2001:db8::7", 161},
      {"address: 2001:db8::7", "2001:db8::7", 161},
      {"address: leaf-7.example:16100", "leaf-7.example", 16100},
      {"address: 10.0.0.1\nport: 1162", "10.0.0.1", 1162},
      {"address: 10.0.0.1:1162\nport: 1162", "10.0.0.1", 1162},
  };
  for (const auto& k : cases) {
    std::vector<ConfigIssue> issues;
    auto c = read(k.yaml, issues);
    ASSERT_TRUE(c) << k.yaml << "\n" << allIssues(issues);
    EXPECT_EQ(c->address, k.host) << k.yaml;
    EXPECT_EQ(c->port, k.port) << k.yaml;
  }
}

TEST(SessionConfig, BadHostPortIsRefusedAtCheckTime) {
  for (const char* yaml : {"address: 127.0.0.1:99999", "address: 127.0.0.1:abc", "address: '[::1'", "address: '[::1]x'",
                           "address: ':161'", "address: 127.0.0.1:1161\nport: 161"}) {
    std::vector<ConfigIssue> issues;
    EXPECT_FALSE(read(yaml, issues)) << yaml;
    EXPECT_FALSE(issues.empty()) << yaml;
  }
}

TEST(SessionConfig, V3SecretFromFileAndCredential) {
  std::string dir = ::testing::TempDir() + "/snmp-creds";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/auth") << "authpass123\n";
  std::ofstream(dir + "/priv") << "privpass456\n";
  setenv("CREDENTIALS_DIRECTORY", dir.c_str(), 1);
  std::vector<ConfigIssue> issues;
  auto c = read(
      "address: 10.0.0.1\nversion: 3\nuser: ops\nsecurity_level: authPriv\nauth_protocol: SHA-256\n"
      "auth_password_file: " +
          dir + "/auth\npriv_password_credential: priv\n",
      issues);
  ASSERT_TRUE(c) << allIssues(issues);
  EXPECT_EQ(c->auth_password, "authpass123");
  EXPECT_EQ(c->priv_password, "privpass456");
  EXPECT_EQ(c->auth_protocol, AuthProtocol::kSha256);
  EXPECT_EQ(c->describe().find("pass"), std::string::npos);
}

TEST(SessionConfig, ErrorsNeverContainSecrets) {
  std::vector<ConfigIssue> issues;
  auto c = read(
      "address: 10.0.0.1\nversion: 3\nuser: ops\nsecurity_level: authPriv\nauth_password: short7\n"
      "priv_password: alsoShort\npriv_password_file: /x\n",
      issues);
  EXPECT_FALSE(c);
  auto text = allIssues(issues);
  EXPECT_NE(text.find("at least 8"), std::string::npos) << text;
  EXPECT_NE(text.find("only one of"), std::string::npos) << text;
  EXPECT_EQ(text.find("short7"), std::string::npos);
  EXPECT_EQ(text.find("alsoShort"), std::string::npos);
}

TEST(SessionConfig, MissingSecretFileIsReported) {
  std::vector<ConfigIssue> issues;
  auto c = read("address: 10.0.0.1\ncommunity_file: /nonexistent/community\n", issues);
  EXPECT_FALSE(c);
  EXPECT_NE(allIssues(issues).find("/nonexistent/community"), std::string::npos);
}

}  // namespace
}  // namespace opticsd::snmp
