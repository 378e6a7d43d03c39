#include "drivers/snmp/session_config.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

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
  EXPECT_EQ(c->timeout.count(), 500);
  EXPECT_EQ(c->describe().find("s3cret"), std::string::npos);
}

TEST(SessionConfig, V3SecretFromFileAndCredential) {
  std::string dir = ::testing::TempDir() + "/snmp-creds";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/auth") << "authpass123\n";
  std::ofstream(dir + "/priv") << "privpass456\n";
  setenv("CREDENTIALS_DIRECTORY", dir.c_str(), 1);
  std::vector<ConfigIssue> issues;
  auto c = read("address: 10.0.0.1\nversion: 3\nuser: ops\nsecurity_level: authPriv\nauth_protocol: SHA-256\n"
                "auth_password_file: " + dir + "/auth\npriv_password_credential: priv\n",
                issues);
  ASSERT_TRUE(c) << allIssues(issues);
  EXPECT_EQ(c->auth_password, "authpass123");
  EXPECT_EQ(c->priv_password, "privpass456");
  EXPECT_EQ(c->auth_protocol, AuthProtocol::kSha256);
  EXPECT_EQ(c->describe().find("pass"), std::string::npos);
}

TEST(SessionConfig, ErrorsNeverContainSecrets) {
  std::vector<ConfigIssue> issues;
  auto c = read("address: 10.0.0.1\nversion: 3\nuser: ops\nsecurity_level: authPriv\nauth_password: short7\n"
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
