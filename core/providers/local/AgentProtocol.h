#pragma once

// The framed protocol between the Local provider and sandbar-agent (which runs inside the
// sandbox). Plain C++ and nlohmann::json only: the agent links no Qt.
//
// A frame is a 9-byte header, big-endian: u32 payload length, u8 type, u32 channel,
// followed by the payload. Control frames carry JSON; data frames carry raw bytes.
// The channel is chosen by the client per request; every answer carries it back.

#include <cstddef>
#include <cstdint>
#include <string>

namespace sandbar::local::wire {

inline constexpr int kProtocolVersion = 1;
inline constexpr std::size_t kHeaderSize = 9;
inline constexpr std::size_t kMaxPayload = 1u << 20; // larger frames are garbage, not data
inline constexpr std::size_t kChunkSize = 64u * 1024u;

enum class FrameType : std::uint8_t {
    Hello = 1,    // agent -> client on connect: {"version", "agentPid"}
    Reply = 2,    // {"...": ...} answer to a request on the same channel
    Error = 3,    // {"code", "message"}
    Shutdown = 4, // {} the agent ends the sandbox
    SetTtl = 5,   // {"deadlineMs": epoch ms, 0 = none}
    Stats = 6,    // {} -> Reply {"cpuNs","rssBytes","pids","rxBytes","txBytes","monoNs"}

    OpenPty = 10,   // {"argv","env","cwd","cols","rows"} -> Reply {"id"}, then PtyData...
    AttachPty = 11, // {"id"} -> Reply {"id"}, replay as PtyData, then live PtyData
    PtyData = 12,   // raw output
    PtyInput = 13,  // raw input
    Resize = 14,    // {"cols","rows"}
    PtyExit = 15,   // {"code"}
    ClosePty = 16,  // {} hang up the program
    ListPtys = 17,  // {} -> Reply {"ptys": [{"id","argv","exited","code"}]}

    Exec = 20,      // {"argv","env","cwd","stdin": bool} -> Reply {"pid"}
    ExecStdin = 21, // raw
    ExecStdinEof = 22,
    ExecStdout = 23, // raw
    ExecStderr = 24, // raw
    ExecExit = 25,   // {"code"}

    FileList = 30, // {"path"} -> Reply {"entries": [...]}
    FileGet = 31,  // {"path"} -> Reply {"size"}, FileData..., FileEnd
    FilePut = 32,  // {"path","mode","dir": bool} -> Reply {} (ready), FileData..., FileEnd -> Reply {}
    FileData = 33, // raw
    FileEnd = 34,  // {}
};

bool isKnownType(std::uint8_t type);
const char *typeName(FrameType type);

struct Frame {
    FrameType type = FrameType::Error;
    std::uint32_t channel = 0;
    std::string payload;
};

std::string encode(FrameType type, std::uint32_t channel, const std::string &payload);
inline std::string encode(const Frame &f)
{
    return encode(f.type, f.channel, f.payload);
}

// Incremental decoder: feed bytes as they arrive, take frames out one by one. Once it
// reports an error the stream is unusable (framing is lost) and the peer must be dropped.
class Decoder
{
public:
    enum class Status { NeedMore, Ok, Error };

    void feed(const char *data, std::size_t size);
    void feed(const std::string &bytes) { feed(bytes.data(), bytes.size()); }
    Status next(Frame &out);
    const std::string &error() const { return m_error; }
    std::size_t buffered() const { return m_buf.size() - m_pos; }

private:
    std::string m_buf;
    std::size_t m_pos = 0;
    std::string m_error;
};

} // namespace sandbar::local::wire
