/**
 * The one place the web app talks to the server: every call goes to the UI
 * server's `/api`, authenticated by the session cookie, and every failure
 * becomes an `ApiError` carrying the contract's code and message so pages can
 * show it instead of swallowing it.
 */
import type { FieldMessage } from "./types.generated";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The request field a 400 is about (`error.field`), when the server names one. */
  readonly field: string | undefined;
  /** Every bad field of a 400 (`error.fields`), when a form's check found several. */
  readonly fields: readonly FieldMessage[];

  constructor(status: number, code: string, message: string, field?: string, fields: readonly FieldMessage[] = []) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.field = field;
    this.fields = fields;
  }
}

export interface ApiRequest {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Bulk reads go `low`: the browser opens six connections per origin, and requests waiting
   * for one are served by priority, so the page's own (its code, its small reads) pass them.
   */
  priority?: RequestPriority;
}

export interface ApiReply<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** Sends the request; a network failure is the ApiError every caller shows. */
async function send(path: string, request: ApiRequest): Promise<Response> {
  const headers: Record<string, string> = { ...request.headers };
  let body: string | undefined;
  if (request.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(request.body);
  }
  try {
    return await fetch(`/api${path}`, {
      method: request.method ?? "GET",
      headers,
      body,
      credentials: "same-origin",
      signal: request.signal,
      priority: request.priority,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(0, "network_error", "Switchboard could not be reached. Is `switchboard serve` running?");
  }
}

/** The well-formed `{field, message}` entries of a reply's `error.fields`. */
function fieldMessages(fields: unknown): FieldMessage[] {
  if (!Array.isArray(fields)) return [];
  return fields.filter(
    (f): f is FieldMessage =>
      typeof (f as FieldMessage | null)?.field === "string" && typeof (f as FieldMessage).message === "string",
  );
}

/** A reply that is not 2xx, as its ApiError: the contract's error body when it has one. */
function replyError(status: number, parsed: unknown): ApiError {
  const error = (
    parsed as { error?: { code?: string; message?: string; field?: string; fields?: unknown } } | undefined
  )?.error;
  return new ApiError(
    status,
    error?.code ?? "http_error",
    error?.message ?? `The server answered ${status}.`,
    typeof error?.field === "string" ? error.field : undefined,
    fieldMessages(error?.fields),
  );
}

function parseReply(status: number, text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(status, "invalid_reply", `The server answered ${status} with a body that is not JSON.`);
  }
}

/** Like `apiFetch`, but also returns the status and headers (ETag, …). */
export async function apiRequest<T>(path: string, request: ApiRequest = {}): Promise<ApiReply<T>> {
  const response = await send(path, request);
  if (response.status === 204 || response.status === 304) {
    return { data: undefined as T, status: response.status, headers: response.headers };
  }
  const parsed = parseReply(response.status, await response.text());
  if (!response.ok) throw replyError(response.status, parsed);
  return { data: parsed as T, status: response.status, headers: response.headers };
}

/**
 * Calls `/api<path>` and returns the reply unread, for a body to be read as it arrives; a reply
 * that is not 2xx is thrown as its ApiError.
 */
export async function apiStream(path: string, request: ApiRequest = {}): Promise<Response> {
  const response = await send(path, request);
  if (!response.ok) throw replyError(response.status, parseReply(response.status, await response.text()));
  return response;
}

/** Calls `/api<path>` and returns the parsed JSON body (undefined on 204). */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  return (await apiRequest<T>(path, request)).data;
}
