#!/usr/bin/env python3
"""Game archives to one Parquet dataset with Dask: one partition per input, each built by
kifu.to_arrow where the task runs (dask.dataframe.from_map), written by the workers.

    python_dask.py --out OUT [--table games|moves|trees|positions] [--format pgn|sgf]
                   [--scheduler processes|threads|ADDRESS] INPUT...

INPUT as for python_spark.py: paths every worker can read, or URIs of a file system pyarrow
knows (read there as streams). With `--scheduler tcp://host:8786` the same program runs on a
dask.distributed cluster whose workers have kifu installed. Prints the rows written, the time
and a query over the dataset.
"""

import argparse
import os
import time


GAMES = (".pgn", ".sgf")
PACKED = (".gz", ".zst", ".bz2", ".xz", ".tgz", ".tar", ".zip")


def wanted(name):
    """In a directory, the files kifu reads: PGN and SGF, compressed or not, and archives
    (the same choice as kifu's own directory walk; licences and read-me files are left)."""
    n = name.lower()
    while n.endswith(PACKED[:4]):
        n = n.rsplit(".", 1)[0]
    return n.endswith(GAMES) or n.endswith(PACKED[4:]) or n.endswith(".tar")


def expand(inputs):
    out = []
    for i in inputs:
        if "://" not in i and os.path.isdir(i):
            for d, _, files in sorted(os.walk(i)):
                out.extend(os.path.join(d, f) for f in sorted(files) if wanted(f))
        else:
            out.append(i)
    return out


def load(path, table, fmt):
    """One input's rows as a pandas DataFrame backed by Arrow (no copy of the columns)."""
    import kifu
    import pandas as pd

    source = path
    if "://" in path:
        import pyarrow.fs as pafs

        fs, inner = pafs.FileSystem.from_uri(path)
        source = fs.open_input_stream(inner)
    t = kifu.to_arrow(source, table, format=fmt, threads=1, name=path if "://" in path else None).read_all()
    return t.to_pandas(types_mapper=pd.ArrowDtype)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--table", default="games")
    ap.add_argument("--format", default=None)
    ap.add_argument("--scheduler", default="processes")
    args = ap.parse_args()

    import dask
    import dask.dataframe as dd
    import kifu
    import pandas as pd

    if "://" in args.scheduler:
        from dask.distributed import Client

        Client(args.scheduler)
    else:
        dask.config.set(scheduler=args.scheduler)

    inputs = expand(args.inputs)
    meta = kifu.schema(args.table, format=args.format).empty_table().to_pandas(types_mapper=pd.ArrowDtype)
    start = time.perf_counter()
    ddf = dd.from_map(load, inputs, table=args.table, fmt=args.format, meta=meta, enforce_metadata=False)
    ddf.to_parquet(args.out, write_index=False, overwrite=True)
    seconds = time.perf_counter() - start

    # read back with pyarrow (dask's own reader rebuilds pandas dtypes from the files' pandas
    # metadata and does not know map<string, string>, the games table's `tags`)
    import pyarrow.dataset as pds

    back = pds.dataset(args.out, format="parquet")
    n = back.count_rows()
    print(f"inputs: {len(inputs)}  rows written: {n}  seconds: {seconds:.1f}  out: {args.out}")
    if args.table == "games" and (args.format or "pgn") == "pgn":
        g = back.to_table(columns=["outcome", "plies"]).to_pandas(ignore_metadata=True)
        print(g.groupby("outcome").agg(games=("plies", "size"), avg_plies=("plies", "mean")).sort_values("games", ascending=False).round(1))


if __name__ == "__main__":
    main()
