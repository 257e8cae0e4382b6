/**
 * Turns a function over many items into a function over one item: calls made in the same turn of the
 * event loop are collected and run together once, at the end of the turn. Each caller gets its own result.
 */
export function perTick<T, R>(runBatch: (items: T[]) => R[] | Promise<R[]>): (item: T) => Promise<R> {
  let pending: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    try {
      const results = await runBatch(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i]!));
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ item, resolve, reject });
    });
}
