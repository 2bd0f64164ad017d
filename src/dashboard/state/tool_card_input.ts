/** Inputs of the Tools cards: the server's origin, whether keys are required, and a model to show. */
export interface ToolCardInput {
  readonly origin: string;
  readonly requireKey: boolean;
  readonly model: string;
}
