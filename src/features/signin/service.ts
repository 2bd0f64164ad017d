/**
 * Sign-in sessions: one per provider at a time, bound to the dashboard session (or CLI run) that started it,
 * expiring with the provider's code (PKCE: after ten minutes), and forgotten a while after they end. They
 * live in the database (`signin_sessions`, secrets sealed), so every worker and instance on it answers for
 * every sign-in: the process that started a device sign-in polls the provider and writes each change; any
 * process reads, cancels, or completes a PKCE sign-in. Views carry codes and links for the user, never a
 * token, device code or verifier; a finished sign-in goes to `save` exactly once (the row is claimed first).
 */
import type { ProviderConfig } from "../../config/mod.ts";
import { GatewayError } from "../../model/mod.ts";
import type { SigninRecord, SigninSessionsRepo } from "../../storage/mod.ts";
import { requestDeviceCode } from "./device_flow.ts";
import { pollDeviceSignin } from "./device_poller.ts";
import type { OAuthFetch } from "./oauth_http.ts";
import { authorizeUrl, createPkcePair, exchangeCode, readPastedRedirect } from "./pkce_flow.ts";
import { type SigninFacts, type SigninFlow, type SigninPlan, signinPlan } from "./plan.ts";
import { base64Url } from "./base64url.ts";
import { signinView } from "./session.ts";
import { type SigninView } from "./contract.ts";
import type { SignedInCredential } from "./token_answer.ts";

/** What the sessions need from the rest of the gateway. */
export interface SigninDeps {
  readonly fetch: OAuthFetch;
  readonly now: () => number;
  readonly random: (bytes: number) => Uint8Array;
  /** The stored provider; throws a 404 GatewayError when there is none. */
  readonly provider: (id: string) => ProviderConfig;
  /** The provider kind's OAuth facts with the provider's overrides, or null for API-key kinds. */
  readonly facts: (provider: ProviderConfig) => SigninFacts | null;
  /** Stores the finished credential (JSON) as the provider's api_key, through the management service. */
  readonly save: (providerId: string, credential: SignedInCredential) => void;
  /** Where sign-ins are kept: the database every worker and instance shares. */
  readonly sessions: SigninSessionsRepo;
  /** Waits between polls; tests pass one that does not wait. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A PKCE attempt is good for this long (the provider's authorization codes live minutes). */
export const PKCE_TTL_MS = 10 * 60_000;
/** A finished sign-in stays readable this long, so a poll after the end still learns the outcome. */
export const FINISHED_TTL_MS = 10 * 60_000;
/** Sign-ins open at once, all providers together (each device sign-in polls a server). */
export const MAX_OPEN_SIGNINS = 32;
/** A sign-in claimed by a process that died mid-completion is given up this long after it expired. */
const STALE_CLAIM_MS = 60_000;
/** Reads of one sign-in sweep every sign-in's expiry at most this often (starting one always does). */
const SWEEP_EVERY_MS = 60_000;
const EXPIRED = "The sign-in expired before it was completed; start again";

/** The sign-in sessions of one gateway process (or one CLI run), over the shared table. */
export class SigninService {
  readonly #deps: SigninDeps;
  readonly #repo: SigninSessionsRepo;
  /** The device sign-ins this process polls. */
  readonly #polling = new Map<string, { abort: AbortController; done: Promise<void> }>();
  #sweptAt = Number.NEGATIVE_INFINITY;

  constructor(deps: SigninDeps) {
    this.#deps = deps;
    this.#repo = deps.sessions;
  }

  /** Starts a sign-in for a provider (cancelling one already open for it, anywhere); `owner` binds it. */
  async start(providerId: string, owner: string, flow?: SigninFlow): Promise<SigninView> {
    this.#sweep(true);
    const plan = this.#plan(providerId, flow);
    // Checked before asking the provider for a code, and again when the sign-in is stored.
    if (this.#repo.countOpen(providerId) >= MAX_OPEN_SIGNINS) throw tooMany();
    const now = this.#deps.now();
    const base = { id: base64Url(this.#deps.random(18)), owner, providerId, status: "pending" as const };
    const replaced = "Replaced by a newer sign-in";
    if (plan.flow === "device") {
      const grant = await requestDeviceCode(this.#deps.fetch, plan.endpoints, now);
      const record: SigninRecord = {
        ...base,
        flow: "device",
        message: null,
        createdAt: now,
        expiresAt: grant.expiresAt,
        finishedAt: null,
        device: {
          userCode: grant.userCode,
          verificationUri: grant.verificationUri,
          ...(grant.verificationUriComplete
            ? { verificationUriComplete: grant.verificationUriComplete }
            : {}),
          intervalS: grant.intervalS,
        },
      };
      const secrets = {
        device: { deviceCode: grant.deviceCode, ...(grant.client ? { client: grant.client } : {}) },
      };
      if (!this.#repo.open(record, secrets, MAX_OPEN_SIGNINS, replaced)) throw tooMany();
      const abort = new AbortController();
      const done = pollDeviceSignin({
        ...this.#deps,
        id: record.id,
        endpoints: plan.endpoints,
        grant,
        signal: abort.signal,
        stop: () => abort.abort(),
        store: (credential) => this.#store(record.id, providerId, credential),
      }).finally(() => this.#polling.delete(record.id));
      this.#polling.set(record.id, { abort, done });
      return signinView(record);
    }
    const pair = await createPkcePair(this.#deps.random);
    const record: SigninRecord = {
      ...base,
      flow: "pkce",
      message: null,
      createdAt: now,
      expiresAt: now + PKCE_TTL_MS,
      finishedAt: null,
      pkce: { authorizeUrl: authorizeUrl(plan.endpoints, pair), redirectUri: plan.endpoints.redirectUri },
    };
    const secrets = { pkce: { verifier: pair.verifier, state: pair.state } };
    if (!this.#repo.open(record, secrets, MAX_OPEN_SIGNINS, replaced)) throw tooMany();
    return signinView(record);
  }

  /** The sign-in as it stands; 404 for an unknown id or another owner's. */
  get(id: string, owner: string): SigninView {
    return signinView(this.#owned(id, owner));
  }

  /**
   * Finishes a PKCE sign-in with what the user pasted (redirect URL, `code#state` or bare code), on whichever
   * process the paste reaches. The sign-in is claimed before the code is exchanged, so of two submits only
   * one exchanges it.
   */
  async submit(id: string, owner: string, pasted: string): Promise<SigninView> {
    const record = this.#owned(id, owner);
    if (record.flow !== "pkce") {
      throw new GatewayError(409, "invalid_request", "This sign-in uses a device code; nothing is pasted");
    }
    const secrets = record.status === "pending" ? this.#repo.secrets(id).pkce : undefined;
    if (secrets === undefined) throw notOpen(this.#owned(id, owner));
    // A paste that does not parse or has another attempt's state leaves the sign-in open for a retry.
    const code = readPastedRedirect(pasted, secrets.state);
    if (!this.#repo.claim(id, this.#deps.now())) throw notOpen(this.#owned(id, owner));
    let credential: SignedInCredential;
    try {
      const plan = this.#plan(record.providerId, "pkce");
      if (plan.flow !== "pkce") throw new Error("the provider no longer signs in with PKCE");
      credential = await exchangeCode(this.#deps.fetch, plan.endpoints, code, secrets, this.#deps.now());
    } catch (error) {
      // The code is spent (or refused) either way: this attempt is over.
      const message = error instanceof Error ? error.message : String(error);
      this.#repo.finish(id, "completing", "failed", message, this.#deps.now());
      throw error;
    }
    this.#complete(id, record.providerId, credential);
    return this.get(id, owner);
  }

  /** Cancels a sign-in (a finished one stays as it ended); the process polling it stops at its next check. */
  cancel(id: string, owner: string): SigninView {
    const record = this.#owned(id, owner);
    if (record.status === "pending") {
      this.#repo.finish(id, "pending", "cancelled", "The sign-in was cancelled", this.#deps.now());
    }
    this.#polling.get(id)?.abort.abort();
    return this.get(id, owner);
  }

  /** Resolves when a device sign-in's polling has ended, wherever it polls (the CLI waits on it). */
  async settled(id: string, owner: string): Promise<SigninView> {
    const record = this.#owned(id, owner);
    const local = this.#polling.get(id);
    if (local) await local.done;
    else if (record.flow === "device") {
      const sleep = this.#deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
      const never = new AbortController().signal;
      while (this.get(id, owner).status === "pending") await sleep(1_000, never);
    }
    return this.get(id, owner);
  }

  /** Stops the sign-ins this process polls (shutdown); resolves when their polling has ended. */
  close(): Promise<void> {
    const now = this.#deps.now();
    for (const [id, poller] of this.#polling) {
      try {
        this.#repo.finish(id, "pending", "cancelled", "The gateway that was polling it shut down", now);
      } finally {
        poller.abort.abort();
      }
    }
    return Promise.all([...this.#polling.values()].map((p) => p.done)).then(() => {});
  }

  #plan(providerId: string, flow: SigninFlow | undefined): SigninPlan {
    const provider = this.#deps.provider(providerId);
    const facts = this.#deps.facts(provider);
    if (facts === null) {
      throw new GatewayError(
        400,
        "invalid_request",
        `Provider "${providerId}" uses an API key (${provider.apiType}); only subscription kinds sign in`,
      );
    }
    const plan = signinPlan(facts, flow);
    if (typeof plan === "string") throw new GatewayError(400, "invalid_request", plan);
    return plan;
  }

  /** Claims a pending device sign-in and saves its credential; nothing is saved when it ended meanwhile. */
  #store(id: string, providerId: string, credential: SignedInCredential): void {
    if (this.#repo.claim(id, this.#deps.now())) this.#complete(id, providerId, credential);
  }

  /** Saves the credential of a sign-in this process has claimed, and records the outcome. */
  #complete(id: string, providerId: string, credential: SignedInCredential): void {
    try {
      this.#deps.save(providerId, credential);
      this.#repo.finish(id, "completing", "succeeded", null, this.#deps.now());
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      const message = `Signed in, but the credential could not be stored: ${why}`;
      this.#repo.finish(id, "completing", "failed", message, this.#deps.now());
    }
  }

  #owned(id: string, owner: string): SigninRecord {
    this.#sweep(false);
    const now = this.#deps.now();
    let record = this.#repo.get(id);
    if (record?.status === "pending" && now >= record.expiresAt) {
      this.#repo.finish(id, "pending", "expired", EXPIRED, now);
      record = this.#repo.get(id);
    }
    // Another owner's sign-in answers like a missing one: its existence is not theirs to learn.
    if (
      !record || record.owner !== owner ||
      (record.finishedAt !== null && now - record.finishedAt > FINISHED_TTL_MS)
    ) {
      throw new GatewayError(404, "not_found", `Sign-in "${id}" does not exist or has ended`);
    }
    return record;
  }

  #sweep(always: boolean): void {
    const now = this.#deps.now();
    if (!always && now - this.#sweptAt < SWEEP_EVERY_MS) return;
    this.#sweptAt = now;
    this.#repo.sweep(now, STALE_CLAIM_MS, now - FINISHED_TTL_MS, EXPIRED);
  }
}

function tooMany(): GatewayError {
  return new GatewayError(
    429,
    "rate_limit",
    `Too many sign-ins open at once (${MAX_OPEN_SIGNINS}); finish or cancel one`,
  );
}

/** Why a sign-in takes no paste: it is being completed elsewhere, or it ended. */
function notOpen(record: SigninRecord): GatewayError {
  const why = record.status === "pending" || record.status === "completing"
    ? "This sign-in is already being completed"
    : `This sign-in has already ${describe(record.status)}; start again`;
  return new GatewayError(409, "invalid_request", why);
}

function describe(status: SigninRecord["status"]): string {
  switch (status) {
    case "succeeded":
      return "succeeded";
    case "expired":
      return "expired";
    case "cancelled":
      return "been cancelled";
    case "failed":
    case "pending":
    case "completing":
      return "failed";
  }
}
