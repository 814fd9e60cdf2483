// The expensive lane's budget (issue 29): the read scheduler (read-scheduler.ts) tells the gate
// how long each client's expensive reads ran, and asks it whether a client's next one may start.
// Set once per process by whoever keeps the budgets (lib/http/rate-limit.ts); without one, every
// read may run. On globalThis: Next may load this module more than once in one process.

export interface ReadGate {
  /** Seconds before `client`'s next expensive read may start; 0: now. Answered from what this
   *  app server holds, without waiting on a store. */
  refusal(client: string): number;
  /** An expensive read of `client` ran `ms`. */
  charge(client: string, ms: number): void;
}

const GATE = Symbol.for("datastore-explorer.read-gate");
const holder = globalThis as { [GATE]?: ReadGate };

export function setReadGate(gate: ReadGate | undefined): void {
  holder[GATE] = gate;
}

export function readGate(): ReadGate | undefined {
  return holder[GATE];
}
