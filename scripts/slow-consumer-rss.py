#!/usr/bin/env python3
"""Resident memory of `sessionsim serve` while members that never read fall behind.

Starts the server (release build: `swift build -c release --product sessionsim`), joins
N never-reading members (4 KB receive buffers) and one sender with Python's standard library
only, sends M chat messages of 10,000 bytes from the sender (each burst once the sender heard
its own echo, so the sender itself never falls behind), samples the server's VmRSS from
/proc, and prints the baseline, the peak, the figure after the slow members were cut, and how
each slow member's stream ended.

  scripts/slow-consumer-rss.py [--binary .build/release/sessionsim] [--slow 100] [--messages 3000]
"""
import argparse, os, socket, struct, subprocess, sys, threading, time

KEY, SECRET = "rss-key", "rss-secret-0123456789"


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def string(s):
    b = s.encode()
    return varint(len(b)) + b


def frame(payload):
    return struct.pack(">I", len(payload)) + payload


def hello(name):
    return frame(b"\x01SESN" + struct.pack(">H", 1) + b"\x01" + string(name))


def join(session, user, token):
    body = string(session) + string(user) + string(token) + b"\x00" + b"\x00\x00\x00" + b"\x00"
    return frame(b"\x10" + body)


def chat(command_id, content):
    return frame(b"\x12" + varint(command_id) + b"\x1b" + b"\x00" + string(content))


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def read_varint(data, offset):
    value, shift = 0, 0
    while True:
        byte = data[offset]
        offset += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, offset


def read_events(sock, count, timeout=60):
    """Reads frames until `count` events arrived (a batch may hold several)."""
    sock.settimeout(timeout)
    buffer, seen = b"", 0
    while seen < count:
        data = sock.recv(1 << 20)
        if not data:
            raise RuntimeError("sender's connection closed")
        buffer += data
        while len(buffer) >= 4:
            (length,) = struct.unpack(">I", buffer[:4])
            if len(buffer) < 4 + length:
                break
            payload, buffer = buffer[4 : 4 + length], buffer[4 + length :]
            if payload[0] == 0x93:  # events: first sequence, then the events' count
                _, offset = read_varint(payload, 1)
                events, _ = read_varint(payload, offset)
                seen += events
    return buffer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/sessionsim")
    parser.add_argument("--slow", type=int, default=100)
    parser.add_argument("--messages", type=int, default=3000)
    parser.add_argument("--burst", type=int, default=20)
    parser.add_argument("--extra", nargs="*", default=[], help="more `serve` arguments")
    parser.add_argument("--log", help="write the server's output (not --quiet) to this file")
    options = parser.parse_args()

    server = subprocess.Popen(
        [options.binary, "serve", "--port", "0", "--key", KEY, "--secret", SECRET]
        + ([] if options.log else ["--quiet"]) + options.extra,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    port = int(line.strip().rsplit(":", 1)[1])
    log = open(options.log, "w") if options.log else None

    def drain():
        for text in server.stdout:
            if log:
                log.write(text)

    threading.Thread(target=drain, daemon=True).start()
    def mint(user):
        # One token per member, as an app server mints them: the service holds at most 50
        # members per token (SessionService.md, "Members per token").
        return subprocess.run(
            [options.binary, "token", "--session", "Room", "--key", KEY, "--secret", SECRET,
             "--user-key", user],
            capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]

    token = mint("sender")

    time.sleep(0.5)
    baseline = rss_kb(server.pid)
    sender = socket.create_connection(("127.0.0.1", port))
    sender.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sender.sendall(hello("sender") + join("Room", "Sender", token))
    slow = []
    for index in range(options.slow):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.sendall(hello(f"slow-{index}") + join("Room", f"Slow{index}", mint(f"slow-{index}")))
        slow.append(s)
    time.sleep(1.0)

    peak = baseline
    content = "x" * 10_000
    sent = 0
    started = time.time()
    while sent < options.messages:
        burst = min(options.burst, options.messages - sent)
        sender.sendall(b"".join(chat(sent + i + 1, content) for i in range(burst)))
        sent += burst
        read_events(sender, burst)  # the sender's own chat events
        peak = max(peak, rss_kb(server.pid))
    elapsed = time.time() - started
    for _ in range(20):
        time.sleep(0.1)
        peak = max(peak, rss_kb(server.pid))
    time.sleep(2.0)  # past the drain timeout: the cut connections are gone
    after = rss_kb(server.pid)

    # How each slow member's stream ended.
    endings = {}
    for s in slow:
        s.settimeout(5)
        data = b""
        try:
            while True:
                chunk = s.recv(1 << 20)
                if not chunk:
                    break
                data += chunk
        except (socket.timeout, ConnectionResetError):
            pass
        offset, last = 0, None
        while len(data) - offset >= 4:
            (length,) = struct.unpack(">I", data[offset : offset + 4])
            if len(data) - offset - 4 < length:
                break
            last = data[offset + 4 : offset + 4 + length]
            offset += 4 + length
        whole = offset == len(data)
        kind = "goodbye(slowConsumer)" if last and last[0] == 0x82 and last[1] == 5 else (
            f"type {last[0]:#x}" if last else "nothing")
        endings[(whole, kind)] = endings.get((whole, kind), 0) + 1
        s.close()
    sender.close()
    server.stdin.close()
    server.wait(timeout=30)
    print(f"slow members {options.slow}, messages {sent} x 10,000 bytes in {elapsed:.1f} s")
    print(f"RSS baseline {baseline / 1024:.1f} MB, peak {peak / 1024:.1f} MB "
          f"(+{(peak - baseline) / 1024:.1f}), after {after / 1024:.1f} MB "
          f"(+{(after - baseline) / 1024:.1f})")
    for (whole, kind), count in sorted(endings.items()):
        print(f"  {count} slow streams: {'whole frames' if whole else 'cut mid-frame'}, last {kind}")


if __name__ == "__main__":
    main()
