#!/usr/bin/env python3
"""Honest joins against `sessionsim serve` at a small open-file limit held by idle connections.

Starts the server (release build: `swift build -c release --product sessionsim`) under
`ulimit -n LIMIT` (default 300), opens IDLE connections (default 300) that never present a
token (half send nothing at all, half a hello and then nothing), then connects one honest
client that says hello and joins; prints what the honest client heard and the server's
counters, and exits non-zero unless it was admitted.

  scripts/idle-connections.py [--binary .build/release/sessionsim] [--limit 300] [--idle 300]
"""
import argparse, importlib.util, os, socket, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("wire", os.path.join(HERE, "slow-consumer-rss.py"))
wire = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wire)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/sessionsim")
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--idle", type=int, default=300)
    options = parser.parse_args()
    command = (f"ulimit -n {options.limit} && exec {options.binary} serve --port 0 "
               f"--key {wire.KEY} --secret {wire.SECRET} --quiet")
    server = subprocess.Popen(["bash", "-c", command], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline().strip().rsplit(":", 1)[1])
    token = subprocess.run(
        [options.binary, "token", "--session", "Room", "--key", wire.KEY, "--secret",
         wire.SECRET], capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    idle, refused = [], 0
    for index in range(options.idle):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            if index % 2:
                s.sendall(wire.hello(f"idle-{index}"))
            idle.append(s)
        except OSError:
            refused += 1
    time.sleep(1.0)
    honest = socket.create_connection(("127.0.0.1", port), timeout=10)
    honest.sendall(wire.hello("honest") + wire.join("Room", "Honest", token))
    heard = b""
    deadline = time.time() + 10
    admitted = False
    while time.time() < deadline and not admitted:
        try:
            chunk = honest.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        heard += chunk
        # helloAck is type 0x81; joined is 0x90 (WireProtocol.md §4.2).
        offset = 0
        while offset + 4 <= len(heard):
            length = int.from_bytes(heard[offset:offset + 4], "big")
            if offset + 4 + length > len(heard):
                break
            if heard[offset + 4] == 0x90:
                admitted = True
            offset += 4 + length
    closed = sum(1 for s in idle if _closed(s))
    print(f"limit {options.limit}, idle connections opened {len(idle)} (refused {refused}), "
          f"closed by the server so far {closed}; honest client admitted: {admitted}")
    server.stdin.close()
    server.wait(timeout=10)
    sys.exit(0 if admitted else 1)


def _closed(s):
    s.setblocking(False)
    try:
        data = s.recv(65536)
        return data == b"" or len(data) > 0 and _drain_to_end(s)
    except BlockingIOError:
        return False
    except OSError:
        return True


def _drain_to_end(s):
    try:
        while True:
            data = s.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


if __name__ == "__main__":
    main()
