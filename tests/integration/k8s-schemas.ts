// Checks a Kubernetes object against the API's OpenAPI schema for its apiVersion and kind, as
// published in the kubernetes-models package (one model class per kind, grouped by API version).

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
  // core kinds are `v1`; the others `group/version`, the package's module paths exactly
  const group = (await import(`kubernetes-models/${object.apiVersion}`).catch(() => undefined)) as
    Record<string, ModelClass | undefined> | undefined;
  const Model = group?.[object.kind];
  if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  try {
    new Model(object).validate();
  } catch (err) {
    throw new Error(`${object.kind} ${object.metadata?.name ?? '(unnamed)'}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
