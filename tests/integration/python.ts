import { execFileSync } from 'node:child_process';

/**
 * The first Python that imports `modules`: $FIELDCAST_PYTHON if set (only it), else each of
 * `candidates` (Debian's modules live in /usr/bin/python3 when another python3 comes first on PATH).
 * `tried` says why each candidate was refused, for the message of a test that needs one.
 */
export function findPython(modules: string, candidates: string[]): { python?: string; tried: string[] } {
  const tried: string[] = [];
  const explicit = process.env.FIELDCAST_PYTHON;
  for (const candidate of explicit ? [explicit] : candidates) {
    try {
      execFileSync(candidate, ['-c', `import ${modules}`], { stdio: 'pipe' });
      return { python: candidate, tried };
    } catch (err) {
      tried.push(
        `${candidate}: ${String((err as { stderr?: Buffer }).stderr ?? (err as Error).message)
          .trim()
          .split('\n')
          .pop()}`,
      );
    }
  }
  return { tried };
}
