// occ/io/url.hpp — a scenario (a JSON object) as a URL query / fragment, and back.
//
// The web page keeps its whole scenario in the URL hash so a link can be shared, e.g.
//   #gpu=A100-SXM4-80GB&threads=256&regs=64&smem_dynamic=48K&optin=true&view.memory=false
// Rules (decode(encode(x)) == x for every JSON object x):
//   - nested objects are flattened with dotted keys:  {"view": {"memory": false}} → view.memory=false
//   - numbers, true, false, null are written as JSON;  arrays and empty objects as compact JSON
//     (block=[32,8,1]);  strings as themselves, with a leading ' when they would otherwise read as
//     another type ("'256" is the string "256")
//   - keys and values are percent-encoded (space as %20; '+' is read as a space, as in forms)
//   - an object whose keys cannot be written this way (empty, or with characters other than
//     letters, digits, '_' and '-') is written as percent-encoded compact JSON: #%7B...%7D
// A bare key (#optin) reads as true. Duplicate keys, bad percent escapes and bad JSON values are
// errors with a message, never a crash.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "occ/result.hpp"

namespace occ::io {

using json = nlohmann::ordered_json;

// `obj` must be a JSON object (anything else is wrapped as {"value": obj}). No leading '#'.
std::string encode_url_query(const json& obj);
// Accepts the text with or without a leading '#' or '?'. The empty text gives {}.
Result<json> decode_url_query(std::string_view text);

// The RFC 7396 merge patch that turns `base` into `target` (objects are diffed key by key, a key
// missing from `target` becomes null, anything else is replaced whole), so that
// base.merge_patch(merge_patch_diff(base, target)) == target when `target` holds no nulls.
// The web page stores only what differs from the default scenario in the URL.
json merge_patch_diff(const json& base, const json& target);

// Percent-encoding helpers (RFC 3986 unreserved characters are kept as they are).
std::string percent_encode(std::string_view text);
Result<std::string> percent_decode(std::string_view text, bool plus_is_space = true);

}  // namespace occ::io
