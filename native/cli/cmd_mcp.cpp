// cmd_mcp.cpp — `occ mcp`: a Model Context Protocol server on stdin/stdout (docs/MCP.md).
// The stdio transport of the MCP specification (2025-06-18, basic/transports): one JSON-RPC message
// per line, each way; nothing but messages on stdout. The protocol is occ::io::mcp_reply; this loop
// only reads lines (never more than kMcpMaxMessage bytes of one: a longer line is skipped to its
// end and answered with an error) and writes the replies.
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <string>

#include "cli.hpp"
#include "occ/io/mcp.hpp"

namespace occ::cli {

namespace {

bool write_line(const std::string& s) {
    std::string out = s;
    out += '\n';
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::write(STDOUT_FILENO, out.data() + done, out.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// Reads stdin with read(2), which returns what has arrived: a client waits for each reply before it
// sends more, so a buffered reader that waits to fill its buffer would never answer.
int serve() {
    io::McpSession session;
    std::string line;
    std::size_t skipped = 0;  // bytes of an over-long line, dropped as they arrive
    bool skipping = false;
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        for (ssize_t i = 0; i < n; ++i) {
            const char c = buf[i];
            if (c != '\n') {
                if (skipping) ++skipped;
                else if (line.size() < io::kMcpMaxMessage) line += c;
                else {
                    skipping = true;
                    skipped = line.size() + 1;
                    std::string().swap(line);
                }
                continue;
            }
            const std::string reply = skipping ? io::mcp_too_large(skipped) : io::mcp_reply(line, session);
            skipping = false;
            skipped = 0;
            line.clear();
            if (!reply.empty() && !write_line(reply)) return kExitOk;  // the client went away
        }
    }
    // A last message without its newline is still a message.
    const std::string reply = skipping ? io::mcp_too_large(skipped) : io::mcp_reply(line, session);
    if (!reply.empty()) write_line(reply);
    return kExitOk;
}

}  // namespace

void add_mcp(CLI::App& app, Outcome& out) {
    auto* cmd = app.add_subcommand("mcp",
                                   "Model Context Protocol server on stdin/stdout: one tool per request kind (docs/MCP.md); "
                                   "register it in an MCP client as command \"occ\", args [\"mcp\"]");
    cmd->callback([&out] {
        std::signal(SIGPIPE, SIG_IGN);  // a closed stdout ends the loop instead of the process
        out.code = serve();
    });
}

}  // namespace occ::cli
