#!/usr/bin/env python3
"""Writes the committed seed corpora of the fuzz targets (tests/fuzz/corpus/TARGET/NAME).

Reproducible: the same files on every run. Each seed starts with the parameter bytes its
target reads (see the comment at the top of tests/fuzz/fuzz_TARGET.cpp). Seeds named
regress-* are inputs that once crashed a parser; they are kept as files and never
rewritten here. The terminal's seeds are plain terminal streams kept as files too, and a
provider's fuzzer keeps its seeds as files in its own folder (core/providers/ID/fuzz/corpus).
usage: make-seeds.py [CORPUS_DIR]
"""
import io
import json
import os
import struct
import sys
import tarfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(target, name, data):
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def split(seed=0x1234, piece=7):
    return bytes([seed >> 8, seed & 0xFF, piece])


# ---- HTTP replies: [flags, header budget, seed hi, seed lo, max piece] + reply ------------
def http(name, reply, flags=4, budget=255, piece=5):
    write("httpparser", name, bytes([flags, budget]) + split(0x5A17, piece)[:2] + bytes([piece]) + reply)


http("length", b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"Id\":\"abc\"}\n")
http("chunked", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n")
http("chunked-onepiece", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n1a\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n", piece=0)
http("until-close", b"HTTP/1.0 200 OK\r\nServer: x\r\n\r\nbody until the peer closes")
http("no-content", b"HTTP/1.1 204 No Content\r\nContent-Length: 99\r\n\r\n")
http("head", b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", flags=5)
http("interim", b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}")
http("upgrade", b"HTTP/1.1 101 UPGRADED\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n\x01\x00\x00\x00\x00\x00\x00\x02hi", flags=6)
http("upgrade-200", b"HTTP/1.1 200 OK\r\nContent-Type: application/vnd.docker.raw-stream\r\n\r\nraw bytes", flags=6)
http("101-unasked", b"HTTP/1.1 101 Switching Protocols\r\n\r\n")
http("cl-list", b"HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc")
http("cl-conflict", b"HTTP/1.1 200 OK\r\nContent-Length: 3, 4\r\n\r\nabcd")
http("cl-huge", b"HTTP/1.1 200 OK\r\nContent-Length: 999999999999999999\r\n\r\nabc")
http("chunk-huge", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffff\r\nabc")
http("chunk-overrun", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabcdef\r\n0\r\n\r\n")
http("folded", b"HTTP/1.1 200 OK\r\nA: b\r\n  folded\r\n\r\n")
http("bare-lf", b"HTTP/1.1 404 Not Found\nContent-Length: 26\n\n{\"message\":\"no such x\"}\n\n")
http("tiny-budget", b"HTTP/1.1 200 OK\r\n" + b"X-Long: " + b"a" * 300 + b"\r\n\r\n", budget=4)
http("not-http", b"SSH-2.0-OpenSSH_9.2\r\n")
http("truncated-headers", b"HTTP/1.1 200 OK\r\nContent-Le")
http("truncated-body", b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")

# ---- Connect envelopes: [seed hi, seed lo, max piece] + stream ----------------------------
def env(flags, msg):
    return bytes([flags]) + struct.pack(">I", len(msg)) + msg


write("connectenvelope", "stream", split() + env(0, b'{"event":{"start":{"pid":42}}}') + env(0, b'{"event":{"data":{"stdout":"aGVsbG8="}}}') + env(2, b"{}"))
write("connectenvelope", "end-error", split(0x0101, 1) + env(2, b'{"error":{"code":"not_found","message":"no such sandbox"},"metadata":{}}'))
write("connectenvelope", "end-empty", split(0, 0) + env(2, b""))
write("connectenvelope", "compressed", split() + env(1, b"\x1f\x8b"))
write("connectenvelope", "bad-flags", split() + env(0x80, b"{}"))
write("connectenvelope", "too-large", split() + bytes([0]) + struct.pack(">I", 0x7FFFFFFF) + b"x")
write("connectenvelope", "truncated", split() + env(0, b'{"a":1}')[:-2])
write("grpcwire", "messages", split() + env(0, b"\x0a\x05sb-01") + env(0, b"") + env(0, bytes(range(256))))
write("grpcwire", "split", split(0x0101, 1) + env(0, b"\x08\x96\x01"))
write("grpcwire", "compressed", split() + env(1, b"\x1f\x8b"))
write("grpcwire", "end-flag", split() + env(2, b"{}"))
write("grpcwire", "too-large", split() + bytes([0]) + struct.pack(">I", 0x7FFFFFFF) + b"x")
write("grpcwire", "trailers", split() + b"grpc-status: 5\ngrpc-message: Sandbox%20sb-1%20not%20found%E2%9C%97\n")
write("grpcwire", "bad-status", split() + b"grpc-status: five\ngrpc-message: 100%zz\n")
write("grpcwire", "timeout", split() + b"99999999H")
write("connectenvelope", "end-bad-json", split() + env(2, b'{"error":"x"') + env(2, b'{"error":7}'))

# ---- Local agent frames: [seed hi, seed lo, max piece] + stream ---------------------------
def frame(ftype, channel, payload):
    return struct.pack(">IBI", len(payload), ftype, channel) + payload


write("agentframes", "hello-reply", split() + frame(1, 0, b'{"version":1,"agentPid":7}') + frame(2, 3, b'{"id":"p1"}') + frame(12, 3, b"\x1b[31mred\x1b[0m\r\n") + frame(15, 3, b'{"code":0}'))
write("agentframes", "exec", split(0x4242, 3) + frame(2, 9, b'{"pid":100}') + frame(23, 9, b"out") + frame(24, 9, b"err") + frame(25, 9, b'{"code":3}'))
write("agentframes", "error", split() + frame(3, 5, b'{"code":"not-found","message":"no such file"}'))
write("agentframes", "files", split() + frame(2, 4, b'{"entries":[{"name":"a","size":1,"mode":420,"dir":false}]}') + frame(33, 4, b"DATA") + frame(34, 4, b"{}"))
write("agentframes", "stats", split(0, 0) + frame(2, 1, b'{"cpuNs":1,"rssBytes":2,"pids":3,"rxBytes":4,"txBytes":5,"monoNs":6}'))
write("agentframes", "unknown-type", split() + frame(99, 1, b"{}"))
write("agentframes", "too-large", split() + struct.pack(">IBI", (1 << 20) + 1, 12, 1))
write("agentframes", "bad-json", split() + frame(2, 1, b'{"id":') + frame(3, 1, b"[1,2]"))
write("agentframes", "truncated", split() + frame(12, 1, b"abcdef")[:-3])

# ---- Docker: [parser, seed hi, seed lo, max piece] + bytes -----------------------------------
def docker(name, which, data, piece=9):
    write("dockerstream", name, bytes([which]) + split(0x7777, piece) + data)


def mux(stream, payload):
    return bytes([stream, 0, 0, 0]) + struct.pack(">I", len(payload)) + payload


docker("mux", 0, mux(1, b"hello\n") + mux(2, b"oops\n") + mux(1, b"") + mux(0, b"echo"))
docker("mux-split", 0, mux(1, b"x" * 100) + mux(2, b"y" * 3), piece=3)
docker("mux-badtype", 0, mux(3, b"x"))
docker("mux-badpad", 0, bytes([1, 0, 1, 0, 0, 0, 0, 1]) + b"x")
docker("mux-huge", 0, bytes([1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]) + b"partial")
container = {"Id": "abc123", "Names": ["/sb-1"], "Image": "busybox", "State": "running", "Status": "Up 2 minutes",
             "Created": 1700000000, "Labels": {"dev.sandbar.account": "default", "dev.sandbar.name": "one"},
             "Ports": [{"PrivatePort": 8080, "PublicPort": 32768, "Type": "tcp", "IP": "127.0.0.1"}]}
docker("list", 1, json.dumps([container, {"Id": "d", "State": "exited", "Labels": None}]).encode())
docker("list-bad", 1, b'[{"Id":5,"Names":"x","Labels":[]}, 7, null]')
inspect = {"Id": "abc123", "Name": "/sb-1", "Created": "2024-01-02T03:04:05.123456789Z",
           "State": {"Status": "exited", "ExitCode": 137, "OOMKilled": True, "Error": "", "StartedAt": "2024-01-02T03:04:06Z"},
           "Config": {"Image": "busybox", "Labels": {"dev.sandbar.account": "default"}, "Env": ["A=1"]},
           "HostConfig": {"Memory": 268435456, "NanoCpus": 1500000000, "Tmpfs": {"/tmp": "size=64m"}},
           "Mounts": [{"Type": "tmpfs", "Destination": "/run"}, {"Type": "bind", "Source": "/h", "Destination": "/w"}],
           "NetworkSettings": {"Ports": {"8080/tcp": [{"HostIp": "0.0.0.0", "HostPort": "32768"}], "22/tcp": None}},
           "SizeRw": 4096}
docker("inspect", 2, json.dumps(inspect).encode())
docker("inspect-bad", 2, b'{"Id":"x","State":{"Status":7},"Created":"not a date","NetworkSettings":{"Ports":{"x/tcp":[{"HostPort":"99999999999"}]}}}')
stats = {"read": "2024-01-02T03:04:05.5Z", "preread": "2024-01-02T03:04:04.5Z",
         "cpu_stats": {"cpu_usage": {"total_usage": 2000000000}, "system_cpu_usage": 9000000000000, "online_cpus": 2},
         "precpu_stats": {"cpu_usage": {"total_usage": 1000000000}, "system_cpu_usage": 8998000000000, "online_cpus": 2},
         "memory_stats": {"usage": 1048576, "limit": 268435456, "stats": {"inactive_file": 4096}},
         "pids_stats": {"current": 3}, "networks": {"eth0": {"rx_bytes": 10, "tx_bytes": 20}},
         "blkio_stats": {"io_service_bytes_recursive": [{"op": "read", "value": 5}, {"op": "write", "value": 6}]}}
docker("stats", 3, json.dumps(stats).encode())
docker("stats-podman", 3, b'{"read":"2024-01-02T03:04:05Z","cpu_stats":{"cpu_usage":{"total_usage":18446744073709551615},"system_cpu_usage":0},"memory_stats":{}}')
docker("events", 4, b'{"Type":"container","Action":"die","Actor":{"ID":"abc","Attributes":{"exitCode":"137","name":"sb"}},"time":1700000000}\n\x1e{"status":"start","id":"def","time":1}\npartial')
docker("pull", 5, b'{"status":"Pulling from library/busybox","id":"latest"}\n{"status":"Downloading","progressDetail":{"current":100,"total":1000},"id":"l1"}\n{"status":"Download complete","id":"l1"}\n{"status":"Status: Downloaded newer image for busybox:latest"}\n')
docker("pull-error", 5, b'{"errorDetail":{"message":"manifest unknown"},"error":"manifest unknown"}\n{"progressDetail":{"current":-5,"total":9223372036854775807},"id":"x"}\n')
docker("pull-overflow", 5, b'{"status":"Downloading","progressDetail":{"current":4611686018427387904,"total":4611686018427387904},"id":"a"}\n'
       b'{"status":"Downloading","progressDetail":{"current":4611686018427387904,"total":4611686018427387904},"id":"b"}\n')
docker("filelist", 6, b"a.txt\x0081a4 12 1700000000\n\x00link\x00a1ff 4 1700000000\na.txt\x00dir\x0041ed 4096 0\n\x00")
docker("filelist-cut", 6, b"name\x00zz 1")
docker("procmounts", 7, b"tmpfs /tmp tmpfs rw,nosuid 0 0\noverlay / overlay rw 0 0\ntmpfs /run tmpfs rw 0 0\n")
docker("error-body", 8, b'{"message":"No such container: abc"}')
docker("api-version", 8, b"1.43")

# ---- tar archives: [flags, seed hi, seed lo, max piece] + archive ----------------------------
def tar_bytes(members, fmt=tarfile.GNU_FORMAT):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
        for info, data in members:
            info.mtime = 1700000000
            info.uname = info.gname = "root"
            t.addfile(info, io.BytesIO(data) if data is not None else None)
    # tarfile pads to 10 KiB records; a seed keeps only its two end-of-archive blocks.
    body = buf.getvalue().rstrip(b"\0")
    return body + b"\0" * (-len(body) % 512 + 1024)


def reg(name, data=b"x\n", mode=0o644):
    i = tarfile.TarInfo(name)
    i.size = len(data)
    i.mode = mode
    return (i, data)


def entry(name, kind, link="", mode=0o755):
    i = tarfile.TarInfo(name)
    i.type = kind
    i.linkname = link
    i.mode = mode
    if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        i.devmajor, i.devminor = 1, 3
    return (i, None)


def tarseed(name, data, flags=0, piece=0):
    write("tarextract", name, bytes([flags]) + split(0x3131, piece)[:2] + bytes([piece]) + data)


tarseed("valid", tar_bytes([entry("dir", tarfile.DIRTYPE), reg("dir/a.txt", b"hello\n"), reg("dir/sub/b", b"b" * 700),
                            entry("dir/rel-link", tarfile.SYMTYPE, "a.txt"), entry("dir/hard", tarfile.LNKTYPE, "dir/a.txt")]))
tarseed("valid-split", tar_bytes([reg("one/f", b"data" * 200)]), piece=37)
tarseed("valid-renamed", tar_bytes([entry("top", tarfile.DIRTYPE), reg("top/x")]), flags=2)
tarseed("pax-longname", tar_bytes([reg("p/" + "n" * 150 + "/file", b"pax"), entry("p/l", tarfile.SYMTYPE, "x" * 200)], tarfile.PAX_FORMAT))
tarseed("gnu-longname", tar_bytes([reg("g/" + "m" * 150, b"gnu")], tarfile.GNU_FORMAT))
tarseed("absolute", tar_bytes([reg("/tmp/sentinel/pwned", b"escaped\n")]))
tarseed("dotdot", tar_bytes([reg("../sentinel/pwned"), reg("a/../../sentinel/pwned2"), reg("../../tmp/escape")]))
tarseed("symlink-escape", tar_bytes([entry("a", tarfile.DIRTYPE), entry("a/out", tarfile.SYMTYPE, "/tmp/sentinel"),
                                     reg("a/out/pwned", b"through the link\n")]))
tarseed("symlink-relative-escape", tar_bytes([entry("a", tarfile.DIRTYPE), entry("a/up", tarfile.SYMTYPE, "../../../sentinel"),
                                              reg("a/up/pwned")]))
tarseed("symlink-then-file", tar_bytes([entry("f", tarfile.SYMTYPE, "/tmp/sentinel-file"), reg("f", b"overwritten\n")]))
tarseed("hardlink-passwd", tar_bytes([entry("passwd", tarfile.LNKTYPE, "/etc/passwd"), reg("passwd", b"root::0:0::/:/bin/sh\n")]))
tarseed("hardlink-sentinel", tar_bytes([entry("h", tarfile.LNKTYPE, "/tmp/sentinel-file"), reg("h", b"overwritten\n"),
                                        entry("h2", tarfile.LNKTYPE, "../../sentinel-file")]))
tarseed("devices", tar_bytes([entry("null", tarfile.CHRTYPE, mode=0o666), entry("blk", tarfile.BLKTYPE), entry("fifo", tarfile.FIFOTYPE),
                              reg("null", b"write through a device\n")]))
tarseed("setuid", tar_bytes([reg("suid", b"#!/bin/sh\n", 0o4755), reg("sgid", b"", 0o2755)]))
huge = bytearray(tar_bytes([reg("huge", b"abc")]))
huge[124:136] = b"77777777777\x00"
tarseed("huge-size", bytes(huge[:1024]), flags=1)
b256 = bytearray(tar_bytes([reg("b256", b"abc")]))
b256[124:136] = b"\x80" + b"\x00" * 3 + b"\xff" * 8
tarseed("huge-size-base256", bytes(b256[:1024]), flags=1)
tarseed("truncated-header", tar_bytes([reg("t", b"abc")])[:300])
tarseed("truncated-data", tar_bytes([reg("t", b"a" * 2000)])[:1200])
liar = tarfile.TarInfo("q")
liar.pax_headers = {"size": "99999999999999999999", "path": "/tmp/sentinel/pwned"}
tarseed("pax-size-lie", tar_bytes([(liar, None)], tarfile.PAX_FORMAT)[:2048], flags=1)
tarseed("bad-checksum", tar_bytes([reg("c")]).replace(b"0000644", b"0000645", 1))

# ---- catalog overrides: [flags] + file --------------------------------------------------------
def catalog(name, doc, flags=0):
    write("catalogoverride", name, bytes([flags]) + (doc if isinstance(doc, bytes) else json.dumps(doc, indent=1).encode()))


catalog("price-fix", {"schema": 1, "providers": [{"id": "e2b", "prices": {"vcpu_hour": {"value": 0.05, "source": "mine"}}}],
                      "sources": {"mine": {"title": "my invoice", "date": "2025-01-01"}}})
catalog("price-fix-load", {"providers": [{"id": "daytona", "cold_start_ms": {"value": 90}}]}, flags=1)
catalog("new-provider", {"providers": [{"id": "mine", "name": "Mine", "kind": "sandbox-runtime", "isolation": "vm",
                                        "cold_start_ms": {"value": 100, "max": 200, "source": "user-catalog", "date": "2025-01-01"},
                                        "plans": [{"name": "free", "max_session_hours": {"unlimited": True}}]}]}, flags=1)
catalog("bad-schema", {"schema": 2})
catalog("no-id", {"providers": [{"name": "x"}]})
catalog("providers-not-array", {"providers": {"id": "x"}})
catalog("not-object", b"[1,2,3]")
catalog("not-json", b'{"providers": [', flags=1)
catalog("weird-figures", {"providers": [{"id": "local", "cold_start_ms": {"value": -1e308, "max": 1e308},
                                         "gpus": [{"name": "H100", "usd_per_hour": {"value": "x"}}]}]}, flags=1)

print("seeds written under", ROOT)
