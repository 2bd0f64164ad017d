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
 * A TransformStream whose transformer is synchronous and exposed as `steps`. Piped, it behaves like
 * any TransformStream; a pump can instead run a chain of stages with plain calls per chunk, sparing
 * the promise and queue hop every piped stage costs for every chunk.
 */
export class StreamStage<I, O> extends TransformStream<I, O> {
  readonly steps: StageSteps<I, O>;

  constructor(steps: StageSteps<I, O>) {
    super(steps);
    this.steps = steps;
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
