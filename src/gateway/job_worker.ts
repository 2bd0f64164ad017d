/** How long a job worker stays up without work before it is stopped (the next job starts a new one). */
export const WORKER_IDLE_MS = 20_000;

/** What every job and answer carries: the id that pairs them. */
interface Numbered {
  readonly id: number;
}

/**
 * A worker thread that runs one kind of job, answers matched to jobs by id. It starts on the first job and
 * stops once it has had nothing to do for `idleMs`: a worker holds its own heap and whatever it loaded (the
 * tokenizer's tables are about 50 MB of resident memory), which a gateway at rest should give back. A worker
 * that dies fails its waiting jobs; the next job starts a new one.
 */
export class JobWorker<Job extends Numbered, Answer extends Numbered> {
  readonly #url: URL;
  readonly #name: string;
  readonly #idleMs: number;
  #worker: Worker | null = null;
  #nextId = 0;
  readonly #pending = new Map<number, { resolve(answer: Answer): void; reject(error: Error): void }>();
  /** When the last job was answered (monotonic ms); the idle check compares against it. */
  #lastAnswer = 0;
  #idleCheck: ReturnType<typeof setInterval> | undefined;

  /** `name` says what failed in errors ("token counter", "JSON parser"). */
  constructor(url: URL, name: string, idleMs = WORKER_IDLE_MS) {
    this.#url = url;
    this.#name = name;
    this.#idleMs = idleMs;
  }

  /** Whether the thread is running (tests, and the idle stop's own check). */
  get running(): boolean {
    return this.#worker !== null;
  }

  /** Posts `job` (its id filled in here) and waits for its answer; `transfer` moves buffers instead of copying. */
  run(job: Omit<Job, "id">, transfer: Transferable[] = []): Promise<Answer> {
    const worker = this.#worker ?? this.#start();
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ ...job, id }, transfer);
    });
  }

  /** Stops the worker; jobs still waiting fail. */
  close(): void {
    this.#stop();
    this.#failAll(new Error(`the ${this.#name} was closed`));
  }

  #start(): Worker {
    const worker = new Worker(this.#url, { type: "module" });
    worker.onmessage = (event: MessageEvent<Answer>) => {
      const waiting = this.#pending.get(event.data.id);
      if (waiting === undefined) return;
      this.#pending.delete(event.data.id);
      this.#lastAnswer = performance.now();
      waiting.resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      // A worker that died takes its jobs with it; the next job starts a new one.
      if (this.#worker === worker) this.#stop();
      else worker.terminate();
      this.#failAll(new Error(`the ${this.#name} failed: ${event.message}`));
    };
    this.#worker = worker;
    this.#lastAnswer = performance.now();
    // One check per half idle period rather than a timer per job: jobs come once per request at most.
    const check = setInterval(() => {
      if (this.#pending.size === 0 && performance.now() - this.#lastAnswer >= this.#idleMs) this.#stop();
    }, Math.max(1, this.#idleMs / 2));
    // An idle worker's check must not keep a process alive that has nothing else to do.
    Deno.unrefTimer(check);
    this.#idleCheck = check;
    return worker;
  }

  #stop(): void {
    clearInterval(this.#idleCheck);
    this.#idleCheck = undefined;
    this.#worker?.terminate();
    this.#worker = null;
  }

  #failAll(error: Error): void {
    for (const waiting of this.#pending.values()) waiting.reject(error);
    this.#pending.clear();
  }
}
