/**
 * A structural reader of NetCDF classic and 64-bit offset files for the tests, written from the
 * NetCDF Classic Format Specification independently of the writer.
 */
export interface NcVariable {
  name: string;
  dims: string[];
  shape: number[];
  type: number;
  attributes: Record<string, string | number[]>;
  begin: number;
  vsize: number;
}

export interface NcFile {
  version: number;
  dims: { name: string; length: number }[];
  attributes: Record<string, string | number[]>;
  variables: Record<string, NcVariable>;
  /** a variable's values, all of them */
  read(name: string): Float64Array | Float32Array;
}

export function readNetcdf(buf: Buffer): NcFile {
  if (buf.toString('latin1', 0, 3) !== 'CDF') throw new Error('not a NetCDF classic file');
  const version = buf[3]!;
  let p = 4;
  const int = () => {
    const v = buf.readInt32BE(p);
    p += 4;
    return v;
  };
  const pad = (n: number) => n + ((4 - (n % 4)) % 4);
  const name = () => {
    const n = int();
    const s = buf.toString('utf8', p, p + n);
    p += pad(n);
    return s;
  };
  const attributes = (): Record<string, string | number[]> => {
    const tag = int();
    const n = int();
    if (tag === 0 && n === 0) return {};
    if (tag !== 0x0c) throw new Error(`attribute list tag ${tag}`);
    const out: Record<string, string | number[]> = {};
    for (let i = 0; i < n; i++) {
      const key = name();
      const type = int();
      const count = int();
      if (type === 2) {
        out[key] = buf.toString('utf8', p, p + count);
        p += pad(count);
      } else {
        const size = type === 5 ? 4 : type === 6 ? 8 : 0;
        if (!size) throw new Error(`attribute type ${type}`);
        const values: number[] = [];
        for (let k = 0; k < count; k++) values.push(type === 5 ? buf.readFloatBE(p + 4 * k) : buf.readDoubleBE(p + 8 * k));
        out[key] = values;
        p += pad(size * count);
      }
    }
    return out;
  };
  const numrecs = int();
  if (numrecs !== 0) throw new Error('record variables are not expected');
  const dimTag = int();
  const nDims = int();
  if (dimTag !== 0x0a) throw new Error('dimension list');
  const dims: { name: string; length: number }[] = [];
  for (let i = 0; i < nDims; i++) dims.push({ name: name(), length: int() });
  const globals = attributes();
  if (int() !== 0x0b) throw new Error('variable list');
  const nVars = int();
  const variables: Record<string, NcVariable> = {};
  for (let i = 0; i < nVars; i++) {
    const vname = name();
    const n = int();
    const ids: number[] = [];
    for (let k = 0; k < n; k++) ids.push(int());
    const attrs = attributes();
    const type = int();
    const vsize = int() >>> 0;
    let begin: number;
    if (version === 2) {
      begin = Number(buf.readBigInt64BE(p));
      p += 8;
    } else begin = int();
    variables[vname] = {
      name: vname,
      dims: ids.map((d) => dims[d]!.name),
      shape: ids.map((d) => dims[d]!.length),
      type,
      attributes: attrs,
      begin,
      vsize,
    };
  }
  const headerEnd = p;
  return {
    version,
    dims,
    attributes: globals,
    variables,
    read(vname) {
      const v = variables[vname]!;
      if (v.begin < headerEnd) throw new Error('data overlaps the header');
      const n = v.shape.reduce((a, b) => a * b, 1);
      if (v.type === 6) return Float64Array.from({ length: n }, (_, k) => buf.readDoubleBE(v.begin + 8 * k));
      if (v.type === 5) return Float32Array.from({ length: n }, (_, k) => buf.readFloatBE(v.begin + 4 * k));
      throw new Error(`type ${v.type}`);
    },
  };
}
