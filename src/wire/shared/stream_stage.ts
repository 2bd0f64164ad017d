/** Where a stage puts its output: a TransformStream's controller, or a plain collector in a pump. */
export interface StageOutput<O> {
  enqueue(chunk: O): void;
}

/** A synchronous transformer: `transform` and `flush` only ever call `out.enqueue`. */
export interface StageSteps<I, O> {
  transform(chunk: I, out: StageOutput<O>): void;
  flush?(out: StageOutput<O>): void;
}

/**
 * A stream stage: synchronous steps that can be piped (`pipeThrough` takes it like a TransformStream,
 * built on first use) or run directly. A pump runs a chain of stages with plain calls per chunk and never
 * builds the streams, sparing the promise and queue hop every piped stage costs for every chunk.
 */
export class StreamStage<I, O> implements ReadableWritablePair<O, I> {
  readonly steps: StageSteps<I, O>;
  #stream: TransformStream<I, O> | undefined;

  constructor(steps: StageSteps<I, O>) {
    this.steps = steps;
  }

  /** The piped side that yields output. */
  get readable(): ReadableStream<O> {
    return this.#piped().readable;
  }

  /** The piped side that takes input. */
  get writable(): WritableStream<I> {
    return this.#piped().writable;
  }

  #piped(): TransformStream<I, O> {
    return this.#stream ??= new TransformStream<I, O>(this.steps);
  }
}

/** Two steps run as one: everything `first` emits goes straight into `second`. */
export function chainSteps<A, B, C>(first: StageSteps<A, B>, second: StageSteps<B, C>): StageSteps<A, C> {
  let target: StageOutput<C> = { enqueue: () => {} };
  const middle: StageOutput<B> = { enqueue: (chunk) => second.transform(chunk, target) };
  return {
    transform(chunk, out) {
      target = out;
      first.transform(chunk, middle);
    },
    flush(out) {
      target = out;
      first.flush?.(middle);
      second.flush?.(out);
    },
  };
}
