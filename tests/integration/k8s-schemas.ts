// Checks a Kubernetes object against the API's OpenAPI schema for its apiVersion and kind, as
// published in the kubernetes-models package (one model class per kind, grouped by API version).
//
// The package's validators check the fields a kind has but let any other through, while the API
// server drops a field its schema lacks (Kubernetes, "Server-side field validation": a warning at
// most): a misspelt `readinesProbe` would deploy pods that are never probed. The package's type
// declarations are generated from the same schema, with an index signature only where the schema
// has `additionalProperties` (labels, a ConfigMap's data), so the object is also compiled as a
// literal of its kind's type, where TypeScript refuses a property the type lacks at any depth.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string };
}

interface Model {
  validate(): void;
}
type ModelClass = new (data: KubernetesObject) => Model;

/** Throws with the schema's complaint when `object` is not a valid instance of its kind. */
export async function validateKubernetesObject(object: KubernetesObject): Promise<void> {
  await validateKubernetesObjects([object]);
}

/** Throws with the schema's complaints about each of `objects` that is not a valid instance of its kind. */
export async function validateKubernetesObjects(objects: readonly KubernetesObject[]): Promise<void> {
  const complaints: string[] = [];
  for (const object of objects) {
    // core kinds are `v1`; the others `group/version`, the package's module paths exactly
    const group = (await import(`kubernetes-models/${object.apiVersion}`).catch(() => undefined)) as
      Record<string, ModelClass | undefined> | undefined;
    const Model = group?.[object.kind];
    if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
    try {
      new Model(object).validate();
    } catch (err) {
      complaints.push(`${nameOf(object)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  complaints.push(...unknownFields(objects));
  if (complaints.length) throw new Error(complaints.join('\n'));
}

const nameOf = (object: KubernetesObject) => `${object.kind} ${object.metadata?.name ?? '(unnamed)'}`;

/** Beside this file, so the package resolves from the repository's node_modules. */
const LITERAL_FILE = join(dirname(fileURLToPath(import.meta.url)), 'k8s-object-literal.ts');

const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
  lib: ['lib.es2022.d.ts'],
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
};

/** The package's and the library's declarations, parsed once a run rather than once an object. */
const parsed = new Map<string, ts.SourceFile | undefined>();

/**
 * Each property of `objects` that its kind's type (so the schema) does not have, named with its
 * object; all in one program, since the compiler's start is most of its cost.
 */
function unknownFields(objects: readonly KubernetesObject[]): string[] {
  const groups = [...new Set(objects.map((o) => o.apiVersion))];
  const lines = groups.map((group, i) => `import type * as G${i} from 'kubernetes-models/${group}';`);
  const firstLine: number[] = [];
  for (const [i, object] of objects.entries()) {
    firstLine.push(lines.length);
    lines.push(
      ...`export const object${i}: G${groups.indexOf(object.apiVersion)}.I${object.kind} = ${JSON.stringify(object, null, 2)};`.split('\n'),
    );
  }
  const source = lines.join('\n');
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (fileName === LITERAL_FILE) return ts.createSourceFile(fileName, source, languageVersion);
    if (!parsed.has(fileName)) parsed.set(fileName, getSourceFile.call(host, fileName, languageVersion, ...rest));
    return parsed.get(fileName);
  };
  host.fileExists = (fileName) => fileName === LITERAL_FILE || fileExists.call(host, fileName);
  host.readFile = (fileName) => (fileName === LITERAL_FILE ? source : readFile.call(host, fileName));
  const program = ts.createProgram({ rootNames: [LITERAL_FILE], options: COMPILER_OPTIONS, host });
  const literal = program.getSourceFile(LITERAL_FILE)!;
  return [...program.getSyntacticDiagnostics(literal), ...program.getSemanticDiagnostics(literal)].map((d) => {
    const line = d.start === undefined ? 0 : literal.getLineAndCharacterOfPosition(d.start).line;
    const index = firstLine.findLastIndex((first) => first <= line);
    const where = index < 0 ? 'imports' : nameOf(objects[index]!);
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')} (${lines[line]?.trim() ?? ''})`;
  });
}
