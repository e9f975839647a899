// Wraps a D1 binding and counts round trips: every statement execution and every batch (one
// round trip however many statements it carries). Statements handed to `batch` are unwrapped,
// because the runtime only accepts its own statement objects.

export interface CountingD1 {
  db: D1Database;
  roundTrips: () => number;
  statements: string[];
}

export function countingD1(real: D1Database): CountingD1 {
  let roundTrips = 0;
  const statements: string[] = [];
  const unwrap = new WeakMap<object, D1PreparedStatement>();

  const wrapStatement = (statement: D1PreparedStatement, query: string): D1PreparedStatement => {
    const wrapper = {
      bind: (...values: unknown[]) => wrapStatement(statement.bind(...values), query),
      first: (column?: string) => {
        roundTrips++;
        statements.push(query);
        return column === undefined ? statement.first() : statement.first(column);
      },
      all: () => {
        roundTrips++;
        statements.push(query);
        return statement.all();
      },
      run: () => {
        roundTrips++;
        statements.push(query);
        return statement.run();
      },
      raw: (options?: { columnNames?: boolean }) => {
        roundTrips++;
        statements.push(query);
        return options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw();
      },
    } as unknown as D1PreparedStatement;
    unwrap.set(wrapper, statement);
    return wrapper;
  };

  const db = {
    prepare: (query: string) => wrapStatement(real.prepare(query), query),
    batch: (batch: D1PreparedStatement[]) => {
      roundTrips++;
      statements.push(`batch(${batch.length})`);
      return real.batch(batch.map((statement) => unwrap.get(statement) ?? statement));
    },
    exec: (query: string) => {
      roundTrips++;
      statements.push(query);
      return real.exec(query);
    },
    withSession: real.withSession.bind(real),
    dump: real.dump.bind(real),
  } as unknown as D1Database;

  return { db, roundTrips: () => roundTrips, statements };
}
