import { readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

/**
 * `npm install` on our documented Node floor must not warn: a package whose `engines` leave the
 * floor out may use APIs that floor lacks (cookie 2 and content-disposition 3 want Node 22; the
 * overrides in package.json keep their Node 20 releases where our dependencies accept them).
 */
const root = join(import.meta.dirname, "../../..");
const read = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8"));

describe("the install on our Node floor", () => {
  it("every locked package accepts the Node version package.json promises", () => {
    const floor = semver.minVersion(read("package.json").engines.node)?.version as string;
    expect(floor).toMatch(/^20\./);
    const packages = read("package-lock.json").packages as Record<string, { engines?: { node?: string } | string[] }>;
    const refusing = Object.entries(packages)
      .filter(([, pkg]) => typeof pkg.engines === "object" && !Array.isArray(pkg.engines) && pkg.engines.node)
      .filter(([, pkg]) => !semver.satisfies(floor, (pkg.engines as { node: string }).node, { includePrerelease: true }))
      .map(([path, pkg]) => `${path} wants node ${(pkg.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
