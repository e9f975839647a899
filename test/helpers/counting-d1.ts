// Wraps a D1 binding and counts round trips: every statement execution and every batch (one
// round trip however many statements it carries). Statements handed to `batch` are unwrapped,
// because the runtime only accepts its own statement objects.

export interface CountingD1 {
  db: D1Database;
  roundTrips: () => number;
  /** The SQL of every execution, in order; a batch adds `batch(n)` then its statements. */
  statements: string[];
  /** Every statement that reached D1, with its bound values (for EXPLAIN QUERY PLAN). */
  executed: { sql: string; params: unknown[] }[];
  /** The argument of every `withSession` call (a constraint or a bookmark), in order. */
  sessions: (string | undefined)[];
}

export function countingD1(real: D1Database): CountingD1 {
  let roundTrips = 0;
  const statements: string[] = [];
  const executed: { sql: string; params: unknown[] }[] = [];
  const sessions: (string | undefined)[] = [];
  const unwrap = new WeakMap<object, { statement: D1PreparedStatement; query: string; params: unknown[] }>();

  const wrapStatement = (
    statement: D1PreparedStatement,
    query: string,
    params: unknown[] = [],
  ): D1PreparedStatement => {
    const record = () => {
      roundTrips++;
      statements.push(query);
      executed.push({ sql: query, params });
    };
    const wrapper = {
      bind: (...values: unknown[]) => wrapStatement(statement.bind(...values), query, values),
      first: (column?: string) => {
        record();
        return column === undefined ? statement.first() : statement.first(column);
      },
      all: () => {
        record();
        return statement.all();
      },
      run: () => {
        record();
        return statement.run();
      },
      raw: (options?: { columnNames?: boolean }) => {
        record();
        return options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw();
      },
    } as unknown as D1PreparedStatement;
    unwrap.set(wrapper, { statement, query, params });
    return wrapper;
  };

  const batch = (connection: D1Database | D1DatabaseSession, statementsInBatch: D1PreparedStatement[]) => {
    roundTrips++;
    statements.push(`batch(${statementsInBatch.length})`);
    const realStatements = statementsInBatch.map((statement) => {
      const entry = unwrap.get(statement);
      if (!entry) return statement;
      statements.push(entry.query);
      executed.push({ sql: entry.query, params: entry.params });
      return entry.statement;
    });
    return connection.batch(realStatements);
  };

  const db = {
    prepare: (query: string) => wrapStatement(real.prepare(query), query),
    batch: (statementsInBatch: D1PreparedStatement[]) => batch(real, statementsInBatch),
    exec: (query: string) => {
      roundTrips++;
      statements.push(query);
      return real.exec(query);
    },
    // A Sessions API session counts the same way; its constraint or bookmark is recorded.
    withSession: (constraintOrBookmark?: string) => {
      sessions.push(constraintOrBookmark);
      const session = real.withSession(constraintOrBookmark);
      return {
        prepare: (query: string) => wrapStatement(session.prepare(query), query),
        batch: (statementsInBatch: D1PreparedStatement[]) => batch(session, statementsInBatch),
        getBookmark: () => session.getBookmark(),
      } as unknown as D1DatabaseSession;
    },
    dump: real.dump.bind(real),
  } as unknown as D1Database;

  return { db, roundTrips: () => roundTrips, statements, executed, sessions };
}
