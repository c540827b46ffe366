import { describe, expect, it } from "vitest";
import { foregroundResponse, navigateResponse } from "./agentRequests";

describe("navigate events", () => {
  it("go at once when the server allowed it", () => {
    expect(navigateResponse({ path: "/inbox", direct: true, from: "A script", sessionId: null })).toEqual({
      kind: "go",
      path: "/inbox",
    });
  });

  it("otherwise offer a click-to-go toast naming who asks", () => {
    expect(
      navigateResponse({ path: "/sessions/abc", direct: false, from: "Session Fix the build", sessionId: "s1" }),
    ).toEqual({ kind: "offer", text: "Session Fix the build asks to open /sessions/abc", path: "/sessions/abc" });
  });
});

describe("foreground events", () => {
  const event = { reason: "The build is done.", from: "Session Fix", sessionId: "s 1" };

  it("become a system notification opening the session once notifications are allowed", () => {
    expect(foregroundResponse(event, "granted")).toEqual({
      kind: "notify",
      title: "Session Fix asks for your attention",
      body: "The build is done.",
      path: "/sessions/s%201",
    });
  });

  it("fall back to a toast, offering to allow notifications only while the browser may still ask", () => {
    expect(foregroundResponse(event, "default")).toEqual({
      kind: "toast",
      text: "Session Fix asks for your attention: The build is done.",
      path: "/sessions/s%201",
      askPermission: true,
    });
    expect(foregroundResponse({ ...event, sessionId: null }, "denied")).toMatchObject({
      kind: "toast",
      path: null,
      askPermission: false,
    });
    expect(foregroundResponse(event, "unsupported")).toMatchObject({ kind: "toast", askPermission: false });
  });
});
