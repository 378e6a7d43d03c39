// The file checks run at load, so check-config refuses what run would.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "daemon/config/config.hpp"
#include "drivers/registry.hpp"

namespace opticsd {
namespace {

const std::string kTarget = "targets: [{name: a, driver: sim}]\n";
const std::string kTlsDir = std::string(OPTICSD_SOURCE_DIR) + "/tests/fixtures/tls/";

class ConfigFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("opticsd-config-files-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "a-file") << "x\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The messages of every issue, one per line.
  std::string problems(const std::string& text) {
    auto result = loadConfigText(text, "t.yaml");
    return result ? "" : result.error().format();
  }

  std::filesystem::path dir_;
};

TEST_F(ConfigFiles, StoragePathThatIsADirectoryOrUnderAFileIsRefused) {
  EXPECT_NE(problems("storage: {path: " + dir_.string() + "}\n" + kTarget).find("t.yaml:1:17: storage.path: "),
            std::string::npos);
  EXPECT_NE(problems("storage: {path: " + (dir_ / "a-file/x/history.db").string() + "}\n" + kTarget)
                .find("which is not a directory"),
            std::string::npos);
  EXPECT_EQ(problems("storage: {path: " + (dir_ / "new/dir/history.db").string() + "}\n" + kTarget), "");
  EXPECT_EQ(problems("storage: {enabled: false, path: " + dir_.string() + "}\n" + kTarget), "");
}

TEST_F(ConfigFiles, MissingSecretAndTlsFilesAreRefusedAtTheirKey) {
  EXPECT_NE(
      problems("listen: {basic_auth_user: p, basic_auth_password_file: " + (dir_ / "none").string() + "}\n" + kTarget)
          .find("listen.basic_auth_password_file: cannot read"),
      std::string::npos);
  EXPECT_NE(problems("listen: {tls_cert_file: " + (dir_ / "none.crt").string() + ", tls_key_file: " + kTlsDir +
                     "localhost.key}\n" + kTarget)
                .find("listen.tls_cert_file: cannot read"),
            std::string::npos);
  EXPECT_NE(problems("listen: {tls_cert_file: " + (dir_ / "a-file").string() + ", tls_key_file: " + kTlsDir +
                     "localhost.key}\n" + kTarget)
                .find("cannot load TLS certificate"),
            std::string::npos);
  EXPECT_EQ(problems("listen: {tls_cert_file: " + kTlsDir + "localhost.crt, tls_key_file: " + kTlsDir +
                     "localhost.key}\n" + kTarget),
            "");
}

TEST_F(ConfigFiles, AMissingDirectoryInADirectoryListIsRefused) {
  if (findDriver("snmp") == nullptr) GTEST_SKIP() << "built without the snmp driver";
  EXPECT_NE(problems("targets: [{name: s, driver: snmp, address: 127.0.0.1, community: c, profile_dir: " +
                     (dir_ / "none").string() + "}]\n")
                .find("targets[0].profile_dir: '" + (dir_ / "none").string() + "' is not a directory"),
            std::string::npos);
}

}  // namespace
}  // namespace opticsd
