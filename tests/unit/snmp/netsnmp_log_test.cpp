// net-snmp's own log output goes through opticsd's logger (spdlog), joined
// into whole lines, rate-limited, at a sane level, with live secrets cut out.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <sstream>

// clang-format off
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
// clang-format on

#include "drivers/snmp/netsnmp_log.hpp"

namespace opticsd::snmp {
namespace {

// spdlog's default logger replaced by one writing to a string, for a scope.
class LogCapture {
 public:
  LogCapture() : previous_(spdlog::default_logger()) {
    auto logger = std::make_shared<spdlog::logger>("capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(text_));
    logger->set_pattern("level=%l %v");
    logger->set_level(spdlog::level::trace);
    spdlog::set_default_logger(logger);
  }
  ~LogCapture() { spdlog::set_default_logger(previous_); }
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::shared_ptr<spdlog::logger> previous_;
};

TEST(NetSnmpLog, SecretsOfLiveSessionsAreRedacted) {
  EXPECT_EQ(redactSecrets("auth s3cretPass here"), "auth s3cretPass here");
  {
    SecretGuard guard({"s3cretPass", "", "community9"});
    SecretGuard twice({"s3cretPass"});
    EXPECT_EQ(redactSecrets("auth s3cretPass here, s3cretPass again; community9"),
              "auth <redacted> here, <redacted> again; <redacted>");
  }
  EXPECT_EQ(redactSecrets("auth s3cretPass"), "auth s3cretPass") << "released with the last guard";
}

TEST(NetSnmpLog, LinesGoToTheLoggerNotStderr) {
  routeNetSnmpLogging();
  LogCapture capture;
  ::testing::internal::CaptureStderr();
  SecretGuard guard({"hunter2hunter2"});
  snmp_log(LOG_ERR, "unit-test: first part, ");
  snmp_log(LOG_ERR, "second part\n");
  snmp_log(LOG_ERR, "unit-test: key hunter2hunter2 refused\n");
  snmp_log(LOG_ERR, "unit-test: repeated\n");
  snmp_log(LOG_ERR, "unit-test: repeated\n");
  snmp_log(LOG_ERR, "unit-test: repeated\n");
  snmp_log(LOG_INFO, "unit-test: chatter\n");
  snmp_log(LOG_DEBUG, "unit-test: debug \"quoted\"\n");
  snmp_log(LOG_CRIT, "unit-test: critical\n");
  const std::string err = ::testing::internal::GetCapturedStderr();
  const std::string log = capture.text();
  EXPECT_EQ(err, "");
  EXPECT_NE(log.find("level=warning driver=snmp source=net-snmp message=\"unit-test: first part, second part\"\n"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("message=\"unit-test: key <redacted> refused\""), std::string::npos) << log;
  EXPECT_EQ(log.find("hunter2hunter2"), std::string::npos) << log;
  std::size_t repeats = 0;
  for (auto at = log.find("unit-test: repeated"); at != std::string::npos;
       at = log.find("unit-test: repeated", at + 1)) {
    ++repeats;
  }
  EXPECT_EQ(repeats, 1u) << "the same line at most once a minute:\n" << log;
  EXPECT_NE(log.find("level=debug driver=snmp source=net-snmp message=\"unit-test: chatter\""), std::string::npos)
      << log;
  EXPECT_NE(log.find("level=trace driver=snmp source=net-snmp message=\"unit-test: debug \\\"quoted\\\"\""),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("level=error driver=snmp source=net-snmp message=\"unit-test: critical\""), std::string::npos)
      << log;
}

}  // namespace
}  // namespace opticsd::snmp
