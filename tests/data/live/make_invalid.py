#!/usr/bin/env python3
"""Derives the invalid live-stream fixtures in invalid/ from quickstart_v1.plml.

Run from this directory: python3 make_invalid.py. Each file breaks the stream in one way;
live_fixture_test.cpp asserts the exact error each one gives (see README.md).
"""
import json
import struct

GREETING_SIZE = 8


def frames(stream):
    """(offset, type, payload) of every frame after the greeting."""
    out, at = [], GREETING_SIZE
    while at + 5 <= len(stream):
        length, kind = struct.unpack_from('<IB', stream, at)
        out.append((at, kind, stream[at + 5:at + 4 + length]))
        at += 4 + length
    return out


def frame(kind, payload):
    return struct.pack('<IB', len(payload) + 1, kind) + payload


def main():
    good = open('quickstart_v1.plml', 'rb').read()
    greeting = good[:GREETING_SIZE]
    fs = frames(good)
    hello = frame(fs[0][1], fs[0][2])
    tick_at, _, tick_payload = next(f for f in fs if f[1] == 2)
    tick = json.loads(tick_payload)
    del tick['sent']
    files = {
        # "PLMX": not a live stream at all.
        'bad_magic.plml': b'PLMX' + greeting[4:] + hello,
        # Version 2: a newer protocol this reader does not know.
        'wrong_version.plml': greeting[:4] + struct.pack('<H', 2) + greeting[6:] + hello,
        # Cut 10 bytes into the third frame: readers yield two messages, then wait.
        'truncated.plml': good[:fs[2][0] + 10],
        # A Hello whose JSON is cut short (its closing brace replaced by a space).
        'bad_json.plml': greeting + frame(1, fs[0][2][:-1] + b' '),
        # A Tick without its "sent" field, after a valid Hello.
        'missing_field.plml': greeting + hello + frame(2, json.dumps(tick, separators=(',', ':')).encode()),
        # A frame header announcing 5 MiB (over the 4 MiB limit).
        'oversized.plml': greeting + hello + struct.pack('<IB', 5 << 20, 2),
    }
    for name, data in files.items():
        open('invalid/' + name, 'wb').write(data)
    # Valid: a frame of a type from a newer minor revision (9) between Hello and the rest.
    open('future_frame_type_v1.plml', 'wb').write(
        greeting + hello + frame(9, b'{"from":"the future"}') + good[GREETING_SIZE + len(hello):])


if __name__ == '__main__':
    main()
