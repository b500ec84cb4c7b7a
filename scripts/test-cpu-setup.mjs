// Runs in each test file's environment (setupFilesAfterEnv): records the CPU time the test worker
// (its compute threads included, child processes not) spent on the file, for the test-times
// reporter. Wall times depend on what else the machine runs; CPU time names the costly files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const started = process.cpuUsage();

afterAll(() => {
  const dir = process.env.FIELDCAST_TEST_CPU_DIR;
  const { testPath } = expect.getState();
  if (!dir || !testPath) return;
  const used = process.cpuUsage(started);
  mkdirSync(dir, { recursive: true });
  const record = { testPath, seconds: (used.user + used.system) / 1e6 };
  writeFileSync(join(dir, `${Buffer.from(testPath).toString('base64url')}.json`), JSON.stringify(record));
});
