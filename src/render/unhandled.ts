/**
 * Ends an exhaustive switch over a union (error codes, channel problems, parse error reasons).
 * It compiles only while every case is handled, so a new member without words fails the type
 * check. At run time a value the union does not know (a stored code from a newer version) gets
 * `fallback`.
 */
export function unhandled<T>(value: never, fallback: T): T {
  void value;
  return fallback;
}
