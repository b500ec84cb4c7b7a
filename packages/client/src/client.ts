import type { ClientOptions } from './http.js';
import { ModelClient } from './model.js';

/**
 * The Fieldcast client: one member per area, each in its own module (model.ts for the model
 * area). A member is built when first used, so a client needs base URLs only for the areas it calls.
 */
export class FieldcastClient {
  private modelClient: ModelClient | null = null;

  constructor(private readonly options: ClientOptions) {}

  /** The model area (docs/interface.md §7). */
  get model(): ModelClient {
    return (this.modelClient ??= new ModelClient(this.options));
  }
}
