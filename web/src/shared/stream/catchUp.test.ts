import { describe, expect, it } from "vitest";
import { createCatchUp } from "./catchUp";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const settled = () => new Promise((r) => setTimeout(r, 0));

describe("catch-up reads", () => {
  it("hands over the events heard during the read, and only those", async () => {
    const catchUp = createCatchUp<string>();
    catchUp.heard("before");
    const reply = deferred<string[]>();
    const answers: [string[], readonly string[]][] = [];
    catchUp.read(
      reply.promise,
      (value, missed) => answers.push([value, missed]),
      () => undefined,
    );
    catchUp.heard("during");
    reply.resolve(["listed"]);
    await settled();
    catchUp.heard("after");
    expect(answers).toEqual([[["listed"], ["during"]]]);
  });

  it("drops the answer and the failure of a read a later one superseded", async () => {
    const catchUp = createCatchUp<string>();
    const first = deferred<string>();
    const second = deferred<string>();
    const third = deferred<string>();
    const seen: string[] = [];
    const onError = (e: unknown) => seen.push(`error ${String(e)}`);
    catchUp.read(first.promise, (v) => seen.push(v), onError);
    catchUp.read(second.promise, (v) => seen.push(v), onError);
    expect(catchUp.generation()).toBe(2);
    first.resolve("first");
    second.resolve("second");
    await settled();
    catchUp.read(third.promise, (v) => seen.push(v), onError);
    catchUp.read(deferred<string>().promise, (v) => seen.push(v), onError);
    third.reject("third");
    await settled();
    expect(seen).toEqual(["second"]);
  });

  it("passes on the latest read's failure", async () => {
    const catchUp = createCatchUp<string>();
    const reply = deferred<string>();
    const errors: unknown[] = [];
    catchUp.read(
      reply.promise,
      () => undefined,
      (e) => errors.push(e),
    );
    reply.reject("down");
    await settled();
    expect(errors).toEqual(["down"]);
  });
});
