/**
 * The one place the web app talks to the server: every call goes to the UI
 * server's `/api`, authenticated by the session cookie, and every failure
 * becomes an `ApiError` carrying the contract's code and message so pages can
 * show it instead of swallowing it.
 */

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The request field a 400 is about (`error.field`), when the server names one. */
  readonly field: string | undefined;

  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.field = field;
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

/** Like `apiFetch`, but also returns the status and headers (ETag, …). */
export async function apiRequest<T>(path: string, request: ApiRequest = {}): Promise<ApiReply<T>> {
  const headers: Record<string, string> = { ...request.headers };
  let body: string | undefined;
  if (request.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(request.body);
  }
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method: request.method ?? "GET",
      headers,
      body,
      credentials: "same-origin",
      signal: request.signal,
      ...(request.priority ? { priority: request.priority } : {}),
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(0, "network_error", "Switchboard could not be reached. Is `switchboard serve` running?");
  }
  if (response.status === 204 || response.status === 304) {
    return { data: undefined as T, status: response.status, headers: response.headers };
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ApiError(
        response.status,
        "invalid_reply",
        `The server answered ${response.status} with a body that is not JSON.`,
      );
    }
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string; field?: string } } | undefined)?.error;
    throw new ApiError(
      response.status,
      error?.code ?? "http_error",
      error?.message ?? `The server answered ${response.status}.`,
      typeof error?.field === "string" ? error.field : undefined,
    );
  }
  return { data: parsed as T, status: response.status, headers: response.headers };
}

/** Calls `/api<path>` and returns the parsed JSON body (undefined on 204). */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  return (await apiRequest<T>(path, request)).data;
}
