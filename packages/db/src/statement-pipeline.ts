import pg from 'pg';

/** One statement with `$n` placeholders, named for its text (see Database.prepared). */
export interface PreparedStatement {
  /** unique per distinct text */
  name: string;
  /** SQL with $1, $2... placeholders */
  text: string;
  values: unknown[];
}

interface Lane {
  /** the connected client, or null until (re)connected */
  client: pg.Client | null;
  connecting: Promise<pg.Client> | null;
  /** statements sent on this lane and not yet answered */
  inFlight: number;
}

/**
 * A few pipelined PostgreSQL connections for Database.prepared. Statements are written without
 * waiting for the previous answer (pg's `pipeline` mode; each statement has its own Sync, so an
 * error fails that statement only), so under load many requests share one write and one read
 * instead of a round trip each. Each is a named query config (`{ name, text, values }`, pg's
 * public API): pg parses a name once per connection, then only binds and executes it, and
 * refuses a name given a second text. On the bench a feed read then costs Node about as much as a
 * request that never touches the database (docs/decisions/0029-feed-reads-at-scale.md). A slow
 * statement delays the ones behind it on its lane, which is why these are for short indexed
 * reads, spread over lanes by fewest statements in flight.
 *
 * A lane whose connection fails fails what it had in flight and reconnects on its next use.
 */
export class StatementPipeline {
  private readonly lanes: Lane[];
  private closed = false;

  constructor(
    private readonly url: string,
    size = 2,
  ) {
    this.lanes = Array.from({ length: size }, () => ({ client: null, connecting: null, inFlight: 0 }));
  }

  async run<T>(statement: PreparedStatement): Promise<T[]> {
    if (this.closed) throw new Error('The database is closed');
    let lane = this.lanes[0]!;
    for (const l of this.lanes) if (l.inFlight < lane.inFlight) lane = l;
    lane.inFlight++;
    let client: pg.Client | null = null;
    try {
      client = lane.client ?? (await this.connect(lane));
      const result = await client.query<T & pg.QueryResultRow>({ name: statement.name, text: statement.text, values: statement.values });
      return result.rows;
    } catch (error) {
      // A statement's own error leaves the connection as it was. Anything else (a lost socket,
      // or the server ending the session with a FATAL, e.g. pg_terminate_backend) retires it at
      // once, before its 'end' arrives, so no later statement is written to it.
      if (client && lane.client === client && !isStatementError(error)) {
        lane.client = null;
        client.end().catch(() => undefined);
      }
      throw error;
    } finally {
      lane.inFlight--;
    }
  }

  async end(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.lanes.map(async (lane) => {
        const client = lane.client ?? (await lane.connecting?.catch(() => null));
        lane.client = null;
        await client?.end().catch(() => undefined);
      }),
    );
  }

  private connect(lane: Lane): Promise<pg.Client> {
    lane.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url, pipeline: true } as pg.ClientConfig);
      // A dropped connection fails its statements (pg errors every one in flight) and must not
      // end the process: the 'error' event is caught here, and the lane forgets the client.
      const drop = () => {
        if (lane.client === client) lane.client = null;
      };
      client.on('error', drop);
      client.on('end', drop);
      try {
        await client.connect();
        if (this.closed) {
          await client.end().catch(() => undefined);
          throw new Error('The database is closed');
        }
        lane.client = client;
        return client;
      } finally {
        lane.connecting = null;
      }
    })();
    return lane.connecting;
  }
}

function isStatementError(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.severity !== 'FATAL' && error.severity !== 'PANIC';
}
