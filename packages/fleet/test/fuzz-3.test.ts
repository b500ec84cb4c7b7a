import { FUZZ_PARTS, fuzzPart } from './fuzz/fuzz-suite.js';

// The fuzz suite's part 3 (packages/fleet/test/fuzz/fuzz-suite.ts).
await fuzzPart(3, FUZZ_PARTS);
