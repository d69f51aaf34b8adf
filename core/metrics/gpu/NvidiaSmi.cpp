#include "metrics/gpu/NvidiaSmi.h"

#include <charconv>
#include <cmath>

namespace sandbar::gpu {

namespace {

enum Column { Index, Uuid, Name, UtilGpu, UtilMem, MemUsed, MemTotal, Temp, Power, PowerLimit, MigMode };

constexpr std::uint64_t kMiB = 1024ULL * 1024ULL;

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::vector<std::string_view> splitCsv(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    for (;;) {
        const std::size_t comma = line.find(',', i);
        out.push_back(trim(line.substr(i, comma == std::string_view::npos ? std::string_view::npos : comma - i)));
        if (comma == std::string_view::npos)
            break;
        i = comma + 1;
    }
    return out;
}

// A non-negative finite number, with or without its unit ("37", "37 %", "72.45 W",
// "20480 MiB"). "[N/A]", "N/A", "[Not Supported]" and anything else: absent.
std::optional<double> number(std::string_view field, std::string_view unit)
{
    field = trim(field);
    if (!unit.empty() && endsWith(field, unit))
        field = trim(field.substr(0, field.size() - unit.size()));
    if (field.empty())
        return std::nullopt;
    double v = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (ec != std::errc() || end != field.data() + field.size() || !std::isfinite(v) || v < 0)
        return std::nullopt;
    return v;
}

std::optional<double> percent(std::string_view field)
{
    auto v = number(field, "%");
    if (v && *v > 100)
        return std::nullopt;
    return v;
}

std::optional<std::uint64_t> mebibytes(std::string_view field)
{
    const auto v = number(field, "MiB");
    // 1 PiB of GPU memory is garbage, not a reading (and would overflow nothing, but mislead).
    if (!v || *v > 1024.0 * 1024.0 * 1024.0)
        return std::nullopt;
    return static_cast<std::uint64_t>(std::llround(*v * double(kMiB)));
}

std::optional<int> index(std::string_view field)
{
    int v = -1;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (ec != std::errc() || end != field.data() + field.size() || v < 0 || v > 4095)
        return std::nullopt;
    return v;
}

bool isUuid(std::string_view field)
{
    if (!(startsWith(field, "GPU-") || startsWith(field, "MIG-")) || field.size() < 5 || field.size() > 96)
        return false;
    for (char c : field) {
        const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
                        c == '/' || c == '_';
        if (!ok)
            return false;
    }
    return true;
}

// nvidia-smi's placeholders for "no value": kept out of names too.
bool isPlaceholder(std::string_view field)
{
    return field.empty() || field == "N/A" || (field.front() == '[' && field.back() == ']');
}

std::string_view column(const std::vector<std::string_view> &cols, Column c)
{
    return std::size_t(c) < cols.size() ? cols[std::size_t(c)] : std::string_view();
}

} // namespace

const std::vector<std::string> &nvidiaSmiFields()
{
    // power.limit and mig.mode.current came with R450, like the NVML calls the reader needs.
    static const std::vector<std::string> fields{"index",
                                                 "uuid",
                                                 "name",
                                                 "utilization.gpu",
                                                 "utilization.memory",
                                                 "memory.used",
                                                 "memory.total",
                                                 "temperature.gpu",
                                                 "power.draw",
                                                 "power.limit",
                                                 "mig.mode.current"};
    return fields;
}

std::vector<std::string> nvidiaSmiArgv()
{
    std::string query = "--query-gpu=";
    for (std::size_t i = 0; i < nvidiaSmiFields().size(); ++i)
        query += (i ? "," : "") + nvidiaSmiFields()[i];
    return {"nvidia-smi", query, "--format=csv,noheader,nounits"};
}

SmiParse parseNvidiaSmiQuery(std::string_view text)
{
    SmiParse out;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t nl = text.find('\n', i);
        if (nl == std::string_view::npos)
            nl = text.size();
        const std::string_view line = trim(text.substr(i, nl - i));
        i = nl + 1;
        if (line.empty())
            continue;
        if (startsWith(line, "NVIDIA-SMI has failed") || startsWith(line, "Failed to initialize NVML")) {
            if (out.failure.empty())
                out.failure = std::string(line);
            continue;
        }
        const std::vector<std::string_view> cols = splitCsv(line);
        const auto idx = index(column(cols, Index));
        if (!idx || !isUuid(column(cols, Uuid))) {
            ++out.skippedLines; // a header, a warning, a MIG listing, "No devices were found", garbage
            continue;
        }
        DeviceInfo d;
        d.index = *idx;
        d.uuid = std::string(column(cols, Uuid));
        if (!isPlaceholder(column(cols, Name)))
            d.name = std::string(column(cols, Name));
        d.utilizationGpuPercent = percent(column(cols, UtilGpu));
        d.utilizationMemoryPercent = percent(column(cols, UtilMem));
        d.memoryUsedBytes = mebibytes(column(cols, MemUsed));
        d.memoryTotalBytes = mebibytes(column(cols, MemTotal));
        d.temperatureC = number(column(cols, Temp), "C");
        d.powerWatts = number(column(cols, Power), "W");
        d.powerLimitWatts = number(column(cols, PowerLimit), "W");
        d.mig = column(cols, MigMode) == "Enabled";
        if (d.mig) { // the whole GPU's figures would mislead next to its slices
            d.utilizationGpuPercent.reset();
            d.utilizationMemoryPercent.reset();
        }
        out.devices.push_back(std::move(d));
    }
    return out;
}

} // namespace sandbar::gpu
