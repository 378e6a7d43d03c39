#pragma once
// `opticsd explain TARGET PORT`: one optic's story in the terminal, for
// people on SSH: what it is, its lanes, its findings with what to do, its
// history summarised, swaps and the far end; read from the history file
// (the same story as the optic's page, daemon/web/optic_story.hpp).
//
// With the daemon's config (--config), the link's far end comes from its
// `topology:`: a far end this instance polls is read from the same history;
// one another instance serves (`instances:`) is fetched from that instance's
// JSON, as the optic's page does (daemon/web/remote_far_end.hpp), within a
// bounded time. An instance that cannot be reached, or answers something
// else, is said in one line and the rest of the story is printed anyway.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "daemon/config/config.hpp"
#include "daemon/web/http_fetch.hpp"
#include "daemon/web/optic_story.hpp"
#include "daemon/web/page_data.hpp"

namespace opticsd::cli {

// The story of request's optic from `history` (nullopt: no history of the
// port), its far end found through `config` when given.
std::optional<web::OpticStory> explainStory(const web::PageData& history, const Config* config,
                                            const web::StoryRequest& request, const web::FetchOptions& fetch = {});

void addExplainCommand(CLI::App& app, int& exit_code);

}  // namespace opticsd::cli
