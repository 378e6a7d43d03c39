#include "drivers/gnmi/gnmi_options.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

namespace opticsd::gnmi {
namespace {

std::optional<GnmiOptions> read(const std::string& yaml, std::vector<ConfigIssue>& issues) {
  OptionReader reader(YAML::Load(yaml), "t.yaml", "targets[0]", issues);
  auto out = readGnmiOptions(reader);
  reader.rejectUnknownKeys();
  return out;
}

std::string allIssues(const std::vector<ConfigIssue>& issues) {
  std::string out;
  for (const auto& i : issues) out += i.format() + "\n";
  return out;
}

TEST(GnmiOptions, DefaultsAndTheIntervalAsSampleInterval) {
  std::vector<ConfigIssue> issues;
  auto o = read("address: 10.0.0.1:6030\ninterval: 15s\nusername: ops\npassword: hunter2-secret\n", issues);
  ASSERT_TRUE(o) << allIssues(issues);
  EXPECT_EQ(o->variant->name, "openconfig");
  EXPECT_EQ(o->sample_interval.count(), 15000);
  EXPECT_EQ(o->stale_after.count(), 45000);
  EXPECT_TRUE(o->tls);
  EXPECT_EQ(o->mode, SubscribeMode::kStream);
  EXPECT_EQ(o->describe().find("hunter2"), std::string::npos);
  EXPECT_NE(o->describe().find("user=ops"), std::string::npos);
}

TEST(GnmiOptions, WithoutAnIntervalTheSampleIntervalFollowsThePollInterval) {
  std::vector<ConfigIssue> issues;
  auto bare = read("address: 10.0.0.1:6030\n", issues);
  ASSERT_TRUE(bare) << allIssues(issues);
  auto polled = bare->forPollInterval(std::chrono::seconds(60));
  EXPECT_EQ(polled.sample_interval.count(), 60000);
  EXPECT_EQ(polled.stale_after.count(), 180000);
  // Not known (a driver created by hand): the default stays.
  EXPECT_EQ(bare->forPollInterval(std::chrono::milliseconds(0)).sample_interval.count(), 10000);

  auto given = read("address: 10.0.0.1:6030\nsample_interval: 5s\nstale_after: 7s\n", issues);
  ASSERT_TRUE(given) << allIssues(issues);
  auto kept = given->forPollInterval(std::chrono::seconds(60));
  EXPECT_EQ(kept.sample_interval.count(), 5000);
  EXPECT_EQ(kept.stale_after.count(), 7000);

  auto own = read("address: 10.0.0.1:6030\ninterval: 15s\n", issues);
  ASSERT_TRUE(own) << allIssues(issues);
  EXPECT_EQ(own->forPollInterval(std::chrono::seconds(15)).stale_after.count(), 45000);
}

TEST(GnmiOptions, PasswordFromAFileNeverInTheErrors) {
  const auto dir = std::filesystem::temp_directory_path() / "opticsd-gnmi-options-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "pass") << "s3cret-from-file\n";
  std::vector<ConfigIssue> issues;
  auto o = read("address: a:1\nusername: u\npassword_file: " + (dir / "pass").string() + "\n", issues);
  ASSERT_TRUE(o) << allIssues(issues);
  EXPECT_EQ(o->password, "s3cret-from-file");
  issues.clear();
  EXPECT_FALSE(read("address: a:1\nusername: u\npassword: x\npassword_file: /nonexistent\n", issues));
  EXPECT_NE(allIssues(issues).find("give only one of"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(GnmiOptions, ClearErrorsForBadValues) {
  std::vector<ConfigIssue> issues;
  EXPECT_FALSE(
      read("address: 10.0.0.1\nvariant: junos-magic\nencoding: xml\nmode: sometimes\n"
           "channel_base: 2\nmax_message_size: 10\nreconnect_min: 10s\nreconnect_max: 1s\npassword: p\nca_file: "
           "/nonexistent\n",
           issues));
  const std::string all = allIssues(issues);
  for (const char* expected :
       {"host:port", "unknown gNMI variant 'junos-magic' (known: openconfig, cumulus, srlinux, sonic, junos, iosxr)",
        "expected auto, 0 or 1", "expected auto, proto, json_ietf or json", "expected stream, once or poll",
        "1KiB..1GiB", "shorter than reconnect_min", "a password needs a username", "cannot read /nonexistent"}) {
    EXPECT_NE(all.find(expected), std::string::npos) << expected << "\n" << all;
  }
}

TEST(GnmiOptions, ChannelBaseOverride) {
  std::vector<ConfigIssue> issues;
  auto one = read("address: a:1\nchannel_base: 1\n", issues);
  ASSERT_TRUE(one) << allIssues(issues);
  EXPECT_EQ(one->channel_base, 1);
  auto zero = read("address: a:1\nchannel_base: 0\n", issues);
  ASSERT_TRUE(zero) << allIssues(issues);
  EXPECT_EQ(zero->channel_base, 0);
  auto detect = read("address: a:1\nchannel_base: auto\n", issues);
  ASSERT_TRUE(detect) << allIssues(issues);
  EXPECT_FALSE(detect->channel_base);
}

TEST(GnmiOptions, VariantFileIsLoadedOrItsErrorSaid) {
  const auto dir = std::filesystem::temp_directory_path() / "opticsd-gnmi-variant-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "good.yaml") << "name: mine\nextends: openconfig\n";
  std::ofstream(dir / "bad.yaml") << "name: mine\nextends: nosuch\n";
  std::vector<ConfigIssue> issues;
  auto good = read("address: a:1\nvariant_file: " + (dir / "good.yaml").string() + "\n", issues);
  ASSERT_TRUE(good) << allIssues(issues);
  EXPECT_EQ(good->variant->name, "mine");
  EXPECT_EQ(good->forPollInterval(std::chrono::seconds(5)).variant->name, "mine");  // copies share the file
  issues.clear();
  EXPECT_FALSE(read("address: a:1\nvariant_file: " + (dir / "bad.yaml").string() + "\n", issues));
  EXPECT_NE(allIssues(issues).find("bad.yaml:2:10: extends an unknown variant 'nosuch'"), std::string::npos)
      << allIssues(issues);
  std::filesystem::remove_all(dir);
}

TEST(GnmiOptions, VariantDirAddsVariantsAndReplacesShippedOnes) {
  const auto dir = std::filesystem::temp_directory_path() / "opticsd-gnmi-variant-dir-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // A shipped name replaces the shipped variant (and may extend it); another
  // file extends the replacement by its file name.
  std::ofstream(dir / "openconfig.yaml")
      << "name: openconfig\nextends: openconfig\nrules:\n"
         "  - {path: \"/components/component[name=$component]/transceiver/state/laser-temp\", "
         "module: laser_temperature_celsius}\n";
  std::ofstream(dir / "acme.yaml") << "name: acme\nextends: openconfig\nsummary: ACME\n";
  std::ofstream(dir / "notes.txt") << "not a variant";
  std::vector<ConfigIssue> issues;
  const std::string dir_key = "address: a:1\nvariant_dir: " + dir.string() + "\n";
  auto replaced = read(dir_key, issues);
  ASSERT_TRUE(replaced) << allIssues(issues);
  EXPECT_EQ(replaced->variant->name, "openconfig");
  EXPECT_EQ(replaced->variant->rules.size(), findVendorVariant("openconfig")->rules.size() + 1);
  auto acme = read(dir_key + "variant: acme\n", issues);
  ASSERT_TRUE(acme) << allIssues(issues);
  EXPECT_EQ(acme->variant->summary, "ACME");
  EXPECT_EQ(acme->variant->rules.size(), findVendorVariant("openconfig")->rules.size() + 1);
  EXPECT_EQ(acme->forPollInterval(std::chrono::seconds(5)).variant->name, "acme");  // copies share the directory
  // Without the directory the shipped variant is as it was.
  auto plain = read("address: a:1\n", issues);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->variant->rules.size(), findVendorVariant("openconfig")->rules.size());

  // Read again (as a reload does) after an edit: a bad file fails with file:line:col.
  std::ofstream(dir / "acme.yaml") << "name: acme\nextends: openconfig\nrules:\n  - {path: /a/b, lane: no_such}\n";
  issues.clear();
  EXPECT_FALSE(read(dir_key + "variant: acme\n", issues));
  EXPECT_NE(allIssues(issues).find("acme.yaml:4:24: no lane metric 'no_such'"), std::string::npos) << allIssues(issues);
  EXPECT_EQ(allIssues(issues).find("unknown gNMI variant"), std::string::npos) << allIssues(issues);
  // A file whose name: is not its file name is refused.
  std::ofstream(dir / "acme.yaml") << "name: other\nextends: openconfig\n";
  issues.clear();
  EXPECT_FALSE(read(dir_key, issues));
  EXPECT_NE(allIssues(issues).find("name 'other' must be the file's name"), std::string::npos) << allIssues(issues);
  std::filesystem::remove_all(dir);
  issues.clear();
  EXPECT_FALSE(read(dir_key, issues));
  EXPECT_NE(allIssues(issues).find("is not a directory"), std::string::npos) << allIssues(issues);
}

TEST(GnmiOptions, UnknownKeysAreReported) {
  std::vector<ConfigIssue> issues;
  read("address: a:1\nsample_intervall: 5s\n", issues);
  EXPECT_NE(allIssues(issues).find("sample_intervall"), std::string::npos);
}

}  // namespace
}  // namespace opticsd::gnmi
