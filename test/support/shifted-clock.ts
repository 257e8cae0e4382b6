/**
 * Setup file of the `shifted-clock` Vitest project: the unit tests run again with the process's clock moved
 * years away from today (time still flows). A test that pins a clock and passes only because the code under
 * test also read the real clock (and today happened to be the pinned day) fails here; so does one that passes
 * only on some dates.
 */
export const SHIFTED_NOW = Date.parse("2031-06-17T09:41:00Z");

const RealDate = Date;
const offset = SHIFTED_NOW - RealDate.now();

class ShiftedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...(args as ConstructorParameters<typeof Date>));
  }

  static override now(): number {
    return RealDate.now() + offset;
  }
}

globalThis.Date = ShiftedDate as DateConstructor;
