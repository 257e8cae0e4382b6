import { describe, expect, it } from "vitest";
import { andThen, recovering, type Maybe } from "./maybe.ts";

const later = <T>(value: T): Promise<T> => new Promise((resolve) => setImmediate(() => resolve(value)));

describe("andThen", () => {
  it("runs the next stage at once on a value, and when it comes on a promise", async () => {
    const now = andThen(2, (n) => n * 10);
    expect(now).toBe(20);
    const soon = andThen(later(2), (n) => andThen(n + 1, (m) => m * 10));
    expect(soon).toBeInstanceOf(Promise);
    expect(await soon).toBe(30);
  });

  it("lets a stage throw at once, or reject later", async () => {
    expect(() => andThen(1, () => {
      throw new Error("now");
    })).toThrow("now");
    await expect(andThen(later(1), () => Promise.reject(new Error("later")))).rejects.toThrow("later");
  });
});

it("takes any thenable as still to come, not as a value", async () => {
  const thenable: PromiseLike<number> = { then: (resolve, reject) => later(5).then(resolve, reject) };
  expect(await andThen(thenable as unknown as Promise<number>, (n) => n + 1)).toBe(6);
  const failing: PromiseLike<string> = { then: (_resolve, reject) => Promise.reject(new Error("no")).then(undefined, reject) };
  expect(await recovering(() => failing as unknown as Promise<string>, () => "recovered")).toBe("recovered");
});

describe("recovering", () => {
  const recover = (error: unknown): Maybe<string> => `recovered from ${(error as Error).message}`;

  it("passes a value through, at once or later", async () => {
    expect(recovering(() => "fine", recover)).toBe("fine");
    expect(await recovering(() => later("fine later"), recover)).toBe("fine later");
  });

  it("recovers from a throw at once, and from a rejection when it comes", async () => {
    expect(
      recovering(() => {
        throw new Error("a throw");
      }, recover),
    ).toBe("recovered from a throw");
    expect(await recovering(() => Promise.reject(new Error("a rejection")), recover)).toBe("recovered from a rejection");
  });
});

it("the module is no thenable: importing it gives the module (an export named `then` would be called by import())", async () => {
  const module = await import("./maybe.ts");
  expect(typeof module.andThen).toBe("function");
});
