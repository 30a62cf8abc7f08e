/**
 * One model request under a timeout (and the caller's signal, when given): the request gets a signal
 * aborted after `timeoutMs`, and the abort wins even when the model never settles; its late answer or
 * error is ignored.
 */
export async function timedRequest<T>(
  timeoutMs: number,
  request: (signal: AbortSignal) => PromiseLike<T> | T,
  outer?: AbortSignal,
): Promise<T> {
  const timeout = new AbortController();
  const timer = setTimeout(() => {
    timeout.abort(
      new DOMException(`no answer from the model within ${timeoutMs} ms (timeoutMs)`, "TimeoutError"),
    );
  }, timeoutMs);
  const signal = outer ? AbortSignal.any([outer, timeout.signal]) : timeout.signal;
  let stop = () => {};
  try {
    const pending = Promise.resolve(request(signal));
    pending.catch(() => {});
    const aborted = new Promise<never>((_, reject) => {
      stop = () => reject(signal.reason);
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
    });
    return await Promise.race([pending, aborted]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", stop);
  }
}
