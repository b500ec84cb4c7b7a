import { decodeGridFile, encodeGridFile, layerSizes, storedToValue, valueToStored, type GridShape } from '../src/grid-file.js';

const shape: GridShape = { nlon: 4, nlat: 3, west: -180, north: 90, step: 60 };

function fixtureLayers() {
  return [
    {
      name: 'heights',
      kind: 'int16',
      curve: 'linear',
      scale: 1,
      offset: 0,
      values: Int16Array.from([0, 1, -1, 32767, -32768, 100, 200, 300, 5, 4, 3, 2]),
    },
    {
      name: 'share',
      kind: 'uint8',
      curve: 'linear',
      scale: 1 / 250,
      offset: 0,
      values: Uint8Array.from([0, 250, 255, 1, 0, 0, 0, 0, 9, 8, 7, 6]),
    },
    {
      name: 'distance',
      kind: 'int8',
      curve: 'square',
      scale: 0.5,
      offset: 0,
      values: Int8Array.from([-128, 127, 0, -1, 1, 2, -2, 3, 4, 5, 6, 7]),
    },
  ] as const;
}

describe('geography grid file', () => {
  it('round-trips every kind, extremes included', () => {
    const bytes = encodeGridFile(shape, [...fixtureLayers()]);
    const file = decodeGridFile(bytes);
    expect(file.shape).toEqual(shape);
    for (const layer of fixtureLayers()) {
      const back = file.layers.get(layer.name)!;
      expect(back.kind).toBe(layer.kind);
      expect(back.curve).toBe(layer.curve);
      expect(back.scale).toBe(layer.scale);
      expect(Array.from(back.values)).toEqual(Array.from(layer.values));
    }
    expect(layerSizes(bytes).map((l) => l.name)).toEqual(['heights', 'share', 'distance']);
  });

  it('maps stored integers to values by their curve', () => {
    const square = { name: 'd', kind: 'int8', curve: 'square', scale: 0.5, offset: 0 } as const;
    expect(storedToValue(square, 4)).toBe(4);
    expect(storedToValue(square, -20)).toBe(-100);
    expect(valueToStored(square, -100)).toBe(-20);
    expect(valueToStored(square, 1e9)).toBe(127);
    const linear = { name: 'l', kind: 'uint8', curve: 'linear', scale: 1 / 250, offset: 0 } as const;
    expect(valueToStored(linear, 0.5)).toBe(125);
    expect(valueToStored(linear, 2)).toBe(255);
    expect(storedToValue(linear, 125)).toBeCloseTo(0.5, 12);
  });

  it('rejects foreign, truncated and mis-sized input', () => {
    const bytes = encodeGridFile(shape, [...fixtureLayers()]);
    expect(() => decodeGridFile(Buffer.from('not a grid file at all, nothing here'))).toThrow(/not a Fieldcast/);
    expect(() => decodeGridFile(bytes.subarray(0, bytes.length - 3))).toThrow(/truncated/);
    expect(() =>
      encodeGridFile(shape, [{ name: 'x', kind: 'int16', curve: 'linear', scale: 1, offset: 0, values: new Int16Array(5) }]),
    ).toThrow(/5 values for 12 cells/);
    expect(() =>
      encodeGridFile(shape, [{ name: 'x', kind: 'int16', curve: 'linear', scale: 1, offset: 0, values: new Uint8Array(12) }]),
    ).toThrow(/needs an Int16Array/);
  });
});
