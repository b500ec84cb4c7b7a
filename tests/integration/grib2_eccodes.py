"""GRIB2 files from analytic fields, written and read back by ecCodes, for grib2-eccodes.int.test.ts
and bench/grib2.bench.ts (docs/decisions/0220-grib2-decoding.md).

  make OUT SPEC      writes one message per entry of the JSON list SPEC (see `make_message`)
  gfs ROOT SPEC      writes a GFS run's steps below ROOT in NOAA's layout, each file with its wgrib2
                     `.idx` inventory (see `write_gfs_step`), for synced-eccodes.int.test.ts
  ecmwf ROOT SPEC    writes an ECMWF open data run's steps below ROOT in ECMWF's layout, each file
                     with its JSON lines `.index` (see `write_ecmwf_step`), for synced-eccodes.int.test.ts
  read FILE          prints, per message, ecCodes' keys, values, latitudes and longitudes as JSON
  read-files FILE... prints `read`'s list for each file, as a JSON object by file
  time FILE N        prints the median seconds of N codes_get_values calls per message (the bench's baseline)

Messages with spatial differencing of order 1 and 2, which Debian 12's ecCodes 2.28 does not
write, come from packages/grib2/test/encode.ts; `read` is how the tests check ecCodes reads them.
"""
import json
import os
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


def grid_keys(spec):
    """Section 3 keys of a regular latitude/longitude grid (template 3.0) in `spec`'s scanning mode."""
    ni, nj, mode = spec["ni"], spec["nj"], spec.get("scanningMode", 0)
    lat1, lon1 = spec["lat1"], spec["lon1"]
    lat2 = lat1 + (1 if mode & 0x40 else -1) * (nj - 1) * spec["dlat"]
    lon2 = lon1 + (-1 if mode & 0x80 else 1) * (ni - 1) * spec["dlon"]
    return [
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
    ]


def set_keys(h, keys):
    for key, value in keys:
        if isinstance(value, float):
            ec.codes_set_double(h, key, value)
        else:
            ec.codes_set_long(h, key, value)


def make_message(spec):
    h = ec.codes_grib_new_from_samples("regular_ll_sfc_grib2")
    template = spec.get("productTemplate", 0)
    keys = [
        ("centre", spec.get("centre", 98)),
        ("dataDate", spec.get("date", 20240315)),
        ("dataTime", spec.get("time", 600)),
        *grid_keys(spec),
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
    set_keys(h, keys)
    if template == 8:
        # Setting the step range also writes the end of the overall time interval (octets 35-41),
        # which the forecast time and range alone leave at the sample's.
        ec.codes_set_string(h, "stepRange", f"{spec.get('step', 12) - spec.get('range', 6)}-{spec.get('step', 12)}")
    lat, lon = points(spec)
    values = spec["values"] if "values" in spec else field(spec.get("field", "temp"), lat, lon, spec.get("step", 12))
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


def gfs_field(kind, lat, lon, hour):
    """A GFS run's weather at `hour` after its start, in the units GFS writes: smooth, but not
    linear in latitude, longitude or time, so that a wrong column, row, hour or interpolation reads
    a different value. `rain` and `sun` are rates (kg m-2 h-1, W m-2) over the hour ending at `hour`."""
    x, y = np.radians(4 * lon), np.radians(6 * lat)
    if kind == "t":
        return 280 + 6 * np.sin(x) * np.cos(y) + 0.4 * lat - 2 * np.cos(np.pi * hour / 12)
    if kind == "td":
        return gfs_field("t", lat, lon, hour) - 4 - np.cos(x + y) - 0.1 * hour
    if kind == "u":
        return 4 * np.cos(x) + 0.3 * hour
    if kind == "v":
        return -3 + 2 * np.sin(y) - 0.2 * hour
    if kind == "p":
        return 97000 + 800 * np.sin(x - y) - 40 * hour
    if kind == "hgt":
        return 5600 + 0 * lat
    if kind == "rain":
        return np.maximum(0.0, 1.5 * np.sin(x + hour) + 0.8 * np.cos(y) + 0.1 * hour)
    if kind == "sun":
        return np.maximum(0.0, 400 * np.sin(np.pi * hour / 14)) + 30 * np.cos(x)
    raise ValueError(kind)


def gfs_interval_start(step):
    """GFS restarts its accumulations, averages and extremes every 6 hours: 0-1, ... 0-6, 6-7, ..."""
    return 6 * ((step - 1) // 6)


def write_gfs_step(root, spec, step):
    """One step of a GFS run as NOAA publishes it (gfs.YYYYMMDD/HH/atmos/gfs.tHHz.pgrb2.0p25.fFFF):
    the parameters Fieldcast syncs among one it does not, in NCEP's numbers (wgrib2's names),
    statistics over the interval from the last 6-hourly restart (product template 4.8); and the
    `.idx` wgrib2 writes beside it. `spec`: date, time (HHMM), grid (ni, nj, lat1, lon1, dlat, dlon;
    rows north to south, longitudes 0..360 as GFS writes them)."""
    grid = dict(spec["grid"], scanningMode=0)
    lat, lon = points(grid)
    t0 = gfs_interval_start(step)
    fcst = "anl" if step == 0 else f"{step} hour fcst"
    over = lambda kind: f"{t0}-{step} hour {kind} fcst"
    hours = np.arange(t0 + 1, step + 1)
    rain = sum((gfs_field("rain", lat, lon, h) for h in hours), np.zeros_like(lat))
    sun = sum((gfs_field("sun", lat, lon, h) for h in hours), np.zeros_like(lat)) / max(1, step - t0)
    # (wgrib2 variable, level, forecast, category, number, surface type, surface value, statistic, values);
    # packed as `make_message` packs, in 16 bits: the test reads its values from ecCodes, not from here.
    entries = [
        ("TMP", "2 m above ground", fcst, 0, 0, 103, 2, None, gfs_field("t", lat, lon, step)),
        ("HGT", "500 mb", fcst, 3, 5, 100, 50000, None, gfs_field("hgt", lat, lon, step)),
        ("DPT", "2 m above ground", fcst, 0, 6, 103, 2, None, gfs_field("td", lat, lon, step)),
        ("UGRD", "10 m above ground", fcst, 2, 2, 103, 10, None, gfs_field("u", lat, lon, step)),
        ("VGRD", "10 m above ground", fcst, 2, 3, 103, 10, None, gfs_field("v", lat, lon, step)),
        ("PRES", "surface", fcst, 3, 0, 1, 0, None, gfs_field("p", lat, lon, step)),
    ]
    if step > 0:
        highs = np.max([gfs_field("t", lat, lon, h) for h in range(t0, step + 1)], axis=0)
        lows = np.min([gfs_field("t", lat, lon, h) for h in range(t0, step + 1)], axis=0)
        entries += [
            ("DSWRF", "surface", over("ave"), 4, 7, 1, 0, 0, sun),
            ("APCP", "surface", over("acc"), 1, 8, 1, 0, 1, rain),
            ("TMAX", "2 m above ground", over("max"), 0, 4, 103, 2, 2, highs),
            ("TMIN", "2 m above ground", over("min"), 0, 5, 103, 2, 3, lows),
        ]
    ymd, hh = str(spec["date"]), f"{spec['time'] // 100:02d}"
    folder = os.path.join(root, f"gfs.{ymd}", hh, "atmos")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"gfs.t{hh}z.pgrb2.0p25.f{step:03d}")
    lines, offset = [], 0
    with open(path, "wb") as f:
        for n, (var, level, forecast, category, number, surface, value, statistic, values) in enumerate(entries):
            template = 0 if statistic is None else 8
            message = make_message(
                dict(
                    grid,
                    centre=7,
                    date=spec["date"],
                    time=spec["time"],
                    productTemplate=template,
                    category=category,
                    number=number,
                    surface=surface,
                    level=value,
                    statistic=statistic,
                    range=step - t0,
                    step=step,
                    values=values,
                    packing="grid_simple",
                )
            )
            f.write(message)
            lines.append(f"{n + 1}:{offset}:d={ymd}{hh}:{var}:{level}:{forecast}:\n")
            offset += len(message)
    with open(path + ".idx", "w") as f:
        f.writelines(lines)


def write_ecmwf_step(root, spec, step):
    """One step of an ECMWF open data HRES run as ECMWF publishes it
    ([yyyymmdd]/[HH]z/ifs/0p25/oper/[yyyymmdd][HH]0000-[step]h-oper-fc.grib2, stream `oper`): the
    single-level parameters Fieldcast syncs among ones it does not, named by their shortName so
    that ecCodes writes ECMWF's own GRIB2 numbers (tp is ECMWF's local 0/1/193, in metres), `tp`
    and `ssrd` accumulated from the start of the forecast (product template 4.8, an empty interval
    at step 0), CCSDS packing as the open data has it; and the JSON lines `.index` beside it, one
    object per message with the MARS keys ECMWF's index holds and its byte range. `spec`: date,
    time (HHMM), grid (ni, nj, lat1, lon1, dlat, dlon; rows north to south, longitudes as ECMWF's
    global grid numbers them from its first column at 180, so 180..360 west of Greenwich)."""
    grid = dict(spec["grid"], scanningMode=0)
    lat, lon = points(grid)
    hours = np.arange(1, step + 1)
    # The hourly rates of `gfs_field` integrated from the start: kg m-2 is mm, tp is in m; W m-2 over an hour is 3600 J m-2.
    tp = sum((gfs_field("rain", lat, lon, h) for h in hours), np.zeros_like(lat)) / 1000
    ssrd = sum((gfs_field("sun", lat, lon, h) for h in hours), np.zeros_like(lat)) * 3600
    # (shortName, values); accumulations last, as in the open data's files.
    entries = [
        ("msl", 101325 + 0 * lat),
        ("2t", gfs_field("t", lat, lon, step)),
        ("2d", gfs_field("td", lat, lon, step)),
        ("10u", gfs_field("u", lat, lon, step)),
        ("10v", gfs_field("v", lat, lon, step)),
        ("sp", gfs_field("p", lat, lon, step)),
        ("tcwv", 20 + 0 * lat),
        ("ssrd", ssrd),
        ("tp", tp),
    ]
    # The 2 m maximum and minimum over the hours since the step before, as the open data writes them:
    # mx2t3/mn2t3 over 3 hours to 144 h, mx2t6/mn2t6 over 6 hours after; none at step 0.
    period = 3 if step <= 144 else 6
    if step > 0:
        ends = [gfs_field("t", lat, lon, step - period), gfs_field("t", lat, lon, step)]
        # Beyond the instants at the window's ends, by a margin that differs from step to step, so
        # a window put at the wrong hours gives another day's extreme.
        margin = 0.5 + 0.25 * ((step // 3) % 7) + 0.2 * np.cos(np.radians(8 * lon))
        entries += [(f"mx2t{period}", np.maximum(*ends) + margin), (f"mn2t{period}", np.minimum(*ends) - margin)]
    ymd, hh = str(spec["date"]), f"{spec['time'] // 100:02d}"
    folder = os.path.join(root, ymd, f"{hh}z", "ifs", "0p25", "oper")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{ymd}{hh}0000-{step}h-oper-fc.grib2")
    lines, offset = [], 0
    with open(path, "wb") as f:
        for short_name, values in entries:
            h = ec.codes_grib_new_from_samples("GRIB2")
            set_keys(h, [("centre", 98), ("dataDate", spec["date"]), ("dataTime", spec["time"]), *grid_keys(grid)])
            accumulated = short_name in ("tp", "ssrd")
            extreme = short_name[:4] in ("mx2t", "mn2t")
            if accumulated or extreme:
                ec.codes_set_long(h, "productDefinitionTemplateNumber", 8)
            ec.codes_set_string(h, "shortName", short_name)
            ec.codes_set_string(h, "stepRange", f"0-{step}" if accumulated else f"{step - period}-{step}" if extreme else str(step))
            ec.codes_set(h, "packingType", "grid_ccsds")
            ec.codes_set_long(h, "bitsPerValue", 16)
            ec.codes_set_values(h, values)
            message = ec.codes_get_message(h)
            mars = {key: ec.codes_get_string(h, key) for key in ["date", "time", "step", "levtype"]}
            ec.codes_release(h)
            f.write(message)
            line = {"domain": "g", "date": mars["date"], "time": mars["time"], "expver": "0001", "class": "od", "type": "fc",
                    "stream": "oper", "step": mars["step"], "levtype": mars["levtype"], "param": short_name,
                    "_offset": offset, "_length": len(message)}
            lines.append(json.dumps(line) + "\n")
            offset += len(message)
    with open(path[: -len(".grib2")] + ".index", "w") as f:
        f.writelines(lines)


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
    "decimalScaleFactor", "binaryScaleFactor", "bitmapPresent", "centre",
]


def describe(h):
    ec.codes_set_double(h, "missingValue", MISSING)
    keys = {key: ec.codes_get_string(h, key) if key == "packingType" else ec.codes_get_long(h, key) for key in KEYS}
    if keys["dataRepresentationTemplateNumber"] == 3:
        keys["orderOfSpatialDifferencing"] = ec.codes_get_long(h, "orderOfSpatialDifferencing")
    if keys["productDefinitionTemplateNumber"] == 8:
        for key in ["typeOfStatisticalProcessing", "lengthOfTimeRange", "indicatorOfUnitForTimeRange"]:
            keys[key] = ec.codes_get_long(h, key)
    keys["shortName"] = ec.codes_get_string(h, "shortName")
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
    elif command == "gfs":
        spec = json.loads(sys.argv[3])
        for step in spec["steps"]:
            write_gfs_step(sys.argv[2], spec, step)
    elif command == "ecmwf":
        spec = json.loads(sys.argv[3])
        for step in spec["steps"]:
            write_ecmwf_step(sys.argv[2], spec, step)
    elif command == "read":
        json.dump([describe(h) for h in messages(sys.argv[2])], sys.stdout)
    elif command == "read-files":
        json.dump({path: [describe(h) for h in messages(path)] for path in sys.argv[2:]}, sys.stdout)
    elif command == "time":
        json.dump([median_seconds(h, int(sys.argv[3])) for h in messages(sys.argv[2])], sys.stdout)
    else:
        raise SystemExit(f"unknown command {command}")
