/** The request target as the service reads it, shared by the routes and the request log. */

export interface RequestTarget {
  readonly path: string;
  /** Exactly as received, without the `?`. */
  readonly rawQuery: string;
}

export type DecodedQuery =
  | {
      readonly ok: true;
      readonly values: Readonly<Record<string, string>>;
      readonly repeated: readonly string[];
    }
  | { readonly ok: false; readonly parameter: string; readonly problem: string };

export function splitTarget(target: string): RequestTarget {
  const queryStart = target.indexOf('?');
  return {
    path: queryStart === -1 ? target : target.slice(0, queryStart),
    rawQuery: queryStart === -1 ? '' : target.slice(queryStart + 1),
  };
}

/**
 * Percent-decodes a query string the way the service does: `+` stays a plus sign (the spec asks
 * for `%20`), so a client that form-encodes spaces asks for a different, unknown name.
 */
export function decodeQuery(rawQuery: string): DecodedQuery {
  const values: Record<string, string> = {};
  const repeated: string[] = [];
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? '' : pair.slice(equals + 1);
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName);
    } catch {
      return {
        ok: false,
        parameter: rawName,
        problem: `Malformed percent-encoding in a parameter name: ${rawName}`,
      };
    }
    try {
      value = decodeURIComponent(rawValue);
    } catch {
      return {
        ok: false,
        parameter: name,
        problem: `Malformed percent-encoding in parameter ${name}: ${rawValue}`,
      };
    }
    if (Object.hasOwn(values, name)) repeated.push(name);
    values[name] = value;
  }
  return { ok: true, values, repeated };
}
