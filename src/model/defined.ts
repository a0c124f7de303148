/**
 * The properties of `props` whose value is not `undefined`. Options objects are built with
 * `exactOptionalPropertyTypes`, where a key set to `undefined` is not the same as a missing key:
 * spreading `...defined({ zone })` passes `zone` on only when there is one.
 */
export function defined<T extends object>(props: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const present: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) if (value !== undefined) present[key] = value;
  return present as { [K in keyof T]?: Exclude<T[K], undefined> };
}
