import { CompiledQuery } from "kysely";
import PgBoss from "pg-boss";
import type { z } from "zod";
import type { Db } from "./db.server";
import { errorFields, log } from "./logger.server";

/**
 * The maintained PostgreSQL job queue (pg-boss 10.4.2, docs/decisions/114) on the app's own
 * database: pg-boss's statements go through the app's Kysely handle (its bring-your-own `db`
 * adapter), so there is one pool (PostgreSQL) or the one connection (PGlite) and one set of
 * credentials. pg-boss keeps its tables in its own schema (`pgboss`), creates and migrates it at
 * start, and shares the work between every process on the database: SKIP LOCKED hands each job
 * to one worker, and its cron monitor (one process per interval, then a 60 s singleton per
 * schedule) sends each scheduled job once per period.
 */
export type JobDefinition<Schema extends z.ZodTypeAny = z.ZodTypeAny> = {
  name: string;
  /** Validated when the job runs: a payload that does not parse fails that job alone, never retried. */
  payload: Schema;
  run: (payload: z.infer<Schema>, context: JobContext) => Promise<unknown>;
  /** Retries after the first attempt, then the job is parked as failed (kept, never retried). */
  retryLimit: number;
  /** Seconds before the first retry; about doubled each retry (pg-boss's backoff, with jitter). */
  retryDelaySeconds: number;
  /** How many of this job one process runs at once. */
  concurrency: number;
  /** Seconds a run may take before pg-boss counts it failed (and retries it). */
  expireInSeconds: number;
  /** A cron expression in the business's time zone, if the job is scheduled. */
  cron?: string;
  /** The payload the schedule sends (`{}` by default). */
  cronPayload?: object;
  /** Its successes logged at debug, not info (the drain's run every minute). */
  quiet?: boolean;
  /**
   * pg-boss's 'stately' policy: at most one of this job queued and one running, across every
   * machine; a send while one is queued is dropped (two servers' start-up sends make one run).
   */
  stately?: boolean;
};

export type JobContext = {
  signal: AbortSignal;
  jobId: string;
  /** True when no retry follows this attempt should it fail (the last one). */
  lastAttempt: boolean;
  /** Sends another job of the queue this process runs (a chain: decision 114). */
  send: (name: string, payload: object) => Promise<string | null>;
};

export type JobQueueOptions = {
  /** How often an idle worker looks for jobs. */
  pollingIntervalSeconds?: number;
  /** How often a process checks the schedules (pg-boss: one process per interval does). */
  cronMonitorIntervalSeconds?: number;
  /** How often the schedules' own queue is polled. */
  cronWorkerIntervalSeconds?: number;
  /** How often pg-boss expires runs that took too long (so they are retried) and archives. */
  maintenanceIntervalSeconds?: number;
  /** Send the schedules (servers); false registers workers only. */
  schedule?: boolean;
  /** Register workers; false only sends (a test's second role). */
  work?: boolean;
  /** Run pg-boss's maintenance (expiry, archiving) in this process; a script leaves it to the servers. */
  supervise?: boolean;
  /** Called once the queues exist and before the workers start (a script sends its job here). */
  beforeWork?: (send: JobQueue["send"]) => Promise<void>;
  timeZone?: string;
  /** The database schema of pg-boss's tables ("pgboss"). */
  schema?: string;
};

/**
 * pg-boss's statements on the app's Kysely handle. A statement with parameters is one query. A
 * parameterless text may hold several statements (pg-boss's schema creation and its maintenance,
 * each `BEGIN; …; COMMIT;` around an advisory lock): PGlite runs one statement per query
 * (extended protocol), so the text is split and its statements run in order on one pinned
 * connection, rolled back if one fails (PGlite has one connection: one left inside an aborted
 * transaction would fail every request after). The same on PostgreSQL, so both run one path.
 */
export function kyselyAdapter(db: Db): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      if (values.length > 0) {
        const result = await db.executeQuery(CompiledQuery.raw(text, values));
        return { rows: result.rows as unknown[] };
      }
      const statements = splitSqlStatements(text);
      if (statements.length <= 1) {
        const result = await db.executeQuery(CompiledQuery.raw(statements[0] ?? text));
        return { rows: result.rows as unknown[] };
      }
      return db.connection().execute(async (conn) => {
        let rows: unknown[] = [];
        try {
          for (const statement of statements) rows = (await conn.executeQuery(CompiledQuery.raw(statement))).rows;
        } catch (error) {
          await conn.executeQuery(CompiledQuery.raw("rollback")).catch(() => undefined);
          throw error;
        }
        return { rows };
      });
    },
  };
}

/**
 * Splits SQL text at its top-level semicolons: not inside '…' strings, "…" names, $tag$ bodies
 * or -- comments (pg-boss's functions are $$ bodies full of semicolons). Empty statements go.
 */
export function splitSqlStatements(text: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === "'" || char === '"') {
      const close = text.indexOf(char, i + 1);
      i = close === -1 ? text.length : close + 1;
      // A doubled quote ('it''s') just reopens: the next loop turn reads on.
    } else if (char === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end + 1;
    } else if (char === "$") {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i));
      if (tag) {
        const close = text.indexOf(tag[0], i + tag[0].length);
        i = close === -1 ? text.length : close + tag[0].length;
      } else {
        i += 1;
      }
    } else if (char === ";") {
      statements.push(text.slice(start, i));
      i += 1;
      start = i;
    } else {
      i += 1;
    }
  }
  statements.push(text.slice(start));
  return statements.map((statement) => statement.trim()).filter((statement) => statement.length > 0);
}

export class BadJobPayloadError extends Error {
  override name = "BadJobPayloadError";
}

export type JobQueue = {
  boss: PgBoss;
  send(name: string, payload: object, options?: PgBoss.SendOptions): Promise<string | null>;
  stop(): Promise<void>;
};

/** The queue this process runs (a server's), which the app's modules send to (enqueueJob). */
let running: JobQueue | undefined;

/**
 * Sends a job on this process's queue, after the caller's transaction (the job reads what it
 * committed); without a queue (a test, a script) it does nothing: the schedules come round.
 * Never throws: a lost wake-up only waits for the job's next scheduled run.
 */
export function enqueueJob(name: string, payload: object = {}, options?: PgBoss.SendOptions) {
  const queue = running;
  if (!queue) return;
  queue
    .send(name, payload, options)
    .catch((error: unknown) => log.warn("jobs.send_failed", { job: name, ...errorFields(error) }));
}

/**
 * Starts the queue on `db` with `jobs`: creates each queue with its retry policy (or updates it
 * to this version's), registers `concurrency` workers per job, and (with `schedule`) the cron
 * schedules. Each job's payload is parsed before it runs; one that does not parse fails that
 * job with a log line and no retry (it would fail again), and the worker goes on with the next.
 */
export async function startJobQueue(
  db: Db,
  jobs: readonly JobDefinition[],
  options: JobQueueOptions = {},
): Promise<JobQueue> {
  const schema = options.schema ?? "pgboss";
  const schedule = options.schedule ?? true;
  const boss = new PgBoss({
    db: kyselyAdapter(db),
    schema,
    schedule,
    supervise: options.supervise ?? true,
    // Finished jobs are history only: a day in the job table, a week in the archive.
    archiveCompletedAfterSeconds: 24 * 60 * 60,
    deleteAfterDays: 7,
    ...(options.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds } : {}),
    ...(options.cronMonitorIntervalSeconds ? { cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds } : {}),
    ...(options.cronWorkerIntervalSeconds ? { cronWorkerIntervalSeconds: options.cronWorkerIntervalSeconds } : {}),
  });
  boss.on("error", (error: unknown) => log.warn("jobs.queue_error", errorFields(error)));
  await boss.start();
  const stopping = new AbortController();
  const timeZone = options.timeZone ?? "UTC";
  const send = (name: string, payload: object, sendOptions?: PgBoss.SendOptions) =>
    boss.send(name, payload, sendOptions ?? {});
  try {
    const { beforeWork } = options;
    await registerJobs(
      boss,
      db,
      schema,
      jobs,
      { ...options, schedule, timeZone, beforeWork: beforeWork && (() => beforeWork(send)) },
      { signal: stopping.signal, send },
    );
  } catch (error) {
    // A start that failed halfway leaves no timers behind (the caller tries again later).
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    throw error;
  }
  const queue: JobQueue = {
    boss,
    send,
    async stop() {
      if (running === queue) running = undefined;
      stopping.abort();
      // Graceful: running jobs finish (a run stops between its batches on the signal); one
      // still running after the timeout is failed by pg-boss and retried by the next process.
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    },
  };
  running = queue;
  return queue;
}

/** Creates or updates each job's queue, registers its workers and (with `schedule`) its cron. */
async function registerJobs(
  boss: PgBoss,
  db: Db,
  schema: string,
  jobs: readonly JobDefinition[],
  options: Omit<JobQueueOptions, "beforeWork"> & {
    schedule: boolean;
    timeZone: string;
    beforeWork?: () => Promise<void>;
  },
  context: Pick<JobContext, "signal" | "send">,
) {
  for (const job of jobs) {
    const queue: PgBoss.Queue = {
      name: job.name,
      policy: job.stately ? "stately" : "standard",
      retryLimit: job.retryLimit,
      retryDelay: job.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: job.expireInSeconds,
    };
    if (await boss.getQueue(job.name)) await boss.updateQueue(job.name, queue);
    else await boss.createQueue(job.name, queue);
  }
  // Every queue exists before any worker polls: what a script sends first (job-now.server.ts) is
  // then in the queue before its own worker could take a job queued earlier and make two runs.
  await options.beforeWork?.();
  for (const job of jobs) {
    if (options.work ?? true) {
      for (let lane = 0; lane < job.concurrency; lane += 1) {
        await boss.work(
          job.name,
          { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, batchSize: 1, includeMetadata: true },
          async ([queued]) => (queued ? runOne(db, schema, job, queued, context) : undefined),
        );
      }
    }
    if (job.cron && options.schedule)
      await boss.schedule(job.name, job.cron, job.cronPayload ?? {}, { tz: options.timeZone });
  }
}

async function runOne(
  db: Db,
  schema: string,
  job: JobDefinition,
  queued: PgBoss.JobWithMetadata<unknown>,
  context: Pick<JobContext, "signal" | "send">,
) {
  const parsed = job.payload.safeParse(queued.data ?? {});
  if (!parsed.success) {
    log.warn("jobs.bad_payload", {
      job: job.name,
      jobId: queued.id,
      issues: parsed.error.issues.map((issue) => `${issue.path.join(".") || "(payload)"}: ${issue.message}`),
    });
    // Parked at once (no retry left): a payload that does not parse never will.
    await db.executeQuery(
      CompiledQuery.raw(`update ${schema}.job set retry_limit = retry_count where name = $1 and id = $2`, [
        job.name,
        queued.id,
      ]),
    );
    throw new BadJobPayloadError(`Job ${job.name} ${queued.id}: the payload does not parse`);
  }
  const started = Date.now();
  const lastAttempt = queued.retryCount >= queued.retryLimit;
  try {
    const result = await job.run(parsed.data, { ...context, jobId: queued.id, lastAttempt });
    (job.quiet ? log.debug : log.info)("jobs.done", { job: job.name, jobId: queued.id, ms: Date.now() - started });
    return result;
  } catch (error) {
    log.warn(lastAttempt ? "jobs.parked" : "jobs.failed", {
      job: job.name,
      jobId: queued.id,
      attempt: queued.retryCount + 1,
      ...errorFields(error),
    });
    throw error;
  }
}
