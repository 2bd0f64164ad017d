/** Collects encoder warnings, each distinct message once and in first-seen order. */
export class Warnings {
  readonly #messages = new Set<string>();

  /** Records one warning. */
  add(message: string): void {
    this.#messages.add(message);
  }

  /** The warnings recorded so far. */
  list(): string[] {
    return [...this.#messages];
  }
}
