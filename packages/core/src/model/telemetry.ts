/** A span attribute value, as OpenTelemetry takes it. */
export type SpanAttribute = string | number | boolean;

/** The part of an OpenTelemetry `Span` the engine uses. */
export interface SpanLike {
  setAttribute(key: string, value: SpanAttribute): unknown;
  recordException(exception: Error | string): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/**
 * The part of an OpenTelemetry `Tracer` the engine uses: pass `trace.getTracer("my-app")` from
 * `@opentelemetry/api`. Typed structurally, so the engine itself needs no OpenTelemetry package.
 */
export interface TracerLike {
  startActiveSpan<F extends (span: SpanLike) => unknown>(
    name: string,
    options: { attributes?: Record<string, SpanAttribute> },
    fn: F,
  ): ReturnType<F>;
}

/** OpenTelemetry's `SpanStatusCode.ERROR`. */
export const SPAN_ERROR = 2;

/**
 * Runs `fn` in a span named `name` when a tracer is set (else just runs it): the attributes at the start,
 * `fn`'s own through the span it is given, and a failure recorded with its message before it is rethrown.
 */
export async function inSpan<T>(
  tracer: TracerLike | undefined,
  name: string,
  attributes: Record<string, SpanAttribute>,
  fn: (span: SpanLike | null) => Promise<T>,
): Promise<T> {
  if (!tracer) return fn(null);
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SPAN_ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
