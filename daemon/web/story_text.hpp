#pragma once
// The optic's story as plain text for a terminal (`opticsd explain`): the
// same content as the page, without plots (each series summarised instead).
// Device strings are made printable: no escape sequence reaches the terminal.

#include <string>

#include "daemon/web/optic_story.hpp"

namespace opticsd::web {

std::string storyText(const OpticStory& story);

}  // namespace opticsd::web
