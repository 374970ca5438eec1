#!/usr/bin/env python3
"""Compare the machine code of every kernel between two kernel caches, section by section.

A cubin is an ELF file whose ``.text.<kernel>`` sections hold each kernel's SASS; line tables
and other debug sections change with any edit of a source, the machine code only when the
compiled code does.  Compile both trees into their own caches (CPU is enough: NVRTC), e.g. ::

    git worktree add /tmp/before <rev>
    (cd /tmp/before && CUGRAPH_COMPRESSED_KERNEL_CACHE=/tmp/kc-before \\
        python3 benchmarks/kernel_text.py --compile)
    CUGRAPH_COMPRESSED_KERNEL_CACHE=/tmp/kc-after python3 benchmarks/kernel_text.py --compile
    python3 benchmarks/kernel_text.py /tmp/kc-before /tmp/kc-after

``--compile`` compiles every registered kernel of the tree it runs in (``--define X`` adds
``-DX``); with two cache folders it prints, per kernel, whether its machine code is the same,
and exits 1 if any kernel differs or is missing from one side.
"""
import argparse
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def text_sections(cubin: bytes) -> dict:
    """``{section name: bytes}`` of the ``.text.*`` sections of an ELF64 little-endian file."""
    if cubin[:4] != b"\x7fELF" or cubin[4] != 2:
        raise ValueError("not an ELF64 file")
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * shentsize)
               for i in range(shnum)]
    names_at, names_size = headers[shstrndx][4], headers[shstrndx][5]
    names = cubin[names_at:names_at + names_size]
    out = {}
    for name_off, _, _, _, offset, size, *_ in headers:
        name = names[name_off:names.index(b"\0", name_off)].decode()
        if name.startswith(".text."):
            out[name] = cubin[offset:offset + size]
    return out


def cache_kernels(folder: Path) -> dict:
    """Every kernel's machine code in a kernel cache folder, by kernel (section) name."""
    kernels = {}
    for cubin in sorted(folder.glob("*.cubin")):
        kernels.update(text_sections(cubin.read_bytes()))
    return kernels


def compile_tree(defines) -> None:
    sys.path.insert(0, str(ROOT))
    import cugraph_compressed  # noqa: F401  (registers the kernel sources)
    from cugraph_compressed import kernels

    for source, names in kernels.registered().items():
        module = kernels.compile_module(source, names, defines=tuple(defines))
        print(f"{source.name}: {len(names)} kernels -> {module.cubin_path}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("caches", nargs="*", type=Path, help="two kernel cache folders")
    parser.add_argument("--compile", action="store_true",
                        help="compile this tree's kernels into $CUGRAPH_COMPRESSED_KERNEL_CACHE")
    parser.add_argument("--define", action="append", default=[], help="a -D for --compile")
    args = parser.parse_args(argv)
    if args.compile:
        compile_tree(args.define)
        return 0
    if len(args.caches) != 2:
        parser.error("give two kernel cache folders (or --compile)")
    before, after = (cache_kernels(folder) for folder in args.caches)
    differ = 0
    for name in sorted(before.keys() | after.keys()):
        if name not in before or name not in after:
            state = "only in " + ("after" if name in after else "before")
        elif before[name] == after[name]:
            state = "same"
        else:
            state = "DIFFERS"
        differ += state != "same"
        print(f"{state:12} {len(after.get(name, b'')):8} {name}")
    print(f"{len(before.keys() | after.keys())} kernels, {differ} not the same")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
