/** Turns anything a call can throw into the sentence a person should read. */
import { ApiError } from "./client";

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
