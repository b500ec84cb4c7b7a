import { FUZZ_PARTS, fuzzPart } from './fuzz/fuzz-suite.js';

// The fuzz suite's part 2 (packages/fleet/test/fuzz/fuzz-suite.ts).
await fuzzPart(2, FUZZ_PARTS);
