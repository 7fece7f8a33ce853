/**
 * A TCP proxy between a replica and PostgreSQL that forces an ambiguous commit: armed
 * with a statement's text, it forwards that statement (and, for a transaction, its
 * COMMIT) to the server, then drops the server's answer and cuts the connection, so the
 * write is committed while the replica hears only a broken connection. With `outageMs`
 * it cuts every connection at that moment and refuses new ones for that long (the
 * database unreachable while the replica tries to learn the outcome).
 *
 * It reads the wire protocol only as bytes: the SQL text of a Parse or Query message is
 * searched for, which is enough for the statements the store sends (no TLS here).
 */
import { createServer, connect, type Server, type Socket } from "node:net";

export interface CutPlan {
  /** Text of the statement that marks the connection (e.g. "INSERT INTO blobs"). */
  statement: string;
  /** Text of the message whose answer is dropped: the statement itself (autocommit) or "COMMIT". */
  answerOf?: string;
  /** Cut every connection and refuse new ones for this long once the answer was dropped. */
  outageMs?: number;
  /**
   * Cut the replica's side as soon as the statement is forwarded, before the server has
   * answered, and keep the server's side open: the statement runs on (waiting on a lock,
   * say) while the replica hears only a broken connection.
   */
  cutWhenSent?: boolean;
}

export interface CutProxy {
  port: number;
  /** Arms one cut; resolves once it happened (the server had answered the statement). */
  arm(plan: CutPlan): Promise<void>;
  /** How many cuts happened. */
  cuts(): number;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  server: Socket;
  marked: boolean;
  dropAnswer: boolean;
  /** The replica's side was cut, the server's kept open (CutPlan.cutWhenSent). */
  serverKept: boolean;
}

/** Starts a proxy on 127.0.0.1 (port 0) to PostgreSQL at `target`. */
export async function startCutProxy(target: { host: string; port: number }): Promise<CutProxy> {
  const pairs = new Set<Pair>();
  let plan: { plan: CutPlan; done: () => void } | undefined;
  let refusingUntil = 0;
  let cuts = 0;
  const end = (pair: Pair) => {
    pair.client.destroy();
    pair.server.destroy();
    pairs.delete(pair);
  };
  const server: Server = createServer((client) => {
    if (Date.now() < refusingUntil) {
      client.destroy();
      return;
    }
    const pair: Pair = {
      client,
      server: connect(target.port, target.host),
      marked: false,
      dropAnswer: false,
      serverKept: false,
    };
    pairs.add(pair);
    client.on("data", (chunk: Buffer) => {
      const armed = plan?.plan;
      if (armed) {
        if (!pair.marked && chunk.includes(armed.statement)) pair.marked = true;
        if (pair.marked && chunk.includes(armed.answerOf ?? armed.statement)) pair.dropAnswer = true;
      }
      pair.server.write(chunk);
      if (pair.dropAnswer && plan?.plan.cutWhenSent) {
        const { done } = plan;
        plan = undefined;
        cuts++;
        pair.serverKept = true;
        client.destroy();
        done();
      }
    });
    pair.server.on("data", (chunk: Buffer) => {
      if (pair.serverKept) return;
      if (!pair.dropAnswer || !plan) {
        client.write(chunk);
        return;
      }
      // The server answered the statement: it ran (and committed). The replica never hears it.
      const { plan: cut, done } = plan;
      plan = undefined;
      cuts++;
      end(pair);
      if (cut.outageMs !== undefined) {
        refusingUntil = Date.now() + cut.outageMs;
        for (const other of [...pairs]) end(other);
      }
      done();
    });
    const close = () => end(pair);
    client.on("error", close).on("close", () => {
      if (!pair.serverKept) close();
    });
    pair.server.on("error", close).on("close", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || !address) throw new Error("the proxy has no port");
  return {
    port: address.port,
    arm: (next) =>
      new Promise<void>((done) => {
        plan = { plan: next, done };
      }),
    cuts: () => cuts,
    async close() {
      for (const pair of [...pairs]) end(pair);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
