/**
 * Hour loops of the ET inputs at a point as WebAssembly kernels (hourly-series.wat, which
 * documents the arguments), compiled once per process from the generated hourly-series.wasm.ts.
 */
import { HOURLY_SERIES_WASM } from './hourly-series.wasm.js';
import { kernelMemory } from './kernel-memory.js';

const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(HOURLY_SERIES_WASM, 'base64')), { kernels: { memory: kernelMemory.memory } });

/** hourly-series.wat `mixNodes`: src, nK, pair, g0, g1, g2, g3, dst. */
export const mixNodes = instance.exports['mixNodes'] as (...args: number[]) => void;

/** hourly-series.wat `pressureSegments`: a, b, tA, tB, pA, pB, uA, uB, P, ampA, ampB, nt, out. */
export const pressureSegments = instance.exports['pressureSegments'] as (...args: number[]) => void;

/** hourly-series.wat `windSegments`: a, b, tA, tB, pA, pB, uA, uB, s0, s1, ampA, ampB, dc, hour, nt, out. */
export const windSegments = instance.exports['windSegments'] as (...args: number[]) => void;

/** hourly-series.wat `temperatureColumn`: 18 arguments, in the order that file lists them. */
export const temperatureColumn = instance.exports['temperatureColumn'] as (...args: number[]) => void;

/** hourly-series.wat `mixColumns`: prod0, prod1, nt, out. */
export const mixColumns = instance.exports['mixColumns'] as (...args: number[]) => void;

/** hourly-series.wat `shortwaveDays`: 22 arguments, in the order that file lists them. */
export const shortwaveDays = instance.exports['shortwaveDays'] as (...args: number[]) => void;

/** hourly-series.wat `shortwaveRso`: 16 arguments, in the order that file lists them; returns the number of runs. */
export const shortwaveRso = instance.exports['shortwaveRso'] as (...args: number[]) => number;

/** hourly-series.wat `shortwaveClouds`: 22 arguments, in the order that file lists them. */
export const shortwaveClouds = instance.exports['shortwaveClouds'] as (...args: number[]) => void;

/** hourly-series.wat `cornerNodes`: p0, p1, p2, p3, kMin, nK, wx0, wx1, wy0, wy1, out. */
export const cornerNodes = instance.exports['cornerNodes'] as (...args: number[]) => void;
