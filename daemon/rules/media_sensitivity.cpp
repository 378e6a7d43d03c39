#include "daemon/rules/media_sensitivity.hpp"

#include <array>
#include <cctype>

namespace opticsd {

namespace {

// IEEE 802.3 (2022 edition unless noted) receive characteristics tables;
// 100GBASE-CWDM4 is the CWDM4 MSA's, not an IEEE PMD.
constexpr std::array kMedia = {
    MediaRxLevels{"10GBASE-SR", -9.9, "IEEE 802.3 cl. 52, Table 52-9"},
    MediaRxLevels{"10GBASE-LR", -14.4, "IEEE 802.3 cl. 52, Table 52-13"},
    MediaRxLevels{"10GBASE-ER", -15.8, "IEEE 802.3 cl. 52, Table 52-17"},
    MediaRxLevels{"25GBASE-SR", -10.3, "IEEE 802.3 cl. 112, Table 112-8"},
    MediaRxLevels{"25GBASE-LR", -13.3, "IEEE 802.3 cl. 114, Table 114-8"},
    MediaRxLevels{"100GBASE-SR4", -10.3, "IEEE 802.3 cl. 95, Table 95-8"},
    MediaRxLevels{"100GBASE-LR4", -10.6, "IEEE 802.3 cl. 88, Table 88-8"},
    MediaRxLevels{"100GBASE-ER4", -20.9, "IEEE 802.3 cl. 88, Table 88-8"},
    MediaRxLevels{"100GBASE-CWDM4", -11.5, "CWDM4 MSA rev 1.1, Table 6"},
    MediaRxLevels{"400GBASE-DR4", -5.9, "IEEE 802.3 cl. 124, Table 124-7"},
    MediaRxLevels{"400GBASE-FR4", -7.3, "IEEE 802.3cu cl. 151, Table 151-7"},
    MediaRxLevels{"800GBASE-DR8", -5.9, "IEEE 802.3df cl. 124, Table 124-7"},
};

bool sameLetter(char a, char b) {
  return std::toupper(static_cast<unsigned char>(a)) == std::toupper(static_cast<unsigned char>(b));
}

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// `name` appears in `text` as a whole word (not inside a longer media name).
bool containsWord(std::string_view text, std::string_view name) {
  if (name.size() > text.size()) return false;
  for (std::size_t at = 0; at + name.size() <= text.size(); ++at) {
    bool match = true;
    for (std::size_t i = 0; match && i < name.size(); ++i) match = sameLetter(text[at + i], name[i]);
    if (!match) continue;
    const bool starts = at == 0 || !isWordChar(text[at - 1]);
    const std::size_t end = at + name.size();
    const bool ends = end == text.size() || !isWordChar(text[end]);
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace

std::optional<MediaRxLevels> mediaRxLevels(std::string_view media) {
  for (const MediaRxLevels& m : kMedia) {
    if (containsWord(media, m.media)) return m;
  }
  return std::nullopt;
}

}  // namespace opticsd
