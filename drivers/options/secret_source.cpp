#include "drivers/options/secret_source.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace opticsd {

Result<std::string> readSecretFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot read secret file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  std::string secret = text.str();
  if (auto nl = secret.find('\n'); nl != std::string::npos) secret.resize(nl);
  if (!secret.empty() && secret.back() == '\r') secret.pop_back();
  if (secret.empty()) return fail("secret file " + path + " is empty");
  return secret;
}

Result<std::string> readCredential(const std::string& name) {
  const char* dir = std::getenv("CREDENTIALS_DIRECTORY");
  if (!dir || !*dir) return fail("systemd credential '" + name + "' requested but CREDENTIALS_DIRECTORY is not set");
  if (name.empty() || name.find('/') != std::string::npos) return fail("bad credential name '" + name + "'");
  return readSecretFile(std::string(dir) + "/" + name);
}

}  // namespace opticsd
