#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/beast/core/error.hpp>

namespace opticsd {

// Runs one asynchronous Beast operation on `io` to its end and returns its
// error. Beast's stream deadlines (expires_after) bound asynchronous
// operations only: a blocking connect, write or read towards a peer that
// accepts and then stays silent would hold the caller forever. The HTTP
// clients (remote write, the fetch from other instances) set a deadline on
// their stream and run every step through this.
template <class Start>
boost::beast::error_code runBoundedStep(boost::asio::io_context& io, Start start) {
  boost::beast::error_code result;
  start([&result](boost::beast::error_code ec, auto&&...) { result = ec; });
  io.restart();
  io.run();
  return result;
}

}  // namespace opticsd
