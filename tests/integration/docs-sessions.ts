/**
 * The shell sessions of a docs page as one script, and what their shown output promises
 * (tests/integration/docs-sessions.int.test.ts runs those of its pages against a started fleet).
 *
 * A session is a fenced block whose info string is exactly `sh` (blocks marked `sh no-run` are
 * shown only). Its lines run in order, all blocks in one shell, so a variable set in one block is
 * there in the next. A run of comment lines directly under a command that begins with JSON (`# {`,
 * `# [`), a status line (`# HTTP/1.1 200`), a `# Link:` header or `# <?xml` shows that command's
 * output; the lines since the previous shown output are one step, and its output must hold each
 * JSON member name the comment shows (`"name":`), the status shown, a `rel="next"` link, or KML.
 */
export interface Step {
  /** 1-based line in the markdown of the step's first line */
  line: number;
  code: string[];
  shown: string[];
}

const SHOWN_START = /^#\s*(\{|\[|HTTP\/|Link:|<\?xml)/;

/** The steps of every `sh` block, in order. */
export function sessionSteps(markdown: string): Step[] {
  const steps: Step[] = [];
  let inSession = false;
  let fence = false;
  let step: Step | null = null;
  let showing = false;
  markdown.split('\n').forEach((text, i) => {
    if (text.startsWith('```')) {
      if (!fence) {
        fence = true;
        inSession = text.trim() === '```sh';
        step = null;
      } else {
        fence = false;
        inSession = false;
      }
      showing = false;
      return;
    }
    if (!inSession) return;
    const comment = text.trimStart().startsWith('#');
    if (step && comment && (showing || (step.code.length > 0 && SHOWN_START.test(text.trimStart())))) {
      showing = true;
      step.shown.push(text);
      return;
    }
    if (!step || (showing && !comment)) {
      step = { line: i + 1, code: [], shown: [] };
      steps.push(step);
    }
    showing = false;
    step.code.push(text);
  });
  return steps;
}

/** The member names a shown output names. */
export function shownKeys(shown: readonly string[]): string[] {
  return [...new Set([...shown.join('\n').matchAll(/"([A-Za-z_][A-Za-z0-9_]*)"\s*:/g)].map((m) => m[1]!))];
}

/** What the step's output lacks of what its comment shows; empty when it holds all. */
export function missingFromOutput(step: Step, output: string): string[] {
  const shown = step.shown.join('\n');
  const missing = shownKeys(step.shown)
    .filter((key) => !output.includes(`"${key}":`))
    .map((key) => `"${key}":`);
  const status = /HTTP\/[\d.]+ (\d{3})/.exec(shown)?.[1];
  if (status && !new RegExp(`HTTP/[\\d.]+ ${status}`).test(output)) missing.push(`HTTP status ${status}`);
  if (/Link:/.test(shown) && !/rel="next"/.test(output)) missing.push('Link rel="next"');
  if (/<kml/.test(shown) && !/<kml/.test(output)) missing.push('<kml');
  return missing;
}

const MARK = '@@docs-session-step';

/**
 * One bash script of the steps: it stops at the first command that fails, an HTTP error included
 * (curl runs with --fail-with-body), or at a variable used before it is set (`set -u`), and marks
 * where each step's output begins.
 */
export function sessionScript(steps: readonly Step[]): string {
  return [
    'set -euo pipefail',
    'curl() { command curl --fail-with-body "$@"; }',
    ...steps.flatMap((s, k) => [`printf '\\n${MARK} %d@@\\n' ${k}`, ...s.code]),
  ].join('\n');
}

/** Each step's output by its index, from the script's standard output. */
export function stepOutputs(stdout: string): Map<number, string> {
  const out = new Map<number, string>();
  const parts = stdout.split(new RegExp(`\\n${MARK} (\\d+)@@\\n`));
  for (let i = 1; i < parts.length; i += 2) out.set(Number(parts[i]), parts[i + 1] ?? '');
  return out;
}
