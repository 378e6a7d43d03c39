#pragma once
// Where secrets come from: a file readable only by the service, or a systemd
// credential. One reader for every secret (SNMP communities and passwords,
// gNMI and remote-write credentials, the /metrics basic-auth password), so
// they all trim, refuse and report the same way. No error contains a secret.

#include <string>

#include "drivers/result.hpp"

namespace opticsd {

// The first line of the file, its line ending dropped; an empty secret is an
// error.
Result<std::string> readSecretFile(const std::string& path);

// $CREDENTIALS_DIRECTORY/name, read as readSecretFile reads a file.
Result<std::string> readCredential(const std::string& name);

}  // namespace opticsd
