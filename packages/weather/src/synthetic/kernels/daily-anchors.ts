/**
 * Daily temperature anchors of a 2 x 2 block as WebAssembly SIMD kernels (daily-anchors.wat,
 * which documents the arguments), compiled once per process from the generated
 * daily-anchors.wasm.ts.
 */
import { DAILY_ANCHORS_WASM } from './daily-anchors.wasm.js';
import { kernelMemory } from './kernel-memory.js';

const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(DAILY_ANCHORS_WASM, 'base64')), { kernels: { memory: kernelMemory.memory } });

/** daily-anchors.wat `scaledNodes`: p0..p3, kMin, nK, s0, s1, wx0, wx1, wy0, wy1, nodes. */
export const scaledNodes = instance.exports['scaledNodes'] as (...args: number[]) => void;

/** daily-anchors.wat `dayLoop`: 39 arguments, in the order that file lists them. */
export const dayLoop = instance.exports['dayLoop'] as (...args: number[]) => void;

/** daily-anchors.wat `hourlyAnchors`: 19 arguments, in the order that file lists them. */
export const hourlyAnchors = instance.exports['hourlyAnchors'] as (...args: number[]) => void;
