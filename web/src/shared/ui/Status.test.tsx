import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { ApiError } from "../api/client";
import { ErrorNote } from "./Status";

test("a missing thing gets a way back, not a retry that could only fail again", () => {
  const html = renderToStaticMarkup(
    <ErrorNote error={new ApiError(404, "not_found", "No session with that id.")} onRetry={() => undefined} />,
  );
  expect(html).toContain("No session with that id.");
  expect(html).toContain('href="/"');
  expect(html).not.toContain("Try again");
});

test("any other failure can be tried again", () => {
  const html = renderToStaticMarkup(
    <ErrorNote error={new ApiError(503, "unavailable", "The server is busy.")} onRetry={() => undefined} />,
  );
  expect(html).toContain("Try again");
  expect(html).not.toContain('href="/"');
});
