import pg from 'pg';

/** One statement with `$n` placeholders, named for its text (see Database.prepared). */
export interface PreparedStatement {
  /** unique per distinct text */
  name: string;
  /** SQL with $1, $2... placeholders */
  text: string;
  values: unknown[];
}

/**
 * What pg.Client hands a query it runs: the connection's protocol writers and the client's
 * record of statements already parsed on it. This is the contract of pg's "submittable"
 * queries (pg-cursor and pg-query-stream are built on it), not a private detail of pg.Query.
 */
interface ProtocolConnection {
  stream: { cork?(): void; uncork?(): void };
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(message: { name: string; text: string }): void;
  bind(message: { statement: string; values: (string | null)[] }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
  sync(): void;
}

interface FieldDescription {
  name: string;
  dataTypeID: number;
}

type Row = Record<string, unknown>;

/** A parameter as text, as pg.Query sends it for the types our statements bind (text, numbers, uuids, booleans, null). */
function parameterText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * pg.Query as a base class only: a pipelined pg.Client accepts nothing else (it refuses other
 * submittables, such as cursors that keep a portal open across round trips). Its constructor
 * is all PreparedQuery uses of it; every protocol handler is overridden below.
 */
const QueryBase = pg.Query as unknown as new (config: { name: string; text: string }) => object;

/**
 * A named prepared statement run through pg's extended protocol without pg.Query's general
 * handling (Result objects, row modes, callbacks and events): Parse once per connection, then
 * Bind/Describe/Execute/Sync in one corked write, and rows built with pg's own type parsers.
 * About 20 µs less Node CPU per feed read than pg.Query (docs/decisions.md, "Events performance").
 */
export class PreparedQuery<T = Row> extends QueryBase {
  readonly name: string;
  readonly text: string;
  readonly result: Promise<T[]>;
  private readonly values: unknown[];
  private fields: FieldDescription[] = [];
  private parsers: ((text: string) => unknown)[] = [];
  /** not `rows`: pg.Client reads that name as the portal fetch size of pg.Query */
  private readonly collected: T[] = [];
  private settled = false;
  private resolve!: (rows: T[]) => void;
  private reject!: (error: unknown) => void;

  constructor(statement: PreparedStatement) {
    super({ name: statement.name, text: statement.text });
    this.name = statement.name;
    this.text = statement.text;
    this.values = statement.values;
    this.result = new Promise<T[]>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: ProtocolConnection): Error | null {
    let values: (string | null)[];
    try {
      values = this.values.map(parameterText);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
    // One write for all five messages, as pg.Query does: uncorked, the stream may send each
    // message in its own packet.
    connection.stream.cork?.();
    try {
      const known = connection.parsedStatements[this.name] ?? connection.submittedNamedStatements[this.name];
      if (known === undefined) {
        connection.parse({ name: this.name, text: this.text });
        connection.submittedNamedStatements[this.name] = this.text;
      } else if (known !== this.text) {
        return new Error(`Prepared statement ${this.name} was used for a different text`);
      }
      connection.bind({ statement: this.name, values });
      connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '' });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    this.fields = message.fields;
    this.parsers = message.fields.map((f) => pg.types.getTypeParser(f.dataTypeID, 'text') as (text: string) => unknown);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const row: Row = {};
    for (let i = 0; i < this.fields.length; i++) {
      const text = message.fields[i];
      row[this.fields[i]!.name] = text === null || text === undefined ? null : this.parsers[i]!(text);
    }
    this.collected.push(row as T);
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  /** Settles at once: after a lost connection no ReadyForQuery follows. */
  handleError(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }

  handleReadyForQuery(): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(this.collected);
  }

  handleCopyInResponse(): void {}

  handleCopyData(): void {}
}
