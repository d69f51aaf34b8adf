// The encodings secret_watch searches a test secret's marker in, and the search itself.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace secretwatch {

struct Pattern {
    std::string bytes;
    std::string encoding;
};

inline std::string base64(const std::string &in, bool url)
{
    const char *abc = url ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                          : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < in.size(); i += 3) {
        unsigned v = unsigned(uint8_t(in[i])) << 16;
        if (i + 1 < in.size())
            v |= unsigned(uint8_t(in[i + 1])) << 8;
        if (i + 2 < in.size())
            v |= unsigned(uint8_t(in[i + 2]));
        for (int k = 0; k < 4; ++k)
            out += abc[(v >> (18 - 6 * k)) & 63];
    }
    return out;
}

// The encodings a secret could be written in. For base64, the characters that depend on the
// marker alone, at each of the three byte alignments it could start at.
inline std::vector<Pattern> patternsFor(const std::string &m)
{
    std::vector<Pattern> out{{m, "plain"}};
    std::string utf16, hexLower, hexUpper;
    for (const char c : m) {
        utf16 += c;
        utf16 += '\0';
        char h[3];
        snprintf(h, sizeof h, "%02x", unsigned(uint8_t(c)));
        hexLower += h;
        snprintf(h, sizeof h, "%02X", unsigned(uint8_t(c)));
        hexUpper += h;
    }
    out.push_back({utf16, "UTF-16LE"});
    out.push_back({hexLower, "hex"});
    out.push_back({hexUpper, "hex"});
    for (const bool url : {false, true}) {
        for (size_t k = 0; k < 3; ++k) {
            const std::string enc = base64(std::string(k, '\0') + m, url);
            const size_t first = (8 * k + 5) / 6, last = 8 * (k + m.size()) / 6; // [first, last)
            Pattern p{enc.substr(first, last - first), url ? "base64url" : "base64"};
            if (std::none_of(out.begin(), out.end(), [&](const Pattern &q) { return q.bytes == p.bytes; }))
                out.push_back(p);
        }
    }
    return out;
}

// The secret's name: the word after the marker (letters, digits, '_'), at most 32 characters.
inline std::string nameAfter(const char *p, const char *end)
{
    std::string name;
    while (p < end && name.size() < 32 && (isalnum(uint8_t(*p)) || *p == '_'))
        name += *p++;
    return name.empty() ? std::string("(unnamed)") : name;
}

struct Hit {
    std::string name, encoding;
};

inline std::vector<Hit> search(const std::string &data, const std::vector<Pattern> &patterns, const std::string &marker)
{
    std::vector<Hit> hits;
    for (const Pattern &p : patterns) {
        const char *at = data.data(), *end = data.data() + data.size();
        while (const void *found = memmem(at, size_t(end - at), p.bytes.data(), p.bytes.size())) {
            const char *f = static_cast<const char *>(found);
            std::string name = "(encoded)";
            if (p.encoding == "plain")
                name = nameAfter(f + marker.size(), end);
            else if (p.encoding == "UTF-16LE") {
                std::string narrow;
                for (const char *q = f + p.bytes.size(); q + 1 < end && narrow.size() < 32; q += 2)
                    narrow += *q;
                name = nameAfter(narrow.data(), narrow.data() + narrow.size());
            }
            // A secret is the marker and a name; a bare marker (a message about the convention) is not.
            if (name != "(unnamed)" && std::none_of(hits.begin(), hits.end(), [&](const Hit &h) {
                    return h.name == name && h.encoding == p.encoding;
                }))
                hits.push_back({name, p.encoding});
            at = f + 1;
        }
    }
    return hits;
}

} // namespace secretwatch
