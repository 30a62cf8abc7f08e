/** How a model step ended, as far as remembering goes. */
export interface StepOutcome {
  /** The step's assistant text (streamed text joined). */
  readonly text: string;
  /** The unified finish reason; a step that stops to call tools is not the end of the turn. */
  readonly finishReason: string | undefined;
}
