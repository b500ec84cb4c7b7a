"""Describes Zarr stores as xarray sees them, for tests/integration/zarr-xarray.int.test.ts.

Usage: zarr_xarray_check.py describe <store>
       zarr_xarray_check.py compare <netcdf file> <ingested store>

Prints one JSON document. `describe` opens the store three ways (xarray.open_zarr with the
consolidated metadata, open_dataset(engine="zarr") with it, and without it) and reports dims,
coordinates (CF-decoded times as ISO strings), attributes, encodings and every value.
`compare` opens the source NetCDF with xarray too, puts it in the store's orientation (latitude
ascending, longitude in -180..180) and reports whether each data variable is equal in float32.
Metadata and coordinate arrays must be ones xarray understands (docs/decisions/0017-xarray-compatibility-tested.md).
"""
import json
import math
import sys

import numpy as np
import xarray as xr


def plain(value):
    """JSON-safe: NaN becomes "NaN", numpy scalars become Python numbers, datetimes ISO text."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "M":
            return [str(v) for v in value.astype("datetime64[ms]").ravel()]
        return [plain(v) for v in value.ravel().tolist()]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        return plain(value.item())
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def variable(v):
    enc = {k: v.encoding[k] for k in ("units", "calendar", "_FillValue", "chunks", "dtype") if k in v.encoding}
    return {
        "dims": list(v.dims),
        "dtype": str(v.dtype),
        "attrs": plain(dict(v.attrs)),
        "encoding": plain(enc),
        "values": plain(v.values),
    }


def describe(ds):
    return {
        "dims": {k: int(n) for k, n in ds.sizes.items()},
        "attrs": plain(dict(ds.attrs)),
        "coords": {k: variable(v) for k, v in ds.coords.items()},
        "vars": {k: variable(v) for k, v in ds.data_vars.items()},
    }


def cmd_describe(store):
    views = {
        "open_zarr": xr.open_zarr(store),
        "open_dataset": xr.open_dataset(store, engine="zarr"),
        "unconsolidated": xr.open_dataset(store, engine="zarr", consolidated=False),
    }
    return {name: describe(ds) for name, ds in views.items()} | {"xarray": xr.__version__}


def cmd_compare(source, store):
    src = xr.open_dataset(source)
    dst = xr.open_zarr(store)
    lat = next(n for n in src.coords if src[n].attrs.get("standard_name") == "latitude")
    lon = next(n for n in src.coords if src[n].attrs.get("standard_name") == "longitude")
    # The store's orientation (docs/decisions/0016-ingest.md): longitudes above 180
    # moved down a turn, then both axes ascending.
    src = src.assign_coords({lon: src[lon].where(src[lon] <= 180, src[lon] - 360)}).sortby(lat).sortby(lon)
    out = {"times_equal": bool(np.array_equal(src["time"].values, dst["time"].values)), "vars": {}}
    for name, v in dst.data_vars.items():
        original = v.attrs.get("original_name", name)
        a = src[original].squeeze(drop=True).values.astype("float32")
        b = v.values
        out["vars"][name] = {
            "original": original,
            "shape_equal": a.shape == b.shape,
            "equal": bool(a.shape == b.shape and np.array_equal(a, b, equal_nan=True)),
            "nan": int(np.isnan(b).sum()),
        }
    out["lat_equal"] = bool(np.array_equal(src[lat].values.astype("float64"), dst["lat"].values))
    out["lon_equal"] = bool(np.array_equal(src[lon].values.astype("float64"), dst["lon"].values))
    return out


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    result = cmd_describe(*args) if command == "describe" else cmd_compare(*args)
    json.dump(result, sys.stdout)
