"""Writes python_repr_cases.txt: "<IEEE-754 bits, hex> <repr>" per line, Python's own repr() as the
oracle for common::append_python_float (python_float_test.cpp). Deterministic; run with any
Python 3 to regenerate:  python3 tests/common/data/make_python_repr_cases.py"""
import os
import random
import struct

random.seed(20261126)
values = [0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 2.0, 100.0, 123.456, 1e-5, 1e-4, 0.0001234, 9.999999999999999e-05,
          0.00010000000000000002, 1e15, 1e16, 1234567890123456.0, 12345678901234567.0, 9999999999999998.0, 1e22,
          1e-7, 1.5e-7, 5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, 2.0 ** 53, 2.0 ** 60, 1e100, 1e-100]
bits = lambda fmt, n: struct.unpack(fmt[0], struct.pack(fmt[1], random.getrandbits(n)))[0]  # noqa: E731
while len(values) < 2500:
    r = random.random()
    if r < 0.3:
        v = bits(("<d", "<Q"), 64)
    elif r < 0.7:
        v = bits(("<f", "<I"), 32)  # float32 values, what a float32 model's sidecar holds
    elif r < 0.85:
        v = random.uniform(-10, 10)
    else:
        v = struct.unpack("<f", struct.pack("<f", random.uniform(-1e-3, 1e-3)))[0] * 10.0 ** random.randint(-30, 30)
    if v == v and abs(v) != float("inf"):
        values.append(v)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_repr_cases.txt"), "w") as f:
    for v in values:
        f.write("%016x %s\n" % (struct.unpack("<Q", struct.pack("<d", v))[0], repr(v)))
