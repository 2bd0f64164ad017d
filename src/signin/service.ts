/**
 * Sign-in sessions on the server: one per provider at a time, bound to the dashboard session (or CLI run)
 * that started it, expiring with the provider's code (PKCE: after ten minutes), and forgotten a while after
 * they end. Views carry codes and links for the user, never a token, device code or verifier; a finished
 * sign-in goes straight to `save`, which stores it as the provider's credential and reloads routing.
 */
import type { ProviderConfig } from "../config/mod.ts";
import { GatewayError } from "../model/mod.ts";
import { type DeviceGrant, type DeviceResult, requestDeviceCode, runDeviceFlow } from "./device_flow.ts";
import type { OAuthFetch } from "./oauth_http.ts";
import { authorizeUrl, createPkcePair, exchangeCode, readPastedRedirect } from "./pkce_flow.ts";
import { type SigninFacts, type SigninFlow, signinPlan } from "./plan.ts";
import { abortableSleep, base64Url } from "./base64url.ts";
import { type Session, sessionView, type SigninStatus, type SigninView } from "./session.ts";
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
  /** Waits between polls; tests pass one that does not wait. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A PKCE attempt is good for this long (the provider's authorization codes live minutes). */
export const PKCE_TTL_MS = 10 * 60_000;
/** A finished sign-in stays readable this long, so a poll after the end still learns the outcome. */
export const FINISHED_TTL_MS = 10 * 60_000;
/** Sign-ins open at once, all providers together (each device sign-in polls a server). */
export const MAX_OPEN_SIGNINS = 32;

/** The sign-in sessions of one gateway (or one CLI run). */
export class SigninService {
  readonly #deps: SigninDeps;
  readonly #sessions = new Map<string, Session>();

  constructor(deps: SigninDeps) {
    this.#deps = deps;
  }

  /** Starts a sign-in for a provider (cancelling one already open for it); `owner` binds it. */
  async start(providerId: string, owner: string, flow?: SigninFlow): Promise<SigninView> {
    this.#sweep();
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
    for (const open of this.#sessions.values()) {
      if (open.providerId === providerId && open.status === "pending") {
        this.#finish(open, "cancelled", "Replaced by a newer sign-in");
      }
    }
    if ([...this.#sessions.values()].filter((s) => s.status === "pending").length >= MAX_OPEN_SIGNINS) {
      throw new GatewayError(
        429,
        "rate_limit",
        `Too many sign-ins open at once (${MAX_OPEN_SIGNINS}); finish or cancel one`,
      );
    }
    const now = this.#deps.now();
    const id = base64Url(this.#deps.random(18));
    if (plan.flow === "device") {
      const grant = await requestDeviceCode(this.#deps.fetch, plan.endpoints, now);
      const session: Session = {
        id,
        owner,
        providerId,
        plan,
        expiresAt: grant.expiresAt,
        abort: new AbortController(),
        status: "pending",
        grant,
        intervalS: grant.intervalS,
      };
      this.#sessions.set(id, session);
      session.done = this.#poll(session, grant);
      return sessionView(session);
    }
    const pair = await createPkcePair(this.#deps.random);
    const session: Session = {
      id,
      owner,
      providerId,
      plan,
      expiresAt: now + PKCE_TTL_MS,
      abort: new AbortController(),
      status: "pending",
      pkce: { pair, url: authorizeUrl(plan.endpoints, pair), exchanging: false },
    };
    this.#sessions.set(id, session);
    return sessionView(session);
  }

  /** The sign-in as it stands; 404 for an unknown id or another owner's. */
  get(id: string, owner: string): SigninView {
    return sessionView(this.#owned(id, owner));
  }

  /** Finishes a PKCE sign-in with what the user pasted (redirect URL, `code#state` or bare code). */
  async submit(id: string, owner: string, pasted: string): Promise<SigninView> {
    const session = this.#owned(id, owner);
    const pkce = session.pkce;
    if (session.plan.flow !== "pkce" || !pkce) {
      throw new GatewayError(409, "invalid_request", "This sign-in uses a device code; nothing is pasted");
    }
    if (session.status !== "pending") {
      throw new GatewayError(
        409,
        "invalid_request",
        `This sign-in has already ${describe(session.status)}; start again`,
      );
    }
    if (pkce.exchanging) {
      throw new GatewayError(409, "invalid_request", "This sign-in is already being completed");
    }
    // A paste that does not parse or has another attempt's state leaves the sign-in open for a retry.
    const code = readPastedRedirect(pasted, pkce.pair.state);
    pkce.exchanging = true;
    try {
      const credential = await exchangeCode(
        this.#deps.fetch,
        session.plan.endpoints,
        code,
        pkce.pair,
        this.#deps.now(),
      );
      if (session.status === "pending") this.#store(session, credential);
    } catch (error) {
      // The code is spent (or refused) either way: this attempt is over.
      const message = error instanceof Error ? error.message : String(error);
      if (session.status === "pending") this.#finish(session, "failed", message);
      throw error;
    } finally {
      pkce.exchanging = false;
    }
    return sessionView(session);
  }

  /** Cancels a sign-in (a finished one stays as it ended). */
  cancel(id: string, owner: string): SigninView {
    const session = this.#owned(id, owner);
    if (session.status === "pending") this.#finish(session, "cancelled", "The sign-in was cancelled");
    return sessionView(session);
  }

  /** Resolves when a device sign-in's polling has ended (the CLI waits on it). */
  async settled(id: string, owner: string): Promise<SigninView> {
    await this.#owned(id, owner).done;
    return this.get(id, owner);
  }

  /** Stops every open sign-in (shutdown). */
  close(): void {
    for (const session of this.#sessions.values()) {
      if (session.status === "pending") this.#finish(session, "cancelled", "The gateway is shutting down");
    }
  }

  async #poll(session: Session, grant: DeviceGrant): Promise<void> {
    if (session.plan.flow !== "device") return;
    let result: DeviceResult;
    try {
      result = await runDeviceFlow(
        {
          fetch: this.#deps.fetch,
          now: this.#deps.now,
          sleep: this.#deps.sleep ?? abortableSleep,
          onPoll: (poll, intervalS) => {
            session.intervalS = intervalS;
            if (poll.kind === "slow_down") {
              session.message = `The provider asked to poll less often (every ${intervalS} s)`;
            } else if (poll.kind === "failed") {
              session.message = `Last poll failed, retrying: ${poll.message}`;
            } else if (poll.kind === "pending") session.message = undefined;
          },
        },
        session.plan.endpoints,
        grant,
        session.abort.signal,
      );
    } catch (error) {
      result = { kind: "failed", message: error instanceof Error ? error.message : String(error) };
    }
    if (session.status !== "pending") return;
    if (result.kind === "done") this.#store(session, result.credential);
    else this.#finish(session, result.kind === "denied" ? "failed" : result.kind, result.message);
  }

  #store(session: Session, credential: SignedInCredential): void {
    try {
      this.#deps.save(session.providerId, credential);
      this.#finish(session, "succeeded", undefined);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.#finish(session, "failed", `Signed in, but the credential could not be stored: ${why}`);
    }
  }

  #finish(session: Session, status: Exclude<SigninStatus, "pending">, message: string | undefined): void {
    session.status = status;
    session.message = message;
    session.finishedAt = this.#deps.now();
    session.abort.abort();
  }

  #owned(id: string, owner: string): Session {
    this.#sweep();
    const session = this.#sessions.get(id);
    // Another owner's sign-in answers like a missing one: its existence is not theirs to learn.
    if (!session || session.owner !== owner) {
      throw new GatewayError(404, "not_found", `Sign-in "${id}" does not exist or has ended`);
    }
    return session;
  }

  #sweep(): void {
    const now = this.#deps.now();
    for (const [id, session] of this.#sessions) {
      if (session.status === "pending" && now >= session.expiresAt) {
        this.#finish(session, "expired", "The sign-in expired before it was completed; start again");
      }
      if (session.finishedAt !== undefined && now - session.finishedAt > FINISHED_TTL_MS) {
        this.#sessions.delete(id);
      }
    }
  }
}

function describe(status: SigninStatus): string {
  return status === "succeeded"
    ? "succeeded"
    : status === "expired"
    ? "expired"
    : status === "cancelled"
    ? "been cancelled"
    : "failed";
}
