import { describe, expect, it } from "vitest";
import { NOTHING_HELD, foregroundResponse, heldRequestsText, holdRequest, navigateResponse } from "./agentRequests";

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

describe("requests held by focus mode", () => {
  it("say nothing when nothing was held", () => {
    expect(heldRequestsText(NOTHING_HELD)).toBeNull();
  });

  it("count every request and keep the newest place to go", () => {
    const once = holdRequest(NOTHING_HELD, "/sessions/a");
    expect(heldRequestsText(once)).toBe("While you focused, an agent asked for you.");
    const twice = holdRequest(once, "/sessions/b");
    const thrice = holdRequest(twice, null);
    expect(thrice).toEqual({ count: 3, path: "/sessions/b" });
    expect(heldRequestsText(thrice)).toBe("While you focused, agents asked for you 3 times.");
  });
});
