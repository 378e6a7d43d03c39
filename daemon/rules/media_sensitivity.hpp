#pragma once
// Receiver levels of standard Ethernet media, for modules that advertise no
// Rx power thresholds of their own: below a medium's "average receive power,
// each lane (min)" no received signal can be compliant, so that is where a
// long-reach receiver starts to be low, not at a level meant for short reach.

#include <optional>
#include <string_view>

namespace opticsd {

struct MediaRxLevels {
  const char* media;      // as identity.media names it, e.g. "100GBASE-ER4"
  double avg_rx_min_dbm;  // average receive power, each lane (min)
  const char* source;     // the clause and table it comes from
};

// The levels of the medium named in `media` (a whole-word, case-insensitive
// match, so "100GBASE-LR4" never matches "10GBASE-LR"); none when unknown.
std::optional<MediaRxLevels> mediaRxLevels(std::string_view media);

// How far below avg_rx_min_dbm a lane is critical: half the least power a
// compliant link may deliver, which no healthy receiver sees.
inline constexpr double kMediaCriticalMarginDb = 3.0;

}  // namespace opticsd
