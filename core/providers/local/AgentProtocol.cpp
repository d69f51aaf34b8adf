#include "AgentProtocol.h"

namespace sandbar::local::wire {

namespace {
void putU32(std::string &out, std::uint32_t v)
{
    out.push_back(char((v >> 24) & 0xff));
    out.push_back(char((v >> 16) & 0xff));
    out.push_back(char((v >> 8) & 0xff));
    out.push_back(char(v & 0xff));
}

std::uint32_t getU32(const char *p)
{
    const auto *u = reinterpret_cast<const unsigned char *>(p);
    return (std::uint32_t(u[0]) << 24) | (std::uint32_t(u[1]) << 16) | (std::uint32_t(u[2]) << 8) | std::uint32_t(u[3]);
}
} // namespace

const char *typeName(FrameType type)
{
    switch (type) {
    case FrameType::Hello: return "hello";
    case FrameType::Reply: return "reply";
    case FrameType::Error: return "error";
    case FrameType::Shutdown: return "shutdown";
    case FrameType::SetTtl: return "set-ttl";
    case FrameType::Stats: return "stats";
    case FrameType::OpenPty: return "open-pty";
    case FrameType::AttachPty: return "attach";
    case FrameType::PtyData: return "data";
    case FrameType::PtyInput: return "input";
    case FrameType::Resize: return "resize";
    case FrameType::PtyExit: return "exit";
    case FrameType::ClosePty: return "close-pty";
    case FrameType::ListPtys: return "list-ptys";
    case FrameType::Exec: return "exec";
    case FrameType::ExecStdin: return "stdin";
    case FrameType::ExecStdinEof: return "stdin-eof";
    case FrameType::ExecStdout: return "stdout";
    case FrameType::ExecStderr: return "stderr";
    case FrameType::ExecExit: return "exec-exit";
    case FrameType::FileList: return "file-list";
    case FrameType::FileGet: return "file-get";
    case FrameType::FilePut: return "file-put";
    case FrameType::FileData: return "file-data";
    case FrameType::FileEnd: return "file-end";
    }
    return "unknown";
}

bool isKnownType(std::uint8_t type)
{
    return std::string(typeName(FrameType(type))) != "unknown";
}

std::string encode(FrameType type, std::uint32_t channel, const std::string &payload)
{
    std::string out;
    out.reserve(kHeaderSize + payload.size());
    putU32(out, std::uint32_t(payload.size()));
    out.push_back(char(type));
    putU32(out, channel);
    out += payload;
    return out;
}

void Decoder::feed(const char *data, std::size_t size)
{
    if (!m_error.empty())
        return;
    // Compact once the consumed prefix dominates, so a long stream stays O(n).
    if (m_pos > 0 && m_pos >= m_buf.size() / 2) {
        m_buf.erase(0, m_pos);
        m_pos = 0;
    }
    m_buf.append(data, size);
}

Decoder::Status Decoder::next(Frame &out)
{
    if (!m_error.empty())
        return Status::Error;
    if (m_buf.size() - m_pos < kHeaderSize)
        return Status::NeedMore;
    const char *h = m_buf.data() + m_pos;
    const std::uint32_t length = getU32(h);
    const auto type = std::uint8_t(h[4]);
    if (!isKnownType(type)) {
        m_error = "unknown frame type " + std::to_string(type);
        return Status::Error;
    }
    if (length > kMaxPayload) {
        m_error = "frame of " + std::to_string(length) + " bytes exceeds the limit";
        return Status::Error;
    }
    if (m_buf.size() - m_pos < kHeaderSize + length)
        return Status::NeedMore;
    out.type = FrameType(type);
    out.channel = getU32(h + 5);
    out.payload.assign(h + kHeaderSize, length);
    m_pos += kHeaderSize + length;
    if (m_pos == m_buf.size()) {
        m_buf.clear();
        m_pos = 0;
    }
    return Status::Ok;
}

} // namespace sandbar::local::wire
