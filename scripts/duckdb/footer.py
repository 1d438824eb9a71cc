#!/usr/bin/env python3
"""Writes a DuckDB loadable extension: the shared library cargo built, with the metadata
footer DuckDB reads before it loads an extension.

    footer.py LIBRARY OUT [--platform P] [--c-api v1.2.0] [--version V]

The footer is what DuckDB's own build appends: a WebAssembly custom section header named
`duckdb_signature` (so that a Wasm build stays valid; native DuckDB skips it), then 512 bytes
that DuckDB reads from the end of the file: eight 32-byte fields, NUL-padded and stored last to
first (1: the magic `4`; 2: the platform, e.g. `linux_amd64`; 3: the C API version the
extension was built against, for the ABI type `C_STRUCT`; 4: the extension's version; 5: the
ABI type; 6-8: empty), then a 256-byte signature, zeros for an unsigned build. An unsigned
extension loads where `allow_unsigned_extensions` is set (docs/duckdb.md).
"""
import argparse
import platform
import shutil
import sys


def field(text):
    data = text.encode("ascii")
    if len(data) > 32:
        sys.exit(f"footer.py: {text!r} is longer than a field (32 bytes)")
    return data + b"\0" * (32 - len(data))


def default_platform():
    system = {"Linux": "linux", "Darwin": "osx", "Windows": "windows"}.get(platform.system())
    machine = {"x86_64": "amd64", "AMD64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(
        platform.machine()
    )
    if system is None or machine is None:
        sys.exit(f"footer.py: unknown platform {platform.system()}/{platform.machine()}: --platform")
    return f"{system}_{machine}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("library")
    p.add_argument("out")
    p.add_argument("--platform", default=None, help="DuckDB's platform name (default: this machine's)")
    p.add_argument("--c-api", default="v1.2.0", help="the C API version (default: v1.2.0)")
    p.add_argument("--version", default="v0.1.0", help="the extension's version")
    a = p.parse_args()
    fields = [
        "4",
        a.platform or default_platform(),
        a.c_api,
        a.version,
        "C_STRUCT",
        "",
        "",
        "",
    ]
    # the Wasm custom section: id 0, size 531 (LEB128 0x93 0x04), the name's length and name,
    # then the payload's length, 512 (LEB128 0x80 0x04)
    header = b"\x00\x93\x04\x10duckdb_signature\x80\x04"
    footer = b"".join(field(f) for f in reversed(fields)) + b"\0" * 256
    assert len(footer) == 512
    tmp = a.out + ".tmp"
    shutil.copyfile(a.library, tmp)
    with open(tmp, "ab") as f:
        f.write(header + footer)
    shutil.move(tmp, a.out)


if __name__ == "__main__":
    main()
