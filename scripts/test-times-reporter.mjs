// A Jest reporter that names the slow test files: after each run it writes
// every file's wall time, its test and assertion counts, the run's total and the machine's load
// to test-output/test-times.md (and .json), and prints the ten slowest. Both test configs use it,
// with scripts/test-cpu-setup.mjs, which records each file's CPU time.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, relative } from 'node:path';

export default class TestTimesReporter {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.name = options.name ?? 'test-times';
    this.started = Date.now();
    this.loadAtStart = loadavg();
    // The workers inherit this environment: they are started after the reporters. One folder per
    // run, so two runs at once (a developer's loop beside a full run) keep their own records.
    this.cpuDir = join(this.rootDir, 'test-output', `cpu-${this.name}-${process.pid}`);
    process.env.FIELDCAST_TEST_CPU_DIR = this.cpuDir;
  }

  /** CPU seconds per test file path, as scripts/test-cpu-setup.mjs recorded them. */
  cpuSeconds() {
    const byPath = new Map();
    let names = [];
    try {
      names = readdirSync(this.cpuDir);
    } catch {
      return byPath;
    }
    for (const name of names) {
      const { testPath, seconds } = JSON.parse(readFileSync(join(this.cpuDir, name), 'utf8'));
      byPath.set(testPath, seconds);
    }
    return byPath;
  }

  onRunStart() {
    this.started = Date.now();
    this.loadAtStart = loadavg();
  }

  onRunComplete(_contexts, results) {
    const cpu = this.cpuSeconds();
    rmSync(this.cpuDir, { recursive: true, force: true });
    const files = results.testResults
      .map((file) => ({
        file: relative(this.rootDir, file.testFilePath),
        seconds: (file.perfStats.end - file.perfStats.start) / 1000,
        cpuSeconds: cpu.get(file.testFilePath) ?? null,
        tests: file.testResults.length,
        // expect() calls that passed, so a faster suite can be shown to assert no less.
        assertions: file.testResults.reduce((sum, t) => sum + (t.numPassingAsserts ?? 0), 0),
        failed: file.numFailingTests,
      }))
      .sort((a, b) => b.seconds - a.seconds);
    const total = (Date.now() - this.started) / 1000;
    const summed = files.reduce((sum, f) => sum + f.seconds, 0);
    const summedCpu = files.reduce((sum, f) => sum + (f.cpuSeconds ?? 0), 0);
    const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
    const summary = {
      total,
      summedFileSeconds: summed,
      summedCpuSeconds: summedCpu,
      files: files.length,
      tests: results.numTotalTests,
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      skipped: results.numPendingTests + results.numTodoTests,
      assertions: files.reduce((sum, f) => sum + f.assertions, 0),
      loadAtStart: this.loadAtStart,
      loadAtEnd: loadavg(),
    };
    const lines = [
      `# ${this.name}`,
      '',
      `${summary.files} files, ${summary.tests} tests (${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped), ${summary.assertions} passing assertions, in ${total.toFixed(1)} s wall; files' own times add to ${summed.toFixed(1)} s, their CPU times (test workers and their threads) to ${summedCpu.toFixed(1)} s.`,
      `Load average (1, 5, 15 min): ${load(summary.loadAtStart)} at the start, ${load(summary.loadAtEnd)} at the end.`,
      '',
      '| file | seconds | CPU s | tests | assertions |',
      '|---|---:|---:|---:|---:|',
      ...files.map(
        (f) =>
          `| ${f.file}${f.failed ? ` (${f.failed} failed)` : ''} | ${f.seconds.toFixed(1)} | ${f.cpuSeconds === null ? '' : f.cpuSeconds.toFixed(1)} | ${f.tests} | ${f.assertions} |`,
      ),
      '',
    ];
    const dir = join(this.rootDir, 'test-output');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${this.name}.md`), lines.join('\n'));
    writeFileSync(join(dir, `${this.name}.json`), JSON.stringify({ ...summary, perFile: files }, null, 2));
    const slowest = files
      .slice(0, 10)
      .map((f) => `  ${f.seconds.toFixed(1).padStart(7)} s  ${f.file}`)
      .join('\n');
    process.stdout.write(
      `\n${this.name}: ${total.toFixed(1)} s wall, ${summary.tests} tests, ${summary.assertions} assertions; slowest files:\n${slowest}\n(table in test-output/${this.name}.md)\n`,
    );
  }
}
