/** A tool call seen in the conversation that no tool result has answered yet. */
interface PendingCall {
  readonly id: string;
  readonly name: string;
  readonly turn: number;
}

/**
 * Pairs Ollama tool results with the calls they answer. Ollama results often carry only the tool
 * name (or nothing), so a result takes the first unanswered call of the most recent assistant turn
 * that has one, by name when a name is given. Parallel calls of one tool are answered in order.
 */
export class ToolPairing {
  #pending: PendingCall[] = [];

  /** Records a call made by the assistant in message `turn`. */
  call(id: string, name: string, turn: number): void {
    this.#pending.push({ id, name, turn });
  }

  /** Marks the call with this id answered. */
  answer(id: string): PendingCall | undefined {
    const at = this.#pending.findIndex((call) => call.id === id);
    return at === -1 ? undefined : this.#pending.splice(at, 1)[0];
  }

  /** Claims the call a result without an id answers; undefined when none is pending. */
  claim(name: string | undefined): PendingCall | undefined {
    const candidates = name === undefined ? this.#pending : this.#pending.filter((c) => c.name === name);
    if (candidates.length === 0) return undefined;
    const latestTurn = Math.max(...candidates.map((c) => c.turn));
    const chosen = candidates.find((c) => c.turn === latestTurn);
    return chosen ? this.answer(chosen.id) : undefined;
  }
}
