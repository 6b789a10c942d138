import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { countStatements, statementsOf } from "./statements.js";

beforeAll(() => countStatements());

describe("the statement counter", () => {
  it("counts a query that waited for a pool client, though another context released the client", async () => {
    const pool = new pg.Pool({ connectionString: inject("pgServerUrl"), max: 1 });
    try {
      const held = await pool.connect(); // outside the counted work
      const counted = statementsOf(() => pool.query({ name: "counted_probe", text: "select 1 as one" }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      held.release(); // the waiting query now runs from this context
      const { result, statements } = await counted;
      expect(result.rows).toEqual([{ one: 1 }]);
      expect(statements).toEqual(["counted_probe"]);
    } finally {
      await pool.end();
    }
  });
});
