import path from "node:path";
import { experimental_getRunnerTask as runnerTask, type Reporter, type TestModule } from "vitest/node";

/** How many of the slowest tests are listed at the end of a run. */
const LISTED = 10;

/**
 * Prints the ten slowest tests at the end of a run, with the share of its timeout each one used, and names
 * every test that needed more than half of its timeout: such a test fails on a loaded machine, so its work
 * must shrink (or its clock become an input) before it does. A warning, not a failure: timings are noisy.
 */
export default class SlowestTests implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const tests = testModules.flatMap((module) =>
      [...module.children.allTests()].flatMap((test) => {
        const duration = test.diagnostic()?.duration;
        if (duration === undefined) return [];
        const name = `[${test.project.name}] ${path.relative(process.cwd(), module.moduleId)} › ${test.fullName}`;
        return [{ name: name.replace(/( > )+/g, " › "), duration, timeout: runnerTask(test).timeout }];
      }),
    );
    if (tests.length === 0) return;
    const line = (t: (typeof tests)[number]) =>
      `${(t.duration / 1000).toFixed(1).padStart(6)} s  ${`${Math.round((100 * t.duration) / t.timeout)} %`.padStart(5)} of ${t.timeout / 1000} s  ${t.name}`;
    const slowest = [...tests].sort((a, b) => b.duration - a.duration).slice(0, LISTED);
    console.log(`\nThe ${slowest.length} slowest tests (duration, share of the test's timeout):\n${slowest.map(line).join("\n")}`);
    const overHalf = tests.filter((t) => t.timeout > 0 && t.duration > t.timeout / 2);
    if (overHalf.length > 0) {
      console.log(`\nOver half their timeout (they will fail on a busy machine; make their work smaller):\n${overHalf.map(line).join("\n")}`);
    }
  }
}
