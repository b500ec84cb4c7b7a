import { FUZZ_PARTS, fuzzPart } from './fuzz/fuzz-suite.js';

// The fuzz suite's part 1 (packages/fleet/test/fuzz/fuzz-suite.ts).
await fuzzPart(1, FUZZ_PARTS);
