import pg from 'pg';

/** How many distinct statements are prepared at most; later ones run unnamed (a bound on each session's memory). */
export const MAX_PREPARED = 500;

/**
 * A namer of statements: it gives a read's text its prepared statement's name, or null when it runs unnamed. Our SQL is built from descriptions with
 * values as parameters, so the texts are few and repeat; each is parsed and planned once per connection, after
 * which a request sends only Bind and Execute (PostgreSQL shares the server's cores).
 * Only `select` and `with` statements are named: a plan cached across a migration's DDL is never at stake.
 */
export function statementNamer(): (text: string) => string | null {
  const names = new Map<string, string>();
  return (text) => {
    const known = names.get(text);
    if (known) return known;
    if (names.size >= MAX_PREPARED || !/^\s*(select|with)\b/i.test(text)) return null;
    const name = `sq${names.size + 1}`;
    names.set(text, name);
    return name;
  };
}

/**
 * Runs `text` as the prepared statement `name`. The query is built from the text (pg copies a config object with
 * property descriptors on every call, which showed in the profile) and named afterwards; pg then resolves it
 * through the callback, as it resolves its own promise.
 */
function named(query: (...args: unknown[]) => unknown, name: string, text: string, values: unknown[]) {
  return new Promise((resolve, reject) => {
    const q = new pg.Query(text, values, (err: Error | undefined, result: unknown) => (err ? reject(err) : resolve(result)));
    (q as unknown as { name: string }).name = name;
    query(q);
  });
}

/**
 * A pg client class that prepares reads by name (see `statementNamer`); everything else passes through unchanged.
 * One class per pool: the names, and their bound, belong to the pool whose connections hold the statements.
 */
export function preparingClient(): typeof pg.Client {
  const statementName = statementNamer();
  return class PreparingClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      const query = this.query.bind(this) as (...args: unknown[]) => unknown;
      // An own property (pg's overloads cannot be restated by a subclass method).
      this.query = ((config: unknown, values?: unknown, callback?: unknown) => {
        if (typeof config === 'string' && Array.isArray(values) && callback === undefined) {
          const name = statementName(config);
          if (name) return named(query, name, config, values);
        }
        return query(config, values, callback);
      }) as pg.Client['query'];
    }
  };
}
