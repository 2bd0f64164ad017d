/** One limit window of an account on the Routing screen. */
export interface QuotaWindowState {
  readonly id: string;
  /** `upstream`: read from answers; `configured`: the operator's limit against the gateway's counts. */
  readonly source: "upstream" | "configured";
  readonly unit: "requests" | "tokens" | "percent";
  readonly limit: number | null;
  readonly remaining: number | null;
  /** Share left, 0..1; null when the upstream gave nothing to compute it from. */
  readonly headroom: number | null;
  /** Epoch ms when the window refills. */
  readonly reset_at: number | null;
  readonly rejected: boolean;
}

/** What routing knows about an account's limits. */
export interface AccountQuotaState {
  /** Share left in the tightest window, 0..1; null when no window gives a share. */
  readonly headroom: number | null;
  readonly reset_at: number | null;
  /** The account goes last in the try order (its tightest window is empty). */
  readonly deprioritised: boolean;
  /** Why it is deprioritised, in words; null when it is not. */
  readonly reason: string | null;
  readonly windows: readonly QuotaWindowState[];
}
