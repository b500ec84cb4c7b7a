// The unit suite's order: Jest's (files that failed last time first, then the longest by the times
// it kept), except that the fleet package's tests go first. They start whole fleets and CLI
// processes and are the longest files (the fuzz suite, minutes each at CI's 300 runs); on a fresh
// clone Jest has no times and orders by file size, which put the three fuzz files, three lines
// each, last, and the run ended on them with a core idle.
import Sequencer from '@jest/test-sequencer';

const FIRST = /[\\/]packages[\\/]fleet[\\/]test[\\/][^\\/]+\.test\.ts$/;

export default class FleetTestsFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    return [...sorted.filter((t) => FIRST.test(t.path)), ...sorted.filter((t) => !FIRST.test(t.path))];
  }
}
