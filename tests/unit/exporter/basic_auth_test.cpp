#include "daemon/exporter/basic_auth.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

TEST(BasicAuth, AcceptsOnlyTheExactCredentials) {
  // base64("prometheus:s3cret"), base64("prometheus:s3cre"), base64("promethe:s3cret")
  EXPECT_TRUE(basicAuthMatches("Basic cHJvbWV0aGV1czpzM2NyZXQ=", "prometheus", "s3cret"));
  EXPECT_FALSE(basicAuthMatches("Basic cHJvbWV0aGV1czpzM2NyZQ==", "prometheus", "s3cret"));
  EXPECT_FALSE(basicAuthMatches("Basic cHJvbWV0aGU6czNjcmV0", "prometheus", "s3cret"));
}

TEST(BasicAuth, PasswordMayContainColons) {
  // base64("u:a:b")
  EXPECT_TRUE(basicAuthMatches("Basic dTphOmI=", "u", "a:b"));
}

TEST(BasicAuth, MalformedHeadersAreRejected) {
  EXPECT_FALSE(basicAuthMatches("", "u", "p"));
  EXPECT_FALSE(basicAuthMatches("Basic ", "u", "p"));
  EXPECT_FALSE(basicAuthMatches("Bearer dTpw", "u", "p"));
  EXPECT_FALSE(basicAuthMatches("Basic dTpw!!", "u", "p"));  // not base64
  EXPECT_FALSE(basicAuthMatches("Basic dXA=", "u", "p"));    // "up": no colon
  EXPECT_TRUE(basicAuthMatches("Basic dTpw", "u", "p"));     // "u:p", unpadded
}

// The client's header: RFC 7617 section 2's example, and what the server accepts.
TEST(BasicAuth, ClientHeader) {
  EXPECT_EQ(basicAuthorization("Aladdin", "open sesame"), "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
  EXPECT_TRUE(basicAuthMatches(basicAuthorization("u", "a:b"), "u", "a:b"));
  EXPECT_TRUE(basicAuthMatches(basicAuthorization("opticsd", "pw"), "opticsd", "pw"));
  EXPECT_FALSE(basicAuthMatches(basicAuthorization("opticsd", "pw"), "opticsd", "pw2"));
}

}  // namespace
}  // namespace opticsd
