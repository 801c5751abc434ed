/**
 * Wraps a Prisma driver adapter factory so every connection it opens (through `connect`, and any other opening
 * method named) passes through `wrap` before Prisma gets it: the busy retries, the bound-parameter guard and
 * SQLite's page cache each take a connection this way.
 */
export function wrapConnections<F extends object, C extends object>(
  factory: F,
  wrap: (connection: C) => C | Promise<C>,
  openers: readonly string[] = ["connect"],
): F {
  return new Proxy(factory, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof property === "string" && openers.includes(property)) {
        return async (...args: unknown[]) => wrap(await (value as (...a: unknown[]) => Promise<C>).apply(target, args));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
