// The bulk-load path behind the engine's bulkLoad (imports): rows stream into the resource's
// table with COPY … FROM STDIN in text format (copy-text.ts casts and encodes each value as
// write() would), one COPY per append. A batch is cast and encoded whole before its COPY
// starts, so a bad value is reported with its row and field before anything is sent; the COPY
// then runs on the server while the caller reads the next batch (its end is awaited by the
// next call), so reading and loading overlap on two cores.
// Full text: FullTextMode below. A table created by this transaction and still empty loses its
// GIN index for the load and gets it back, built in one pass, at finish() — what a load by
// hand does. All of it inside the caller's transaction: a failed load leaves nothing.
import { column } from "../catalog-row";
import { from as copyFrom } from "pg-copy-streams";
import type pg from "pg";
import type { BulkLoad } from "../engine";
import { DatastoreError } from "../errors";
import { CastError } from "../types";
import { fieldEncoder, type FieldEncoder } from "./copy-text";
import { isDataError, isUniqueViolation } from "./errors";
import { fullTextExpression } from "./fts";
import { quoteIdent as q, type PgResource, type StoredField } from "./resource";
import { ftsName } from "./schema";

/** Text per write to the COPY stream: large enough that framing costs nothing, small enough to stream. */
const CHUNK_CHARS = 256 * 1024;

/**
 * How `_full_text` is filled. "trigger": the table's own row trigger computes it as COPY
 * inserts each row, so every row is written once and the server's text work overlaps the
 * reading of the next batch. "update": the trigger is disabled and index() fills it with
 * UPDATEs over the loaded ids afterwards (every row written twice), kept to measure the two
 * against each other. "trigger" is the default, as it writes less (docs/performance.md,
 * "PostgreSQL").
 */
export type FullTextMode = "trigger" | "update";

/** A COPY sent and ended, not yet acknowledged: its rows, to word a failure the server reports. */
interface InFlight {
  done: Promise<number>;
  rows: number;
}

class PgBulkLoader {
  private readonly encoders: FieldEncoder[];
  private readonly copySql: string;
  /** Rows appended get ids above this. */
  private firstId = 0;
  private indexedTo = 0;
  private added = 0;
  private indexed = 0;
  private finished = false;
  /** The GIN index's definition, when it was dropped for the load (rebuilt at finish). */
  private droppedGin: string | null = null;
  private triggerDisabled = false;
  private inFlight: InFlight | null = null;
  /** A unique key besides `_id`: each COPY is awaited in its own append, so a duplicate names its row. */
  private readonly keyed: boolean;
  private readonly all: StoredField[];

  constructor(
    private readonly client: pg.PoolClient,
    private readonly r: PgResource,
    private readonly targets: StoredField[],
    private readonly onFinish: (added: number) => Promise<void>,
    private readonly fullText: FullTextMode,
  ) {
    this.encoders = targets.map((f) => fieldEncoder(f.type));
    this.copySql = `COPY ${q(r.table)} (${targets.map((f) => q(f.column)).join(", ")}) FROM STDIN`;
    this.keyed = r.primaryKey.length > 0;
    this.all = [...r.columns.values()];
  }

  async open(): Promise<void> {
    const table = q(this.r.table);
    const { rows } = await this.client.query<{ max: string | null }>(`SELECT max("_id")::text AS max FROM ${table}`);
    this.firstId = this.indexedTo = Number(rows[0].max ?? 0);
    if (this.all.length === 0) return; // no fields: no trigger, no text
    if (rows[0].max === null && (await this.createdHere())) {
      const { rows: gin } = await this.client.query<{ def: string }>(
        "SELECT indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexname = $2",
        [this.r.table, ftsName(this.r.table)],
      );
      if (gin.length) {
        await this.client.query(`DROP INDEX ${q(ftsName(this.r.table))}`);
        this.droppedGin = gin[0].def;
      }
    }
    if (this.fullText === "update") {
      await this.client.query(`ALTER TABLE ${table} DISABLE TRIGGER ${q(ftsName(this.r.table))}`);
      this.triggerDisabled = true;
    }
  }

  /**
   * Whether this transaction created the table: it then holds the ACCESS EXCLUSIVE lock that
   * CREATE TABLE takes, so no one else can see the table and dropping its index blocks no one.
   * An existing empty table keeps its index: readers would otherwise wait for the whole load.
   */
  private async createdHere(): Promise<boolean> {
    const { rows } = await this.client.query<{ own: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'relation' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND relation = $1::regclass AND pid = pg_backend_pid() AND mode = 'AccessExclusiveLock' AND granted) AS own`,
      [q(this.r.table)],
    );
    return rows[0].own;
  }

  async append(rows: unknown[][]): Promise<void> {
    if (this.finished) throw new Error("bulk load already finished");
    // Cast and encode first: a bad value fails here, before this COPY sends anything.
    const chunks = this.encode(rows);
    await this.settle();
    if (rows.length === 0) return;
    if (this.targets.length === 0) {
      // No columns to copy: rows of defaults (the trigger still runs).
      const res = await this.client.query(`INSERT INTO ${q(this.r.table)} ("_full_text") SELECT NULL FROM generate_series(1, $1::int)`, [rows.length]);
      this.added += res.rowCount ?? 0;
      return;
    }
    const flight: InFlight = { done: this.copy(chunks), rows: rows.length };
    // Failures reach the next call (settle); until then nothing may go unhandled.
    flight.done.catch(() => undefined);
    this.inFlight = flight;
    this.added += rows.length;
    if (this.keyed) await this.settle(true);
  }

  /** Rows as COPY text, in chunks of about CHUNK_CHARS. */
  private encode(rows: unknown[][]): string[] {
    const n = this.targets.length;
    const enc = this.encoders;
    const chunks: string[] = [];
    let text = "";
    let row = 0;
    let col = 0;
    try {
      for (; row < rows.length; row++) {
        const values = rows[row];
        let line = n ? enc[0](values[0]) : "";
        for (col = 1; col < n; col++) line += `\t${enc[col](values[col])}`;
        col = 0;
        text += `${line}\n`;
        if (text.length >= CHUNK_CHARS) {
          chunks.push(text);
          text = "";
        }
      }
    } catch (e) {
      if (!(e instanceof CastError)) throw e;
      throw DatastoreError.validation({ records: [e.message], records_row: row, field: this.targets[col].id });
    }
    if (text) chunks.push(text);
    return chunks;
  }

  /** One COPY of `chunks`, with backpressure; resolves with the rows the server took. */
  private async copy(chunks: string[]): Promise<number> {
    const stream = this.client.query(copyFrom(this.copySql));
    let failed: unknown = null;
    const ended = new Promise<void>((resolve, reject) => {
      stream.on("finish", () => resolve());
      stream.on("error", (e) => {
        failed = e;
        // The server refused the COPY: pg-copy-streams must not send queued chunks on a
        // connection that has moved on (its drain handler would).
        (stream as unknown as { chunks: unknown[] }).chunks = [];
        reject(e);
      });
    });
    ended.catch(() => undefined);
    for (const chunk of chunks) {
      if (failed) break;
      if (!stream.write(chunk, "utf8")) await Promise.race([new Promise((r) => stream.once("drain", r)), ended]);
    }
    if (!failed) stream.end();
    await ended;
    return stream.rowCount;
  }

  /** Waits for the COPY in flight; a failure is worded as write() words it. `own`: it is this
   *  call's COPY, so the row the server names is an index into this call's rows. */
  private async settle(own = false): Promise<void> {
    const flight = this.inFlight;
    if (!flight) return;
    this.inFlight = null;
    let copied: number;
    try {
      copied = await flight.done;
    } catch (e) {
      throw this.copyFailure(e, own);
    }
    if (copied !== flight.rows) throw new Error(`COPY took ${copied} rows of ${flight.rows}`);
  }

  /** The server's refusal of a COPY (a value only the server checks, a duplicate key): which row
   *  and field, from the error's context (`COPY ds_…, line 12, column c3: …`). */
  private copyFailure(e: unknown, own: boolean): unknown {
    const unique = isUniqueViolation(e);
    if (!unique && !isDataError(e)) return e;
    const where = /, line (\d+)(?:, column (\w+))?/.exec(String((e as { where?: string }).where ?? ""));
    const line = where ? Number(where[1]) : 0;
    const field = this.targets.find((f) => f.column === where?.[2])?.id;
    const message = unique ? `duplicate key value violates unique constraint "${this.r.id}_pkey"` : (e as Error).message;
    if (own && line > 0) return DatastoreError.validation({ records: [message], records_row: line - 1, ...(field && !unique ? { field } : {}) });
    // A COPY of an earlier batch (awaited only now): its rows are no longer the caller's.
    return DatastoreError.validation({ records: [`${message} (row ${line} of an earlier batch${field ? `, field "${field}"` : ""})`] });
  }

  async index(max: number): Promise<number> {
    await this.settle();
    if (!this.triggerDisabled) return 0;
    const remaining = this.added - this.indexed;
    if (remaining === 0) return 0;
    // Appended ids are contiguous in practice; a range over _id keeps each chunk an index range.
    const upTo = this.indexedTo + Math.max(1, max);
    const res = await this.client.query(
      `UPDATE ${q(this.r.table)} AS t SET "_full_text" = ${fullTextExpression(this.all, "t", this.r.language)} WHERE t."_id" > $1 AND t."_id" <= $2`,
      [this.indexedTo, upTo],
    );
    this.indexedTo = upTo;
    this.indexed += res.rowCount ?? 0;
    if ((res.rowCount ?? 0) === 0 && this.indexed < this.added) {
      // Ids skipped ahead (not expected inside one transaction): the rest at once.
      const rest = await this.client.query(`UPDATE ${q(this.r.table)} AS t SET "_full_text" = ${fullTextExpression(this.all, "t", this.r.language)} WHERE t."_id" > $1`, [this.indexedTo]);
      this.indexed += rest.rowCount ?? 0;
      this.indexedTo = Number.MAX_SAFE_INTEGER;
    }
    return Math.max(0, this.added - this.indexed);
  }

  async finish(): Promise<number> {
    if (this.finished) return this.added;
    await this.settle();
    while ((await this.index(1_000_000)) > 0);
    if (this.triggerDisabled) {
      await this.client.query(`ALTER TABLE ${q(this.r.table)} ENABLE TRIGGER ${q(ftsName(this.r.table))}`);
      this.triggerDisabled = false;
    }
    // pg_indexes' own definition of the index dropped at open: built over every row at once.
    if (this.droppedGin) await this.client.query(this.droppedGin);
    this.droppedGin = null;
    this.finished = true;
    await this.onFinish(this.added);
    // Fresh planner statistics for a table that just grew by a bulk load.
    await this.client.query(`ANALYZE ${q(this.r.table)}`);
    return this.added;
  }
}

/**
 * Starts a bulk load of `fields` (ids) into resource `r`, on `client`: the connection of the
 * transaction the whole load runs in (engine.ts). `onFinish` records the rows added.
 */
export async function openBulkLoad(client: pg.PoolClient, r: PgResource, fields: string[], onFinish: (added: number) => Promise<void>, fullText: FullTextMode): Promise<BulkLoad> {
  const loader = new PgBulkLoader(
    client,
    r,
    fields.map((f) => column(r, f)),
    onFinish,
    fullText,
  );
  await loader.open();
  return {
    append: (rows) => loader.append(rows),
    index: (max) => loader.index(max),
    finish: () => loader.finish(),
  };
}
