#pragma once
// The TLS side of an https:// remote-write url: the receiver's certificate
// is verified (against tls_ca_file, else the system's CAs) and must name the
// url's host; a client certificate is presented when one is configured.

#include <boost/asio/ssl/context.hpp>
#include <memory>

#include "daemon/remote_write/remote_write_config.hpp"
#include "drivers/result.hpp"

namespace opticsd {

// Fails with which file could not be loaded and why (never file contents).
Result<std::shared_ptr<boost::asio::ssl::context>> makeRemoteWriteTlsContext(const RemoteWriteConfig& config);

}  // namespace opticsd
