interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/** Runs one batch; each caller gets its own result, or the batch's error. */
async function runOnce<T, R>(batch: Waiting<T, R>[], runBatch: (items: T[]) => R[] | Promise<R[]>): Promise<void> {
  try {
    const results = await runBatch(batch.map((p) => p.item));
    batch.forEach((p, i) => p.resolve(results[i]!));
  } catch (error) {
    for (const p of batch) p.reject(error);
  }
}

/**
 * Turns a function over many items into a function over one item: calls made in the same turn of the
 * event loop are collected and run together once, at the end of the turn. Each caller gets its own result.
 */
export function perTick<T, R>(runBatch: (items: T[]) => R[] | Promise<R[]>): (item: T) => Promise<R> {
  let pending: Waiting<T, R>[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    return runOnce(batch, runBatch);
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ item, resolve, reject });
    });
}

/**
 * Like perTick, but calls made while a batch runs wait for it and go together in the next one: under load a
 * batch grows with the time the last one took, while a call on an idle path waits only for the end of its turn.
 * `gapMs`: under load, batches begin at least this far apart, so a fast store still gets few, larger batches
 * (each a commit of its own); a call that finds no batch before it is still sent at the end of its turn.
 */
export function coalesced<T, R>(runBatch: (items: T[]) => R[] | Promise<R[]>, gapMs = 0): (item: T) => Promise<R> {
  let pending: Waiting<T, R>[] = [];
  let draining = false;
  const drain = async () => {
    while (pending.length > 0) {
      const started = performance.now();
      const batch = pending;
      pending = [];
      await runOnce(batch, runBatch);
      const wait = gapMs - (performance.now() - started);
      if (wait > 0 && pending.length > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    draining = false;
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      if (!draining) {
        draining = true;
        setImmediate(drain);
      }
    });
}
