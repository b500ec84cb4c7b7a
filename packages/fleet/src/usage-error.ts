/** A command used wrongly or an operator's input refused: `fieldcast` prints its message and exits 2. */
export class UsageError extends Error {}
