"""GRIB2 files from analytic fields, written and read back by ecCodes, for grib2-eccodes.int.test.ts
and bench/grib2.bench.ts (docs/decisions/0220-grib2-decoding.md).

  make OUT SPEC      writes one message per entry of the JSON list SPEC (see `make_message`)
  read FILE          prints, per message, ecCodes' keys, values, latitudes and longitudes as JSON
  time FILE N        prints the median seconds of N codes_get_values calls per message (the bench's baseline)

Messages with spatial differencing of order 1 and 2, which Debian 12's ecCodes 2.28 does not
write, come from packages/grib2/test/encode.ts; `read` is how the tests check ecCodes reads them.
"""
import json
import statistics
import sys
import time

import eccodes as ec
import numpy as np

MISSING = 1e20


def field(kind, lat, lon, step):
    """Analytic fields: a temperature (K), a precipitation-like field with many zeros, and a constant."""
    if kind == "constant":
        return np.full(lat.shape, 3.25)
    if kind == "temp":
        return 273.15 + 30 * np.cos(np.radians(lat)) + 8 * np.sin(np.radians(2 * lon)) * np.cos(np.radians(lat)) + 0.5 * step
    if kind == "precip":
        return np.maximum(0.0, 3 * np.sin(np.radians(3 * lon)) * np.cos(np.radians(2 * lat)) - 1)
    raise ValueError(kind)


def points(spec):
    """Latitude and longitude of every point, in the message's scanning order (flag table 3.4)."""
    ni, nj, mode = spec["ni"], spec["nj"], spec.get("scanningMode", 0)
    k = np.arange(ni * nj)
    if mode & 0x20:
        i, j = k // nj, k % nj
    else:
        i, j = k % ni, k // ni
    lon = spec["lon1"] + np.where(mode & 0x80, -1, 1) * i * spec["dlon"]
    lat = spec["lat1"] + np.where(mode & 0x40, 1, -1) * j * spec["dlat"]
    return lat, lon


def make_message(spec):
    ni, nj, mode = spec["ni"], spec["nj"], spec.get("scanningMode", 0)
    lat1, lon1 = spec["lat1"], spec["lon1"]
    lat2 = lat1 + (1 if mode & 0x40 else -1) * (nj - 1) * spec["dlat"]
    lon2 = lon1 + (-1 if mode & 0x80 else 1) * (ni - 1) * spec["dlon"]
    h = ec.codes_grib_new_from_samples("regular_ll_sfc_grib2")
    template = spec.get("productTemplate", 0)
    keys = [
        ("centre", spec.get("centre", 98)),
        ("dataDate", spec.get("date", 20240315)),
        ("dataTime", spec.get("time", 600)),
        ("Ni", ni),
        ("Nj", nj),
        ("iScansNegatively", 1 if mode & 0x80 else 0),
        ("jScansPositively", 1 if mode & 0x40 else 0),
        ("jPointsAreConsecutive", 1 if mode & 0x20 else 0),
        ("latitudeOfFirstGridPointInDegrees", lat1),
        ("longitudeOfFirstGridPointInDegrees", lon1),
        ("latitudeOfLastGridPointInDegrees", lat2),
        ("longitudeOfLastGridPointInDegrees", lon2),
        ("iDirectionIncrementInDegrees", spec["dlon"]),
        ("jDirectionIncrementInDegrees", spec["dlat"]),
        ("productDefinitionTemplateNumber", template),
        ("discipline", spec.get("discipline", 0)),
        ("parameterCategory", spec.get("category", 0)),
        ("parameterNumber", spec.get("number", 0)),
        ("typeOfFirstFixedSurface", spec.get("surface", 103)),
        ("scaleFactorOfFirstFixedSurface", 0),
        ("scaledValueOfFirstFixedSurface", spec.get("level", 2)),
        ("indicatorOfUnitOfTimeRange", 1),
    ]
    if template == 8:
        keys += [
            ("typeOfStatisticalProcessing", spec.get("statistic", 1)),
            ("indicatorOfUnitForTimeRange", 1),
            ("lengthOfTimeRange", spec.get("range", 6)),
            ("forecastTime", spec.get("step", 12) - spec.get("range", 6)),
        ]
    else:
        keys += [("forecastTime", spec.get("step", 12))]
    for key, value in keys:
        if isinstance(value, float):
            ec.codes_set_double(h, key, value)
        else:
            ec.codes_set_long(h, key, value)
    lat, lon = points(spec)
    values = field(spec.get("field", "temp"), lat, lon, spec.get("step", 12))
    if spec.get("bitmap"):
        # A band of missing points and a scatter of single ones.
        gone = ((lat > 20) & (lat < 35)) | (np.arange(values.size) % 97 == 5)
        ec.codes_set_long(h, "bitmapPresent", 1)
        ec.codes_set_double(h, "missingValue", MISSING)
        values = np.where(gone, MISSING, values)
    ec.codes_set(h, "packingType", "grid_simple")
    ec.codes_set_long(h, "bitsPerValue", spec.get("bits", 16))
    if "decimal" in spec:
        ec.codes_set_long(h, "decimalScaleFactor", spec["decimal"])
    ec.codes_set_values(h, values)
    if spec["packing"] != "grid_simple":
        ec.codes_set(h, "packingType", spec["packing"])
    message = ec.codes_get_message(h)
    ec.codes_release(h)
    return message


def messages(path):
    """Each message's ecCodes handle, released after use."""
    with open(path, "rb") as f:
        while True:
            h = ec.codes_grib_new_from_file(f)
            if h is None:
                return
            try:
                yield h
            finally:
                ec.codes_release(h)


KEYS = [
    "packingType", "dataRepresentationTemplateNumber", "productDefinitionTemplateNumber", "bitsPerValue",
    "discipline", "parameterCategory", "parameterNumber", "typeOfFirstFixedSurface", "level",
    "forecastTime", "indicatorOfUnitOfTimeRange", "scanningMode", "Ni", "Nj", "dataDate", "dataTime",
    "decimalScaleFactor", "binaryScaleFactor", "bitmapPresent",
]


def describe(h):
    ec.codes_set_double(h, "missingValue", MISSING)
    keys = {key: ec.codes_get_string(h, key) if key == "packingType" else ec.codes_get_long(h, key) for key in KEYS}
    if keys["dataRepresentationTemplateNumber"] == 3:
        keys["orderOfSpatialDifferencing"] = ec.codes_get_long(h, "orderOfSpatialDifferencing")
    if keys["productDefinitionTemplateNumber"] == 8:
        for key in ["typeOfStatisticalProcessing", "lengthOfTimeRange", "indicatorOfUnitForTimeRange"]:
            keys[key] = ec.codes_get_long(h, key)
    return {
        "keys": keys,
        "values": [None if v == MISSING else float(v) for v in ec.codes_get_values(h)],
        "latitudes": ec.codes_get_array(h, "latitudes").tolist(),
        "longitudes": ec.codes_get_array(h, "longitudes").tolist(),
    }


def median_seconds(h, n):
    runs = []
    for _ in range(n):
        t = time.perf_counter()
        ec.codes_get_values(h)
        runs.append(time.perf_counter() - t)
    return {"packingType": ec.codes_get_string(h, "packingType"), "seconds": statistics.median(runs)}


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "make":
        with open(sys.argv[2], "wb") as f:
            for spec in json.loads(sys.argv[3]):
                f.write(make_message(spec))
    elif command == "read":
        json.dump([describe(h) for h in messages(sys.argv[2])], sys.stdout)
    elif command == "time":
        json.dump([median_seconds(h, int(sys.argv[3])) for h in messages(sys.argv[2])], sys.stdout)
    else:
        raise SystemExit(f"unknown command {command}")
