/**
 * What `/mcp` takes in one body, checked before the SDK sees it: one JSON-RPC 2.0 message, and
 * for a tool call a tool's name with its arguments as an object. Every refusal says in words what
 * to send instead, so a person setting a client up can act on it without reading a schema dump.
 *
 * Batches are refused. The protocol versions this server announces (2025-11-25 to `initialize`,
 * 2026-07-28 to `server/discover`) have none: 2025-06-18 removed them ("Remove support for
 * JSON-RPC batching", https://modelcontextprotocol.io/specification/2025-06-18/changelog), and
 * the official clients never send one. Served, a batch would let one request, and one Slack
 * signature, start a hundred tool calls.
 */

/** A JSON-RPC request id, or null when none can be read. */
export type RequestId = string | number | null;

/** Why a body is not served, and how the JSON-RPC error says so. */
export interface MessageProblem {
  readonly code: -32600 | -32602;
  readonly message: string;
  readonly id: RequestId;
  /**
   * True for an error in the request's own exchange (HTTP 200, its id), as the SDK answers a
   * request it read but cannot serve; false for a body that is no request at all (HTTP 400).
   */
  readonly inBand: boolean;
}

const notJsonRpc =
  'Invalid Request: the body is JSON but not a JSON-RPC 2.0 message ("jsonrpc": "2.0" with a method, or a response).';

/** A JSON-RPC message: a request, a notification or a response (never a batch). */
export function isJsonRpcMessage(message: unknown): boolean {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const fields = message as Record<string, unknown>;
  return (
    fields.jsonrpc === '2.0' &&
    (typeof fields.method === 'string' || 'result' in fields || 'error' in fields)
  );
}

/** A tool call: the one request that does work. */
export function isToolCall(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { method?: unknown }).method === 'tools/call'
  );
}

function idOf(message: object): RequestId {
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** What a value is, in words: `a string`, `an array`, `null`. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The words for a tool call whose `params` the SDK would refuse with a schema dump, if any. */
function toolCallProblem(params: unknown): string | undefined {
  if (!isRecord(params)) {
    return `Invalid params: a tools/call needs "params", an object with the tool's "name" and its "arguments"; "params" was ${kindOf(params)}.`;
  }
  if (typeof params.name !== 'string') {
    return `Invalid params: "name" must be the name of a tool as tools/list gives it, such as "top_influencers"; it was ${kindOf(params.name)}.`;
  }
  const args = params.arguments;
  if (args !== undefined && !isRecord(args)) {
    const hint =
      typeof args === 'string' ? ' (send the JSON object itself, not text holding it)' : '';
    return `Invalid params: "arguments" must be an object of the tool's inputs, such as {"databases": "#hcsm"}; it was ${kindOf(args)}${hint}.`;
  }
  return undefined;
}

/** Why `message` (parsed JSON) is not served; undefined when it goes on to the SDK. */
export function messageProblem(message: unknown): MessageProblem | undefined {
  if (Array.isArray(message)) {
    const words =
      message.length === 0
        ? 'Invalid Request: the body is an empty array; send one JSON-RPC message per request.'
        : `Invalid Request: the body is a batch of ${message.length} JSON-RPC messages, which this server does not take (MCP removed batching in 2025-06-18); send each message in a request of its own.`;
    return { code: -32600, message: words, id: null, inBand: false };
  }
  if (!isJsonRpcMessage(message)) {
    return { code: -32600, message: notJsonRpc, id: null, inBand: false };
  }
  const request = message as { params?: unknown };
  const problem = isToolCall(message) ? toolCallProblem(request.params) : undefined;
  return problem === undefined
    ? undefined
    : { code: -32602, message: problem, id: idOf(message as object), inBand: true };
}
