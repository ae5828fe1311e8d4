/**
 * The gateway's query jobs (issue 16, "Long queries"): one job per key (the normalised query and
 * the caller's sites). A request waits for its job at most `holdMs`; when the job is not done by
 * then it answers "Continue wait", and the client's retry finds the same job by its key, running
 * or finished, so a query never runs twice for one wait. Finished jobs are kept `keepMs` for
 * that retry; at most `maxRunning` run at once, the others queue, and past `maxJobs` jobs
 * waiting or running a new one is refused.
 */

export interface JobLimits {
  holdMs: number;
  keepMs: number;
  maxRunning: number;
  maxJobs: number;
  /** Finished jobs kept at most; the oldest go first. */
  maxKept: number;
}

export type JobOutcome<T> =
  | { state: 'done'; value: T; finishedAt: Date }
  | { state: 'failed'; error: unknown }
  | { state: 'pending'; startedAt: Date };

interface Job<T> {
  promise: Promise<void>;
  createdAt: Date;
  outcome: JobOutcome<T>;
  expiry?: ReturnType<typeof setTimeout>;
}

export class TooManyJobsError extends Error {}

export class QueryJobs<T> {
  private readonly jobs = new Map<string, Job<T>>();
  private running = 0;
  private readonly queue: (() => void)[] = [];
  private unfinished = 0;

  constructor(private readonly limits: JobLimits) {}

  /** The job of `key` (started with `run` when there is none), waited for at most `holdMs`. */
  async attach(key: string, run: () => Promise<T>): Promise<JobOutcome<T>> {
    const job = this.jobs.get(key) ?? this.start(key, run);
    if (job.outcome.state !== 'pending') return job.outcome;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const held = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.limits.holdMs);
    });
    await Promise.race([job.promise, held]);
    clearTimeout(timer);
    return job.outcome;
  }

  /** Jobs waiting or running, and finished ones still kept (for the operations view and tests). */
  get size(): { unfinished: number; kept: number } {
    return { unfinished: this.unfinished, kept: this.jobs.size - this.unfinished };
  }

  /** Forgets every finished job and stops their timers (the listener closes). */
  clear(): void {
    for (const [key, job] of this.jobs) {
      if (job.outcome.state === 'pending') continue;
      clearTimeout(job.expiry);
      this.jobs.delete(key);
    }
  }

  private start(key: string, run: () => Promise<T>): Job<T> {
    if (this.unfinished >= this.limits.maxJobs) throw new TooManyJobsError();
    this.unfinished += 1;
    const createdAt = new Date();
    const job: Job<T> = {
      createdAt,
      outcome: { state: 'pending', startedAt: createdAt },
      promise: Promise.resolve(),
    };
    job.promise = this.slot()
      .then(run)
      .then(
        (value) => {
          job.outcome = { state: 'done', value, finishedAt: new Date() };
        },
        (error: unknown) => {
          job.outcome = { state: 'failed', error };
        },
      )
      .finally(() => {
        this.running -= 1;
        this.unfinished -= 1;
        this.queue.shift()?.();
        this.keep(key, job);
      });
    this.jobs.set(key, job);
    return job;
  }

  /** Resolves when fewer than `maxRunning` jobs run. */
  private slot(): Promise<void> {
    if (this.running < this.limits.maxRunning) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.queue.push(() => {
        this.running += 1;
        resolve();
      });
    });
  }

  private keep(key: string, job: Job<T>): void {
    job.expiry = setTimeout(() => {
      if (this.jobs.get(key) === job) this.jobs.delete(key);
    }, this.limits.keepMs);
    job.expiry.unref?.();
    const finished = [...this.jobs].filter(([, kept]) => kept.outcome.state !== 'pending');
    for (const [oldKey, oldJob] of finished.slice(0, Math.max(0, finished.length - this.limits.maxKept))) {
      clearTimeout(oldJob.expiry);
      this.jobs.delete(oldKey);
    }
  }
}
