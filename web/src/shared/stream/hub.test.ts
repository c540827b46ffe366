import { describe, expect, it } from "vitest";
import { createEventHub, type EventSourceLike } from "./hub";

class FakeSource implements EventSourceLike {
  listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  readyState = 0;
  addEventListener(name: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(name: string, data: string) {
    for (const listener of this.listeners.get(name) ?? []) listener({ data } as MessageEvent<string>);
  }
}

function hubWithFakes() {
  const opened: FakeSource[] = [];
  const hub = createEventHub(() => {
    const source = new FakeSource();
    opened.push(source);
    return source;
  });
  return { hub, opened };
}

describe("event hub", () => {
  it("shares one connection between listeners and hands each its event's parsed data", () => {
    const { hub, opened } = hubWithFakes();
    const sessions: unknown[] = [];
    const outputs: unknown[] = [];
    hub.on("session", (data) => sessions.push(data));
    hub.on("output", (data) => outputs.push(data));
    hub.on("session", (data) => sessions.push(data));
    expect(opened).toHaveLength(1);
    opened[0]!.emit("session", '{"id":"s1"}');
    opened[0]!.emit("output", '{"seq":3}');
    opened[0]!.emit("output", "not json");
    expect(sessions).toEqual([{ id: "s1" }, { id: "s1" }]);
    expect(outputs).toEqual([{ seq: 3 }]);
  });

  it("ignores events nobody listens to and tells reset listeners to refetch", () => {
    const { hub, opened } = hubWithFakes();
    let resets = 0;
    hub.onLifecycle("reset", () => resets++);
    hub.on("session", () => {});
    opened[0]!.emit("alarm", "{}");
    opened[0]!.emit("reset", "{}");
    expect(resets).toBe(1);
  });

  it("closes the connection when the last listener leaves and opens a new one for the next", () => {
    const { hub, opened } = hubWithFakes();
    const seen: unknown[] = [];
    const off = hub.on("board", (data) => seen.push(data));
    off();
    expect(opened[0]!.closed).toBe(true);
    hub.on("board", (data) => seen.push(data));
    expect(opened).toHaveLength(2);
    opened[1]!.emit("board", '{"boardId":"b"}');
    expect(seen).toEqual([{ boardId: "b" }]);
  });

  it("says how the connection stands: connecting, live, reconnecting after a drop, closed when the browser gives up", () => {
    const { hub, opened } = hubWithFakes();
    const seen: string[] = [];
    hub.onConnection((connection) => seen.push(connection));
    expect(hub.connection()).toBe("connecting");
    // Watching alone opens nothing.
    expect(opened).toHaveLength(0);
    const off = hub.on("session", () => {});
    const source = opened[0]!;
    source.readyState = 1;
    source.onopen?.(new Event("open"));
    source.readyState = 0;
    source.onerror?.(new Event("error"));
    source.readyState = 1;
    source.onopen?.(new Event("open"));
    source.readyState = 2;
    source.onerror?.(new Event("error"));
    expect(seen).toEqual(["live", "reconnecting", "live", "closed"]);
    off();
    expect(hub.connection()).toBe("connecting");
  });

  it("opens a new connection a while after the browser gave one up", async () => {
    const opened: FakeSource[] = [];
    const hub = createEventHub(() => {
      const source = new FakeSource();
      opened.push(source);
      return source;
    }, 1);
    hub.on("session", () => {});
    opened[0]!.readyState = 2;
    opened[0]!.onerror?.(new Event("error"));
    expect(hub.connection()).toBe("closed");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(opened).toHaveLength(2);
    opened[1]!.readyState = 1;
    opened[1]!.onopen?.(new Event("open"));
    expect(hub.connection()).toBe("live");
  });
});
