import type { ClusterRepo, EventCursor } from "../storage/cluster_repo.ts";
import { log } from "../log.ts";

/** How often a process reads what the others published and sends what it queued. */
export const CLUSTER_TICK_MS = 50;
/** How often a process says it is alive; peers unseen for PEER_TIMEOUT_MS count as gone. */
const HEARTBEAT_MS = 1_000;
const PEER_TIMEOUT_MS = 5_000;
/** Events are kept this long, then pruned (every process reads them within a tick or two). */
const EVENT_RETENTION_MS = 120_000;
/** Messages kept per channel while the database cannot take them; older ones beyond this are dropped. */
const MAX_QUEUED = 10_000;

/** One named stream of messages between the processes sharing a database. */
export interface ClusterChannel<T> {
  /** Queues a message for the next tick (batched with the rest of the tick's messages of this channel). */
  publish(message: T): void;
  /** Writes a message at once, peers or not (cooldowns: every process must honour them within 100 ms). */
  publishNow(message: T): void;
  /** Writes this channel's queued messages at once instead of at the next tick (budget slices). */
  flush(): void;
}

interface Channel {
  readonly receive: (messages: unknown[]) => void;
  /** Optional channels carry messages only while some other process listens (see `listen`). */
  readonly optional: boolean;
  queued: unknown[];
}

/**
 * Makes several gateway processes on one database (`serve --workers N`, or instances sharing a file)
 * behave as one gateway. Each process publishes what others must know (cooldowns, spend, live events)
 * as rows of `cluster_events` and reads the others' rows every tick. A process alone on its database
 * publishes nothing (it knows from the heartbeat table), so a single gateway pays one indexed read per tick.
 */
export class ClusterSync {
  /** This process's id in the events it writes. */
  readonly origin: string;
  readonly #repo: ClusterRepo;
  readonly #label: string;
  readonly #now: () => number;
  readonly #channels = new Map<string, Channel>();
  readonly #cursor: EventCursor;
  #peers = 0;
  /** Optional channels some other process listens to, as of the last heartbeat. */
  #wanted = new Set<string>();
  /** Optional channels this process listens to now. */
  readonly #wants = new Set<string>();
  #lastBeat = 0;
  /** The database's change signal when it has one (PostgreSQL NOTIFY): no news, no read. */
  readonly #signal: () => number | null;
  #lastSignal: number | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Whether the last tick failed (its error was logged). */
  #failing = false;

  constructor(repo: ClusterRepo, label: string, now: () => number, signal: () => number | null = () => null) {
    this.#repo = repo;
    this.#signal = signal;
    this.#label = label;
    this.#now = now;
    this.origin = `${label}:${crypto.randomUUID().slice(0, 8)}`;
    // Events from before this process started are already reflected in the tables it loads.
    this.#cursor = repo.cursor();
  }

  /** The number of other live processes on this database at the last heartbeat. */
  get peers(): number {
    return this.#peers;
  }

  /**
   * Opens a channel; `receive` gets the messages other processes published on it, in order. An optional
   * channel (the live stream) carries messages only while another process says it listens (`listen`),
   * so requests pay nothing for it while no dashboard is watching.
   */
  channel<T>(kind: string, receive: (messages: T[]) => void, optional = false): ClusterChannel<T> {
    const channel: Channel = { receive: receive as (messages: unknown[]) => void, optional, queued: [] };
    this.#channels.set(kind, channel);
    return {
      publish: (message) => {
        if (optional ? this.#wanted.has(kind) : this.#peers > 0) channel.queued.push(message);
      },
      // Always written: these are rare, and a peer that started within the last heartbeat must see them.
      publishNow: (message) => this.#write(kind, [message]),
      flush: () => {
        if (channel.queued.length === 0) return;
        const messages = channel.queued;
        channel.queued = [];
        this.#guarded(() => this.#write(kind, messages));
      },
    };
  }

  /**
   * Reads what the others published since the last tick, now (one indexed read; on PostgreSQL none unless
   * a notification arrived). The budget check calls it so that it never decides on spend a tick old.
   */
  receiveNow(): void {
    if (this.#timer === undefined) return;
    this.#guarded(() => this.#receive());
  }

  #guarded(work: () => void): void {
    try {
      work();
    } catch (error) {
      log("warn", `cluster sync failed: ${(error as Error).message}`);
    }
  }

  /** Whether another process listens to an optional channel, as of the last heartbeat. */
  wanted(kind: string): boolean {
    return this.#wanted.has(kind);
  }

  /** Says whether this process listens to an optional channel now (told to the others at once). */
  listen(kind: string, on: boolean): void {
    if (on === this.#wants.has(kind)) return;
    if (on) this.#wants.add(kind);
    else this.#wants.delete(kind);
    if (this.#timer !== undefined) this.#beat();
  }

  /** Starts the heartbeat and the tick. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#beat();
    this.#timer = setInterval(() => this.tick(), CLUSTER_TICK_MS);
    Deno.unrefTimer(this.#timer);
  }

  /** One round: heartbeat when due, send the queued messages, deliver the others'. Public for tests. */
  tick(): void {
    try {
      const beat = this.#now() - this.#lastBeat >= HEARTBEAT_MS;
      if (beat) this.#beat();
      this.#send();
      this.#receive();
      // A tick with nothing to do touches no table (PostgreSQL: no news); a heartbeat always does.
      if (this.#failing && beat) {
        this.#failing = false;
        log("info", "cluster sync works again");
      }
    } catch (error) {
      // A busy, closing or unreachable database must not stop the process; the next tick tries again.
      // Logged once per outage, not 20 times a second.
      if (!this.#failing) {
        log("warn", `cluster sync failed (retrying every tick): ${(error as Error).message}`);
      }
      this.#failing = true;
    }
  }

  /** Sends what is queued, stops, and leaves the member list. */
  stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    try {
      this.#send();
      this.#repo.leave(this.origin);
    } catch { /* the database is closing */ }
  }

  #beat(): void {
    const now = this.#now();
    this.#lastBeat = now;
    this.#repo.heartbeat(this.origin, this.#label, [...this.#wants], now);
    const peers = this.#repo.peers(this.origin, now - PEER_TIMEOUT_MS);
    this.#peers = peers.length;
    this.#wanted = new Set(peers.flatMap((p) => p.wants));
    // Every process prunes; the delete is cheap and idempotent.
    this.#repo.prune(now - EVENT_RETENTION_MS);
  }

  #send(): void {
    for (const [kind, channel] of this.#channels) {
      if (channel.queued.length === 0) continue;
      const messages = channel.queued;
      channel.queued = [];
      try {
        this.#write(kind, messages);
      } catch (error) {
        // Kept for the next tick (spend must reach the others after an outage), within a bound.
        const kept = messages.concat(channel.queued);
        channel.queued = kept.slice(-MAX_QUEUED);
        if (kept.length > MAX_QUEUED) {
          log(
            "error",
            `cluster sync: dropped ${kept.length - MAX_QUEUED} queued "${kind}" messages (unsent)`,
          );
        }
        throw error;
      }
    }
  }

  #write(kind: string, messages: unknown[]): void {
    this.#repo.publish(this.origin, kind, JSON.stringify(messages), this.#now());
  }

  #receive(): void {
    const signal = this.#signal();
    if (signal !== null && signal === this.#lastSignal) return;
    // Remembered only once read: a failed read is tried again on the next tick, not at the next NOTIFY.
    this.#readEvents();
    this.#lastSignal = signal;
  }

  #readEvents(): void {
    for (;;) {
      const events = this.#cursor.next(this.origin);
      for (const event of events) {
        const channel = this.#channels.get(event.kind);
        if (!channel) continue;
        let messages: unknown;
        try {
          messages = JSON.parse(event.payload);
        } catch {
          continue;
        }
        if (Array.isArray(messages)) channel.receive(messages);
      }
      if (events.length < 1000) return;
    }
  }
}
