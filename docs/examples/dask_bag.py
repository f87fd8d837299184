"""Summarize record files with a Dask bag: python dask_bag.py FILE_OR_FOLDER..."""
import sys

import dask.bag as db

import pitchcli
from pitchcli import Summary


def summarize_partition(paths):
    """Map: one partial summary (plain JSON data) per partition of files."""
    total = Summary()
    for path in paths:
        total.merge(pitchcli.summarize_file(path))
    return total.to_json()


def merge_partials(partials):
    """Reduce: merge the partial summaries."""
    total = Summary()
    for p in partials:
        total.merge(Summary.from_json(p))
    return total.to_json()


if __name__ == "__main__":  # Dask starts its worker processes with "spawn": the guard is needed
    files = db.from_sequence(sys.argv[1:], npartitions=4)
    result = files.reduction(summarize_partition, merge_partials).compute(scheduler="processes", num_workers=2)
    pitchcli.write_report(Summary.from_json(result), sys.stdout, "table")
